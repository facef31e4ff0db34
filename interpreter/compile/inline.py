"""A rule that waits and is called from one place only is written into its caller (IR → IR).

`contest()` calls `change_trump(winner, table)` once, and `play` calls `contest()` once: each call
pushes a frame, starts the callee and, when it is done after a decision, resumes the caller from
the machine's loop. Written into the caller, the callee's statements run in the caller's own
function and frame: its parameters are `let`s of new locals, its locals are the caller's locals
numbered after the caller's own, and its blocks are the caller's blocks. Nothing else changes:

- a choice keeps its index and option ids (`numbering`: both are given in the order the rules
  are written, as if no rule had been written into another), so transcripts and saves are read
  as before;
- a failure names the rules as before: every span of the callee's body is told here with the
  rules it was written into (`Inlined.chain`), and the line map of the generated code gives
  those (compile.rules, engine.machine._runtime_error);
- a `stop` at the end of a branch of an `if` at the callee's top level becomes the rest of the
  callee written in the other branches; a callee with any other `stop` is not written in, nor one
  whose rest holds a choice and would be written in more than one branch (a choice is written
  once: its index names one ask and one option block).

Rules started by the engine (`play`, `setup`, handlers, `anytime` bodies, scenarios' blocks) and
rules that call themselves are never written into another.
"""
from __future__ import annotations

import collections

from .. import slotclasses
from ..ir import nodes as ir

class Inlined:
    """What writing rules into their callers made: the program, and for the code generator the
    chain of rules each span of a rule written in stands in, and the choice each copy stands for."""

    def __init__(self, prog):
        self.original = prog          # as written: choices are numbered in it (RuleGen.numbering)
        self.prog = prog
        self.chain: dict = {}         # id(span) -> ((label, key, call span) of each rule it was written in with), outermost first
        self.origin: dict = {}        # id(new Choose) -> the Choose of the rule as written
        self.dead: set = set()        # keys of the rules written into their only caller
        self.keep: list = []          # the spans and nodes of `chain` and `origin` stay alive (ids stay theirs)


def inline(prog, waits: dict, enabled: bool = True) -> Inlined:
    """`prog` with each rule that waits and has one caller written into it (see the module's docstring)."""
    out = Inlined(prog)
    if not enabled:
        return out
    candidates = _candidates(prog, waits)
    if not candidates:
        return out
    rules = dict(prog.rules)
    done: dict = {}

    def written(key):
        """The rule's body with the candidates it calls written in (each once: it has one caller)."""
        if key in done:
            return done[key]
        rule = rules[key]
        size = [_locals(rule)]
        body = _replace_calls(rule.body, lambda call: _expand(call, size) if call.rule in candidates else None, out)
        done[key] = (body, size[0])
        return done[key]

    def waits_on(body) -> bool:
        """Does the body call or signal a rule that can wait (so is it more than one rule's choices)?"""
        return any((isinstance(n, ir.CallRule) and waits.get(n.rule))
                   or (isinstance(n, ir.Signal) and any(waits.get(h) for h in prog.events.get(n.event, ())))
                   for n in ir.walk(body))

    def _expand(call, size):
        callee = rules[call.rule]
        inner, inner_size = written(call.rule)
        if waits_on(inner):
            return None       # written in, a rule that waits on others makes its caller's blocks many more: apart
        moved = _without_stops(inner)
        if _choices(moved) != _choices(inner):
            return None       # the rest after a `stop` would be written in two branches, and a choice twice: apart
        base = size[0]
        size[0] += inner_size
        spans: dict = {}
        body = tuple(_shifted(s, base, out, spans) for s in moved)
        for old, new in spans.values():       # each span of the callee: inside it, written in at the call
            out.chain[id(new)] = ((callee.label, call.rule, call.span),) + out.chain.get(id(old), ())
            out.keep.append(new)
        out.dead.add(call.rule)
        # its parameters, computed where it was called (a failure there is the caller's, at the call)
        return tuple(ir.Let(call.span, base + i, arg) for i, arg in enumerate(call.args)) + body

    bodies = {key: written(key) for key in list(rules)}
    for key, (body, size) in bodies.items():
        if key not in out.dead and body is not rules[key].body:
            rules[key] = slotclasses.evolve(rules[key], body=body, frame_size=max(rules[key].frame_size, size))
    out.prog = slotclasses.evolve(prog, rules=rules)
    return out


def _candidates(prog, waits: dict) -> set:
    """The rules to write into their caller: each waits, has one call site (a signal counts as two:
    the machine starts its handlers), is not started by the machine nor called from a scenario's
    block, does not call itself, and its `stop`s can move (`_stops_movable`)."""
    sites = collections.Counter()
    calls = {key: set() for key in prog.rules}
    for key, rule in prog.rules.items():
        for n in ir.walk(rule.body):
            if isinstance(n, ir.CallRule):
                sites[n.rule] += 1
                calls[key].add(n.rule)
            elif isinstance(n, ir.Signal):
                for h in prog.events.get(n.event, ()):
                    sites[h] += 2          # started by the machine
    started = {"play", "setup"} | {a.rule for a in prog.anytimes} \
        | {key for key in prog.rules if key.startswith("arrange ")}
    caller = {callee: key for key, callees in calls.items() for callee in callees}
    # (a rule called from a scenario's block only stays apart: its choices are numbered before the
    # `anytime` options, which come before those blocks' code)
    candidates = {key for key, rule in prog.rules.items()
                  if waits.get(key) and sites[key] == 1 and key not in started and rule.where is None
                  and not caller.get(key, "arrange ").startswith("arrange ")
                  and not _calls_itself(key, calls) and _stops_movable(rule.body)}
    return candidates


def _locals(rule) -> int:
    """How many local slots the rule's body uses (its frame size, or more if a slot is past it)."""
    top = rule.params - 1
    for n in ir.walk(rule.body):
        for name in ir.LOCAL_SLOTS.get(type(n), ()):
            top = max(top, getattr(n, name))
    return max(rule.frame_size, top + 1)


def _calls_itself(key, calls) -> bool:
    seen, todo = set(), [key]
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee == key:
                return True
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return False


def _stops_movable(body) -> bool:
    """Is every `stop` of the body the last statement of a branch of an `if` at its top level (or
    of such an `if` nested so), so that _without_stops can write the rest in the other branches?"""
    for i, s in enumerate(body):
        if isinstance(s, ir.Stop):
            return False
        if isinstance(s, ir.If):
            for part in [b for _c, b in s.branches] + [s.otherwise or ()]:
                head = part[:-1] if part and isinstance(part[-1], ir.Stop) else part
                if not _stops_movable(head):
                    return False
        elif any(isinstance(n, ir.Stop) for n in ir.walk(s)):
            return False
    return True


def _without_stops(body) -> tuple:
    """The body with each movable `stop` gone: the statements after an `if` that has a branch ending
    in `stop` are written at the end of its other branches (and of an `else`, made if need be)."""
    body = tuple(body)
    for i, s in enumerate(body):
        if isinstance(s, ir.If) and _stops_in(s):
            rest = _without_stops(body[i + 1:])

            def ended(part):
                part = tuple(part or ())
                if part and isinstance(part[-1], ir.Stop):
                    return _without_stops(part[:-1])
                return _without_stops(part + rest)
            branches = tuple((c, ended(b)) for c, b in s.branches)
            otherwise = ended(s.otherwise)
            return body[:i] + (slotclasses.evolve(s, branches=branches, otherwise=otherwise or None),)
    return body


def _choices(body) -> int:
    return sum(isinstance(n, ir.Choose) for n in ir.walk(body))


def _stops_in(s) -> bool:
    return any(isinstance(n, ir.Stop) for n in ir.walk(s))


def _replace_calls(body, expand, out) -> tuple:
    """The statements with each CallRule that `expand` gives statements for replaced by them."""
    stmts = []
    for s in body:
        if isinstance(s, ir.CallRule):
            written = expand(s)
            if written is not None:
                stmts.extend(written)
                continue
        stmts.append(_map_bodies(s, lambda b: _replace_calls(b, expand, out), out))
    new = tuple(stmts)
    return body if len(new) == len(body) and all(a is b for a, b in zip(new, body)) else new


def _map_bodies(s, fn, out):
    """The statement with each block of statements it holds passed through `fn` (a new Choose told
    the one it stands for)."""
    if isinstance(s, ir.If):
        branches = tuple((c, fn(b)) for c, b in s.branches)
        otherwise = fn(s.otherwise) if s.otherwise is not None else None
        if all(b is ob for (_c, b), (_c2, ob) in zip(branches, s.branches)) and otherwise is s.otherwise:
            return s
        return slotclasses.evolve(s, branches=branches, otherwise=otherwise)
    if isinstance(s, (ir.For, ir.While, ir.Repeat)):
        body = fn(s.body)
        return s if body is s.body else slotclasses.evolve(s, body=body)
    if isinstance(s, ir.Choose):
        body = fn(s.body)
        otherwise = fn(s.otherwise) if s.otherwise is not None else None
        if body is s.body and otherwise is s.otherwise:
            return s
        new = slotclasses.evolve(s, body=body, otherwise=otherwise)
        out.origin[id(new)] = out.origin.get(id(s), s)
        out.keep.append(new)
        return new
    return s


def _shifted(node, base, out, spans):
    """A copy of `node` (a statement or expression of a rule written in) with its locals' slots moved
    past the caller's (+ base) and spans of its own (`spans`: id(span) -> (span, its copy)), each
    Choose told its origin."""
    t = type(node)
    if t is tuple:
        return tuple(_shifted(x, base, out, spans) for x in node)
    if not slotclasses.has(t):
        return node
    changes = {}
    for name in ir._child_fields(t):
        value = getattr(node, name)
        new = _shifted(value, base, out, spans)
        if new is not value:
            changes[name] = new
    for name in ir.LOCAL_SLOTS.get(t, ()):
        changes[name] = getattr(node, name) + base
    span = getattr(node, "span", None)
    if span is not None:
        # a span of its own for each copy (a generic rule's instances share their spans): the rules a
        # line stands in are told by its span's identity
        if id(span) not in spans:
            spans[id(span)] = (span, slotclasses.evolve(span))
        changes["span"] = spans[id(span)][1]
    if not changes:
        return node
    new = slotclasses.evolve(node, **changes)
    if t is ir.Choose:
        out.origin[id(new)] = out.origin.get(id(node), node)
        out.keep.append(new)
    return new
