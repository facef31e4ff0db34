"""`min([a, b, …])` and `max([…])` of numbers written out become conditional expressions, each part
bound once by an assignment expression (ExprGen.extreme), except where Python refuses one — a
comprehension's iterables, a part computed before a comprehension, a table made at load, an inlined
def's argument — where Python's own min or max is called. Each place is played here with the
feature on and off, and the values are checked as written, so both ways cannot be equally wrong.
Every game is also played both ways, with a card moved from its zone popped when it is the top
(StatementGen.TOP_FIRST) and without."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile.options import DEFAULT
from rulecraft.engine import machine
from rulecraft.loader import load, load_file
from test_option_bodies import trace

RULES = '''game "Extremes"
players 2
enum Suit: Stars, Moons
card Rune(suit: Suit, value: 1..8) named "{value} of {suit}"
cards runes = [Rune(s, v) for s in Suit for v in 1..8]
zone bag of Rune
zone hand of Rune per player
var a: Int = 3
var b: Int = -2
var log: Int per player
def dist(x: Int, y: Int): Int = min([(x - y) mod 6, (y - x) mod 6])
def capped(r: Rune): Int = min([r.value, 5])
def twice(n: Int): Int = n + n
rule setup:
    move runes to bag
    for p in players:
        move [r for r in bag if r.value <= 2 and (r.suit == Stars) == (p == player(1))] to p.hand
rule play:
    say "plain: {min([a, b])} {max([a, b])} {min([4, a])} {max([0, b])} {max([b, 0, a - 1])} {min([a, a])}"
    say "nested: {max([0, min([a * 2, 10]) - 7])} {dist(1, 5)} {dist(5, 1)} {dist(2, 2)}"
    say "argument: {twice(min([a, 1]))} {twice(max([a + b, 2]))}"
    say "iterable: {sum(x for x in [min([a, 9]), max([b, 1]), 4])} {[x * 2 for x in [max([a, b])]]}"
    say "element: {[min([x, 2]) for x in [1, 2, 3]]} {sum(max([x - a, 0]) for x in 1..6)}"
    say "filter: {[x for x in 1..6 if min([x, a]) == x]} {size([r for r in bag if capped(r) == 5])}"
    say "table: {sum(capped(r) for r in bag)} {[max([r.value, a]) for r in player(1).hand]}"
    say "key: {max(x in 1..6 by min([x, 4]))} {min(x in [5, 2, 7] by max([x, 3]))}"
    for x in [min([a, 2]), max([b, 5])]:
        player(1).log += x
    say "loop: {player(1).log}"
    player(1) chooses k in 1..6 where dist(k, a) <= max([1, b]) as "{k} at {dist(k, a)}":
        player(2).log = max([k, a]) - min([k, a])
        say "chose {k}: {player(2).log}"
    repeat max([b, 1]):
        player(1).log += 1
    say "repeat: {player(1).log}"
'''

EXPECTED = [
    "plain: -2 3 3 0 2 3",
    "nested: 0 2 2 0",
    "argument: 2 4",
    "iterable: 8 6",
    "element: 1, 2, 2 6",
    "filter: 1, 2, 3 8",
    "table: 54 3, 3",
    "key: 4 2",
    "loop: 7",
]


def _play(path, monkeypatch, on: bool):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    program = load_file(path, options=DEFAULT.with_(extremes=on))
    said = []
    m = machine.new_game(program, 2, None, 0, sink=said)
    labels = [o.label for o in machine.legal_options(m)]
    machine.decide(m, machine.legal_ids(m)[-1])
    lines = ["".join(part if isinstance(part, str) else str(part) for part in segments) for _k, _a, segments in said]
    return lines, labels, m


@pytest.mark.parametrize("on", [True, False])
def test_min_and_max_of_numbers_written_out_in_every_place(rules_file, monkeypatch, on):
    lines, labels, m = _play(rules_file(RULES), monkeypatch, on)
    assert lines[:len(EXPECTED)] == EXPECTED, lines
    assert labels == ["2 at 1", "3 at 0", "4 at 1"]
    assert lines[len(EXPECTED):] == ["chose 4: 1", "repeat: 8"]


def test_the_conditional_form_is_what_runs(rules_file, monkeypatch):
    """On, fewer generated functions call Python's min or max (those left call it where no name may
    be bound: a comprehension's iterable, a table's formula); off, every one does."""
    import dis

    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = rules_file(RULES)
    calls = {}
    for on in (True, False):
        program = load_file(path, options=DEFAULT.with_(extremes=on))
        env = program.entries[0][0].__globals__       # the namespace every generated function runs in
        calls[on] = {f.__name__ for f in env.values() if hasattr(f, "__code__")
                     and any(i.opname == "LOAD_GLOBAL" and i.argval in ("min", "max") for i in dis.get_instructions(f))}
    assert calls[False] and len(calls[True]) < len(calls[False])


ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_the_games_play_the_same_with_conditional_extremes_and_without(ref, monkeypatch):
    """Every bundled game and example, decision by decision, with `ExprGen.extreme`'s conditional
    expressions and with Python's `min`/`max`."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    on = load(ref)
    off = load(ref, options=DEFAULT.with_(extremes=False))
    for players in sorted({on.min_players, on.max_players}):
        for seed in range(2):
            assert trace(on, players, seed) == trace(off, players, seed), (players, seed)
