"""Players that are not people: each picks one option id from the legal ones."""
from __future__ import annotations

from .basic import FirstLegalAgent, RandomAgent, make_agent, AGENT_KINDS

__all__ = ["FirstLegalAgent", "RandomAgent", "make_agent", "AGENT_KINDS"]
