"""What the generator needs to know of each def, found once before anything is written (the defs are
the same before and after rules are inlined: compile.inline rewrites rules only): how often its body
reads each parameter (may a call be written in with its arguments in place: Calls.inlinable),
whether computing it changes nothing (Calls.pure), which defs without parameters its body computes
and how often (Calls.compute_first), the matches in its body (Calls.matches_inlinable: whether
one is a table is known once the cards are made), whether it calls another def (its function then spends a step
a call: Calls.calls_defs), and which defs are worth computing first before a statement. Made by
`def_facts(prog)` when the compiler starts (the consts are computed before the rules), kept in
`Analysis.defs` and ExprGen.defs."""
from __future__ import annotations

from ..ir import nodes as ir


class DefFacts:
    """The facts of every def of one program (dicts by def name; not changed once made)."""
    __slots__ = ("param_uses", "pure", "body_uses", "calls_defs", "matches", "worth_computing_first")

    def __init__(self, prog: ir.Program):
        defs = prog.defs
        self.param_uses: dict = {}      # def name -> how often its body reads each parameter (a tuple)
        self.calls_defs: dict = {}      # def name -> does its body call a def that is not a const?
        self.matches: dict = {}         # def name -> the matches in its body (Calls.matches_inlinable)
        effects: dict = {}              # def name -> (has an effect of its own, the defs it calls)
        for name, d in defs.items():
            uses = [0] * d.params
            calls, effect, callees, matches = False, False, [], []
            for n in ir.walk(d.body):
                t = type(n)
                if t is ir.Local and n.slot < d.params:
                    uses[n.slot] += 1
                elif t is ir.DefCall:
                    callees.append(n.name)
                    calls = calls or not defs[n.name].const
                elif t is ir.Match:
                    matches.append(n)
                elif (t is ir.BuiltinCall and n.name == "random") or t is ir.MakeCard \
                        or (t is ir.Comprehension and len(n.fors) > 1):
                    effect = True
            self.param_uses[name] = tuple(uses)
            self.calls_defs[name] = calls
            self.matches[name] = tuple(matches)
            effects[name] = (effect, callees)
        self.pure: dict = {}            # def name -> is computing it free of effects?
        self.body_uses: dict = {}       # def name -> {def without parameters: how often its body computes it}
        for name in defs:               # in the program's order (a def that calls itself: see _body_uses)
            _pure(effects, name, self.pure)
            _body_uses(prog, name, self.body_uses)
        # defs without parameters that are more than a number: those worth computing once a statement
        self.worth_computing_first = frozenset(d.name for d in defs.values()
                                               if d.params == 0 and not isinstance(d.body, ir.Const))


def def_facts(prog: ir.Program) -> DefFacts:
    return DefFacts(prog)


def _pure(effects: dict, name: str, known: dict) -> bool:
    """Is computing def `name` free of effects: no `random`, no step spent (inner `for`s of a
    comprehension), no card made — through the defs it calls too? A def that calls itself (through
    others too) is not: it is marked so while the defs it calls are looked at."""
    got = known.get(name)
    if got is None:
        known[name] = False
        effect, callees = effects[name]
        got = known[name] = not effect and all(_pure(effects, callee, known) for callee in callees)
    return got


def _body_uses(prog, name: str, known: dict) -> dict:
    """uses_in of a def's body. A def that calls itself counts its own body once (while it is looked
    at, it counts nothing): the defs are looked at in the program's order."""
    got = known.get(name)
    if got is None:
        known[name] = {}
        got = known[name] = uses_in(prog, prog.defs[name].body, lambda callee: _body_uses(prog, callee, known))
    return got


def uses_in(prog, n, body_uses) -> dict:
    """How often each def without parameters is computed under `n`, directly or in the defs it
    inlines (`body_uses(name)` gives a def's body's; a use in a loop — a comprehension, a `by` key —
    counts more than once)."""
    out: dict = {}

    def add(counts):
        for name, count in counts.items():
            out[name] = out.get(name, 0) + count
    for x in ir.walk(n):
        if isinstance(x, ir.DefCall):
            d = prog.defs[x.name]
            if d.params == 0:
                out[x.name] = out.get(x.name, 0) + 1
            elif not d.binds_locals:
                add(body_uses(x.name))
        elif isinstance(x, (ir.Comprehension, ir.BestBy)):
            add(uses_in(prog, tuple(getattr(x, f) for f in ir._child_fields(type(x))), body_uses))   # once more
    return out
