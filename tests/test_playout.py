"""The fast path (engine.playout) makes the games the resumable path makes, decision by decision.

A playout runs the rules compiled a second time (`Program.fast`), in which a choice calls the
agent where the resumable rules wait. Were the two to differ, every random game, `simulate` and
search rollout would go wrong with no error; so for every bundled game and example, at several
player counts and seeds, a random game is played both ways and compared at every decision (the
options offered, the chooser), and at the end (the state, the result, the generator); and a
playout cut short by `max_decisions` waits exactly where the resumable path waits.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.engine import machine
from rulecraft.engine.playout import playout, reference_playout
from rulecraft.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


def recorder(seed: int):
    """A random chooser that writes down what it was offered."""
    rng = random.Random(seed)
    seen = []

    def choose(m, who, ids):
        seen.append((who, ids))
        return ids[rng.randrange(len(ids))]
    return choose, seen


def players_of(program) -> list:
    return sorted({program.min_players, (program.min_players + program.max_players) // 2, program.max_players})


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_the_fast_path_plays_the_games_the_resumable_path_plays(ref):
    program = load(ref)
    assert program.fast is not None and program.fast() is not None
    for players in players_of(program):
        for seed in range(3):
            fast, slow = (machine.new_game(program, players, None, seed) for _ in range(2))
            choose_fast, seen_fast = recorder(seed)
            choose_slow, seen_slow = recorder(seed)
            playout(fast, choose_fast)
            reference_playout(slow, choose_slow)
            assert seen_fast == seen_slow, (players, seed)
            assert fast.result is not None and fast.result == slow.result
            assert fast.same_as(slow, frames=False) and fast.rng == slow.rng and fast.stack == slow.stack == []


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_a_playout_cut_short_waits_where_the_resumable_path_waits(ref):
    program = load(ref)
    players = program.max_players
    for seed, steps in ((1, 1), (2, 3), (3, 17)):
        fast, slow = (machine.new_game(program, players, None, seed) for _ in range(2))
        choose_fast, seen_fast = recorder(seed)
        choose_slow, seen_slow = recorder(seed)
        playout(fast, choose_fast, steps)
        reference_playout(slow, choose_slow, steps)
        assert seen_fast == seen_slow
        assert fast.same_as(slow, frames=False), (seed, steps)
        # the frames wait at the same rules and points (a local the rules never read again may hold
        # an older value on the resumable path: it stored it at an earlier decision), so the
        # resumable path goes on from the fast path's state, copied or not, as from its own
        assert [fr[:2] for fr in fast.stack] == [fr[:2] for fr in slow.stack]
        if fast.result is None:
            assert fast.decisions == slow.decisions == steps
            for go_on in (fast.copy(), fast):
                choose_fast, seen_fast = recorder(seed + 100)
                choose_slow, seen_slow = recorder(seed + 100)
                after = slow.copy()
                reference_playout(go_on, choose_fast)
                reference_playout(after, choose_slow)
                assert seen_fast == seen_slow and go_on.same_as(after, frames=False)
