"""Adversarial small rules for rules written into their only caller (compile/inline.py) and the
functions entered at a block (RuleGen.entry_function, body_function).

Each rules text is compiled with every optimisation of compile.options made (inline, bodies, entries
and the loops' ones) and with none, and its tree of decisions is walked both ways
(tests/test_loops_adversarial.py's walker): options, labels, narration, variables, results and the
full text of every failure (its `file:line:col` and chain of rules) must be the same. Each case also
says which rules must be written in, so that a case cannot pass with nothing written in, and where
a concrete failure or value is known it is checked too.
"""
from __future__ import annotations

import functools
import random
import textwrap

import pytest

from rulecraft.compile.options import CompileOptions
from rulecraft.engine import machine, records
from rulecraft.engine.observe import render
from rulecraft.engine.scenarios import run_scenario
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError

import test_loops_adversarial as walker

def compiled(path, monkeypatch, on: bool):
    """The rules with every optimisation (compile.options) made, or none."""
    return load_file(path, options=CompileOptions.every(on))


def written_in(program) -> set:
    """The rules whose code is their caller's."""
    return {c.name for c in program.codes if c.entry.__qualname__.startswith("_written_in")}


def choices(program) -> list:
    return [(c.index, c.rule, str(c.span), c.may, c.offset, c.size) for c in program.choices]


def both_ways(rules_file, monkeypatch, text: str, players: int = 2, seeds=(0, 1)):
    """The paths with every switch on (checked equal to those with every switch off), and the two
    programs."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = rules_file(text)
    on, off = compiled(path, monkeypatch, True), compiled(path, monkeypatch, False)
    assert not written_in(off)
    assert choices(on) == choices(off)
    assert on.action_count == off.action_count and sorted(on.anytimes) == sorted(off.anytimes)
    first = None
    for seed in seeds:
        got, want = walker.paths(on, players, seed), walker.paths(off, players, seed)
        for a, b in zip(got, want):
            assert a == b
        assert len(got) == len(want)
        first = got if first is None else first
    return first, on, off


def failed(found) -> list:
    """Every failure met along the paths, each once: of a decision, and of the options' labels."""
    out = []

    def look(part):
        if isinstance(part, (tuple, list)):
            if part[:1] == ("fails",) and len(part) == 2 and isinstance(part[1], str):
                if part[1] not in out:
                    out.append(part[1])
            else:
                for x in part:
                    look(x)
    look(found)
    return out


HEAD = walker.HEAD
LINE = walker.LINE

def source(text: str) -> str:
    """HEAD and the case's rules (their own `rule setup:` instead of HEAD's, if they have one)."""
    return (HEAD.replace("rule setup:\n    move chips to heap\n", "") if "rule setup:" in text else HEAD) + text


LONG = "".join(f'        total += {i % 3}\n        say "line {i} {{total}}"\n' for i in range(90))

# name -> (rules after HEAD, the rules that must be written in, failures expected (each a part of one), players)
CASES = {
    # called in a loop of its caller: its lets and locals are fresh at each call
    "in a for": ('''rule play:
    for p in players:
        pick(p, size(p.hand))
    say "done {total}"
rule pick(p: Player, had: Int):
    let seen = had
    p chooses c in heap where c.n <= 2 as "take {c}":
        move c to p.hand
        let now = size(p.hand)
        total += now * 10 + seen
    say "{p} {seen} {had}"
''', {"pick"}, [], 2),
    "in a while": ('''rule play:
    while total < 40:
        step(total)
    say "end {total}"
rule step(t: Int):
    let before = t
    player(1) may choose k in 1..2 where k > t / 30 as "k {k}" or "skip":
        total += k * 10
        let after = total
        say "{before} -> {after}"
    else:
        total += 15
        say "skipped at {before}"
''', {"step"}, [], 2),
    "in a repeat with break": ('''rule play:
    repeat 3:
        once()
        if total > 2:
            break
    say "total {total}"
rule once():
    let k = total
    player(2) chooses j in 0..2 as "j {j}":
        total += j + k
''', {"once"}, [], 2),
    # three deep, each depth failing: the argument of a call, a label, an option's block, after a later wait
    "three deep": ('''rule play:
    player(1) chooses a in 0..3 as "a {a}":
        outer(a)
    say "end {total}"
rule outer(a: Int):
    middle(a, if a == 3 then top(nothing).n else a)
rule middle(a: Int, b: Int):
    player(2) chooses c in 0..2 as "c {c} {if a == 2 and c == 2 then top(nothing).n else c}":
        inner(a, c)
rule inner(a: Int, c: Int):
    if a == 1 and c == 1:
        move top(nothing) to box
    player(1) chooses d in 0..1 as "d {d}":
        total += d
    player(2) chooses e in 0..1 as "e {e}":
        if a == 0 and e == 1:
            total = total + top(nothing).n
''', {"outer", "middle", "inner"}, [
        f":{LINE + 5}:5: runtime error: top of an empty zone (nothing)\n  in rule 'outer' at ",
        f":{LINE + 7}:5: runtime error: the label of an option: top of an empty zone (nothing)\n  in rule 'middle' at ",
        f":{LINE + 11}:9: runtime error: top of an empty zone (nothing)\n  in rule 'inner' at ",
        f":{LINE + 8}:9\n  in rule 'outer' at ",
        f":{LINE + 16}:13: runtime error: top of an empty zone (nothing)\n  in rule 'inner' at "], 2),
    # a stop at each place it may stand: at the end of a branch of a top-level if, nested, with else-ifs
    "stops": ('''rule play:
    player(1) chooses a in 0..4 as "a {a}":
        ends(a)
        say "back {total}"
        tail(a)
rule ends(a: Int):
    if a == 0:
        say "zero"
        stop
    else if a == 1:
        if total == 0:
            say "nested"
            stop
        say "not reached"
        stop
    player(2) chooses b in 0..1 as "b {b}":
        total += b + a
    if a == 3:
        stop
    player(2) chooses c in 0..1 as "c {c}":
        total += c
rule tail(a: Int):
    player(1) chooses b in 0..1 as "tail {b}":
        total += b
    if a == 0:
        stop
    else if a == 1:
        total += 1
    say "tail {a} {total}"
''', {"ends", "tail"}, [], 2),
    # the rest after a `stop` written in two branches would write its choice twice (compiling it
    # failed with a KeyError in RuleGen.resumable): the rule stays apart
    "stop rest twice": ('''rule play:
    player(1) chooses a in 0..3 as "a {a}":
        ends(a)
        say "back {total}"
rule ends(a: Int):
    if a == 0:
        say "zero"
        stop
    else if a == 1:
        total += 1
    player(2) chooses b in 0..1 as "b {b}":
        total += b + a
''', set(), [], 2),
    # a stop inside a loop or an option's block: the rule stays apart, and still ends only itself
    "stop apart": ('''rule play:
    player(1) chooses a in 0..2 as "a {a}":
        kept(a)
        say "back {total}"
        inner(a)
rule kept(a: Int):
    for i in 0..2:
        if i == a:
            stop
        total += 1
    player(2) chooses b in 0..1 as "b {b}":
        if b == 1:
            stop
        total += 10
rule inner(a: Int):
    player(2) chooses b in 0..1 as "again {b}":
        total += b
''', {"inner"}, [], 2),
    # a generic rule instantiated twice: each instance has one caller
    "generic": ('''zone pot of Token
rule play:
    move tokens to pot
    give(heap, player(1))
    give(pot, player(2))
    say "end {total}"
rule give[C](z: Zone[C], p: Player):
    p chooses c in z as "give {c}":
        total += 1
        if total == 2:
            total += top(nothing).n
        say "gave {c}"
''', {"give[Chip]", "give[Token]"}, ["in rule 'give[Token]' at "], 2),
    # recursion: a rule calling itself, two rules calling each other; a single-caller rule below them
    "recursion": ('''rule play:
    down(2)
    ping(1)
rule down(k: Int):
    player(1) chooses j in 0..1 as "down {k} {j}":
        if k > 0:
            down(k - 1)
rule ping(k: Int):
    player(2) chooses j in 0..1 as "ping {k} {j}":
        if k > 0 and j == 1:
            pong(k - 1)
        leaf(k)
rule pong(k: Int):
    player(1) chooses j in 0..1 as "pong {k} {j}":
        ping(k)
rule leaf(k: Int):
    player(1) chooses j in 0..1 as "leaf {k} {j}":
        total += j
''', {"leaf"}, [], 2),
    # `may choose` with a pass and an else, written in; `pass` in a block
    "may choose": ('''rule play:
    for p in players:
        offer(p)
    say "end {total}"
rule offer(p: Player):
    p may choose c in heap where c.n == 1 as "take {c}" or "no thanks":
        move c to p.hand
        pass
    else:
        total += 5
        p may choose k in [true] as "sure" or "really not":
            total += 1
    say "{p} {total}"
''', {"offer"}, [], 2),
    # an `anytime` offered at a choice written into its caller: taking it returns to the same ask
    "anytime": ('''anytime bonus(p: Player) where total < 2 as "bonus":
    total += 1
rule play:
    for k in 1..2:
        ask(k)
    say "end {total}"
rule ask(k: Int):
    player(k) chooses c in heap where c.n == k as "pick {c}":
        move c to player(k).hand
        say "{c} {total}"
''', {"ask"}, [], 2),
    # a `when` handler that waits, and a rule with one caller that a handler calls
    "handler": ('''event poked(p: Player)
when poked(p: Player):
    p chooses k in 0..1 as "poked {k}":
        total += k
        answer(p)
rule answer(p: Player):
    p chooses k in 0..1 as "answer {k}":
        total += 10 * k
rule play:
    signal poked(player(1))
    signal poked(player(2))
    say "end {total}"
''', {"answer"}, [], 2),
    # loops in loops: the callee's own loops (their list and index slots moved) in the caller's, a
    # break in an option's block, a stop in a branch, called in a while that runs it again
    "loops in loops": ('''rule play:
    for p in players:
        while size(p.hand) < 2 and total < 30:
            gather(p, size(p.hand))
    say "end {total}"
rule gather(p: Player, had: Int):
    if had == 1 and total > 20:
        total += 100
        stop
    for k in 1..2:
        let seen = [c.n for c in p.hand]
        p may choose c in heap where c.n == k as "{k}: {c}" or "none {k}":
            move c to p.hand
            total += c.n * 10
            say "{seen}"
            break
        else:
            total += 1
    say "{p} gathered {total}"
''', {"gather"}, [], 2),
    # a signal in a rule written in whose handler does not wait; a handler with a where
    "signal apart": ('''event rang(n: Int)
when rang(n: Int) where n > 0:
    total += n
rule play:
    for k in 0..1:
        bell(k)
rule bell(k: Int):
    player(1) chooses j in 0..1 as "bell {k} {j}":
        signal rang(j + k)
    say "rang {total}"
''', {"bell"}, [], 2),
    # an `anytime` whose body waits, with a rule it calls once written into it
    "anytime waits": ('''anytime swap(p: Player) where total == 0 as "swap":
    total += 1
    swapped(p)
rule swapped(p: Player):
    p chooses c in heap where c.n == 3 as "swap for {c}":
        move c to p.hand
rule play:
    for k in 1..2:
        ask(k)
rule ask(k: Int):
    player(k) chooses c in heap where c.n == k as "pick {c}":
        move c to player(k).hand
''', {"ask", "swapped"}, [], 2),
    # a long rest after a choice in a loop: the option's function enters the rule's own function
    # instead of a loop of its own (RuleGen.BODY_LOOP_LINES)
    "long": ('''rule play:
    while total < 8:
        turn(total)
rule turn(t: Int):
    player(1) chooses k in 1..2 as "k {k} at {t}":
        total += k
''' + LONG, {"turn"}, [], 2),
    # failing in the `where` of a choice written in, and in its chooser; a rule `setup` calls once
    "fail where": ('''rule setup:
    move chips to heap
    prepare()
rule prepare():
    player(2) chooses c in heap where c.n == 3 as "prepare {c}":
        move c to box
rule play:
    player(1) chooses a in 0..2 as "a {a}":
        pickw(a)
rule pickw(a: Int):
    player(if a == 2 then top(nothing).n else 2) chooses d in 0..1 where a != 1 or top(nothing).n > d as "d {d}":
        total += d
''', {"prepare", "pickw"}, [
        # (the chooser's failure, for a 2, and the where's, for a 1, are both told at the choice)
        f":{LINE + 8}:5: runtime error: top of an empty zone (nothing)\n  in rule 'pickw' at "], 2),
    # an option's block (a function entered with the chosen value) that waits again and then reads
    # the value, in a loop; an anytime taken at the inner choice; calls kept apart (two sites) and a
    # handler that waits, in loops, their resume points reading the loop's locals
    "values kept": ('''event knock(k: Int)
when knock(k: Int):
    player(2) chooses j in 0..1 as "knock {k} {j}":
        total += j
anytime hint(p: Player) where total == 1 as "hint":
    total += 100
rule play:
    for p in players:
        let base = total
        twice(p)
        twice(p)
        signal knock(base)
        say "{p} {base} {total}"
        round(p, base)
rule twice(p: Player):
    p may choose k in 0..1 where k >= total / 200 as "twice {k}" or "no":
        total += k
rule round(p: Player, base: Int):
    repeat 2:
        p chooses a in 1..2 as "a {a}":
            let x = a * 10
            p chooses b in 0..2 where b <= a as "b {b} of {a}":
                total += x + b + base
            say "{a} {x}"
''', {"round"}, [], 2),
    # a callee apart (two sites) whose body is one `if` its caller tests before starting it
    # (StatementGen.entry_test), in a loop; an anytime at a choice in a branch a stop's rest was
    # written into; a choice of a pair
    "entry tested": ('''anytime nudge(p: Player) where total % 2 == 1 as "nudge":
    total += 1
rule play:
    for k in 0..2:
        maybe(k)
        maybe(k - 1)
        late(k)
rule maybe(k: Int):
    if k > 0:
        player(1) chooses j in 0..1 as "maybe {k} {j}":
            total += j
rule late(k: Int):
    if k == 1:
        say "late {k}"
        stop
    player(2) chooses j in 0..1 where j >= k / 3 as "late {k} {j}":
        total += j + k
''', {"late"}, [], 2),
    # a stop in an `if` inside a branch, not at its end: the rest (no choice in it) is written in
    # two branches, and fails in each; a rule whose such rest holds a choice stays apart
    "nested stop": ('''rule play:
    player(1) chooses a in 0..2 as "a {a}":
        player(2) chooses b in 0..1 as "b {b}":
            copied(a, b)
            apart(a, b)
rule copied(a: Int, b: Int):
    player(1) chooses c in 0..1 as "c {c}":
        total += c
    if a == 1:
        if b == 1:
            stop
        total += 10
    total += 100
    if total % 10 == 1 and b == 0:
        total += top(nothing).n
rule apart(a: Int, b: Int):
    if a == 2:
        if b == 0:
            stop
        total += 10
    player(1) chooses c in 0..1 as "apart {c}":
        total += c
''', {"copied"}, [f":{LINE + 14}:9: runtime error: top of an empty zone (nothing)\n  in rule 'copied' at "], 2),
    # rules apart (two sites) whose first block is a loop's head that asks: started by the function
    # entered at their start (S…), which goes round its own dispatch loop back to that head
    "loop at start": ('''rule play:
    spin(1)
    spin(2)
    turns(2)
    turns(0)
    say "end {total}"
rule spin(k: Int):
    while total < k * 3:
        player(1) chooses j in 1..2 as "spin {k} {j}":
            total += j
rule turns(k: Int):
    repeat k:
        player(2) may choose j in 1..2 as "turn {k} {j}" or "rest":
            total += j
        else:
            total += 10
''', set(), [], 2),
    # calls written into a pass's `else:` and into an option's block of the same choice, in a while
    "in an else": ('''rule play:
    while total < 20:
        player(1) may choose k in 1..2 as "go {k}" or "wait":
            chosen(k)
        else:
            waited(total)
    say "end {total}"
rule chosen(k: Int):
    player(2) chooses j in 0..1 as "chosen {k} {j}":
        total += k * 5 + j
rule waited(t: Int):
    if t > 10:
        total += top(nothing).n
    player(2) chooses j in 0..1 as "waited {t} {j}":
        total += 7 + j
''', {"chosen", "waited"}, [f":{LINE + 12}:9: runtime error: top of an empty zone (nothing)\n  in rule 'waited' at "], 2),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_rule_written_in_plays_as_apart(case, rules_file, monkeypatch):
    text, written, expected, players = CASES[case]
    found, on, _off = both_ways(rules_file, monkeypatch, source(text), players)
    assert written_in(on) == written
    fails = failed(found)
    for want in expected:
        assert any(want in f for f in fails), fails
    if not expected:
        assert not fails, fails


# ------------------------------------------------------------------ scenarios
SCENARIOS = HEAD + '''rule play:
    for k in 1..2:
        pick(k)
    say "end {total}"
rule pick(k: Int):
    let before = total
    player(k) may choose c in heap where c.n == k as "pick {c}" or "none":
        move c to player(k).hand
        total += c.n + before
    else:
        total += 100
    say "picked {total}"
rule lay(k: Int):
    player(1) chooses c in heap where c.n == k as "lay {c}":
        move c to box
        laid(c.n)
rule laid(n: Int):
    player(2) chooses j in 0..1 as "laid {j}":
        total += n * 10 + j
scenario checked "take with checks on a choice written into play":
    take "pick Red 1":
        expect total == 1
        expect size(player(1).hand) == 1
    take "none":
        expect total == 101
    expect over
scenario wrong "a check that does not hold, inside the written-in choice":
    take "pick Blue 1":
        expect total == 7
scenario arranged "a rule called from an arrange block only, and one it calls once":
    arrange:
        move chips to heap
        lay(2)
    take "lay Green 2"
    take "laid 1":
        expect total == 21
    take "pick Red 1"
    expect total == 43
'''


def test_scenarios_on_rules_written_in(rules_file, monkeypatch):
    """`take "…":` checks (the watched twin) on a choice written into `play`; a rule called from a
    scenario's `arrange:` block only stays apart, and the one it calls once is written into it."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = rules_file(SCENARIOS)
    got = {}
    for on in (True, False):
        # the scenarios and the watched twin are compiled when first read: with the same options
        program = load_file(path, options=CompileOptions.every(on))
        got[on] = (written_in(program), written_in(program.watched()), choices(program),
                   choices(program.watched()),
                   [(r.name, r.ok, r.message) for r in (run_scenario(program, sc) for sc in program.scenarios)])
    assert got[True][:2] == ({"pick", "laid"},) * 2 and got[False][:2] == (set(), set())
    assert got[True][2:] == got[False][2:]
    assert got[True][2] == got[True][3]
    assert [(name, ok) for name, ok, _message in got[True][4]] == [("checked", True), ("wrong", False), ("arranged", True)]
    assert "expectation not met" in got[True][4][1][2]


# ------------------------------------------------------------------ copied and saved mid-way
def _reloaded(m):
    text = records.dump(records.state_to_data(m))
    back = records.state_from_data(m.program, records._yaml().load(text), m.n, m.names)
    assert back.same_as(m)
    return back


def replayed(program, how, players: int = 2, seed: int = 0, nodes: int = 200) -> list:
    """Every course of decisions, each position reached through `how` (a copy, or a save and load)
    of the position before it: what is seen after each decision, or how it failed."""
    sink = []
    m = machine.new_game(program, players, None, seed, sink=sink)
    out, todo, seen = [], [(m, [walker._seen(m, sink)])], 0
    while todo and seen < nodes:
        m, path = todo.pop()
        seen += 1
        if m.result is not None:
            out.append(path)
            continue
        for i in machine.legal_ids(m):
            after = how(m)
            after.sink = sink = []
            try:
                machine.decide(after, i, walker.BUDGET)
            except RulesRuntimeError as e:
                out.append(path + [(i, walker._failure(e), [render(line[2], None) for line in sink])])
            else:
                todo.append((after, path + [(i, walker._seen(after, sink))]))
    return out + [path for _m, path in todo]


@pytest.mark.parametrize("case", ["in a for", "in a while", "three deep", "may choose", "anytime", "handler", "stops",
                                  "values kept", "loops in loops", "recursion", "anytime waits", "fail where"])
def test_a_rule_written_in_is_saved_and_copied_mid_way(case, rules_file, monkeypatch):
    """A state copied, or saved and loaded, while it waits inside a rule written into its caller
    (its locals in the caller's frame) plays on as the state it came from, both ways compiled."""
    text, written, _expected, players = CASES[case]
    found, on, off = both_ways(rules_file, monkeypatch, source(text), players, seeds=(0,))
    assert written_in(on) == written
    for program in (on, off):
        copied = replayed(program, lambda m: m.copy(), players)
        assert replayed(program, _reloaded, players) == copied
    assert replayed(on, _reloaded, players) == replayed(off, _reloaded, players)


@pytest.mark.parametrize("saved_on", [False, True])
def test_a_save_made_apart_is_played_on_written_in(saved_on, rules_file, monkeypatch):
    """A match saved while it waits inside a rule written into its caller is replayed by its
    decisions (option ids): compiled the other way, it is loaded and plays on the same."""
    import rulecraft
    import rulecraft.api

    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = rules_file(source(CASES["three deep"][0]).replace("top(nothing).n", "0"))

    def match_of(on, yaml=None):
        with monkeypatch.context() as patch:
            # the API loads the rules itself: here, with every optimisation made or none
            patch.setattr(rulecraft.api, "load_file", functools.partial(load_file, options=CompileOptions.every(on)))
            if yaml is not None:
                return rulecraft.match_from_yaml(yaml)
            return rulecraft.load(str(path)).new(seed=3)

    def steps(match, labels):
        out = []
        for label in labels:
            out.append([(a.id, a.label) for a in match.legal()])
            match.apply(label)
        return out + [match.scores, match.told(1), match.told(2)]

    match = match_of(saved_on)
    assert written_in(match.session.program) == ({"outer", "middle", "inner"} if saved_on else set())
    steps(match, ["a 0", "c 1 1", "d 1"])          # waiting at `e`, inside `inner`, inside `middle` ...
    loaded = match_of(not saved_on, match.to_yaml())
    rest = ["e 0"]
    assert steps(loaded, rest) == steps(match, rest)
    assert loaded.session.state.same_as(match.session.state, frames=False)


# ------------------------------------------------------------------ a variant's `original(...)`
def test_an_original_rule_written_into_its_override(rules_file, monkeypatch):
    """`override rule pick` calls `original(k)` once: the original (its key `pick@original1`) is
    written into the override, and its choice is still told as rule `pick`'s (it was told as
    `pick@original1`'s: ChoiceInfo.rule took the key of the rule written in, not its name)."""
    rules_file(HEAD + '''rule play:
    for k in 1..2:
        pick(k)
    say "end {total}"
rule pick(k: Int):
    player(k) chooses c in heap where c.n == k as "pick {c}":
        move c to player(k).hand
        total += c.n
        if total == 3:
            total += top(nothing).n
''', "base.rules")
    text = '''extends "base.rules"
game "Corners, announced"
override rule pick(k: Int):
    say "picking {k}"
    original(k)
    player(k) chooses j in 0..1 as "again {j}":
        total += j
'''
    found, on, off = both_ways(rules_file, monkeypatch, text)
    assert written_in(on) == {"pick", "pick@original1"}
    assert {c.rule for c in on.choices} == {"pick"}
    assert any("in rule 'pick' at " in f and "base.rules:" in f for f in failed(found)), failed(found)


# ------------------------------------------------------------------ random rules
PIECES = [
    'player(1) chooses j in 0..1 as "c{n} {{j}}":\n    total += j + k',
    'if k == {v}:\n    stop',
    'if total > {v}:\n    say "x{n}"\n    stop\nelse if k == 1:\n    total += 1',
    'let l{n} = total + k\nsay "l{n} {{l{n}}}"',
    'say "s{n} {{total}}"',
    'for i in 0..1:\n    player(2) may choose j in 0..1 as "f{n} {{i}} {{j}}" or "no{n}":\n        total += j\n    else:\n        break',
    'while total < {v}:\n    player(1) chooses j in 1..2 as "w{n} {{j}}":\n        total += j',
    'if total == {v}:\n    total += top(nothing).n',
    'player(2) may choose j in 0..1 where j >= k as "m{n} {{j}}" or "pass{n}":\n    total += 1\nelse:\n    total += 2',
    None,       # a call of a rule of its own (up to three deep), plain, in a loop or in an if
]


def random_rules(seed: int) -> str:
    rnd = random.Random(seed)
    rules = []

    def body(name, depth):
        out = []
        for n in range(rnd.randint(1, 4)):
            piece = rnd.choice(PIECES)
            if piece is None:
                if depth < 3:
                    around = rnd.choice(["", "for q in 0..1:\n    ", "if total < 5:\n    "])
                    out.append(f"{around}{name}x{n}(k + {rnd.randint(0, 1)})")
                    rules.append((f"{name}x{n}", body(f"{name}x{n}", depth + 1)))
            else:
                out.append(piece.format(n=f"{name}{n}", v=rnd.randint(0, 4)))
        return "\n".join(out or ['say "empty"'])
    first = body("r", 1)
    around = rnd.choice(["    r(0)\n", "    for k in 0..1:\n        r(k)\n",
                         "    while total < 6:\n        total += 1\n        r(total % 2)\n"])
    text = "rule play:\n" + around + "rule r(k: Int):\n" + textwrap.indent(first, "    ") + "\n"
    return text + "".join(f"rule {name}(k: Int):\n" + textwrap.indent(b, "    ") + "\n" for name, b in rules)


def test_random_rules_written_in_play_as_apart(rules_file, monkeypatch):
    """Rules made of random pieces (choices, stops, loops, failures, calls up to three deep) play
    the same with every switch on and off (200 seeds tried when this was written; 40 here)."""
    written = 0
    for seed in range(40):
        _found, on, _off = both_ways(rules_file, monkeypatch, source(random_rules(seed)), 2, seeds=(0,))
        written += bool(written_in(on))
    assert written >= 15
