"""Tic-tac-toe in plain Python, written as a person would: the yardstick.

A list of nine cells, one `random.Random` choosing among the empty ones, the eight lines
checked by a loop after each mark. Nothing from rulecraft; the rules are
examples/tic-tac-toe.rules'.
"""
from __future__ import annotations

import random

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def play(rng: random.Random):
    """One game of random moves: returns (winner, moves); winner 1 or 2, or 0 for a draw."""
    board = [0] * 9
    player = 1
    for move in range(1, 10):
        cell = rng.choice([k for k in range(9) if board[k] == 0])
        board[cell] = player
        for a, b, c in LINES:
            if board[a] == player and board[b] == player and board[c] == player:
                return player, move
        player = 3 - player
    return 0, 9
