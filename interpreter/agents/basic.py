"""The built-in agents: random (seeded) and first-legal.

An agent is anything with `choose(session) -> option id`. Agents draw their
own chance from their own seed, never from the game's RNG, so adding an agent
does not change the game's cards.
"""
from __future__ import annotations

import random

from ..diagnostics import UserError
from ..engine import machine


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, session) -> int:
        ids = machine.legal_ids(session.state)
        return ids[self.rng.randrange(len(ids))]


class FirstLegalAgent:
    name = "first"

    def choose(self, session) -> int:
        return machine.legal_ids(session.state)[0]


AGENT_KINDS = {"random": RandomAgent, "first": FirstLegalAgent}


def make_agent(kind: str, seed: int = 0):
    kind = kind.strip().lower()
    if kind == "random":
        return RandomAgent(seed)
    if kind in ("first", "first-legal", "firstlegal"):
        return FirstLegalAgent()
    if kind == "human":
        from .human import HumanAgent
        return HumanAgent()
    raise UserError(f"unknown agent '{kind}' (agents: random, first, human)")
