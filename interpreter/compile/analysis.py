"""What the compiler knows of a program before it writes any of it: one pass of analysis apart from
writing. `analyse(prog)` gives a frozen `Analysis` the generator reads (ExprGen.facts, StatementGen's
`waits`, RuleGen) instead of working facts out while it writes: which rules can wait
(analyse_waiting), the value ranges of the rules' Int values (ranges.py: a table's key known within
its keys, a number known within ±10^15), which choices' options cannot repeat (distinct.py), and each
def's facts (deffacts.py). `assigned` says which locals statements may change (asked by the loops of
the analysis and of the generator alike). What the generator still finds as it writes depends on
what it has written at that point (docs/impl.md, "Facts known before writing").
"""
from __future__ import annotations

from ..ir import nodes as ir
from .deffacts import DefFacts, def_facts
from .distinct import distinct_options
from .ranges import Ranges


class Analysis:
    """The facts of one program (the one the rules are written from: after compile.inline), frozen
    once made (a plain class: importing dataclasses would cost every load a millisecond)."""
    __slots__ = ("prog", "waits", "ranges", "unique", "defs")

    def __init__(self, prog: ir.Program, waits: dict, ranges: Ranges, unique: dict, defs: DefFacts):
        set_ = object.__setattr__
        set_(self, "prog", prog)
        set_(self, "waits", waits)          # rule key -> can it wait for a decision?
        set_(self, "ranges", ranges)        # the intervals of the rules' values
        set_(self, "unique", unique)        # id(Choose) -> can its options not repeat? (distinct.py)
        set_(self, "defs", defs)            # each def's facts (deffacts.py)

    def __setattr__(self, name, value):
        raise AttributeError(f"an Analysis is not changed once made (its {name})")

    def of(self, e):
        """The interval of a table's key or a product `e` wherever the rules have it, or None (anything)."""
        return self.ranges.of(e)

    def stored(self, s):
        """The interval of the value `let` or assignment `s` stores, or None (anything)."""
        return self.ranges.stored(s)

    def distinct(self, s) -> bool:
        """Are the options of choice `s` (one of the program's) sure not to repeat a value?"""
        return self.unique[id(s)]


def analyse(prog: ir.Program, fixed=None, defs: DefFacts | None = None) -> Analysis:
    """Every fact the generator reads of `prog`, computed once, before any writing. `fixed(e)` gives
    the values of a fixed collection known at load (ExprGen.fixed), or None (distinct.py); `defs`,
    the defs' facts when they were found already (the compiler finds them first: the consts are
    computed before the rules are written)."""
    walked = _walk_rules(prog)
    return Analysis(prog, analyse_waiting(prog, walked), Ranges(prog).analyse(),
                    distinct_options(prog, fixed, {key: f[0] for key, f in walked.items()}),
                    defs if defs is not None else def_facts(prog))


def _walk_rules(prog: ir.Program) -> dict:
    """rule key -> (its choices, the rules it calls or signals), one walk of each rule's body."""
    facts = {}
    for key, rule in prog.rules.items():
        chooses, callees = [], set()
        for s in ir.walk(rule.body):
            t = type(s)
            if t is ir.Choose:
                chooses.append(s)
            elif t is ir.CallRule:
                callees.add(s.rule)
            elif t is ir.Signal:
                callees.update(prog.events.get(s.event, ()))
        facts[key] = (chooses, callees)
    return facts


def analyse_waiting(prog: ir.Program, walked: dict | None = None) -> dict:
    """Which rules (by key) can wait: those holding a choice, or calling or signalling one that can
    (`walked`: _walk_rules(prog), when it was walked already)."""
    facts = walked if walked is not None else _walk_rules(prog)
    waits = {key: bool(f[0]) for key, f in facts.items()}
    changed = True
    while changed:
        changed = False
        for key, (_choose, callees) in facts.items():
            if not waits[key] and any(waits.get(c, True) for c in callees):
                waits[key] = True
                changed = True
    return waits



def assigned(nodes) -> set:
    """The local slots these statements may change: a `let`, a loop's or a choice's own, and a local
    that is the place of an assignment, an `add … to` or a `remove … from` (`p.score = 3` changes a
    variable of p, not p: a place is a local, a variable, a player's or team's, or a table's entry)."""
    out = set()
    for n in ir.walk(tuple(nodes)):
        if isinstance(n, (ir.Let, ir.Choose)):
            out.add(n.slot)
        elif isinstance(n, (ir.Assign, ir.AddTo, ir.RemoveFrom)):
            if isinstance(n.place, ir.Local):
                out.add(n.place.slot)
        elif isinstance(n, ir.For):
            out.update((n.slot, n.list_slot, n.index_slot))
        elif isinstance(n, ir.Repeat):
            out.add(n.count_slot)
    return out
