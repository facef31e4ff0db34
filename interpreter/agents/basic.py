"""The built-in agents: random (seeded) and first-legal (agents/registry.py names them).

An agent is anything with `choose(session) -> option id`; it asks the session,
never the machine, what is legal. Agents draw their own chance from their own
seed, never from the game's RNG, so adding an agent does not change the game's cards.
Both decide from the legal ids alone, so they also offer `pick(ids) -> id`: a batch
(simulate.games) calls it directly, with no Seat built per decision; it draws as `choose` does.
"""
from __future__ import annotations

import random


class RandomAgent:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._below = self.rng._randbelow   # randrange(n) for n > 0, the same draws, without its checks

    def choose(self, session) -> int:
        ids = session.legal_ids()
        return ids[self.rng.randrange(len(ids))]

    def pick(self, ids) -> int:
        return ids[self._below(len(ids))]


class FirstLegalAgent:
    def choose(self, session) -> int:
        return session.legal_ids()[0]

    def pick(self, ids) -> int:
        return ids[0]

