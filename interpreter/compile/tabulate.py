"""Parts of an expression that depend on one card (or enum value) alone: a table made at load.

In `[c for c in in_zone(z) if p.grown[c] == 0 and (c.kind != bean or p.grown[corn_of(c)] >= 2)]`,
`corn_of(c)` — and the slot of that corn in `p.grown` — is computed from the fields of `c` and
constants only: the same card always gives the same value. Such a part is computed when the
rules load, for every card of its type (every value of its enum), into a tuple indexed by the
card's id, and becomes one look-up (`K7[v2]`) where it was a formula.

Only a part that reads no state (no variable, zone, player, option, `random`; no def that does),
whose locals are one card or enum value (or two, a table of tables when it has at most MAX_CELLS
cells: `is_colour(c, k)` is `K9[v2][v1]`), and that computes without failing for every card of
the type is made a table; a part that fails for one of them stays a formula, so it fails where
it is used, as written. ExprGen.src asks `Tabulator.table` of the nodes worth it, outermost first.
"""
from __future__ import annotations

import itertools

from ..ir import nodes as ir
from ..ir import types as T
from ..runtime.errors import RuleFailure
from .codecache import MISSING
from .written import Lookup, own_operations

# nodes that read the state or bind locals: a part holding one is never a table
_NOT_TABULATED = frozenset((ir.Var, ir.OwnedVar, ir.TableEntry, ir.Zone, ir.Special, ir.MakeCard, ir.Comprehension,
                            ir.Pairs, ir.ComputedRange, ir.Text, ir.Property, *ir.BINDERS))
_PLAIN = frozenset((type(None), int, str, bool))   # no node
# nodes worth a table (a formula, not a name or a single look-up)
CANDIDATES = frozenset((ir.BinOp, ir.Compare, ir.BoolOp, ir.Not, ir.Cond, ir.Index, ir.Match, ir.DefCall,
                        ir.CardField, ir.EnumData, ir.BuiltinCall))


MAX_CELLS = 1024     # a table over two values (a card and a colour) holds at most this many


_FAILS = object()     # a cell where computing the part fails


class Tabulator:
    def __init__(self, gen):
        self.gen = gen
        self.known: dict = {}          # (id(node), then) -> source or None, outside inlined defs
        self.state_free: dict = {}     # def name -> does its body read no state (through the defs it calls)?
        self.facts: dict = {}          # id(node) -> locals_read(node)
        self.keep: list = []           # the nodes in `facts` stay alive, so their ids stay theirs
        self.by_source: dict = {}      # (source, its locals' types, then) -> the table made for it
        self.universes: dict = {}      # type -> universe()
        self.off = 0                   # > 0 while a formula is written that runs only where a table does not hold

    def locals_read(self, e):
        """The locals `e` reads, as (slot, type), or None if it reads the state (worked out once per node)."""
        known = self.facts.get(id(e), False)
        if known is not False:
            return known
        out = None
        t = type(e)
        if not (t in _NOT_TABULATED or (t is ir.BuiltinCall and e.name == "random")
                or (t is ir.DefCall and not self.def_free(e.name))):
            out = {(e.slot, e.type)} if t is ir.Local else set()
            for name in ir._child_fields(t):
                v = getattr(e, name)
                for item in (v if type(v) is tuple else (v,)):
                    if type(item) in _PLAIN:
                        continue
                    if hasattr(type(item), "__record_fields__"):
                        inner = self.locals_read(item)
                        if inner is None:
                            out = None
                            break
                        out |= inner
                if out is None:
                    break
            out = frozenset(out) if out is not None else None
        self.facts[id(e)] = out
        self.keep.append(e)
        return out

    def real_locals(self, e):
        """The locals of the function being written that `e` reads (through the arguments of the defs
        being inlined), or None if it reads the state."""
        slots = self.locals_read(e)
        if slots is None or self.gen.subst is None:
            return slots
        out = set()
        for slot, typ in slots:
            inner = self.gen.subst_locals.get(slot, frozenset(((slot, typ),)))
            if inner is None:
                return None
            out |= inner
        return frozenset(out)

    def operations(self, e) -> int:
        """About how many operations computing `e` takes (a def call: many, its body is not looked at)."""
        count = 0
        for n in ir.walk(e):
            if isinstance(n, ir.DefCall):
                return 99
            if not isinstance(n, (ir.Local, ir.Const)):
                count += 1
        return count

    def def_free(self, name: str) -> bool:
        """Does the def's body read no state (through the defs it calls)?"""
        known = self.state_free.get(name)
        if known is None:
            self.state_free[name] = False        # a def that calls itself: no table
            d = self.gen.prog.defs[name]
            known = self.state_free[name] = d.const or self.locals_read(d.body) is not None
        return known

    def table(self, e, then=None, worth: int = 2):
        """(`K7[v2]`, None) for `e` (its value passed through `then`, a tuple, if given) when it can be a
        table; (`K7[v2]`, `K8[v2]`) when the table holds only where the second is true (elsewhere
        computing it fails: the caller writes the formula there); else None. Each look-up is a Lookup."""
        gen = self.gen
        if self.off:
            return None
        key = (id(e), id(then), worth) if gen.subst is None else None
        if key is not None and key in self.known:
            return self.known[key]
        result = self.make(e, then, worth)
        if key is not None:
            self.known[key] = result
        return result

    def make(self, e, then, worth):
        gen = self.gen
        if not gen.layout.cards_done:
            return None
        slots = self.real_locals(e)
        if slots is None or not 1 <= len(slots) <= 2:
            return None
        sizes = [len(self.universe(typ) or ()) for _slot, typ in slots]
        if not all(sizes) or (len(sizes) == 2 and sizes[0] * sizes[1] > MAX_CELLS):
            return None
        if then is None and self.operations(e) < worth + len(slots) - 1:      # a look-up already, or nearly
            return None
        # the part as plain source (nothing moved before a loop); what its source does, as the generator wrote it
        with gen.emitting(loops=[]), gen.apart() as written, gen.unbinding():
            source = getattr(gen, "ex_" + type(e).__name__)(e)
        if written.binds:
            return None
        # its parts that became tables are a look-up each now: still worth one table? (and it reads no
        # value computed elsewhere in the function, which a table made at load cannot)
        ops = written.ops + own_operations(e)
        keys = sorted({slot for slot, _typ in slots}, key=str)     # in the order of their names: v10 before v9
        if written.elsewhere or not all(k in gen.local_types for k in keys) \
                or (then is None and ops < worth + len(keys) - 1):
            return None
        same = (source, tuple(gen.local_types[k] for k in keys), id(then))
        if same not in self.by_source:       # the same part inlined in many places: one table
            self.by_source[same] = self.compute(e, source, keys, then, ops)
        return self.by_source[same]

    def compute(self, e, source, keys, then, ops):
        gen = self.gen
        universes = [self.universe(gen.local_types[k]) for k in keys]
        if None in universes or (len(keys) == 2 and len(universes[0]) * len(universes[1]) > MAX_CELLS):
            return None
        key, made = gen.ns.cache.value("table", source, repr(universes), repr(then))
        if made is MISSING:
            made = self.cells(e, source, [f"v{k}" for k in keys], then, universes, ops)
            gen.ns.cache.keep(key, made)
        else:
            gen.ns.fresh("E")       # the name its function takes when computed: every later name stays the same
        if made is None:
            return None
        values, guarded = made
        guard = None
        keys = tuple(keys)
        table = Lookup(gen.const(values), keys)
        if guarded is not None:
            i, holds = guarded
            guard = Lookup(gen.const(holds), keys[i:i + 1])
        return table, guard

    def cells(self, e, source, vars_, then, universes, ops):
        """The table's values as nested tuples, and (the local, the tuple saying where it holds) when it
        does not hold everywhere; None if the part cannot be a table (where it holds for only some values,
        or `ops`, the operations its source computes, are few). Kept in the code cache (made once per
        version of the rules and of rulecraft), so only data: numbers, texts, booleans, None, tuples."""
        gen = self.gen
        from .layout import ConstantState, NeedsGame
        m = ConstantState(gen.layout)     # `m` names a card in a cast's error; any use of the game fails
        fn = gen.ns.function(", ".join(["m"] + vars_), source, "table", getattr(e, "span", None))
        cells = {}
        for key in itertools.product(*universes):
            try:
                value = fn(m, *key)
            except RuleFailure:
                cells[key] = _FAILS
                continue
            except (NeedsGame, Exception):     # noqa: BLE001 - it needs the game, or it is not a value: a formula
                return None
            if then is not None:
                value = then[value] if type(value) is int and 0 <= value < len(then) else None
            if not (value is None or type(value) in (int, bool, str, tuple)):
                return None
            cells[key] = value
        guarded = None
        if _FAILS in cells.values():
            # where it fails, the formula (so it fails where it is used): a look-up for each value of one
            # local says where the table holds (`K9[v2] if K10[v2] else …`), for the local it holds most for
            holds = []
            for i, universe in enumerate(universes):
                bad = {key[i] for key, value in cells.items() if value is _FAILS}
                holds.append(tuple(x for x in universe if x not in bad))
            i = max(range(len(vars_)), key=lambda k: len(holds[k]) / len(universes[k]))
            if len(holds[i]) * 2 < len(universes[i]) or ops < 4:
                return None
            guarded = (i, self.nested((universes[i],), {(x,): x in holds[i] for x in universes[i]}))
        return self.nested(universes, cells), guarded

    @staticmethod
    def nested(universes, cells):
        """Tuples indexed by each value in turn (None where no value is), from {values: cell}."""
        def level(k, prefix):
            out = [None] * (max(universes[k]) + 1)
            for x in universes[k]:
                key = prefix + (x,)
                out[x] = level(k + 1, key) if k + 1 < len(universes) else \
                    (None if cells[key] is _FAILS else cells[key])
            return tuple(out)
        return level(0, ())

    def universe(self, typ):
        """The values a local of this type can hold: card ids, or an enum's positions; None if not fixed."""
        known = self.universes.get(typ)
        if known is None:
            known = self.universes[typ] = self.values_of(typ) or ()
        return known or None

    def values_of(self, typ):
        if isinstance(typ, T.CardT):
            return tuple(self.gen.layout.cards_by_type.get(typ.name, ())) or None
        if typ is T.ANYCARD:
            return tuple(range(len(self.gen.layout.card_types))) or None
        if isinstance(typ, T.EnumT):
            return tuple(range(len(typ.values))) or None
        return None
