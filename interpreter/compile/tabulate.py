"""Parts of an expression that depend on one card (or enum value) alone: a table made at load.

In `[c for c in in_zone(z) if p.grown[c] == 0 and (c.kind != bean or p.grown[corn_of(c)] >= 2)]`,
`corn_of(c)` — and the slot of that corn in `p.grown` — is computed from the fields of `c` and
constants only: the same card always gives the same value. Such a part is computed when the
rules load, for every card of its type (every value of its enum), into a tuple indexed by the
card's id, and becomes one look-up (`K7[v2]`) where it was a formula.

Only a part that reads no state (no variable, zone, player, option, `random`; no def that does),
whose only local is one card or enum value, and that computes without failing for every card of
the type is made a table; a part that fails for one of them stays a formula, so it fails where
it is used, as written. ExprGen.src asks `Tabulator.table` of the nodes worth it, outermost first.
"""
from __future__ import annotations

import re

from ..check import ir
from ..check import types as T

# nodes that read the state or bind locals: a part holding one is never a table
_NOT_TABULATED = (ir.Var, ir.OwnedVar, ir.TableEntry, ir.Zone, ir.Special, ir.MakeCard, ir.Comprehension, ir.BestBy,
                  ir.FindWhere, ir.LetIn, ir.Pairs, ir.ComputedRange, ir.Text, ir.Property)
# nodes worth a table (a formula, not a name or a single look-up)
CANDIDATES = frozenset((ir.BinOp, ir.Compare, ir.BoolOp, ir.Not, ir.Cond, ir.Index, ir.Match, ir.DefCall,
                        ir.CardField, ir.EnumData, ir.BuiltinCall))
_NAME = re.compile(r"[A-Za-z_]\w*")
_WORDS = frozenset(("if", "else", "and", "or", "not", "in", "is", "None", "True", "False",
                    "len", "max", "min", "sum", "any", "all", "abs", "int", "tuple"))
_OPERATIONS = re.compile(r"\[| [-+*%<>]=? | [=!]= | // | and | or |not ")


class Tabulator:
    def __init__(self, gen):
        self.gen = gen
        self.known: dict = {}          # (id(node), then) -> source or None, outside inlined defs
        self.state_free: dict = {}     # def name -> does its body read no state (through the defs it calls)?

    def reads_no_state(self, e) -> bool:
        for n in ir.walk(e):
            if isinstance(n, _NOT_TABULATED) or (isinstance(n, ir.BuiltinCall) and n.name == "random"):
                return False
            if isinstance(n, ir.DefCall) and not self.def_free(n.name):
                return False
        return True

    def def_free(self, name: str) -> bool:
        known = self.state_free.get(name)
        if known is None:
            self.state_free[name] = False        # a def that calls itself: no table
            d = self.gen.prog.defs[name]
            known = self.state_free[name] = d.const or self.reads_no_state(d.body)
        return known

    def table(self, e, then=None, worth: int = 2):
        """`K7[v2]` for `e` (its value passed through `then`, a tuple, if given) when it can be a table, else None."""
        gen = self.gen
        key = (id(e), id(then)) if gen.subst is None else None
        if key is not None and key in self.known:
            return self.known[key]
        result = self.make(e, then, worth)
        if key is not None:
            self.known[key] = result
        return result

    def make(self, e, then, worth):
        gen = self.gen
        if not gen.layout.cards_done or not self.reads_no_state(e):
            return None
        if gen.subst is None and len({n.slot for n in ir.walk(e) if isinstance(n, ir.Local)}) != 1:
            return None
        loops, gen.loops = gen.loops, []          # the part as plain source: nothing moved before a loop
        try:
            source = getattr(gen, "ex_" + type(e).__name__)(e)
        finally:
            gen.loops = loops
        if ":=" in source or "lambda" in source or '"' in source or "'" in source:
            return None
        names = set(_NAME.findall(source))
        locals_ = [n for n in names if not (n in _WORDS or n.startswith(("K", "rt_")))]
        if len(locals_) != 1 or locals_[0] not in gen.local_types \
                or (then is None and len(_OPERATIONS.findall(source)) < worth):
            return None
        var = locals_[0]
        universe = self.universe(gen.local_types[var])
        if universe is None:
            return None
        try:
            fn = gen.ns.function(var, source, "table", getattr(e, "span", None))
            values = [fn(v) for v in universe]
        except Exception:          # noqa: BLE001 - it fails for some value (or needs the game): a formula
            return None
        if then is not None:
            values = [then[v] if type(v) is int and 0 <= v < len(then) else None for v in values]
        if not all(v is None or type(v) in (int, bool, str, tuple) for v in values):
            return None
        row = [None] * (max(universe) + 1 if universe else 0)
        for v, value in zip(universe, values):
            row[v] = value
        return f"{gen.const(tuple(row))}[{var}]"

    def universe(self, typ):
        """The values a local of this type can hold: card ids, or an enum's positions; None if not fixed."""
        if isinstance(typ, T.CardT) and typ is not T.ANY:
            return tuple(self.gen.layout.cards_by_type.get(typ.name, ())) or None
        if isinstance(typ, T.EnumT):
            return tuple(range(len(typ.values))) or None
        return None
