"""Playouts: a game run on to its end (or for a number of decisions) by a function that chooses.

Two paths, one game. The *resumable* path (machine.decide) returns to its caller at every decision,
leaving where the rules wait as data in the state: it is what copies, saves, undo and stepping need.
Most playouts need none of that — random play, `simulate`, a search's rollouts — so `playout` takes
the *fast* path: the same rules compiled a second time from the same IR (`Program.fast`, made when
first asked: compile.rules with `fast`), in which a choice calls `choose` where it would wait and
runs straight on into the option's block, its locals still in Python locals. It resumes from the
state's frames once, at the start; it stops where the resumable path would (the same frames, the
same pending decision) when `choose` returns None, which is how `max_decisions` is kept.
tests/test_playout.py holds the two paths to the same games, decision by decision.

The reference loop (`reference_playout`) is taken where the fast path does not go: a game with
`anytime` options, a state a scenario watches (`State.watch`), a program compiled without its
twin (`Program.fast` None).
"""
from __future__ import annotations

from ..runtime.errors import STEP_BUDGET
from . import machine
from .state import State


def playout(m: State, choose, max_decisions: int | None = None) -> None:
    """Run the game in `m` on, in place, calling choose(m, chooser, ids) -> one of ids at each decision
    (chooser: the 0-based seat; ids: the tuple of legal option ids, as machine.legal_ids gives them).
    On return m is over (m.result set), or, when max_decisions decisions were taken, waits at a pending
    decision exactly as the resumable path (machine.decide) would leave it.

    `choose` may read the state's zones and variables, never copy, save or decide it: on the fast
    path the rules' locals are not in its frames while it runs. It must return one of `ids`, or None to
    stop there (the state then waits at that decision, as after max_decisions). An
    exception out of `choose` comes out of `playout` as it is (the state is then no game to go on
    with); one out of the rules is a RulesRuntimeError naming the rule and line, as `decide` says it."""
    if m.pending is None or (max_decisions is not None and max_decisions <= 0):
        return
    program = m.program
    fast = program.fast() if program.fast is not None and not program.anytimes and m.watch is None else None
    if fast is None:
        reference_playout(m, choose, max_decisions)
        return
    if max_decisions is not None:
        choose = _limited(choose, m.decisions + max_decisions)
    # the decision waited on: taken as machine.decide takes it, with the fast twin's blocks
    ci, who, ids = m.pending
    a = choose(m, who, ids)
    if a is None:
        return
    if a not in ids:
        raise machine.IllegalDecision(f"option {a} is not one of the legal options now")
    if a.__class__ is not int:
        a = ids[ids.index(a)]
    info = fast.choices[ci]
    k = a - info.offset
    stack = m.stack
    m.pending = None
    m.decisions += 1
    m.ticks = STEP_BUDGET
    entries = fast.entries
    try:
        if 0 <= k < info.size:
            body = info.body
            if body is not None:
                if body(m, stack[-1], info.values[k], choose):
                    return
                stack.pop()
            else:
                fr = stack[-1]
                fr[info.var_index] = info.values[k]
                fr[1] = info.body_pc
        else:                                   # the pass of a `may choose` (no anytime options here)
            stack[-1][1] = info.else_pc
        while stack:
            fr = stack[-1]
            if entries[fr[0]][fr[1]](m, fr, choose):
                return                          # waits: max_decisions reached
            stack.pop()
    except Exception as e:
        if _raised_by(e, choose):
            raise           # the agent's own error (a UserError, say), not the rules': as the reference loop lets it out
        raise machine._failure(m, e, STEP_BUDGET) from None
    machine.finish(m)


def _raised_by(e: Exception, choose) -> bool:
    """Did `e` come out of `choose` (called by the fast path's rules), not out of the rules themselves?
    The frame the innermost rules' function called is choose's own (or the max_decisions wrapper's)."""
    codes = {_code(choose)}
    inner = getattr(choose, "inner", None)
    if inner is not None:
        codes.add(_code(inner))
    tb, called = e.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<rules "):
            called = tb.tb_next
        tb = tb.tb_next
    return called is not None and called.tb_frame.f_code in codes


def _code(fn):
    """The code object a call of `fn` runs first: a function's, a bound method's, a callable object's."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        call = getattr(type(fn), "__call__", None)
        code = getattr(getattr(call, "__func__", call), "__code__", None)
    return code


def _limited(choose, stop: int):
    """`choose` until the state has taken `stop` decisions, then None: the rules wait there."""
    def limited(m, who, ids):
        if m.decisions >= stop:
            return None
        return choose(m, who, ids)
    limited.inner = choose
    return limited


def reference_playout(m: State, choose, max_decisions: int | None = None) -> None:
    """The resumable path, decision by decision (machine.decide): what the fast path must equal
    (`choose` returning None stops it there too)."""
    decide = machine.decide
    left = -1 if max_decisions is None else max_decisions
    while left != 0:
        pending = m.pending
        if pending is None:
            return
        a = choose(m, pending[1], pending[2])
        if a is None:
            return
        decide(m, a)
        left -= 1


__all__ = ["playout", "reference_playout"]
