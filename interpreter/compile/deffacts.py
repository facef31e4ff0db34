"""What the generator needs to know of each def, found once before anything is written (the defs are
the same before and after rules are inlined: compile.inline rewrites rules only): how often its body
reads each parameter (may a call be written in with its arguments in place: Calls.inlinable),
whether computing it changes nothing (Calls.pure), the matches in its body (Calls.matches_inlinable:
whether one is a table is known once the cards are made), and whether it calls another def (its
function then spends a step a call: Calls.calls_defs). Made by
`def_facts(prog)` when the compiler starts (the consts are computed before the rules), kept in
`Analysis.defs` and ExprGen.defs."""
from __future__ import annotations

from ..ir import nodes as ir


class DefFacts:
    """The facts of every def of one program (dicts by def name; not changed once made)."""
    __slots__ = ("param_uses", "pure", "calls_defs", "matches")

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
        for name in defs:
            _pure(effects, name, self.pure)


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
