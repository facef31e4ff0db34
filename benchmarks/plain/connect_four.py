"""Connect Four in plain Python, written as a person would: the yardstick.

A 6 × 7 grid of lists, a height per column, one `random.Random` choosing among the columns not
full, and four in a line found by counting from the new disc in each direction. Nothing from
rulecraft; the rules are examples/connect-four.rules'.
"""
from __future__ import annotations

import random

ROWS, COLUMNS = 6, 7
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def play(rng: random.Random):
    """One game of random moves: returns (winner, moves); winner 1 or 2, or 0 for a draw."""
    grid = [[0] * COLUMNS for _ in range(ROWS)]
    heights = [0] * COLUMNS
    player = 1
    for move in range(1, ROWS * COLUMNS + 1):
        column = rng.choice([c for c in range(COLUMNS) if heights[c] < ROWS])
        row = heights[column]
        grid[row][column] = player
        heights[column] += 1
        for dr, dc in DIRECTIONS:
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, column + sign * dc
                while 0 <= r < ROWS and 0 <= c < COLUMNS and grid[r][c] == player:
                    count += 1
                    r += sign * dr
                    c += sign * dc
            if count >= 4:
                return player, move
        player = 3 - player
    return 0, ROWS * COLUMNS
