"""Adversarial small rules for the compiler's statements written in place of expressions
(StatementGen.value_lines, list_loop, cond_loop, total_loop, best_loop, first_loop, bool_lines,
match_lines, def_lines; the else-if under an `else:`; RuleGen's while head, options loop, START_FIRST;
ExprGen's named parts, truth tables, hoisted rows, counts compared first).

Each rules text is compiled with every switch on and with every switch off, and its whole tree of
decisions (up to a bound) is walked both ways: at each step the chooser, the option ids and labels,
the narration, the variables, the heuristic, and at the end the result must be the same; and a rule
that fails must fail with the same sentence at the same `file:line:col` (and with the same chain of
rules). Where a concrete value is known it is checked too, so that a test cannot pass with both ways
equally wrong.
"""
from __future__ import annotations

import textwrap

import pytest

from rulecraft.compile.expressions import ExprGen
from rulecraft.compile.rules import RuleGen
from rulecraft.compile.statements import StatementGen
from rulecraft.engine import machine
from rulecraft.engine.observe import render
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError

SWITCHES = ((StatementGen, "LOOPS"), (RuleGen, "START_FIRST"), (ExprGen, "TRUTH_TABLES"),
            (ExprGen, "HOIST_TABLES"), (ExprGen, "HOIST_ROWS"), (ExprGen, "COUNTS_FIRST"))
BUDGET = 20_000         # a rule that loops for ever fails soon


def compiled(path, monkeypatch, on: bool):
    with monkeypatch.context() as patch:
        for cls, name in SWITCHES:
            patch.setattr(cls, name, on)
        return load_file(path)


def _failure(e) -> tuple:
    return ("fails", str(e))        # the sentence, `file:line:col` and the chain of rules


def _seen(m, sink) -> tuple:
    said = [render(line[2], None) for line in sink]
    sink.clear()
    if m.result is not None:
        return ("end", said, m.result, repr(m.vars))
    try:
        labels = [o.label for o in machine.legal_options(m)]
    except RulesRuntimeError as e:
        labels = _failure(e)
    hints = None
    if m.program.heuristic is not None:
        hints = []
        for seat in range(m.n):
            try:
                hints.append(m.program.heuristic(m, seat))
            except Exception as e:      # noqa: BLE001 - compared both ways, whatever it is
                hints.append((type(e).__name__, str(e)))
    return ("ask", said, m.pending[1], machine.legal_ids(m), labels, repr(m.vars), hints)


def paths(program, players: int = 2, seed: int = 0, nodes: int = 300, depth: int = 12) -> list:
    """Every course of decisions from the start (at most `nodes` positions, `depth` decisions deep):
    what is seen after each decision, or how it failed."""
    sink = []
    saved = machine.run.__defaults__
    machine.run.__defaults__ = (BUDGET,)
    try:
        try:
            m = machine.new_game(program, players, None, seed, sink=sink)
        except RulesRuntimeError as e:
            return [[_failure(e), [render(line[2], None) for line in sink]]]
        out, todo, seen = [], [(m, [_seen(m, sink)])], 0
        while todo and seen < nodes:
            m, path = todo.pop()
            seen += 1
            if m.result is not None or len(path) > depth:
                out.append(path)
                continue
            for i in machine.legal_ids(m):
                after = m.copy()
                after.sink = sink = []
                try:
                    machine.decide(after, i, BUDGET)
                except RulesRuntimeError as e:
                    out.append(path + [(i, _failure(e), [render(line[2], None) for line in sink])])
                else:
                    todo.append((after, path + [(i, _seen(after, sink))]))
        return out + [path for _m, path in todo]
    finally:
        machine.run.__defaults__ = saved


def both_ways(rules_file, monkeypatch, text: str, players: int = 2, seeds=(0, 1)) -> list:
    """The paths of the game compiled with the switches on, checked equal to those with them off."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = rules_file(text)
    on, off = compiled(path, monkeypatch, True), compiled(path, monkeypatch, False)
    first = None
    for seed in seeds:
        got, want = paths(on, players, seed), paths(off, players, seed)
        for a, b in zip(got, want):
            assert a == b
        assert len(got) == len(want)
        first = got if first is None else first
    return first


def failures(found) -> list:
    """The failures met along the paths, each once."""
    out = []
    for path in found:
        for step in path:
            for part in (step if isinstance(step, tuple) else (step,)):
                if isinstance(part, tuple) and part[:1] == ("fails",) and part[1] not in out:
                    out.append(part[1])
    return out


def said(found) -> list:
    """Everything said along the paths, in order."""
    out = []
    for path in found:
        for step in path:
            seen = step[1] if isinstance(step, tuple) and len(step) == 2 and isinstance(step[0], int) else step
            if isinstance(seen, tuple) and seen[:1] in (("ask",), ("end",)):
                out += seen[1]
    return out


HEAD = '''game "Corners"
players 2
enum Colour: Red, Blue, Green
card Chip(colour: Colour, n: 0..5) named "{colour} {n}"
card Token(w: 1..3) named "token {w}"
cards chips = [Chip(k, n) for k in Colour for n in 1..3]
cards tokens = [Token(1), Token(2)]
zone heap of Chip
zone box of Card
zone hand of Chip per player, seen by owner
zone nothing of Chip
var total: Int = 0
var got: Int per player
def as_chip(c: Card): Chip = c
rule setup:
    move chips to heap
'''
LINE = HEAD.count("\n") + 1      # the line of the first line after HEAD


# ------------------------------------------------------------------ where a failure is reported
# A condition computed by lines of its own (a loop) failed on the column of the part computed
# there (`any(` …), not on that of the line that tested it before: the `while`, the `let`, the `if`.
WHERE = {
    "while": ('''    while total < 3 and any(top(p.hand).n > k for p in players):
        total += 1
''', 9),
    "while waiting": ('''    while any(top(p.hand).n > k for p in players):
        player(2) chooses j in 0..1 as "j {j}":
            total += 1
''', 9),
    "if and": ('''    if k >= 0 and any(top(p.hand).n > k for p in players):
        total += 1
''', 12),
    "else if and": ('''    if k > 5:
        total += 1
    else if k < 5 and all(top(p.hand).n > k for p in players):
        total += 2
''', 17),
    "let": ('''    let a = any(top(p.hand).n > k for p in players)
''', 9),
    "let or": ('''    let a = (k > 3 or all(top(p.hand).n > 0 for p in players)) and not (k == 1)
''', 9),
    "let if": ('''    let a = if any(top(p.hand).n > k for p in players) then [c for c in heap] else []
''', 9),
}


@pytest.mark.parametrize("case", sorted(WHERE))
def test_a_condition_written_as_a_loop_fails_on_the_line_it_did(case, rules_file, monkeypatch):
    body, column = WHERE[case]
    text = HEAD + 'rule play:\n    player(1) chooses k in 0..1 as "k {k}":\n' + textwrap.indent(body, "    ")
    line = LINE + 2 + (2 if case == "else if and" else 0)
    found = failures(both_ways(rules_file, monkeypatch, text))
    assert found and all(f":{line}:{column}: runtime error: top of an empty zone (hand of player 1)" in f for f in found), found


# ------------------------------------------------------------------ a row read before a loop
# A table's row read once before a loop of statements (ExprGen.hoisted) was read even where the
# local indexing it is an optional one that the loop's test says is not none: with none, a Python
# TypeError ("internal error in rulecraft") where the comprehension gave the cards of its colour.
NARROWED = HEAD + '''var chosen: Chip?
def same(x: Chip?): Int = count(x != none and x.colour == c.colour for c in heap)
rule play:
    player(1) chooses k in 0..1 as "k {k}":
        if k == 1:
            chosen = top(heap)
        let x = chosen
        let ys = [c for c in heap if x != none and x.colour == c.colour]
        let a = any(x != none and x.n == c.n for c in heap)
        say "{ys} {same(chosen)} {a}"
        player(2) may choose c in heap where x != none and x.colour == c.colour as "c {c}":
            say "{c}"
'''


def test_a_row_read_before_a_loop_waits_for_its_optional_local(rules_file, monkeypatch):
    found = both_ways(rules_file, monkeypatch, NARROWED)
    assert not failures(found)
    assert {"nothing 0 no", "Green 1, Green 2, Green 3 3 yes"} <= set(said(found)), said(found)
