"""CompileOptions: every optimisation the compiler may leave out, in one place, passed in.

Each switch is an optimisation whose off side is kept because a test compares the two sides (the
same games, the same failures) or a benchmark measures it (`benchmarks/switches.py --switch NAME`,
one process, off and on alternated). An optimisation that saves under 2 % on every bundled game,
or that the fast path (engine.playout) makes moot, is deleted rather than listed (issue 25 item 8):
the figure that decided each is in the commit that removed or kept it. The defaults are what every
game is compiled with; tests build options with `replace(DEFAULT, name=value)`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class CompileOptions:
    # rules (compile/inline.py, compile/rules.py)
    inline: bool = True
    """A rule with one caller that waits on no other is written into its caller (compile.inline):
    no frame made, no call. Blackmore 4p +7 % resumable, +9 % fast (switches.py, random playouts)."""
    bodies: bool = True
    """An option's block is a function the machine calls with the chosen value (RuleGen.body_function):
    no pc stored and tested, the value not put in the frame. Blackmore 4p +5 % on the resumable path."""
    entries: bool = True
    """Where a rule resumes it is entered by a function of its own (RuleGen.entry_function), not by the
    dispatch loop's tests. Three Sisters 4p +13 %, tic-tac-toe +12 % on the resumable path."""
    # loops (compile/loops.py, compile/statements.py)
    loops: bool = True
    """A comprehension a statement computes whole is a loop of the rule's own function (LoopGen.list_loop,
    cond_loop): on CPython 3.11 a comprehension makes and calls a function; `any`/`all` stop early."""
    rows: bool = True
    """A table's row read or written in a Python loop is read once before it (StatementGen)."""
    # expressions (compile/expressions.py and the modules it mixes in)
    extremes: bool = True
    """`min`/`max` of numbers written out is a conditional expression, not a call of Python's."""
    # checks, for tests only
    check_clean: bool = False
    """Not an optimisation: each frame store left out as unneeded is written as a check that it would
    store nothing new (tests/test_compiled_paths.py)."""

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def with_(self, **changes) -> "CompileOptions":
        return replace(self, **changes)

    @classmethod
    def every(cls, on: bool) -> "CompileOptions":
        """Every optimisation made (`on`) or none: what tests compare."""
        return cls(**{name: on for name in cls.names() if name != "check_clean"})


DEFAULT = CompileOptions()
SWITCHES = [name for name in CompileOptions.names() if name != "check_clean"]   # the optimisations

__all__ = ["CompileOptions", "DEFAULT", "SWITCHES"]
