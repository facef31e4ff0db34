"""The machine: runs a compiled program on a State until the next decision.

The state's stack holds frames `[rule index, pc, locals...]`, innermost last.
Each rule is a function that starts or resumes at its frame's pc and returns
True when it waits for a decision (see compile.rules); `run` drives the frames
top first until one waits or the stack is empty — then the game is over and
the scores are computed.
"""
from __future__ import annotations

from .. import slotclasses
from ..runtime import rng
from ..runtime.helpers import rt_drive
from ..runtime.errors import STEP_BUDGET, InternalError, RuleFailure, RulesRuntimeError, StepBudgetSpent
from . import outcomes
from .state import State


class IllegalDecision(Exception):
    """A decision that is not among the legal options; the state is untouched."""


@slotclasses.frozen       # not attrs: `import attrs` would cost `rulecraft run` ~10 ms (slotclasses.py)
class Option:
    id: int
    label: str


def new_game(program, players: int, options: dict | None = None, seed: int = 0, names=None, sink=None,
             setup: str = "setup", chance: list | None = None, forced: list | None = None) -> State:
    """Set up a game and run it to its first decision. `options` maps names to stored values.

    `setup` names the rule run before `play` (a scenario's `arrange` block replaces `setup`);
    `sink` collects the narration and `chance` each chance outcome, when given; `forced` are a
    scenario's outcomes for the next draws: ("random" or "shuffle", function of the state), in order.

    What every game of a program and player count starts with is worked out once (`_start`): a batch
    starts thousands of games, and a small game's playout is short beside the setting up."""
    start = program.starts.get((players, setup))
    if start is None:
        start = _start(program, players, setup)
    m = State.__new__(State)       # every slot set here (State() would set each twice)
    m.program = program
    m.n = players
    m.names = tuple(names) if names else start.names
    m.sink = sink
    m.chance = chance
    m.forced = forced
    m.zones = list(map(list, start.zones))
    m.where = start.where[:]
    m.seen = start.seen
    m.vars = values = start.vars[:]            # the options' defaults in place
    m._rng = (seed,) if seed.__class__ is int else rng.seed_state(seed)   # mixed when first read (State.rng)
    m.stack = stack = list(map(list, start.frames))
    m.pending = m.result = m.watch = None
    m.decisions = m.ticks = 0
    for slot, copy in start.fresh:             # a constant start's list: a fresh copy per game
        values[slot] = copy(values[slot])
    if options:
        _set_options(program, values, options)
    for slot, init, v in start.started:        # the variables with a starting value to compute, in slot order
        try:
            values[slot] = init(m) if init is not None else _start_value(m, v, players, program)
        except RuleFailure as e:
            raise RulesRuntimeError(f"the starting value of '{v.name}': {e}") from None
    m.ticks = STEP_BUDGET                      # run(m), inlined: run to the first decision
    entries = program.entries
    try:
        while stack:
            fr = stack[-1]
            if entries[fr[0]][fr[1]](m, fr):
                return m
            stack.pop()
    except Exception as e:
        raise _failure(m, e, STEP_BUDGET) from None
    finish(m)
    return m


@slotclasses.frozen(eq=False)
class _Start:
    """What every new game of a program for a player count (and setup rule) starts with."""
    names: tuple               # the default names
    zones: tuple               # () per zone instance: a new game's empty zones are lists of these
    where: list                # a place per card: none
    seen: tuple
    vars: list                 # the options' defaults at their slots, each variable's default at its own,
                               # or its starting value when that is a constant computed here (`_constant`)
    fresh: tuple               # (slot, copy) of each constant start that is a list: copy makes a game's own
    started: tuple             # (slot, init, VarInfo) of each variable whose starting value is computed, in
                               # slot order: init is the function a shared single value is, else None
    frames: tuple              # `play`'s frame, then the setup rule's if the rules have one


def _start(program, players: int, setup: str) -> "_Start":
    if not program.min_players <= players <= program.max_players:
        raise ValueError(f"{program.title} is for {seats_text(program)}, not {players}")
    values = [None] * program.var_count
    for o in program.options:
        values[o.slot] = o.default
    started, fresh = [], []
    for v in program.vars:
        if not started and _constant(v.init):  # the same start in every game: worked out once (none computed
            value = _constant_start(v, players, program)          # before it could read its default)
            if value is not None:
                values[v.slot] = value
                if type(value) is list:
                    fresh.append((v.slot, _copy_nested if value and type(value[0]) is list else list.copy))
                continue
        if v.owner or v.table_size:           # a fresh list per game
            started.append((v.slot, None, v))
            continue
        values[v.slot] = v.default            # the type's default, immutable: what a starting value declared
        if v.init is not None:                # before it reads of it (it once read None, and failed)
            started.append((v.slot, v.init, v))
    play = program.rule_index["play"]
    frames = [[play, 0] + [None] * program.codes[play].frame_size]
    if setup in program.rule_index:
        first = program.rule_index[setup]
        frames.append([first, 0] + [None] * program.codes[first].frame_size)
    start = _Start(_default_names(players), ((),) * len(program.zone_instance_names), [-1] * program.where_size,
                   program.seen_masks[players], values, tuple(fresh), tuple(started), tuple(frames))
    program.starts[(players, setup)] = start
    return start


def _set_options(program, values: list, options: dict) -> None:
    """Each option's stored value at its slot, checked (an unknown name or a value out of the option's
    domain is a ValueError, the first option in the program's order said first)."""
    named = 0
    for o in program.options:
        if o.name in options:
            value = options[o.name]
            if not _option_allows(o, value):
                raise ValueError(f"option '{o.name}' is {o.domain_text()}, not {value!r}")
            values[o.slot] = value
            named += 1
    if named != len(options):
        unknown = sorted(name for name in options if program.option(name) is None)
        raise ValueError(f"{program.title} has no option '{unknown[0]}'")


def _start_value(m, v, players, program):
    """A variable's value at the start: one per player or team when it is owned, a list for a table."""
    if v.owner:
        count = players if v.owner == "player" else len(program.teams)
        return [_one_start_value(m, v) for _ in range(count)]
    return _one_start_value(m, v)


def _one_start_value(m, v):
    one = v.init(m) if v.init is not None else v.default
    return [one] * v.table_size if v.table_size else one


def _constant(init) -> bool:
    """Is a starting value the same in every game: no function (the type's default), or one that reads
    nothing but its own constants (no name, no attribute — so neither the state, nor the options, nor the
    chance — and no closure)? Its value is immutable (values are ints, bools, strings, None and tuples)."""
    if init is None:
        return True
    code = getattr(init, "__code__", None)
    return code is not None and not (code.co_names or code.co_freevars or code.co_cellvars)


def _constant_start(v, players: int, program):
    """The value a constant start is in every game; None when it fails (each game then says so)."""
    try:
        return _start_value(None, v, players, program)
    except Exception:
        return None


def _copy_nested(v: list) -> list:
    """A per-player table's own lists (one per player or team)."""
    return list(map(list.copy, v))


def _option_allows(o, value) -> bool:
    """Is `value` a stored value of option `o` (an index for a choice, a bool, a number in range)?"""
    if o.kind == "bool":
        return type(value) is bool
    if type(value) is not int:
        return False
    if o.kind == "choice":
        return 0 <= value < len(o.values)
    return o.values[0] <= value <= o.values[1]


_NAMES: dict = {}


def _default_names(players: int) -> tuple:
    """"Player 1", "Player 2", …: made once per player count (a batch starts thousands of games)."""
    names = _NAMES.get(players)
    if names is None:
        names = _NAMES[players] = tuple(f"Player {i + 1}" for i in range(players))
    return names


def seats_text(program) -> str:
    """How many players the rules seat, in words: "1 player", "4 players", "2 to 6 players"."""
    low, high = program.min_players, program.max_players
    if low == high:
        return f"{low} player{'' if low == 1 else 's'}"
    return f"{low} to {high} players"


def run(m: State, budget: int = STEP_BUDGET) -> None:
    """Run until a decision is pending or the game is over."""
    decide(m, GO_ON, budget)


def _failure(m, e, budget):
    """The error to raise for an exception out of the rules' code."""
    if isinstance(e, StepBudgetSpent):
        return _runtime_error(m, e, f"the rules ran {budget:,} steps without a decision (an endless loop?)")
    if isinstance(e, RuleFailure):
        return _runtime_error(m, e, str(e))
    if isinstance(e, RecursionError):
        return _runtime_error(m, e, "rules or functions call each other too deeply (about 900 calls inside one "
                                    "another at most): a recursion without end, or a finite one too deep for rulecraft — "
                                    "write a deep one as a `while` loop")
    # not the rules' fault: say so, with where the rules stood
    return _runtime_error(m, e, f"internal error in rulecraft, please report it: {type(e).__name__}: {e}", InternalError)


def _runtime_error(m, exc, message, kind=RulesRuntimeError):
    """Name the rule and line that failed, and the chain of rules that led there.

    The generated functions running at the failure are found through the traceback (their file
    names map each line back to a span); the frames below them on the stack wait at their pc.
    """
    program = m.program
    chain = []
    running = 0          # rule functions in the traceback that own a frame on the stack
    tb = exc.__traceback__ if exc is not None else None
    while tb is not None:
        code = tb.tb_frame.f_code
        entry = program.lines.get(code.co_filename)
        kind_of = code.co_name[:1]
        if entry is not None and kind_of in "RWFB" and code.co_name[1:].isdigit():   # a rule's function
            label, spans = entry
            line = tb.tb_lineno
            if 0 < line < len(spans) and spans[line] is not None:
                chain += _placed(label, spans[line])
            if kind_of != "R":
                running += 1      # it owns the frame it runs
        tb = tb.tb_next
    chain.reverse()
    for frame in reversed(m.stack[:max(0, len(m.stack) - running)]):
        code = program.codes[frame[0]]
        pc = frame[1]
        if pc == 0:
            continue      # not started yet (`play` under `setup`, handlers still to run): it led nowhere
        chain += reversed(_placed(f"rule {code.name}", code.spans[pc] if 0 <= pc < len(code.spans) else code.span))
    named = []
    for label, where in chain:
        name = label.replace("rule ", "").split("#")[0].split("@")[0]
        if named and named[-1][0] == name:
            continue       # one rule named once per line of the chain
        named.append((name, str(where)))
    span = chain[0][1] if chain else None
    return kind(message, span, named)


def _placed(label, where) -> list:
    """(rule, span) pairs for where a line stands, outermost first: a line of a rule written into its
    caller (compile.inline) stands in each rule it was written in."""
    if type(where) is tuple:
        return [(label, where[0]), *where[1:]]
    return [(label, where)]


def finish(m: State) -> None:
    """The game is over: its result (scores, tiebreaks, winners). Called at the end of every game, so
    the common case is short: two players' scores without a loop (most games seat two), more by a
    plain loop (a comprehension makes a function at each call), one winner found without a loop."""
    p = m.program
    n = m.n
    score, tiebreak = p.score, p.tiebreak
    try:
        if score is None:
            scores = (0,) * n
        elif n == 2:
            scores = (score(m, 0), score(m, 1))
        else:
            scores = []
            for i in range(n):
                scores.append(score(m, i))
            scores = tuple(scores)
        ties = tuple([tiebreak(m, i) for i in range(n)]) if tiebreak else (0,) * n
    except RuleFailure as e:
        raise RulesRuntimeError(f"scoring: {e}") from None
    if tiebreak:
        best = max(zip(scores, ties))
        winners = tuple([i for i in range(n) if (scores[i], ties[i]) == best])
    elif n == 2:                # no tiebreak: the best score wins
        first, second = scores
        winners = (0,) if first > second else (1,) if second > first else (0, 1)
    else:
        best = max(scores)
        winners = (scores.index(best),) if scores.count(best) == 1 else tuple([i for i in range(n) if scores[i] == best])
    m.result = (scores, ties, winners)
    if p.outcome is not None:   # a declared outcome: its promises kept, a cooperative game's one result
        m.result = (scores, ties, outcomes.winners(m, p.outcome, scores, winners))


def _score(m, score, player):
    """One player's score (or tiebreak, or heuristic), a rules' failure said as the scoring's."""
    try:
        return score(m, player)
    except RuleFailure as e:
        raise RulesRuntimeError(f"scoring: {e}") from None


# ------------------------------------------------------------------ decisions
def chooser(m: State):
    return m.pending[1] if m.pending else None


def only_pass(m: State) -> bool:
    """Is the pending decision a player asked with nothing to choose but the pass? (A `may choose`
    over options some seat may not see asks even then, so that being asked reveals nothing; a
    scenario or an old transcript that leaves such a decision out has it taken for the player.)"""
    pending = m.pending
    if pending is None or len(pending[2]) != 1:
        return False
    info = m.program.choices[pending[0]]
    return info.may and pending[2][0] == info.offset + info.size


def legal_ids(m: State) -> tuple[int, ...]:
    """Ids of the legal options, in the order the rules list them (pass last)."""
    pending = m.pending
    return pending[2] if pending is not None else ()


def legal_options(m: State) -> list[Option]:
    if m.pending is None:
        return []
    return [Option(i, label(m, i)) for i in m.pending[2]]


def prompt(m: State) -> str | None:
    """The question of the pending decision (its `prompt "…"`), for its chooser; None without one."""
    if m.pending is None:
        return None
    info = m.program.choices[m.pending[0]]
    if info.prompt is None:
        return None
    try:
        return info.prompt(m, m.stack[-1])
    except RuleFailure as e:
        raise RulesRuntimeError(f"the prompt of a choice: {e}", info.span, [(info.rule, str(info.span))]) from None


def label(m: State, action_id: int) -> str:
    """The readable label of an option of the pending decision (a label that fails is a rules error)."""
    info = m.program.choices[m.pending[0]]
    try:
        anytime = m.program.anytimes.get(action_id)
        if anytime is not None:
            return anytime.label(m, m.pending[1])
        fr = m.stack[-1]
        if info.may and action_id == info.offset + info.size:
            return info.pass_label(m, fr)
        saved = fr[info.var_index]
        fr[info.var_index] = info.values[action_id - info.offset]
        try:
            return info.label(m, fr)
        finally:
            fr[info.var_index] = saved
    except RuleFailure as e:
        raise RulesRuntimeError(f"the label of an option: {e}", info.span, [(info.rule, str(info.span))]) from None


def shown_label(m: State, action_id: int) -> tuple:
    """The label of an option as segments (engine.observe), for seats other than the chooser's."""
    info = m.program.choices[m.pending[0]]
    if info.secret:
        return info.shown(m, None)
    if m.program.anytimes.get(action_id) is not None or (info.may and action_id == info.offset + info.size):
        return (label(m, action_id),)
    fr = m.stack[-1]
    saved = fr[info.var_index]
    fr[info.var_index] = info.values[action_id - info.offset]
    try:
        return info.shown(m, fr)
    except RuleFailure as e:
        raise RulesRuntimeError(f"the label of an option: {e}", info.span, [(info.rule, str(info.span))]) from None
    finally:
        fr[info.var_index] = saved


GO_ON = object()     # what `run` passes to `decide`: no option to take, only run on from where the rules stand


def decide(m: State, action_id: int, budget: int = STEP_BUDGET) -> None:
    """Take a legal option and run to the next decision; an illegal id changes nothing.

    The rules are run here, not by a call of `run` (which comes here with GO_ON): this runs at
    every decision, and a call less is measurable; so is each test on the way to an option's block."""
    stack = m.stack
    if action_id is not GO_ON:
        pending = m.pending
        if pending is None:
            raise IllegalDecision("the game is over" if m.result is not None else "no decision is pending")
        ci, who, ids = pending
        if action_id not in ids:
            raise IllegalDecision(f"option {action_id} is not one of the legal options now")
        if action_id.__class__ is not int:    # 1.0 or True for option 1: the id it equals (no call of type())
            action_id = ids[ids.index(action_id)]
        info = m.program.choices[ci]
        k = action_id - info.offset
        m.pending = None
        m.decisions += 1
        m.ticks = budget
        if 0 <= k < info.size:        # an option of the choice (the pass and any anytime actions have other ids)
            body = info.body
            if body is not None:      # the option's block, run with the chosen value (compile.rules)
                try:
                    if body(m, stack[-1], info.values[k]):
                        return        # (most decisions: the block asks the next one)
                except Exception as e:
                    raise _failure(m, e, budget) from None
                stack.pop()
            else:
                fr = stack[-1]
                fr[info.var_index] = info.values[k]
                fr[1] = info.body_pc
        elif k == info.size and info.may:     # the pass option of a `may choose` (no anytime option has its id)
            stack[-1][1] = info.else_pc
        else:                         # an anytime option: run it; the choice (still at its pc) then asks again
            anytime = m.program.anytimes[action_id]
            stack.append([anytime.code, 0, who] + [None] * (anytime.frame_size - 1))
            if m.watch is not None:
                _run_anytime_watched(m)
                return
    else:
        m.ticks = budget
    entries = m.program.entries
    try:
        while stack:                 # rt_drive(m, 0), inlined: this loop runs at every decision
            fr = stack[-1]
            if entries[fr[0]][fr[1]](m, fr):
                return
            stack.pop()
    except Exception as e:
        raise _failure(m, e, budget) from None
    m.pending = None
    finish(m)


ANYTIME = -1     # what `State.watch` is told as an `anytime` option's block ends (a choice's index otherwise)


def _run_anytime_watched(m: State) -> None:
    """Run an `anytime` option's block (the frame on top) to its end, tell the state's watch, run on."""
    m.ticks = STEP_BUDGET
    try:
        waiting = rt_drive(m, len(m.stack) - 1)
    except Exception as e:
        raise _failure(m, e, STEP_BUDGET) from None
    if waiting:
        return          # the option's block asks a decision before it ends
    if m.watch is not None:
        m.watch(m, None, ANYTIME)
    run(m)


def option_labelled(m: State, text: str) -> int:
    """The id of the legal option with exactly this label (scenarios and tests speak in labels)."""
    for o in legal_options(m):
        if o.label == text:
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
           "Option", "check_invariants", "option_labelled", "shown_label"]
