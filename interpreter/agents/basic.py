"""The built-in agents: random (seeded) and first-legal (agents/registry.py names them).

An agent is anything with `choose(session) -> option id`; it asks the session,
never the machine, what is legal. Agents draw their own chance from their own
seed, never from the game's RNG, so adding an agent does not change the game's cards.
Both decide from the number of legal options alone, so they also offer `index(n) -> the index of
the option taken among n`: a batch (simulate.games) calls it directly, with no Seat built per
decision and no call of its own between; it draws as `choose` does. Their `reseedable()`
gives `(reseed, index)`: the `index` of one agent that `reseed(seed)` turns into the agent made with
`seed`, so a batch makes none and seeds one per seat for each game.
"""
from __future__ import annotations

import random


class RandomAgent:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.index = self.rng._randbelow    # randrange(n) for n > 0 is _randbelow(n): the same draws, no checks

    def choose(self, session) -> int:
        ids = session.legal_ids()
        return ids[self.rng.randrange(len(ids))]

    @staticmethod
    def reseedable():
        """`(reseed, index)`: `reseed(seed)` makes `index` draw as the agent made with `seed`. A batch seeds
        one per seat for each game: making a random.Random costs 0.8 µs beside its 4.5 of seeding, and
        for an int seed Random.seed is the C seed taken here (plus `gauss_next`, which `_randbelow` never
        reads)."""
        rng = random.Random()
        return super(random.Random, rng).seed, rng._randbelow


class FirstLegalAgent:
    def __init__(self, seed: int = 0):
        """`seed` is not used: the agent draws nothing (every kind of agent is made from a seed)."""

    def choose(self, session) -> int:
        return session.legal_ids()[0]

    @staticmethod
    def index(n: int) -> int:
        return 0

    @staticmethod
    def reseedable():
        """`(reseed, index)` as RandomAgent's: there is nothing to seed."""
        return _no_seed, FirstLegalAgent.index


def _no_seed(seed: int) -> None:
    pass
