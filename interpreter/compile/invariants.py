"""Loop-invariant parts of a comprehension, a legality filter or a `by` key, computed once.

In `[c for c in p.hand if p.filled[c.crop] == 0]`, `p.filled` is the same for
every `c`: nothing in an expression changes the state while it is computed.
Such a part is computed once before the loop (expressions.py binds it with a
one-element `for`, or a lambda's default argument) instead of once per
element. It is computed even when the loop turns out empty, so only parts that
cannot fail are moved: numbers, variables, a player's or a team's entries,
sizes of zones, arithmetic that cannot divide by zero or overflow the bounds,
comparisons and their combinations — never a def call, a card's field (a
variable may hold no card), a cast, `top`, an index or `random`.
"""
from __future__ import annotations

from ..check import ir
from ..check import types as T

_VALUE_KEYS = (T.PLAYER, T.TEAM)         # values that are always a valid index of a per-player/team list


def _index_type(typ) -> bool:
    return typ in _VALUE_KEYS or isinstance(typ, T.EnumT)


def safe(e) -> bool:
    """Can `e` be computed anywhere without failing (and without changing anything)?"""
    if isinstance(e, (ir.Const, ir.Local, ir.Var)):
        return True
    if isinstance(e, ir.Special):
        return e.name in ("player_count", "players", "teams")
    if isinstance(e, ir.OwnedVar):
        return _index_type(e.owner.type) and safe(e.owner)
    if isinstance(e, ir.TableEntry):
        return e.key_kind == "direct" and _index_type(e.key.type) and safe(e.table) and safe(e.key)
    if isinstance(e, ir.Zone):
        return e.owner is None or (_index_type(e.owner.type) and safe(e.owner))
    if isinstance(e, ir.BuiltinCall):
        return e.name in ("size", "empty") and len(e.args) == 1 and safe(e.args[0]) \
            and isinstance(e.args[0].type, (T.ZoneT, T.ListT)) and not isinstance(e.args[0], ir.Comprehension)
    if isinstance(e, ir.Property):
        return e.name in ("team", "seat") and safe(e.obj)
    if isinstance(e, ir.BinOp):
        if isinstance(e.type, T.ListT) or not (safe(e.left) and safe(e.right)):
            return False
        if e.op in ("+", "-"):
            return True
        if e.op == "*":                 # a product of two computed numbers is bounded by rt_mul
            return isinstance(e.left, ir.Const) or isinstance(e.right, ir.Const)
        return isinstance(e.right, ir.Const) and e.right.value != 0
    if isinstance(e, ir.Compare):
        if e.op in ("in", "not in") or isinstance(e.left.type, T.ZoneT) or isinstance(e.right.type, T.ZoneT):
            return False
        return safe(e.left) and safe(e.right)
    if isinstance(e, ir.BoolOp):
        return safe(e.left) and safe(e.right)
    if isinstance(e, (ir.Not, ir.Neg)):
        return safe(e.operand)
    if isinstance(e, ir.Cond):
        return safe(e.test) and safe(e.then) and safe(e.other)
    return False


def _worth(e) -> bool:
    """More to compute than a name, a number or a variable (binding it first would cost as much)."""
    if isinstance(e, (ir.Const, ir.Local, ir.Var, ir.Special)):
        return False
    if isinstance(e, ir.Zone) and e.owner is None:
        return False                    # a zone without owner is a number
    return True


def _binds(n) -> set:
    if isinstance(n, ir.Comprehension):
        return {f.slot for f in n.fors}
    if isinstance(n, ir.BestBy):
        return {n.slot}
    return set()


def invariants(bound: set, parts, done=()) -> list:
    """The largest parts of the expressions `parts`, computed once per element of a loop over the
    locals `bound`, that do not read those locals and can be moved before the loop (not those in
    `done`, ids of parts an enclosing loop already computes first)."""
    found: list = []
    seen: set = set(done)

    def visit(n, bound):
        if type(n) is tuple:
            for item in n:
                visit(item, bound)
            return
        if not hasattr(type(n), "__attrs_attrs__") or id(n) in seen:
            return
        if _worth(n) and safe(n) and not any(isinstance(x, ir.Local) and x.slot in bound for x in ir.walk(n)):
            seen.add(id(n))
            found.append(n)
            return
        inner = bound | _binds(n)
        for name in ir._child_fields(type(n)):
            visit(getattr(n, name), inner)

    for part in parts:
        if part is not None:
            visit(part, set(bound))
    return found
