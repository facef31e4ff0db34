"""A game in progress, as plain data.

Everything that changes lives here: the zones and where each card is, the
variables, the RNG, and where the rules wait (a stack of frames, each a list
`[rule index, pc, local values...]`, plus the pending decision). Values are
ints, bools, strings, None and tuples of them, so a copy is a few list copies
and a save is a YAML document.
"""
from __future__ import annotations

from ..runtime.rng import seed_state


class State:
    __slots__ = ("zones", "where", "vars", "_rng", "stack", "pending", "n", "names", "result", "sink",
                 "chance", "forced", "decisions", "program", "ticks", "watch", "seen")

    def __init__(self):
        self.zones: list[list[int]] = []
        self.where: list[int] = []   # card id -> zone instance (-1: none); in a program that reads `came_from`,
                                     # followed by card id -> the instance it last left (`where[cards + c]`)
        self.vars: list = []
        self._rng = 0                # the RNG (`rng`), or (seed,) until the seed is first mixed
        self.stack: list[list] = []
        self.pending = None          # (choice index, chooser, the legal option ids) while waiting
        self.n = 0
        self.names: tuple = ()
        self.result = None           # (scores tuple, tiebreaks tuple, winners tuple) once over
        self.sink = None             # list collecting narration, or None (not part of the game)
        self.chance = None           # list recording each chance outcome, or None (see runtime.helpers)
        self.forced = None           # a scenario's `next random/shuffle is …` still to come: (kind, function of the state)
        self.decisions = 0           # decisions taken so far
        self.program = None
        self.ticks = 2_000_000       # steps left before the step budget stops the rules (machine.STEP_BUDGET);
                                     # a label or invariant shown before any decision spends from it too
        self.watch = None            # a scenario's check as the option just taken ends its block (engine.scenarios)
        self.seen: tuple = ()        # zone instance -> bit mask of the seats that see its cards now: the
                                     # program's seen_masks at the start, changed by `show` and `hide`
                                     # (a tuple, replaced whole when it changes, so a copy shares it)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def rng(self) -> int:
        """The RNG's state (runtime.rng: SplitMix64 on one integer). A new game keeps its seed as
        `(seed,)` and mixes it (rng.seed_state) when first read or drawn from, so a game that draws
        nothing never pays for it; whenever it is read, saved or compared it is the mixed number."""
        s = self._rng
        if s.__class__ is tuple:
            s = self._rng = seed_state(s[0])
        return s

    @rng.setter
    def rng(self, value: int) -> None:
        self._rng = value

    def copy(self, keep_logs: bool = False) -> "State":
        """An exact copy of the game; the narration and chance logs are shared only with `keep_logs`."""
        c = State.__new__(State)
        c.zones = list(map(list.copy, self.zones))
        c.where = self.where[:]
        c.vars = [_copy(v) if type(v) is list else v for v in self.vars]
        c._rng = self._rng            # (seed,) still: each mixes it when it draws, to the same number
        c.stack = list(map(list.copy, self.stack))
        c.pending = self.pending
        c.n = self.n
        c.names = self.names
        c.result = self.result
        c.sink = self.sink if keep_logs else None
        c.chance = self.chance if keep_logs else None
        c.forced = list(self.forced) if self.forced else None
        c.decisions = self.decisions
        c.program = self.program
        c.ticks = self.ticks         # (what is shown of a copy spends steps: every comprehension does)
        c.watch = None
        c.seen = self.seen
        return c

    def same_as(self, other: "State", frames: bool = True) -> bool:
        """Exactly the same game; with `frames=False`, whatever the compiled rules' frames hold
        (they are where this version of the compiled rules waits, derived from the decisions)."""
        return (self.zones == other.zones and self.where == other.where and self.vars == other.vars
                and self.rng == other.rng and (not frames or self.stack == other.stack)
                and self.pending == other.pending and self.n == other.n and self.result == other.result
                and self.decisions == other.decisions and self.seen == other.seen)


def _copy(v: list) -> list:
    """Copy the containers of a variable (per-player lists, tables); values inside are immutable."""
    if v and type(v[0]) is list:
        return [x[:] for x in v]
    return v[:]
