"""The OpenSpiel adapter works out each information state once per history (rl/openspiel.py `_Known`),
so CFR's walk of the same tree at every iteration reads it again instead of running the recall: what
it reads must be what the match itself says, for every player and every state, and a resampled state
(not a function of its history) must never be answered with another game's."""
from __future__ import annotations

import random
from pathlib import Path

from rulecraft.rl import openspiel as rcos

KUHN = str(Path(__file__).resolve().parent.parent / "benchmarks" / "games" / "kuhn-poker.rules")


def _fresh(state, player, kind):
    """The information state as a copy of the state's match works it out, with no recall read yet."""
    match = state._match.clone()
    match._recalls.clear()
    seat = player + 1
    return match.information_state_text(seat) if kind == "text" else match.information_state_tensor(seat)


def _states(state):
    yield state
    if state.is_terminal():
        return
    actions = [a for a, _p in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for a in actions:
        yield from _states(state.child(a))


def test_every_information_state_read_again_is_the_matchs_own():
    game = rcos.load_game(KUHN, reward="score")
    for walk in range(2):                      # the second walk reads what the first worked out
        for state in _states(game.new_initial_state()):
            if state._match is None:
                continue
            for player in (0, 1):
                assert state.information_state_string(player) == _fresh(state, player, "text")
                assert state.information_state_tensor_of(player) == _fresh(state, player, "tensor")


def test_a_resampled_state_is_never_answered_from_another_games_history():
    """Resampled for player 0, the twin deals player 1 another card under the same history: player 1's
    information state is the twin's own, before and after the next action, though the real game's was
    worked out first."""
    game = rcos.load_game(KUHN, reward="score")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    differ = 0
    for seed in range(8):
        twin = rcos.resampler(seed)(state, 0)
        for a in [None] + state.legal_actions():
            real, other = (state, twin) if a is None else (state.child(a), twin.child(a))
            assert real.information_state_string(1) == _fresh(real, 1, "text")     # worked out first
            assert other.information_state_string(1) == _fresh(other, 1, "text")
            assert other.information_state_tensor_of(1) == _fresh(other, 1, "tensor")
            assert other.information_state_string(0) == real.information_state_string(0)
            differ += other.information_state_string(1) != real.information_state_string(1)
    assert differ > 0                          # some twin dealt player 1 another card


def test_what_is_kept_is_bounded(monkeypatch):
    monkeypatch.setattr(rcos._Known, "LIMIT", 2_000)
    game = rcos.load_game(KUHN, reward="score")
    rng = random.Random(0)
    for state in _states(game.new_initial_state()):
        if state._match is not None:
            state.information_state_string(rng.randrange(2))
    known = game.fixed.known
    assert 0 < known.size <= 2_000 + max(len(v) + len(k[2]) for k, v in known.table.items())
