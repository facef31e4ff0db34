"""Errors raised while rules run."""
from __future__ import annotations


class RuleFailure(Exception):
    """Raised inside a compiled closure; the machine adds the rule, line and call chain."""


class RulesRuntimeError(Exception):
    """A rule failed while the game ran: names the rule, its line, and the rules that led there."""

    def __init__(self, message: str, span=None, chain=()):
        self.span = span
        chain = tuple(chain)
        if len(chain) > 50:   # endless recursion: the innermost calls and the outermost ones are enough
            chain = chain[:40] + (("…", f"{len(chain) - 50} more calls"),) + chain[-10:]
        self.chain = chain
        text = f"{span}: runtime error: {message}" if span is not None else f"runtime error: {message}"
        for rule, where in self.chain:
            text += f"\n  in rule '{rule}' at {where}" if rule != "…" else f"\n  … {where}"
        super().__init__(text)


STEP_BUDGET = 2_000_000     # steps the rules may run between two decisions (State.ticks counts them down)


class StepBudgetSpent(RuleFailure):
    """Raised when the rules run too long without a decision (a loop's back edge checks it). A failure of
    the rules like any other where something shown (a label, a score) spends the budget."""

    def __str__(self):
        return "it ran out of steps (2,000,000, an endless loop?)"


class InternalError(RulesRuntimeError):
    """A fault of the interpreter itself, not of the rules: said so plainly, with the rule and line."""
