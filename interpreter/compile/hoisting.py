"""Parts of an expression computed once before the loop they stand in (a comprehension, a `by`
key, a loop of statements): which parts may move (invariants.safe says which cannot fail; `movable`
remembers it per node), to which loop (`scope_for`), and the names that hold them (`_Loop`).
A part of ExprGen (expressions.py), which mixes it in."""
from __future__ import annotations

from ..ir import nodes as ir
from .invariants import safe, worth_moving

# the kinds of node that may be computed before a loop (invariants.safe says which are)
MOVABLE = frozenset((ir.OwnedVar, ir.TableEntry, ir.Zone, ir.BuiltinCall, ir.Property, ir.BinOp, ir.Compare,
                      ir.BoolOp, ir.Not, ir.Neg, ir.Cond, ir.Match))


class _Loop:
    """A loop being generated: its own locals, and the parts computed once before it (name, source)."""

    def __init__(self, bound: set, statement: bool = False):
        self.bound = bound
        self.statement = statement      # a loop of statements (LoopGen.loop_over): its parts are assignments
        self.parts: list = []
        self.names: dict = {}           # source -> name: the same part written twice is computed once

    def name_of(self, gen, e) -> str:
        # the part itself as plain source (a comprehension's part, bound by its first `for`, binds no name)
        with gen.emitting(loops=[], unbound=gen.unbound + (not self.statement)), gen.apart():
            source = getattr(gen, "ex_" + type(e).__name__)(e)
        name = self.names.get(source)
        if name is None:
            name = self.names[source] = gen.ns.fresh("_h")
            self.parts.append((name, source))
        return name

    def clause(self) -> str:
        """A `for` binding the parts once, put first in a comprehension."""
        if not self.parts:
            return ""
        return f"for ({''.join(n + ', ' for n, _ in self.parts)}) in (({''.join(v + ', ' for _, v in self.parts)}),) "


class LoopParts:
    """Which parts move before a loop, and where: ExprGen's `loops` are the loops being written."""

    def movable(self, e) -> bool:
        """Safe and worth computing before a loop (known per node, except inside an inlined def). A match
        that is a table (`reach(witch(p))`) is a look-up: movable when its subject cannot fail.
        Asked as the source is written, not found by the analysis (analysis.py): inside an inlined def it
        depends on the arguments substituted there (`local_safe`), a match on whether it became a table
        (known once the cards are made), and elsewhere it is remembered per node on first asking: a
        Three Sisters compile (119 ms) asks it of 88 nodes, while finding it before writing for every
        node of a movable kind under a comprehension, a `by` key or a choice's `where`, in the program
        and in its rules as inlined, took 3.2 ms (143 nodes, and still not 3 the loops ask)."""
        if type(e) is ir.Match:
            return self.match_table(e) is not None \
                and safe(e.subject, self.local_safe if self.subst is not None else None, self.prog.defs)
        if self.subst is not None:
            return safe(e, self.local_safe, self.prog.defs) and worth_moving(e)
        known = self.movable_nodes.get(id(e))
        if known is None:
            known = self.movable_nodes[id(e)] = safe(e, defs=self.prog.defs) and worth_moving(e)
        return known

    def local_safe(self, slot: int) -> bool:
        facts = self.arg_facts.get(slot) if self.subst is not None else None
        return facts is None or facts[0]

    def local_reads(self, e) -> set:
        """The rule's locals `e` reads (through the arguments of the defs being inlined)."""
        out = set()
        for n in ir.walk(e):
            if isinstance(n, ir.Local):
                facts = self.arg_facts.get(n.slot) if self.subst is not None else None
                if facts is None:
                    out.add(n.slot)
                else:
                    out |= facts[1]
        return out

    def scope_for(self, e):
        """The outermost of the loops being generated over none of whose locals `e` depends (None: the innermost)."""
        reads = self.local_reads(e)
        chosen = None
        for scope in reversed(self.loops):
            if scope.bound & reads:
                break
            chosen = scope
        return chosen

    def enter_loop(self, bound: set, statement: bool = False) -> "_Loop":
        scope = _Loop(bound, statement)
        self.loops.append(scope)
        return scope

    def leave_loop(self, scope) -> None:
        popped = self.loops.pop()
        assert popped is scope

    def inlined_args(self, args) -> dict:
        """For a def being inlined: each parameter's argument, can it be computed early, which locals it reads."""
        if not self.loops:
            return {}
        return {i: (safe(a, self.local_safe, self.prog.defs), self.local_reads(a)) for i, a in enumerate(args)}
