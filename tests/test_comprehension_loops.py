"""Comprehensions a statement computes are loops of the rule's own function (LoopGen.list_loop,
cond_loop): a `let`'s value, a choice's options, `any`/`all` as an `if`'s or a `while`'s condition.

The loop must give what the comprehension gave, element by element, and stop where `any`/`all`
stops; were it to differ, a game would go wrong with no error. So every bundled game and example
is compiled both ways and random games are compared decision by decision (the options offered,
the chooser, the result); and small rules show the loops in the generated code and the early stop.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile import codegen
from rulecraft.compile.options import DEFAULT
from rulecraft.engine import machine
from rulecraft.loader import load, load_file
from rulecraft.runtime.helpers import CheckedNarration

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


def trace(program, players: int, seed: int) -> list:
    """A random game's course: at each decision the chooser and the options, then the result."""
    m = machine.new_game(program, players, None, seed)
    agent = random.Random(seed)
    out = []
    while m.result is None:
        ids = machine.legal_ids(m)
        out.append((m.pending[1], ids))
        machine.decide(m, ids[agent.randrange(len(ids))])
    return out + [m.result]


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_loops_play_the_games_comprehensions_play(ref, monkeypatch):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    with_loops = load(ref)
    without = load(ref, options=DEFAULT.with_(loops=False))
    for players in sorted({with_loops.min_players, with_loops.max_players}):
        for seed in range(4):
            assert trace(with_loops, players, seed) == trace(without, players, seed), (players, seed)


RULES = '''game "Loops"
players 2
card Stone(weight: 0..5) named "stone {weight}"
cards stones = [Stone(w) for w in 0..5]
zone heap of Stone
zone hand of Stone per player
var found: Int = 0
rule play:
    move stones to heap
    move Stone("stone 4") to player(1).hand
    let heavy = [s.weight for s in heap if s.weight > 2]
    found = sum(heavy)
    # player 2's hand is empty: `top` of it fails, but `any` has decided at player 1
    if any(top(p.hand).weight > 3 for p in players):
        found = found + 100
    while all(size(p.hand) < 3 for p in players):
        move top(heap) to player(2).hand
    player(1) chooses s in heap where s.weight != 1 as "take {s}":
        move s to player(1).hand
'''


def generated(path, options=DEFAULT) -> str:
    out = []
    original = codegen.Namespace.define

    def define(self, name, head, lines, label, span=None):
        out.append(head + "\n" + "".join("    " * ind + text + "\n" for ind, text, _ in lines))
        return original(self, name, head, lines, label, span)
    codegen.Namespace.define = define
    try:
        program = load_file(path, options=options)
    finally:
        codegen.Namespace.define = original
    return program, "".join(out)


def test_the_loops_are_in_the_code_and_stop_early(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = tmp_path / "loops.rules"
    path.write_text(RULES)
    # the rule's code in one function, to be read here
    program, source = generated(path, DEFAULT.with_(bodies=False, entries=False))
    play = source[source.index("def W"):]
    assert "any(" not in play and "all(" not in play and " for v" not in play.replace("    for v", "")
    assert play.count("break") == 3 and "_ids.append(" in play and "_t" in play    # any, all, and the while left
    m = machine.new_game(program, 2, None, 0)
    found = next(v.slot for v in program.vars if v.name == "found")
    assert m.vars[found] == 3 + 5 + 100
    # the while moved cards until player 2 held 3 (stones 5, 3, 2 from the top of the heap)
    labels = [o.label for o in machine.legal_options(m)]
    assert labels == ["take stone 0"], labels


BEST = '''game "Best"
players 2
enum Colour: Red, Blue, Green, White
card Stone(colour: Colour, weight: 0..5) named "{colour} {weight}"
cards stones = [Stone(Red, 3), Stone(Blue, 5), Stone(Green, 5), Stone(White, 1), Stone(Red, 1)]
zone heap of Stone
def heaviest(xs: List[Stone]): Stone =
    let big = [s for s in xs if s.weight > 2]
    let pool = if empty(big) then xs else big
    max(s in pool by s.weight)
def lightest(xs: List[Stone]): Stone =
    let pool = [s for s in xs]
    min(s in pool by s.weight)
def weight(xs: List[Stone]): Int = sum(s.weight for s in xs if s.colour != Blue)
def heavy(xs: List[Stone]): Int = count(s.weight > 2 for s in xs if s.colour != Green)
def all_light(xs: List[Stone]): Bool = all(s.weight < 5 for s in xs)
def plus(xs: List[Stone]): Int = size(xs) * 100 + sum(s.weight for s in xs)
def fits(xs: List[Stone], k: Colour, strict: Bool): Bool = match k:
    Red -> all(s.weight < 5 for s in xs)
    Blue -> strict and any(s.weight == 5 for s in xs)
    Green -> not any(s.weight == 4 for s in xs) or size(xs) > 9
    White -> true
def first_heavy(xs: List[Stone]): Stone = first(s in xs where s.weight > 4)
rule play:
    move stones to heap
    say "{heaviest(list(heap))}, {lightest(list(heap))}, {heaviest([s for s in list(heap) if s.weight < 2])}"
    say "{weight(list(heap))} {heavy(list(heap))} {all_light(list(heap))} {all_light([s for s in list(heap) if s.weight < 5])}"
    say "{plus(list(heap))} {first_heavy(list(heap))}"
    say "{fits(list(heap), Red, true)} {fits(list(heap), Blue, true)} {fits(list(heap), Blue, false)} {fits(list(heap), Green, false)} {fits(list(heap), White, false)}"
    if size(heap) > 0 and not any(s.weight > 4 for s in heap):
        say "none heavy"
    else if size(heap) > 4 and all(s.weight > 0 for s in heap):
        say "all weigh"
    say "{first_heavy([s for s in list(heap) if s.colour == Red])}"
    say "{heaviest([s for s in list(heap) if s.weight > 9])}"
'''


def test_a_defs_lets_and_best_are_statements(tmp_path, monkeypatch):
    """A def's function is statements: its `let`s, and `sum`, `count`, `any`, `all` of a comprehension
    as its value are loops; `max`/`min … by` there is a loop giving the
    first of the best, as Python's max and min do, and of nothing the rules' failure, where the
    rule used the def (as before: a def's own line is not in the message)."""
    from rulecraft.engine.observe import render
    from rulecraft.runtime.errors import RulesRuntimeError
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = tmp_path / "best.rules"
    path.write_text(BEST)
    program, source = generated(path)
    heaviest = source[source.index("def D"):]
    heaviest = heaviest[:heaviest.index("\ndef ")]
    assert "rt_max_by" not in heaviest and "lambda" not in heaviest and "for v" in heaviest
    sink = CheckedNarration()      # a narration that fails stops the game here (as in rulecraft test)
    with pytest.raises(RulesRuntimeError) as failed:
        machine.new_game(program, 2, None, 0, sink=sink)
    assert [render(line[2], None) for line in sink] == ["Blue 5, White 1, White 1", "10 2 no yes", "515 Blue 5", "no yes no yes yes", "all weigh"]
    assert "first(…): no element meets" in str(failed.value) and "best.rules:34:5" in str(failed.value)
    assert "sum(" not in source and "len([" not in source and "all(" not in source and "any(" not in source
    # without that line, the next fails: `max` of nothing, at the line that used the def
    path.write_text(BEST.replace('    say "{first_heavy([s for s in list(heap) if s.colour == Red])}"\n', ""))
    with pytest.raises(RulesRuntimeError) as failed:
        machine.new_game(load_file(path), 2, None, 0, sink=CheckedNarration())
    assert "max of nothing" in str(failed.value) and "best.rules:34:5" in str(failed.value)


WAITING = '''game "Waiting"
players 2
card Stone(weight: 0..5) named "stone {weight}"
cards stones = [Stone(w) for w in 0..5]
zone heap of Stone
zone hand of Stone per player
rule play:
    move stones to heap
    if size(heap) == 0 or any(s.weight > 5 for s in heap):
        player(1) chooses s in heap as "never {s}":
            pass
    else if size(heap) > 4 and all(s.weight < 6 for s in heap):
        player(1) chooses s in heap where s.weight > 3 as "take {s}":
            move s to player(1).hand
'''


def test_an_else_if_computed_by_lines_in_a_rule_that_waits(tmp_path, monkeypatch):
    """An `else if` whose condition is a loop is tested under an `else:`, in a rule that waits too."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = tmp_path / "waiting.rules"
    path.write_text(WAITING)
    program, source = generated(path)
    assert "any(" not in source and "all(" not in source
    m = machine.new_game(program, 2, None, 0)
    assert [o.label for o in machine.legal_options(m)] == ["take stone 4", "take stone 5"]


GUARD = '''game "Guard"
players 2
enum Colour: Red, Blue
card Gem(colour: Colour, size: 1..3) named "{colour} {size}"
cards gems = [Gem(k, s) for k in Colour for s in 1..3]
zone bag of Gem
zone shown of Gem
zone empty of Gem
def same(xs: List[Gem]): List[Gem] = [g for g in xs if g.colour == top(shown).colour]
def none_shown(xs: List[Gem]): List[Gem] = [g for g in xs if g.colour == top(empty).colour]
rule play:
    move gems to bag
    move Gem("Blue 2") to shown
    say "{same(list(bag))} {none_shown([])}"
    say "{none_shown(list(bag))}"
'''


def test_a_filters_part_that_fails_fails_at_the_first_element(tmp_path, monkeypatch):
    """`top(shown).colour` in a filter fails, as written, at the first gem and only when there is one
    (an empty list asks nothing, so `top` of an empty zone does not fail there), at the line that
    used the def."""
    from rulecraft.engine.observe import render
    from rulecraft.runtime.errors import RulesRuntimeError
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = tmp_path / "guard.rules"
    path.write_text(GUARD)
    sink = CheckedNarration()      # a narration that fails stops the game here (as in rulecraft test)
    with pytest.raises(RulesRuntimeError) as failed:
        machine.new_game(load_file(path), 2, None, 0, sink=sink)
    assert [render(line[2], None) for line in sink] == ["Blue 1, Blue 3 nothing"]
    assert "empty" in str(failed.value) and "guard.rules:15:5" in str(failed.value), str(failed.value)
