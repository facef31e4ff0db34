"""The plain hand-written yardsticks (benchmarks/plain/) play the games their rules describe.

benchmarks/yardsticks.py reports the engine's speed as a ratio to plain Python versions of
Blackmore, Connect Four and tic-tac-toe; the ratio means something only while both play the
same game. They draw differently (the plain ones use random.Random as a person would), so the
outcome distributions under random play are compared: the winners and lengths by chi-square,
each seat's mean score by Welch's z (benchmarks/yardsticks_agree.py, 10,000 games each there;
fewer here). Each game also checks that a plain game with one rule changed is caught, so the
comparison can fail. Nothing is timed.
"""
from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def agree():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("yardsticks_agree", BENCHMARKS / "yardsticks_agree.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCHMARKS))


def _worst(rows) -> float:
    return min(p for _figure, _a, _b, p in rows)


GAMES = [("tic-tac-toe", 2, 3000), ("connect-four", 2, 1500), ("blackmore", 2, 800), ("blackmore", 4, 500),
         ("blackmore", 6, 400)]


@pytest.mark.parametrize("name, players, games", GAMES)
def test_the_plain_game_plays_the_rules(agree, name, players, games):
    rows = agree.check(name, players, games)
    assert _worst(rows) >= agree.ALPHA, rows


def test_tic_tac_toe_without_diagonals_is_caught(agree, monkeypatch):
    from plain import tic_tac_toe
    monkeypatch.setattr(tic_tac_toe, "LINES", tic_tac_toe.LINES[:6])
    assert _worst(agree.check("tic-tac-toe", 2, 3000)) < agree.ALPHA


def test_connect_four_without_diagonals_is_caught(agree, monkeypatch):
    from plain import connect_four
    monkeypatch.setattr(connect_four, "DIRECTIONS", connect_four.DIRECTIONS[:2])
    assert _worst(agree.check("connect-four", 2, 1500)) < agree.ALPHA


def test_blackmore_unshuffled_is_caught(agree):
    from plain import blackmore

    class Unshuffled(random.Random):        # the bug of a deck never shuffled
        def shuffle(self, x):
            pass

    def unshuffled(players: int, rng: random.Random):
        scores, winners, decisions = blackmore.play(players, Unshuffled(rng.getrandbits(64)))
        return winners, decisions, scores
    assert _worst(agree.check("blackmore", 4, 500, play=unshuffled)) < agree.ALPHA
