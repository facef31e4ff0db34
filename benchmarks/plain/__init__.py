"""Plain hand-written Python versions of three games, the yardsticks of benchmarks/yardsticks.py.

Each module is the game written as a person would (one random.Random, lists, direct loops),
importing nothing from rulecraft. `GAMES` pairs each with its rules and says how to read one
outcome of either: (winners, length, scores), winners a tuple of 0-based seats (all seats: a draw).
"""
from __future__ import annotations

import random

from . import blackmore, connect_four, tic_tac_toe


def _two_player(play):
    def one(players: int, rng: random.Random):
        winner, moves = play(rng)
        return ((winner - 1,) if winner else (0, 1)), moves, ((1, 0) if winner == 1 else (0, 1) if winner == 2 else (0, 0))
    return one


def _blackmore(players: int, rng: random.Random):
    scores, winners, decisions = blackmore.play(players, rng)
    return winners, decisions, scores


# name: (the rules, by bundled name or path from the repository's root; player counts; one plain game)
GAMES = {
    "blackmore": ("blackmore", (2, 4, 6), _blackmore),
    "connect-four": ("examples/connect-four.rules", (2,), _two_player(connect_four.play)),
    "tic-tac-toe": ("examples/tic-tac-toe.rules", (2,), _two_player(tic_tac_toe.play)),
}
