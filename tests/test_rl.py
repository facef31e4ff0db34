"""The PettingZoo and Gymnasium adapters pass their frameworks' own checks on every bundled game at
every player count (and the examples at their smallest), and show each seat only what it may see."""
from __future__ import annotations

import random
import warnings

import numpy as np                      # the rl extra, installed by the test extra: never skipped
from pathlib import Path

import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import rulecraft
from rulecraft.rl import gymnasium as rcgym
from rulecraft.rl import pettingzoo as rcpz

EX = str(Path(__file__).resolve().parent.parent / "examples") + "/"     # wherever pytest runs from

EXAMPLES = [EX + "nim.rules", EX + "high-card.rules", EX + "rock-paper-scissors.rules",
            EX + "weird-sisters-short.rules", EX + "blackmore-seven-colours.rules"]
# the warnings PettingZoo's api_test gives every environment whose observations carry an action mask
MASKED_DICT = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def configurations():
    out = []
    for ref in rulecraft.game_names():
        program = rulecraft.load(ref).program
        out += [pytest.param(ref, n, id=f"{ref}-{n}") for n in range(program.min_players, program.max_players + 1)]
    for ref in EXAMPLES:
        out.append(pytest.param(ref, rulecraft.load(ref).program.min_players, id=ref.split("/")[-1]))
    return out


CONFIGURATIONS = configurations()


@pytest.mark.parametrize("ref, players", CONFIGURATIONS)
def test_pettingzoo_api_seed_and_render_tests(ref, players, capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rcpz.env(ref, players=players), num_cycles=12)
        seed_test(lambda **kw: rcpz.env(ref, players=players, **kw), num_cycles=12)
        render_test(lambda **kw: rcpz.env(ref, players=players, **kw))
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(MASKED_DICT)}
    assert not unexpected


@pytest.mark.parametrize("ref, players", [c for c in CONFIGURATIONS if c.values[0] in rulecraft.game_names()])
def test_gymnasium_check_env(ref, players, capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(rcgym.env(ref, players=players, seat=players))
    assert not [w for w in caught if "spec" not in str(w.message)]     # render modes: the test below


def test_gymnasium_made_by_name_checks_its_render_modes(capsys):
    import gymnasium
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(rcgym.ENV_ID, game="three-sisters-solo")
        check_env(env.unwrapped)
    assert not caught
    env = rcgym.env("three-sisters-solo", render_mode="ansi")
    env.reset(seed=3)
    assert env.render().startswith("Three Sisters: solo against Farmer Edith, as Player 1 sees it")


def test_a_pettingzoo_game_is_the_api_game_and_shows_each_agent_its_own():
    env = rcpz.env("blackmore", players=3)
    env.reset(seed=5)
    match = rulecraft.load("blackmore", players=3).new(seed=5)
    rnd = random.Random(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        seat = rcpz.seat_of(agent)
        assert np.array_equal(obs["observation"], np.asarray(match.observation_tensor(seat), dtype=np.float32))
        if terminated or truncated:
            assert reward == match.returns()[seat]
            env.step(None)
            continue
        assert match.to_move == seat and agent == f"player_{seat - 1}"
        assert list(np.flatnonzero(obs["action_mask"])) == sorted(match.legal_ids())
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
                # each agent observes its own seat, not the mover's (issue 34's mutation check)
                assert np.array_equal(env.observe(other)["observation"], np.asarray(
                    match.observation_tensor(rcpz.seat_of(other)), dtype=np.float32))
        action = rnd.choice(match.legal_ids())
        env.step(action)
        match.apply(action)
    assert match.over


def test_gymnasium_opponents_play_the_other_seats():
    env = rcgym.env("blackmore", players=3, seat=2, opponents=["first", "random"])
    obs, info = env.reset(seed=1)
    assert env.match.to_move == 2 and obs["action_mask"].sum() == len(info["legal_moves"]) > 0
    rnd = random.Random(1)
    total, done = 0.0, False
    while not done:
        action = rnd.choice(info["legal_moves"])
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert env.match.over and total == env.match.returns()[2]
    env.reset(seed=1)
    _obs, reward, terminated, _truncated, info = env.step(10 ** 3)
    assert terminated and reward == -1.0 and info["illegal_action"]


@pytest.mark.parametrize("call, message", [
    (lambda: rcgym.env("blackmore", players=3, seat=4), "seats are numbered 1 to 3"),
    (lambda: rcgym.env("blackmore", players=3, opponents=["random"]), "one opponent for each of the 2"),
    (lambda: rcgym.env("blackmore", players=3, opponents="genius"), "unknown agent 'genius'"),
    (lambda: rcpz.env(rulecraft.load("blackmore"), players=3), "not both"),
])
def test_bad_adapter_arguments_are_one_sentence(call, message):
    with pytest.raises(rulecraft.UserError, match=message):
        call()


@pytest.mark.parametrize("adapter, framework, extra", [("pettingzoo", "pettingzoo", "rl"),
                                                       ("gymnasium", "gymnasium", "rl"),
                                                       ("openspiel", "pyspiel", "openspiel")])
def test_a_missing_framework_names_the_extra_to_install(adapter, framework, extra, monkeypatch):
    import importlib
    import sys
    monkeypatch.setitem(sys.modules, framework, None)          # as if it were not installed
    monkeypatch.delitem(sys.modules, f"rulecraft.rl.{adapter}", raising=False)
    with pytest.raises(ImportError, match=rf"needs {framework}: pip install 'rulecraft\[{extra}\]'"):
        importlib.import_module(f"rulecraft.rl.{adapter}")
