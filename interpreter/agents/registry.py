"""Every agent kind by name, as OpenSpiel's REGISTER_SPIEL_BOT.

One table that `make_agent`, the CLI's `--agents` help and the "unknown agent"
error all read, so a new agent is one entry here and nothing else.
"""
from __future__ import annotations

from typing import Callable

import attrs

from ..diagnostics import UserError
from .basic import FirstLegalAgent, RandomAgent
from .human import HumanAgent


@attrs.frozen
class AgentKind:
    name: str
    make: Callable[[int], object]      # the agent's own seed -> an agent
    about: str                         # one line for the help


AGENT_KINDS = {k.name: k for k in (
    AgentKind("random", RandomAgent, "a legal option at random, from its own seed"),
    AgentKind("first", lambda seed: FirstLegalAgent(), "always the first legal option"),
    AgentKind("human", lambda seed: HumanAgent(), "a person at the keyboard ('play' only)"),
)}


def agent_kind(name: str) -> AgentKind:
    """The kind a name (any case) stands for; an unknown name is a UserError listing the known ones."""
    key = name.strip().lower()
    if key not in AGENT_KINDS:
        raise UserError(f"unknown agent '{key}' (agents: {', '.join(AGENT_KINDS)})")
    return AGENT_KINDS[key]


def make_agent(name: str, seed: int = 0):
    return agent_kind(name).make(seed)


def described() -> str:
    """The kinds with their one-line descriptions, for help text."""
    return "; ".join(f"{k.name}: {k.about}" for k in AGENT_KINDS.values())
