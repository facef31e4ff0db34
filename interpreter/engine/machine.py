"""The machine: runs a compiled program on a State until the next decision.

The state's stack holds frames `[rule index, pc, locals...]`. Each step calls
the operation at `pc` of the top frame; the operation returns the next pc, or
CALLED (a frame was pushed or popped) or WAITING (a decision is pending). When
the stack is empty the game is over and the scores are computed.
"""
from __future__ import annotations

import attrs

from ..compile.compiler import CALLED, OFFSET, WAITING
from ..compile.errors import RuleFailure, RulesRuntimeError, StepBudgetSpent
from . import rng
from .state import State

STEP_BUDGET = 2_000_000


class IllegalDecision(Exception):
    """A decision that is not among the legal options; the state is untouched."""


@attrs.frozen
class Option:
    id: int
    label: str


def new_game(program, players: int, options: dict | None = None, seed: int = 0, names=None, sink=None,
             setup: str = "setup") -> State:
    """Set up a game and run it to its first decision. `options` maps names to stored values.

    `setup` names the rule run before `play` (a scenario's `arrange` block replaces `setup`)."""
    if not program.min_players <= players <= program.max_players:
        raise ValueError(f"{program.title} is for {_count_text(program)}, not {players}")
    m = State()
    m.program = program
    m.n = players
    m.names = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(players))
    m.sink = sink
    m.zones = [[] for _ in program.zone_instance_names]
    m.where = [-1] * len(program.card_names)
    m.vars = [None] * program.var_count
    m.rng = rng.seed_state(seed)
    values = dict(options or {})
    for o in program.options:
        value = values.pop(o.name, o.default)
        if not _option_allows(o, value):
            raise ValueError(f"option '{o.name}' is {o.domain_text()}, not {value!r}")
        m.vars[o.slot] = value
    if values:
        raise ValueError(f"{program.title} has no option '{sorted(values)[0]}'")
    for v in program.vars:
        def value():
            one = v.init(m) if v.init is not None else v.default
            return [one] * v.table_size if v.table_size else one
        try:
            if v.owner:
                count = players if v.owner == "player" else len(program.teams)
                m.vars[v.slot] = [value() for _ in range(count)]
            else:
                m.vars[v.slot] = value()
        except RuleFailure as e:
            raise RulesRuntimeError(f"the starting value of '{v.name}': {e}") from None
    play = program.rule_index["play"]
    m.stack.append([play, 0] + [None] * program.codes[play].frame_size)
    if setup in program.rule_index:
        first = program.rule_index[setup]
        m.stack.append([first, 0] + [None] * program.codes[first].frame_size)
    run(m)
    return m


def _option_allows(o, value) -> bool:
    """Is `value` a stored value of option `o` (an index for a choice, a bool, a number in range)?"""
    if o.kind == "bool":
        return type(value) is bool
    if type(value) is not int:
        return False
    if o.kind == "choice":
        return 0 <= value < len(o.values)
    return o.values[0] <= value <= o.values[1]


def _count_text(program):
    if program.min_players == program.max_players:
        return f"{program.min_players} players"
    return f"{program.min_players} to {program.max_players} players"


def run(m: State, budget: int = STEP_BUDGET) -> None:
    """Run until a decision is pending or the game is over."""
    codes = m.program.codes
    stack = m.stack
    steps = 0
    fr = None
    cur = 0
    m.ticks = budget
    try:
        while stack:
            fr = stack[-1]
            ops = codes[fr[0]].ops
            pc = fr[1]
            while pc >= 0:
                cur = pc
                pc = ops[pc](m, fr)
            if pc == WAITING:
                return
            steps += 1
            if steps > budget or m.ticks < 0:
                fr[1] = cur
                raise StepBudgetSpent()
            # CALLED: a frame was pushed (the caller saved its pc) or popped
    except StepBudgetSpent as e:
        fr[1] = cur
        raise _runtime_error(m, e, f"the rules ran {budget:,} steps without a decision (an endless loop?)") from None
    except RuleFailure as e:
        fr[1] = cur
        raise _runtime_error(m, e, str(e)) from None
    except RecursionError as e:
        fr[1] = cur
        raise _runtime_error(m, e, "a rule or function calls itself without end") from None
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
        fr[1] = cur
        raise _runtime_error(m, e, f"{type(e).__name__}: {e}") from None
    m.pending = None
    finish(m)


def _runtime_error(m, exc, message):
    """Name the rule and line that failed, and the chain of rules that led there.

    Rules compiled to Python are found through the traceback (their generated
    file names map each line back to a span); the VM's frames give the rest.
    """
    codes = m.program.codes
    native = m.program.native_lines
    chain = []
    span = None
    inner = []
    tb = exc.__traceback__ if exc is not None else None
    while tb is not None:
        entry = native.get(tb.tb_frame.f_code.co_filename)
        if entry is not None:
            label, spans = entry
            line = tb.tb_lineno
            if 0 < line < len(spans) and spans[line] is not None:
                inner.append((label, spans[line]))
        tb = tb.tb_next
    for label, where in reversed(inner):
        if span is None:
            span = where
        chain.append((label.replace("rule ", "").split("#")[0].split("@")[0], str(where)))
    for depth, frame in enumerate(reversed(m.stack)):
        code = codes[frame[0]]
        pc = frame[1] if depth == 0 else frame[1] - 1   # a caller's pc is its return address
        where = code.spans[pc] if 0 <= pc < len(code.spans) else code.span
        if span is None:
            span = where
        name = code.name.split("@")[0]
        if chain and chain[-1][0] == name:
            continue   # the VM frame of a rule already named from its Python code
        chain.append((name, str(where)))
    return RulesRuntimeError(message, span, chain)


def finish(m: State) -> None:
    p = m.program
    scores = tuple(_score(m, p.score, i) for i in range(m.n)) if p.score else tuple(0 for _ in range(m.n))
    ties = tuple(_score(m, p.tiebreak, i) for i in range(m.n)) if p.tiebreak else tuple(0 for _ in range(m.n))
    best = max(zip(scores, ties))
    winners = tuple(i for i in range(m.n) if (scores[i], ties[i]) == best)
    m.result = (scores, ties, winners)


def _score(m, score, player):
    try:
        return score(m, player)
    except RuleFailure as e:
        raise RulesRuntimeError(f"scoring: {e}") from None


# ------------------------------------------------------------------ decisions
def chooser(m: State):
    return m.pending[1] if m.pending else None


def legal_ids(m: State) -> list[int]:
    """Ids of the legal options, in the order the rules list them (pass last)."""
    pending = m.pending
    return list(pending[3]) if pending is not None else []


def legal_options(m: State) -> list[Option]:
    if m.pending is None:
        return []
    return [Option(i, label(m, i)) for i in m.pending[3]]


def label(m: State, action_id: int) -> str:
    """The readable label of an option of the pending decision."""
    anytime = m.program.anytimes.get(action_id)
    if anytime is not None:
        return anytime.label(m, m.pending[1])
    info = m.program.choices[m.pending[0]]
    fr = m.stack[-1]
    if info.may and action_id == info.offset + info.size:
        return info.pass_label(m, fr)
    saved = fr[info.var_index]
    fr[info.var_index] = info.value_at(action_id - info.offset)
    try:
        return info.label(m, fr)
    finally:
        fr[info.var_index] = saved


def decide(m: State, action_id: int) -> None:
    """Take a legal option and run to the next decision; an illegal id changes nothing."""
    pending = m.pending
    if pending is None:
        raise IllegalDecision("the game is over" if m.result is not None else "no decision is pending")
    ci, _who, values, ids = pending
    try:
        k = ids.index(action_id)
    except ValueError:
        raise IllegalDecision(f"option {action_id} is not one of the legal options now") from None
    program = m.program
    info = program.choices[ci]
    fr = m.stack[-1]
    anytime = program.anytimes.get(action_id) if program.anytimes else None
    if anytime is not None:
        # run the anytime action; the choice (still at its pc) then asks again
        m.stack.append([anytime.code, 0, _who] + [None] * (anytime.frame_size - 1))
    elif k == len(values):        # the pass option of a `may choose`
        fr[1] = info.else_pc
    else:
        fr[info.var_index] = values[k]
        fr[1] = info.body_pc
    m.pending = None
    m.decisions += 1
    run(m)


def decide_by_label(m: State, text: str) -> int:
    for o in legal_options(m):
        if o.label == text:
            decide(m, o.id)
            return o.id
    raise IllegalDecision(f"'{text}' is not a legal option now")


def check_invariants(m: State) -> list[str]:
    """Names of the program's invariants that do not hold in this state."""
    failed = []
    for name, fn, size, _span in m.program.invariants:
        try:
            ok = fn(m)
        except RuleFailure:
            ok = False
        if not ok:
            failed.append(name)
    return failed


__all__ = ["new_game", "run", "decide", "legal_ids", "legal_options", "label", "chooser", "IllegalDecision",
           "Option", "check_invariants", "OFFSET", "CALLED"]
