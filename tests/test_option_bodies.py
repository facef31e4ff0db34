"""Functions entered at a block (compile/rules.py, RuleGen.entry_function).

An option's block runs straight from the decision: the machine calls the block's own function with
the chosen value, instead of putting the value in the frame and resuming the rule at the block's
pc. Where a rule resumes after a call, and where a caller starts it, a function entered at that
block runs, found by the frame's pc (`Program.entries`). Were such a function to load, store or
jump differently from the rule it was cut from, a game would go wrong with no error; so every
bundled game and example is played both ways, decision by decision (the chooser, the options, what
is narrated, the result), and small rules check failures, later waits and copies mid-rule.
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
    """The program compiled with functions entered at blocks, and without."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    with_bodies = loader(ref)
    without = loader(ref, options=DEFAULT.with_(bodies=False, entries=False))
    return with_bodies, without


def entered_at_blocks(program) -> int:
    """How many functions entered at a block the machine's table holds, besides the rules' own."""
    return sum(1 for table, code in zip(program.entries, program.codes) for f in set(table) if f is not code.entry)


def trace(program, players: int, seed: int) -> list:
    """A random game's course: at each decision the chooser, the options and what was said since."""
    said = []
    m = machine.new_game(program, players, None, seed, sink=said)
    agent = random.Random(seed)
    out = []
    while m.result is None:
        ids = machine.legal_ids(m)
        out.append((m.pending[1], ids, len(said)))
        machine.decide(m, ids[agent.randrange(len(ids))])
    return out + [said, m.result, m.vars, m.zones]


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_bodies_play_the_games_the_rules_play(ref, monkeypatch):
    with_bodies, without = both(monkeypatch, load, ref)
    assert any(c.body is not None for c in with_bodies.choices) or not with_bodies.choices
    assert all(c.body is None for c in without.choices) and entered_at_blocks(without) == 0
    for players in sorted({with_bodies.min_players, with_bodies.max_players}):
        for seed in range(3):
            assert trace(with_bodies, players, seed) == trace(without, players, seed), (players, seed)


RULES = '''game "Bodies"
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
        p chooses s in heap as "take {s}":
            move s to p.hand
            # a later wait, after which the chosen stone is read again: it must be kept in the frame
            p may choose t in heap where t.weight > s.weight as "also {t}":
                move t to p.hand
            total = total + s.weight
    finish_off(player(1))
    total = total + 1000

rule finish_off(p: Player):
    p chooses s in heap as "last {s}":
        if s.weight == 0:
            total = total + top(empty).weight
        total = total + 100
'''


def test_a_chosen_value_read_after_a_later_wait_is_kept(tmp_path, monkeypatch):
    path = tmp_path / "bodies.rules"
    path.write_text(RULES)
    with_bodies, without = both(monkeypatch, load_file, path)
    assert all(c.body is not None for c in with_bodies.choices) and entered_at_blocks(with_bodies) >= 2
    outcomes = set()
    for seed in range(40):
        a, b = (_play(p, seed) for p in (with_bodies, without))
        assert a == b, seed
        outcomes.add(a[0])
    assert "fails" in outcomes and "ends" in outcomes      # both ways out of the last block were taken


def _play(program, seed):
    m = machine.new_game(program, 2, None, seed)
    agent = random.Random(seed)
    try:
        while m.result is None:
            ids = machine.legal_ids(m)
            copy = m.copy()                      # a copy taken at every decision plays on as the state does
            pick = ids[agent.randrange(len(ids))]
            machine.decide(copy, pick)
            machine.decide(m, pick)
            assert copy.same_as(m)
    except RulesRuntimeError as e:
        return ("fails", str(e), e.chain if hasattr(e, "chain") else None)
    return ("ends", m.vars, m.result)


def test_a_failure_in_a_body_names_its_rule_and_line(tmp_path, monkeypatch):
    path = tmp_path / "bodies.rules"
    path.write_text(RULES)
    with_bodies, _without = both(monkeypatch, load_file, path)
    for seed in range(40):
        outcome = _play(with_bodies, seed)
        if outcome[0] == "fails":
            text = outcome[1]
            assert "bodies.rules:24:" in text and "'finish_off' at" in text and "'play' at" in text, text
            return
    raise AssertionError("no game failed in the last block")
