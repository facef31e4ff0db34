"""Running the scenarios written in a rule file: a position, scripted decisions, expectations.

A scenario starts from the rules' own setup, or from its `arrange:` block run in
place of `rule setup`; `take "label"` makes the decision with that label (and
`take "label":` checks the expectations under it as that option's own block
ends, before the rules go on);
`expect` checks a condition, that an option is (not) legal, that the game is
over, that the last `take` made the rules fail with a message, or that the
narration since the last `take` says something (a moment no decision stops at).
"""
from __future__ import annotations

import attrs

from .. import slotclasses
from ..runtime.errors import RulesRuntimeError
from ..runtime.helpers import CheckedNarration
from . import machine, observe


@attrs.frozen
class ScenarioResult:
    name: str
    doc: str
    ok: bool
    message: str = ""
    span: object = None


FIXES = {"next random": "random", "next shuffle": "shuffle"}     # scenario steps that fix a chance outcome


def run_scenario(program, sc) -> ScenarioResult:
    if program.watched is not None and any(step.checks for step in sc.steps):
        index = program.scenarios.index(sc)     # played by the rules compiled with `take "…":`'s calls
        program = program.watched()
        sc = program.scenarios[index]
    return _run(program, sc)


def _run(program, sc) -> ScenarioResult:
    players = program.min_players
    seed = 0
    options = {o.name: o.default for o in program.options}
    arrange = None
    setting_up = True        # `next random is …` before any decision or expectation fixes a draw of the setup
    forced = []
    for step in sc.steps:
        if step.kind in FIXES and setting_up:
            forced.append((FIXES[step.kind], step.value))
        elif step.kind not in ("players", "seed", "option", "arrange") and step.kind not in FIXES:
            setting_up = False
    for step in sc.steps:
        if step.kind == "players":
            players = step.value
        elif step.kind == "seed":
            seed = step.value
        elif step.kind == "option":
            options[step.name] = step.value
        elif step.kind == "arrange":
            arrange = f"arrange {sc.name}"

    def fail(step, why):
        return ScenarioResult(sc.name, sc.doc, False, why, step.span if step is not None else sc.span)

    try:
        m = machine.new_game(program, players, options, seed, sink=CheckedNarration(),
                             setup=arrange or "setup", forced=forced)
    except RulesRuntimeError as e:
        return fail(None, f"the rules failed while setting up: {e}")
    except ValueError as e:
        return fail(None, str(e))
    failure = None
    heard = 0                # the narration before this index was said before the last `take`
    taken = None             # the label of the last `take`: an expectation after it sees where the rules wait next
    setting_up = True
    for step in sc.steps:
        kind = step.kind
        if kind in ("players", "seed", "option", "arrange"):
            continue
        if kind in FIXES:
            if not setting_up:
                m.forced = (m.forced or []) + [(FIXES[kind], step.value)]
            continue
        setting_up = False
        if kind == "failure":
            if failure is None:
                return fail(step, f"expected the rules to fail with '{step.value}', but they did not")
            if step.value not in failure:
                return fail(step, f"expected a failure mentioning '{step.value}', got: {failure}")
            failure = None
            continue
        if failure is not None:
            return fail(step, f"the rules failed: {failure}")
        failure = _take_bare_passes(m, step)
        if failure is not None:
            return fail(step, f"the rules failed: {failure}")
        if kind in ("said", "expect"):
            problem = _check(program, m, step, heard)
            if problem is not None:
                if kind == "expect" and taken is not None and _holds_as_block_ends(program, sc, step):
                    problem += (f" — where the rules wait after '{taken}'; it holds as the block of '{taken}' "
                                f"ends: to check it there, before the rules go on, write it under "
                                f"`take \"{taken}\":`, indented")
                return fail(step, problem)
            continue
        if kind == "over":
            if m.result is None:
                return fail(step, "expected the game to be over, but it goes on")
            continue
        if kind == "deciding":
            want = step.value(m)
            who = machine.chooser(m)
            if who != want:
                names = m.names
                now = "the game is over" if m.result is not None else "no decision is pending" if who is None \
                    else f"{names[who]} is"
                return fail(step, f"expected {names[want] if 0 <= want < len(names) else want} to be deciding, "
                                  f"but {now}")
            continue
        text = step.value(m)
        labels = [o.label for o in machine.legal_options(m)]
        if kind == "legal":
            if text not in labels:
                return fail(step, f"'{text}' should be legal; the options are: {_shown(labels)}")
        elif kind == "illegal":
            if text in labels:
                return fail(step, f"'{text}' should not be legal, but it is")
        elif kind == "take":
            if m.result is not None:
                return fail(step, f"cannot take '{text}': the game is over")
            if text not in labels:
                return fail(step, f"'{text}' is not legal here; the options are: {_shown(labels)}")
            heard = len(m.sink)
            taken = text
            option = machine.option_labelled(m, text)
            block = _BlockEnd(program, m, step, option, heard) if step.checks else None
            try:
                machine.decide(m, option)
            except RulesRuntimeError as e:
                failure = str(e)
            finally:
                m.watch = None
            if block is not None:
                problem = block.outcome(m, text, failure)
                if problem is not None:
                    return fail(*problem)
    if failure is not None:
        return fail(sc.steps[-1], f"the rules failed: {failure}")
    if m.forced:
        return fail(sc.steps[-1], f"{len(m.forced)} outcome(s) fixed by `next … is` never came")
    return ScenarioResult(sc.name, sc.doc, True)


def _check(program, m, step, heard: int) -> str | None:
    """An `expect CONDITION` or `expect said "…"` checked now: why it fails, or None."""
    if step.kind == "said":
        lines = observe.narration(m.sink[heard:], None)
        if not any(step.value in line for line in lines):
            return f"expected the narration to say '{step.value}'; it said: " + (" / ".join(lines) if lines else "nothing")
        return None
    try:
        ok = step.value(m)
    except Exception as e:  # a failing expression is a failed expectation
        return f"the expectation could not be evaluated: {e}"
    if not ok:
        return "expectation not met" + _explain(program, m, step)
    return None


class _BlockEnd:
    """The checks of a `take "…":`, made as the taken option's block ends — its last line, a `stop` or a
    `break` out of it (for a pass, its `else:`; for an `anytime` option, its rule) — while the rules are
    still inside it. The compiled rules call the state's `watch` there (compile.rules); this is it."""

    def __init__(self, program, m, step, option: int, heard: int):
        self.program, self.step, self.heard = program, step, heard
        anytime = option in program.anytimes
        self.index = machine.ANYTIME if anytime else m.pending[0]
        self.frame = None if anytime else m.stack[-1]      # the frame of the rule holding the choice
        self.checked = False
        self.problem = None          # (step, message) of the first check that failed
        m.watch = self

    def __call__(self, m, frame, index) -> None:
        if index != self.index or frame is not self.frame:
            return                   # another option's block (a choice inside this one, or elsewhere)
        m.watch = None
        self.checked = True
        for check in self.step.checks:
            try:
                problem = _check(self.program, m, check, self.heard)
            except Exception as e:   # never into the rules' code: it would be taken for the rules' fault
                problem = f"the check could not be made: {e}"
            if problem is not None:
                self.problem = (check, problem)
                return

    def outcome(self, m, text: str, failure: str | None):
        """(step, message) when the checks failed or could not be made, else None."""
        if self.problem is not None:
            check, problem = self.problem
            return check, f"{problem} (checked as the block of '{text}' ended)"
        if self.checked:
            return None
        if failure is not None:
            return self.step, f"the rules failed before the block of '{text}' ended: {failure}"
        who = machine.chooser(m)
        return self.step, (f"the block of '{text}' asks another decision before it ends "
                           f"({m.names[who] if who is not None else 'nobody'} decides), so what is under "
                           "`take \"…\":` cannot be checked as it ends: check it after the block, where the rules wait")


def _holds_as_block_ends(program, sc, expect) -> bool:
    """Whether a failed `expect CONDITION`, seen where the rules wait after the last `take` before it,
    holds as that option's block ends: the scenario is played again up to that `take`, the condition
    under it (`take "…":`), in the rules compiled for such checks. Asked only of a failure, so that its
    message can say where the author meant to look."""
    if program.watched is None:
        return False
    try:
        twin = program.watched()
        if twin is not program:
            sc = twin.scenarios[program.scenarios.index(sc)]
        at = [i for i, step in enumerate(sc.steps) if step is expect or step.span == expect.span][0]
        last = max(i for i, step in enumerate(sc.steps[:at]) if step.kind == "take")
        start = [step for step in sc.steps[last + 1:] if step.kind in ("players", "seed", "option", "arrange")]
        take = slotclasses.evolve(sc.steps[last], checks=[sc.steps[at]])
        trial = slotclasses.evolve(sc, steps=sc.steps[:last] + [take] + start)
        return _run(twin, trial).ok
    except Exception:         # only a hint: never a failure of its own
        return False


def _take_bare_passes(m, step) -> str | None:
    """Take each decision with nothing to choose but the pass, unless this step is about that very pass
    (takes it, expects it legal, or expects its chooser to be deciding);
    returns the rules' failure message, if taking one made them fail."""
    while machine.only_pass(m):
        only = m.pending[2][0]
        if step.kind in ("take", "legal") and step.value(m) == machine.label(m, only):
            return None
        if step.kind == "deciding" and step.value(m) == m.pending[1]:
            return None       # `expect deciding p and legal "knock"`: p is asked, even if only to pass
        try:
            machine.decide(m, only)
        except RulesRuntimeError as e:
            return str(e)
    return None


def _explain(program, m, step) -> str:
    """For a failed comparison: what each side was, e.g. `: size(deck) is 3, 0 is 0`; for
    `a and b`, each side of the `and` that does not hold, explained the same way."""
    if step.parts:
        failing = []
        for span, value, sides in step.parts():
            try:
                held = value(m)
            except Exception as e:
                failing.append(f"{_source_text(program, span)} cannot be evaluated: {e}")
                continue
            if not held:
                failing.append(f"{_source_text(program, span)} does not hold"
                               + (_sides_text(program, m, sides) if sides else ""))
        return ": " + "; and ".join(failing) if failing else ""
    if step.sides is None:
        return ""
    return _sides_text(program, m, step.sides)


def _sides_text(program, m, sides_of) -> str:
    op, sides = sides_of
    parts = []
    for span, value, fmt in sides:
        try:
            shown = fmt(m, value(m))
        except Exception as e:   # explaining must never hide the failure itself
            shown = f"(cannot be evaluated: {e})"
        parts.append(f"{_source_text(program, span)} is {shown}")
    return f" ({op}): " + "; ".join(parts)


def _source_text(program, span) -> str:
    text = program.sources.get(span.file)
    if text is None or span.line < 1:
        return "it"
    lines = text.splitlines()
    if span.end_line == span.line and span.line <= len(lines):
        return lines[span.line - 1][span.col - 1:span.end_col - 1].strip() or "it"
    return "it"


def _shown(labels) -> str:
    if not labels:
        return "none (no decision is pending)"
    from ..text import few
    return few(labels, 8, quote=True)


def run_all(program) -> list[ScenarioResult]:
    return [run_scenario(program, sc) for sc in program.scenarios]
