"""How many decisions a game may take: its rules' `limit decisions N`, or one default cap.

Every way of playing a game without a person at every seat — `run`, `replay`, `test`,
`simulate`, `tournament`, the Python API and the RL adapters — stops a game at the same
number of decisions, and `play` does too, with the same sentence: rules with no end never
hang a tool. The cap is named here once.
"""
from __future__ import annotations

from ..runtime.errors import RulesRuntimeError

DEFAULT_DECISION_LIMIT = 5000     # the cap of rules that state no `limit decisions`


def decision_limit(program) -> int:
    """The most decisions a game of these rules may take: its `limit decisions`, else the default cap."""
    return program.limit if program.limit is not None else DEFAULT_DECISION_LIMIT


def past_limit(program, subject: str = "the game has") -> str:
    """The one sentence for a game stopped at its limit: how far it went, and what to do about it."""
    limit = decision_limit(program)
    forever = ("if play can go on for ever (a player who may always draw instead of playing), "
               "give the rules an end")
    if program.limit is None:
        return (f"{subject} not ended after {limit} decisions, rulecraft's limit for rules that state none: "
                f"if these rules do end, add `limit decisions N` to them, N the longest game they allow; {forever}")
    return (f"{subject} not ended after {limit} decisions, the limit its rules set (`limit decisions {limit}`): "
            f"if these rules do end, raise the limit to the longest game they allow; {forever}")


class PastLimit(RulesRuntimeError):
    """A decision asked of a game already at its limit (`past_limit` says so)."""
