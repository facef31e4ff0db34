"""A rule that waits and has one caller is written into it (compile/inline.py).

Written in, its statements run in the caller's function and frame. The games must not notice:
every bundled game and example is compiled with and without, and must number its choices and
option ids the same and play the same, decision by decision; a failure inside a rule written in
(or in the arguments of its call) must name the same rules and lines, and a `stop` in it must end
only it.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile.options import DEFAULT, CompileOptions
from rulecraft.engine import machine
from rulecraft.loader import load, load_file
from rulecraft.runtime.errors import RulesRuntimeError

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


def both(monkeypatch, loader, ref):
    """The program compiled with rules written into their callers, and without."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    written = loader(ref)
    apart = loader(ref, options=DEFAULT.with_(inline=False))
    return written, apart


def choices(program) -> list:
    return [(c.index, c.rule, str(c.span), c.may, c.offset, c.size) for c in program.choices]


def trace(program, players: int, seed: int) -> list:
    said = []
    m = machine.new_game(program, players, None, seed, sink=said)
    agent = random.Random(seed)
    out = []
    try:
        while m.result is None:
            ids = machine.legal_ids(m)
            out.append((m.pending[0], m.pending[1], ids, len(said), [machine.label(m, i) for i in ids]))
            machine.decide(m, ids[agent.randrange(len(ids))])
    except RulesRuntimeError as e:
        return out + [("fails", str(e))]
    return out + [said, m.result, m.vars, m.zones]


def written_in(program) -> set:
    """The rules whose code is their caller's (their entry only says so)."""
    return {c.name for c in program.codes if c.entry.__name__ == "entry" and c.entry.__qualname__.startswith("_written_in")}


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_rules_written_in_play_the_games_as_apart(ref, monkeypatch):
    written, apart = both(monkeypatch, load, ref)
    assert choices(written) == choices(apart)
    assert written.action_count == apart.action_count and sorted(written.anytimes) == sorted(apart.anytimes)
    assert not written_in(apart)
    for players in sorted({written.min_players, written.max_players}):
        for seed in range(3):
            assert trace(written, players, seed) == trace(apart, players, seed), (players, seed)


def test_blackmore_is_one_rule_that_waits(monkeypatch):
    """`contest` is called by `play` only, `change_trump` by `contest` only: both are written in."""
    written, _apart = both(monkeypatch, load, "blackmore")
    assert written_in(written) == {"contest", "change_trump"}


RULES = '''game "Written in"
players 2
card Stone(weight: 0..5) named "stone {weight}"
cards stones = [Stone(w) for w in 0..5]
zone heap of Stone
zone hand of Stone per player
zone empty of Stone
var total: Int = 0
rule play:
    move stones to heap
    for p in players:
        take(p, size(heap))
    total = total + 1000
rule take(p: Player, n: Int):
    if n < 3:
        say "too few"
        stop
    p chooses s in heap as "take {s}":
        move s to p.hand
        weigh(p, s)
    say "{p} took one"
rule weigh(p: Player, s: Stone):
    total = total + s.weight
    if s.weight == 0:
        last(p, top(empty))
    p may choose t in heap where t.weight > s.weight as "also {t}":
        move t to p.hand
rule last(p: Player, s: Stone):
    p chooses t in heap as "last {t}":
        total = total + s.weight
'''


def test_nested_rules_written_in_fail_and_stop_as_apart(rules_file, monkeypatch):
    path = rules_file(RULES)
    written, apart = both(monkeypatch, load_file, path)
    assert written_in(written) == {"take", "weigh", "last"}
    outcomes = []
    for seed in range(30):
        a, b = trace(written, 2, seed), trace(apart, 2, seed)
        assert a == b, seed
        outcomes.append(a[-1])
    failures = [o[1] for o in outcomes if o[0] == "fails"]
    assert failures, "no game took the stone of weight 0"
    # the argument `top(empty)` of the call in `weigh` fails: named at the call, in weigh, in take, in play
    text = failures[0]
    assert "top of an empty zone" in text
    assert [line.split("'")[1] for line in text.splitlines()[1:]] == ["weigh", "take", "play"], text
    assert text.splitlines()[0].startswith(f"{path}:25:9: runtime error")


def test_a_stop_in_a_rule_written_in_ends_only_it(rules_file, monkeypatch):
    path = rules_file(RULES.replace("take(p, size(heap))", "take(p, 2)"))
    written, apart = both(monkeypatch, load_file, path)
    m = machine.new_game(written, 2, None, 0)
    total = next(v.slot for v in written.vars if v.name == "total")
    assert m.result is not None and m.vars[total] == 1000      # each `take` stopped; `play` went on
    assert trace(written, 2, 0) == trace(apart, 2, 0)
