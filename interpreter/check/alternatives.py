"""One decision over options of several shapes: `p chooses one of:` and its alternatives.

    p chooses one of:
        k in 1..5 where k <= size(p.hand) as "play slot {k}":
            play_slot(p, k)
        q in players, c in Colour where q != p as "tell {q} about {c}":
            clue(p, q, c)

Each alternative is a choice of its own shape (one name or a pair, its `where`, label and
block). The decision is one ordinary choice over whole numbers 0..N-1, the alternatives'
universes laid end to end (an alternative over `1..5` takes 5 numbers, one over players and
Colour max_players × 5), so its option ids are as fixed as any choice's and the compiler,
the engine and every agent meet nothing new (lowering, `lower_one_of`). Number k stands for
the value at its place in its alternative's universe: the names are computed from k in the
`where`, the labels and, by a `let`, at the start of the block.

An alternative ranges over numbers (a range whose bounds are known when the rules load),
enum values, `Bool`, players or teams, or pairs of them: the universes whose sizes the
checker knows. A card is chosen by its place (`k in 1..5`, `p.hand[k - 1]`): how many cards a
type has is known only once the `cards` declarations run.
"""
from __future__ import annotations

from ..builtins import a_type as _a
from ..syntax import ast
from ..ir import nodes as ir
from ..ir import types as T
from .base import CheckerBase
from .symbols import EnumSym

MAX_OPTIONS = 100_000


class Alternatives(CheckerBase):
    def stmt_ChooseOneOf(self, s: ast.ChooseOneOf):
        self.unnarrow(variables=True)          # while the player decides, other rules may run (`anytime`)
        self.expect(s.chooser, self.expr(s.chooser), T.PLAYER, "the one who chooses")
        self.slots[id(s)] = self.scope.temp()  # the number taken
        total = 0
        for alt in s.alternatives:
            first = self.alternative_universe(alt.domain)
            second = self.alternative_universe(alt.domain2) if alt.var2 is not None else None
            if first is not None and (alt.var2 is None or second is not None):
                size = first[2] * (second[2] if second else 1)
                self.one_of_universes[id(alt)] = (total, first, second)
                total += size
            self.scope.push()
            self.slots[id(alt)] = self.scope.declare(alt.var, first[3] if first else T.ANY, alt.span).slot
            if alt.var2 is not None:
                if alt.var2 == alt.var:
                    self.error(alt.span, f"the two parts of a pair need two names, not '{alt.var}' twice")
                self.slots[(id(alt), "second")] = self.scope.declare(alt.var2, second[3] if second else T.ANY,
                                                                     alt.span).slot
            if alt.where is not None:
                self.expect(alt.where, self.expr(alt.where), T.BOOL, "a `where` condition")
            self.expr(alt.label)
            self.block(alt.body)
            self.scope.pop()
        if total > MAX_OPTIONS:
            self.error(s.span, f"these alternatives offer up to {total} options", f"a choice offers at most {MAX_OPTIONS}")
        self.one_of_universes[id(s)] = total
        if s.otherwise is not None:
            self.block(s.otherwise)

    def alternative_universe(self, domain):
        """(kind, low, size, element type) of the values an alternative's domain is drawn from, or None
        (reported) when that is not a set whose size is known now."""
        dtyp = self.expr(domain)
        elem = self.iter_elem(domain, dtyp)
        if isinstance(domain, ast.RangeLit):
            return ("int", domain.lo, domain.hi - domain.lo + 1, T.INT)
        if isinstance(domain, ast.RangeExpr):
            self.range_universe_of(domain)
            lo_hi = self.range_universe.get(id(domain))
            return ("int", lo_hi[0], lo_hi[1] - lo_hi[0] + 1, T.INT) if lo_hi else None
        if isinstance(elem, T.EnumT):
            return ("enum", 0, len(elem.values), elem)
        if elem is T.BOOL:
            return ("bool", 0, 2, elem)
        if elem is T.PLAYER:
            return ("player", 0, self.max_players, elem)
        if elem is T.TEAM:
            return ("team", 0, len(self.teams), elem)
        if elem is T.ANY:
            return None
        hint = ("choose a card by its place: `k in 1..5 … p.hand[k - 1]`" if T.is_card(elem) else
                "an alternative offers numbers in a range, enum values, Bool, players or teams, or pairs of them")
        self.error(domain.span, f"an alternative of `chooses one of` cannot range over {_a(dtyp)}", hint)
        return None


def lower_one_of(low, s: ast.ChooseOneOf) -> ir.Choose:
    """The one choice over 0..N-1 a `chooses one of` means (see the module's docstring); `low` is the
    Lowerer, whose `pair_parts` stand the values computed from the number for the names."""
    sp, c = s.span, low.c
    k = ir.Local(T.INT, sp, low.slots[id(s)])
    total = c.one_of_universes[id(s)]
    conditions, labels, branches = [], [], []
    for alt in s.alternatives:
        offset, first, second = c.one_of_universes[id(alt)]
        size = first[2] * (second[2] if second else 1)
        inside = _and(_compare("<=", ir.Const(T.INT, sp, offset), k), _compare("<", k, ir.Const(T.INT, sp, offset + size)))
        place = ir.BinOp(T.INT, sp, "-", k, ir.Const(T.INT, sp, offset))
        if second is None:
            values = {low.slots[id(alt)]: _value_at(first, place, sp)}
        else:
            width = ir.Const(T.INT, sp, second[2])
            values = {low.slots[id(alt)]: _value_at(first, ir.BinOp(T.INT, sp, "/", place, width), sp),
                      low.slots[(id(alt), "second")]: _value_at(second, ir.BinOp(T.INT, sp, "mod", place, width), sp)}
        saved, low.pair_parts = getattr(low, "pair_parts", {}), values
        try:
            test = inside
            for slot, domain in zip(values, (alt.domain, alt.domain2)):
                if not _whole_universe(low, domain):
                    test = _and(test, ir.Compare(T.BOOL, sp, "in", values[slot], low.expr(domain)))
            if alt.where is not None:
                test = _and(test, low.expr(alt.where))
            label = low.expr(alt.label)
        finally:
            low.pair_parts = saved
        conditions.append(test)
        labels.append(ir.Cond(T.STR, sp, inside, label, ir.Text(T.STR, sp, ())))
        branches.append((inside, tuple(ir.Let(sp, slot, v) for slot, v in values.items()) + low.block(alt.body)))
    where = conditions[0]
    for test in conditions[1:]:
        where = ir.BoolOp(T.BOOL, sp, "or", where, test)
    body = (ir.If(sp, tuple(branches[:-1]), branches[-1][1]),) if len(branches) > 1 else branches[0][1]
    return ir.Choose(sp, low.expr(s.chooser), s.may, k.slot, ir.Fixed(T.ListT(T.INT), sp, "range", "", 0, total - 1),
                     T.INT, where, ir.Text(T.STR, sp, tuple(labels)), None, body,
                     low.block(s.otherwise) if s.otherwise is not None else None, bool(s.secret))


def _value_at(universe, place, sp):
    """The value at `place` (an Int expression) of an alternative's universe. Enum values, players and
    teams are their positions at run time; a Bool's universe is true, then false."""
    kind, lo, _size, elem = universe
    if kind == "int":
        return ir.BinOp(T.INT, sp, "+", place, ir.Const(T.INT, sp, lo)) if lo else place
    if kind == "bool":
        return ir.Compare(T.BOOL, sp, "==", place, ir.Const(T.INT, sp, 0))
    return ir.BinOp(elem, sp, "+", place, ir.Const(T.INT, sp, 0))


def _whole_universe(low, domain) -> bool:
    """Is every value of the universe in the domain (no test needed): a range written out, an enum or Bool."""
    if domain is None:
        return True
    if isinstance(domain, ast.RangeLit):
        return True
    return isinstance(domain, ast.Name) and (isinstance(low.refs.get(id(domain)), EnumSym) or domain.id == "Bool")


def _compare(op, a, b):
    return ir.Compare(T.BOOL, a.span, op, a, b)


def _and(a, b):
    return ir.BoolOp(T.BOOL, a.span, "and", a, b)
