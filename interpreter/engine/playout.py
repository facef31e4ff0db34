"""A playout: the game run on in place, an agent's callback at each decision, no round trip per decision.

The reference body: a loop over machine.legal_ids / machine.decide. The fast path (issue 25,
item 1) replaces it with one that keeps the rules' locals in Python locals between decisions;
the interface stays. `simulate` plays its agent-only games through it.
"""
from __future__ import annotations

from .machine import decide
from .state import State


def playout(m: State, choose, max_decisions: int | None = None) -> None:
    """Run the game in `m` on, in place, calling choose(m, chooser, ids) -> one of ids at each decision
    (chooser: the 0-based seat; ids: the tuple of legal option ids, as machine.legal_ids gives them).
    On return m is over (m.result set), or, when max_decisions decisions were taken, waits at a pending
    decision exactly as machine.decide would leave it."""
    left = -1 if max_decisions is None else max_decisions
    while m.result is None and left != 0:
        _ci, who, ids = m.pending
        decide(m, choose(m, who, ids))
        left -= 1
