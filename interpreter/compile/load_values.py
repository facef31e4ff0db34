"""Values the rules write out, computed once when the rules load: a `match` whose every result is
known at load becomes a table (a tuple or a dict) indexed by its subject, else its cases tested in
order; a list written out becomes one constant. A part of ExprGen (expressions.py), which mixes it in."""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T
from ..runtime.errors import RuleFailure
from .written import is_name


class LoadValues:
    """Matches and lists known at load."""

    def ex_ListLit(self, e):
        if len(e.items) == 1 and isinstance(e.items[0], ir.Comprehension):
            return self.src(e.items[0])
        if e.items and self.known_at_load(e):
            known = self.written_lists.get(id(e))
            if known is None:
                known = self.written_lists[id(e)] = self.load_value(e) or ""
            if known:
                return known
        parts = [f"*{self.src(i)}" if isinstance(i, ir.Comprehension) else self.src(i) for i in e.items]
        return "(" + ", ".join(parts) + ",)" if parts else "()"

    def ex_Match(self, e):
        """A table when every result is known at load (a tuple indexed by the enum value, bool or team; else a
        dict); otherwise the cases tested in order, the subject computed once."""
        table = self.match_table(e)
        if table is not None:
            return table
        subject = self.src(e.subject)
        if not is_name(subject):
            if self.subst is None:        # at the top of a statement's or a def's value: never in a loop's head
                name = self.ns.fresh("_m")
                first, subject = f"({name} := {subject})", name
                self.written.binds = True
            else:                         # inlined (only when the subject is cheap: see match_inlinable)
                first = subject
        else:
            first = subject
        if len(e.keys) == 1 and e.otherwise is None:      # one case for every value: still computed (it may fail)
            return f"(({first}), ({self.src(e.results[0])}))[1]"
        parts = []
        last = len(e.keys) - 1
        for k, (keys, result) in enumerate(zip(e.keys, e.results)):
            if k == last and e.otherwise is None:
                parts.append(f"({self.src(result)})")
                break
            parts.append(f"({self.src(result)}) if {self.case_test(first if k == 0 else subject, keys)} else ")
        if e.otherwise is not None:
            parts.append(f"({self.src(e.otherwise)})")
        return "(" + "".join(parts) + ")"

    def case_test(self, s, keys) -> str:
        """Source of the test of a match's case: is the subject `s` one of the stored values `keys`?"""
        if len(keys) == 1:
            return f"{s} is None" if keys[0] is None else f"{s} == {self.value_src(keys[0])}"
        if len(keys) <= 16 and all(type(v) is not str for v in keys):     # a set written out: a constant
            return f"{s} in {{{', '.join(self.value_src(v) for v in keys)}}}"
        return f"{s} in {self.const(frozenset(keys))}"

    def value_src(self, v) -> str:
        if v is None or type(v) is bool:
            return repr(v)
        return repr(v) if type(v) is int else self.const(v)

    def is_table(self, e) -> bool:
        """Is every result of match `e` a value known at load (so that it is a table)?"""
        return all(self.known_at_load(r) for r in e.results + ((e.otherwise,) if e.otherwise is not None else ()))

    def match_table(self, e):
        """`T[subject]` (or `T.get(subject, other)`) when every result is a value known at load, else None."""
        known = self.match_tables.get(id(e))
        if known is None:
            known = self.match_tables[id(e)] = self.table_of(e) if self.is_table(e) else ""
        if not known:
            return None
        table, other = known
        subject = self.src(e.subject)
        return f"{table}[{subject}]" if other is None else f"{table}.get({subject}, {other})"

    def table_of(self, e):
        """(the table's name, the name of the value for a subject not in it, or None); "" if it cannot be made."""
        results = list(e.results) + ([e.otherwise] if e.otherwise is not None else [])
        from .layout import ConstantState, NeedsGame
        with self.emitting(subst=None), self.apart():
            source = "(" + "".join(f"{self.ex_plain(r)}, " for r in results) + ")"
        try:
            values = self.ns.function("m", source, "match", e.span)(ConstantState(self.layout))
        except (NeedsGame, RuleFailure):
            return ""
        base = e.subject.type
        size = len(base.values) if isinstance(base, T.EnumT) else 2 if base is T.BOOL \
            else self.layout.team_count if base is T.TEAM else None
        if size is not None:              # every stored value is a position: a tuple
            row = [values[-1] if e.otherwise is not None else None] * size
            for keys, value in zip(e.keys, values):
                for key in keys:
                    row[int(key)] = value
            return self.const(tuple(row)), None
        mapping = {key: value for keys, value in zip(e.keys, values) for key in keys}
        return self.const(mapping), (self.const(values[-1]) if e.otherwise is not None else None)

    def load_value(self, e):
        """The name of the constant holding the value of `e`, known at load (`known_at_load`), computed now
        against the stand-in state; None if it cannot be (it needs the game, or it fails: then it fails
        where it is used, as written)."""
        from .layout import ConstantState, NeedsGame
        with self.emitting(subst=None), self.apart():
            source = self.ex_plain(e) if not isinstance(e, ir.ListLit) else \
                "(" + "".join(f"{self.ex_plain(i)}, " for i in e.items) + ")"
        try:
            value = self.ns.function("m", source, "list", e.span)(ConstantState(self.layout))
        except (NeedsGame, RuleFailure):
            return None
        return self.const(value)

    def ex_plain(self, e) -> str:
        """Source of `e` with nothing moved before a loop (a value known at load)."""
        with self.emitting(loops=[]):
            return self.src(e)

    def known_at_load(self, e) -> bool:
        """A value the rules write out: a number, a text without `{…}`, none, a list of such, a fixed
        collection, a shared zone, a const."""
        if isinstance(e, (ir.Const, ir.NoneValue, ir.CardNamed)):
            return True
        if isinstance(e, ir.Text):
            return all(isinstance(p, str) for p in e.parts)
        if isinstance(e, ir.ListLit):
            return all(not isinstance(i, ir.Comprehension) and self.known_at_load(i) for i in e.items)
        if isinstance(e, ir.Neg):
            return isinstance(e.operand, ir.Const)
        if isinstance(e, ir.Fixed):
            return self.fixed(e) is not None
        if isinstance(e, ir.Zone):
            return e.owner is None
        if isinstance(e, ir.DefCall):
            return self.prog.defs[e.name].const
        return False
