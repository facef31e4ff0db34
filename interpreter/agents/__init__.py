"""Players that are not people: each picks one option id from the legal ones."""
from __future__ import annotations

from .basic import FirstLegalAgent, RandomAgent
from .registry import AGENT_KINDS, agent_kind, described, make_agent

__all__ = ["FirstLegalAgent", "RandomAgent", "AGENT_KINDS", "agent_kind", "described", "make_agent"]
