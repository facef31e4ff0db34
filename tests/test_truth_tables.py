"""A table made at load that holds for some values only is read behind its guard, the formula where
it does not hold (so a failure is the formula's); a match that is a table is looked up once before
a loop (ExprGen.movable);
a count compared with a number at most 0 is not counted (ExprGen.counted, tests/test_cheap_code.py).
None may change what a game does: every bundled game and example plays the same random games with them
as without, and a failure is the same sentence on the same line."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile import codegen
from rulecraft.compile.options import DEFAULT, CompileOptions
from rulecraft.engine import machine
from rulecraft.loader import load, load_file
from rulecraft.runtime.errors import RulesRuntimeError

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


def trace(program, players: int, seed: int) -> list:
    """A random game's course: at each decision the chooser and the options, then the result."""
    m = machine.new_game(program, players, None, seed)
    agent = random.Random(seed)
    out = []
    while m.result is None and len(out) < 3000:
        ids = machine.legal_ids(m)
        out.append((m.pending[1], ids))
        machine.decide(m, ids[agent.randrange(len(ids))])
    return out + [repr(m.result)]


@pytest.fixture
def sources(monkeypatch):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    kept = []
    define = codegen.Namespace.define

    def keep(self, name, head, lines, label, span=None):
        kept.append(head + "\n" + "".join("    " * ind + text + "\n" for ind, text, _span in lines))
        return define(self, name, head, lines, label, span)

    monkeypatch.setattr(codegen.Namespace, "define", keep)
    return kept


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_the_same_games_with_and_without(ref, sources, monkeypatch):
    with_them = load(ref)
    without = load(ref, options=CompileOptions.every(False))
    for players in sorted({with_them.min_players, with_them.max_players}):
        for seed in range(3):
            assert trace(with_them, players, seed) == trace(without, players, seed), (players, seed)


GAME = '''game "Truths"
players 2
card Chip(value: 1..9)
card Token(weight: 1..9)
cards chips = [Chip(v) for v in 1..4]
cards tokens = [Token(1)]
zone box of Card
var total: Int = 0

def as_chip(c: Card): Chip = c
def big(c: Card): Bool = as_chip(c).value > 1
def bigs: Int = count(big(c) for c in box)
def any_big: Bool = any(big(c) for c in box)

rule setup:
    move chips to box
    SETUP

rule play:
    total = RESULT
'''


def run(rules_file, setup: str, result: str, options=DEFAULT):
    m = machine.new_game(load_file(rules_file(GAME.replace("SETUP", setup).replace("RESULT", result)), options=options), 2)
    return m.vars[next(v.slot for v in m.program.vars if v.name == "total")]


def test_a_table_that_holds_for_some_values_gives_the_values(rules_file, sources):
    assert run(rules_file, "total = 0", "bigs * 10 + (if any_big then 1 else 0)") == 31


def test_a_table_that_holds_for_some_values_fails_where_and_as_the_formula_did(rules_file, sources):
    """`big(c)` fails for the token (not a chip): the table holds for chips, and for the token the
    formula is computed, which fails with its sentence on its line."""
    sources.clear()
    with pytest.raises(RulesRuntimeError, match="is not a Chip"):
        run(rules_file, "move tokens to box", "bigs")
    loop = next(src for src in sources if "+= 1" in src)
    assert " else " in loop, loop      # the table's guard, and the formula where it does not hold


def test_any_stops_before_a_cell_that_fails(rules_file):
    """The second chip is big: `any` stops there, before the token, as it did."""
    assert run(rules_file, "move tokens to box", "if any_big then 1 else 0") == 1


REACH = '''game "Reach"
players 2
var total: Int = 0
var w: Int = 1

def reach(x: Int): List[Int] = match x:
    1 -> [0, 1]
    2 -> [1, 2, 3]
    else -> [3]
def reached(x: Int): Int = count(n in reach(x + 1) for n in 0..3)

rule play:
    w = 0
    total = reached(w) + 10 * reached(w + 1) + 100 * reached(w + 5)
'''


def test_a_match_that_is_a_table_is_looked_up_once_before_a_loop(rules_file, sources, monkeypatch):
    m = machine.new_game(load_file(rules_file(REACH)), 2)
    assert m.vars[next(v.slot for v in m.program.vars if v.name == "total")] == 2 + 10 * 3 + 100 * 1
    loop = next(src for src in sources if "+= 1" in src)
    assert ".get(" in loop.split("for ")[0], loop


ROWS = '''game "Rows"
players 2
enum Colour: Red, Blue, Green
card Chip(colour: Colour)
cards chips = [Chip(Blue), Chip(Green), Chip(Blue)]
zone box of Chip
var total: Int = 0

def of_colour(k: Colour): Int = count(c.colour == k for c in box)

rule setup:
    move chips to box

rule play:
    total = of_colour(Red) + 10 * of_colour(Blue) + 100 * of_colour(Green)
'''


def test_a_comparison_of_a_field_in_a_loop_counts(rules_file, sources):
    m = machine.new_game(load_file(rules_file(ROWS)), 2)
    assert m.vars[next(v.slot for v in m.program.vars if v.name == "total")] == 120


TURNED = '''game "Turned"
players 2
enum Colour: Red, Blue, Green
card Chip(colour: Colour, value: 1..9)
card Token(weight: 1..9)
cards chips = [Chip(Blue, 1), Chip(Green, 2)]
cards tokens = [Token(1)]
zone box of Card
var total: Int = 0

def as_chip(c: Card): Chip = c
def tint(c: Card, k: Colour): Bool = c in Chip and as_chip(c).colour == k
# ten parameters: the loop's local is v10, written before v9 (the colour) in the table's look-up
def has(a: Int, b: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int, j: Int, k: Colour): Bool = any(tint(c, k) for c in box)

rule setup:
    move tokens to box
    move chips to box

rule play:
    total = (if has(0, 0, 0, 0, 0, 0, 0, 0, 0, Red) then 1 else 0) + (if has(0, 0, 0, 0, 0, 0, 0, 0, 0, Blue) then 10 else 0) \\
        + (if has(0, 0, 0, 0, 0, 0, 0, 0, 0, Green) then 100 else 0)
'''


def test_a_table_of_ten_parameters_in_a_loop(rules_file, sources):
    m = machine.new_game(load_file(rules_file(TURNED)), 2)
    assert m.vars[next(v.slot for v in m.program.vars if v.name == "total")] == 110
    text = "".join(src for src in sources if "for v10 in" in src)
    assert "[v10]" in text, text         # a table, by the card and the colour
