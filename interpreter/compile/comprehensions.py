"""Expressions that go through a list: comprehensions (a generator, a list or a tuple, the step
budget spent by each `for`), `first(x in xs where c)`, `max(… by …)` keys, a choice's filtered
options, and what the generator knows of a local going through values known at load.
A part of ExprGen (expressions.py), which mixes it in."""
from __future__ import annotations

from ..ir import nodes as ir
from .written import Constant


class Comprehensions:
    """Comprehensions and the other expressions with a loop of their own."""

    def going_through(self, slot: int, seq) -> object:
        """While a comprehension's `for` (or a choice's options) is written: when what it goes through is
        known at load (a Constant tuple), its local can hold those values only, and no statement can change
        it inside an expression; reads of it then need no guard (`known_values`). Returns what to restore.
        A fact of the writing, not of the analysis (analysis.py): what is known is the source written for
        what the loop goes through — a Constant the namespace made of a fixed collection, a const run at
        load, a list written out known at load — which only writing it says, and it holds only while that
        loop is written."""
        before = self.elements.get(slot)
        known = seq.value if isinstance(seq, Constant) and type(seq.value) is tuple else None
        if known is None:
            self.elements.pop(slot, None)
        else:
            self.elements[slot] = known
        return before

    def gone_through(self, slot: int, before) -> None:
        if before is None:
            self.elements.pop(slot, None)
        else:
            self.elements[slot] = before

    def known_values(self, e):
        """The values `e` can have, when the generator knows them all (a number; a local going through a
        tuple known at load; an item of such a local at a fixed place), else None. Never inside a def
        written in, whose locals are its own (its parameters stand for the arguments substituted there:
        why this stays with the writing, as going_through says)."""
        if isinstance(e, ir.Const) and type(e.value) is int:
            return (e.value,)
        if self.subst is not None:
            return None
        if isinstance(e, ir.Local):
            return self.elements.get(e.slot)
        if isinstance(e, ir.Index) and isinstance(e.index, ir.Const) and type(e.index.value) is int:
            rows = self.known_values(e.seq)
            i = e.index.value
            if rows and all(type(r) is tuple and -len(r) <= i < len(r) for r in rows):
                return tuple(r[i] for r in rows)
        return None

    def best_by(self, call, helper) -> str:
        b = call.args[0]
        seq = self.seq(b.iterable)
        scope = self.enter_loop({b.slot})
        try:
            key = self.src(b.key)
        finally:
            self.leave_loop(scope)
        defaults = "".join(f", {n}={v}" for n, v in scope.parts)      # computed once, when the lambda is made
        self.written.binds = True
        return f"{helper}({seq}, lambda v{b.slot}{defaults}: {key})"

    def iterated(self, e, whole: bool = False, truth: bool = False) -> str:
        """Source of something to go through once: a comprehension becomes a generator (any/all stop
        early), or a list — quicker to make — when it is gone through `whole` (sum). With `truth`, only
        each element's truth counts (ExprGen.test)."""
        if isinstance(e, ir.Comprehension):
            if whole:
                return f"[{self.comprehension(e, truth=truth)}]"
            return f"({self.comprehension(e, truth=truth)})"
        return self.seq(e)

    def ex_Pairs(self, e):
        with self.unbinding():
            return f"tuple([(_pa, _pb) for _pa in {self.seq(e.first)} for _pb in {self.seq(e.second)}])"

    def ex_FindWhere(self, e):
        """The elements that meet the condition, as a generator: `first` takes one and stops."""
        var = f"v{e.slot}"
        with self.unbinding():
            seq = self.seq(e.iterable)
        return f"({var} for {var} in {seq} if {self.test(e.cond)})"

    def ex_BestBy(self, e):  # pragma: no cover - only reached through max/min/sort
        raise AssertionError("BestBy outside a builtin")

    def comprehension(self, e, filtered: bool = False, truth: bool = False) -> str:
        """`element for … if …` (with `filtered`: `0 for … if … if element`, to count the true ones;
        with `truth`, only the element's truth counts); the parts that are the same for every
        element are computed once, first. Every `for` spends the step budget by its length."""
        with self.unbinding():
            first = f"rt_spend(m, {self.seq(e.fors[0].iterable)})"   # a comprehension in a loop spends too
        scope = self.enter_loop({f.slot for f in e.fors})
        restore = []
        try:
            clauses = []
            for k, f in enumerate(e.fors):
                if k:                   # inner ones: a product
                    with self.unbinding():
                        inner = self.seq(f.iterable)
                    seq = f"rt_spend(m, {inner})"
                else:
                    seq = inner = first
                restore.append((f.slot, self.going_through(f.slot, inner)))
                clause = f"for v{f.slot} in {seq}"
                if f.cond is not None:
                    clause += f" if {self.test(f.cond)}"
                clauses.append(clause)
            element = self.test(e.element) if truth or filtered else self.src(e.element)
        finally:
            self.leave_loop(scope)
            for slot, before in reversed(restore):
                self.gone_through(slot, before)
        clauses = scope.clause() + " ".join(clauses)
        return f"0 {clauses} if {element}" if filtered else f"{element} {clauses}"

    def filtered(self, slot: int, seq: str, cond) -> str:
        """`[v for v in seq if cond]` (a choice's options), the parts of `cond` the same for each computed once."""
        scope = self.enter_loop({slot})
        before = self.going_through(slot, seq)
        try:
            test = self.test(cond)
        finally:
            self.leave_loop(scope)
            self.gone_through(slot, before)
        return f"[v{slot} {scope.clause()}for v{slot} in {seq} if {test}]"

    def ex_Comprehension(self, e):
        return f"tuple([{self.comprehension(e)}])"
