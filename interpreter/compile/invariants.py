"""Which parts of an expression may be computed once before the loop they are in.

In `[c for c in p.hand if p.filled[c.crop] == 0]`, `p.filled` is the same for
every `c`: nothing in an expression changes the state while it is computed.
Such a part is computed once before the loop (hoisting.py binds it with a
one-element `for`, or a lambda's default argument) instead of once per
element. It is computed even when the loop turns out empty, so only parts that
cannot fail are moved: numbers, variables, a player's or a team's entries,
sizes of zones, arithmetic that cannot divide by zero or overflow the bounds,
comparisons and their combinations, a def whose body is such a part (its
arguments too), a field or table entry of a card named in the rules or held by a local of
its card type — never of another card (a variable may hold no card), a cast,
`top`, an index or `random`.
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T

_VALUE_KEYS = (T.PLAYER, T.TEAM)         # values that are always a valid index of a per-player/team list


def _index_type(typ) -> bool:
    return typ in _VALUE_KEYS or isinstance(typ, T.EnumT)


def safe(e, local_ok=None, defs=None) -> bool:
    """Can `e` be computed anywhere without failing (and without changing anything)? `local_ok(slot)`
    says it of a local (a parameter of a def being inlined is its argument); by default every local is.
    With `defs` (the program's), a call of a def is safe when its arguments and its body are."""
    global _SAFE_BODIES
    outer = _SAFE_BODIES
    _SAFE_BODIES = {} if outer is None else outer
    try:
        return _safe(e, local_ok or _always, defs, set())
    finally:
        _SAFE_BODIES = outer


_SAFE_BODIES = None     # the defs whose bodies were found safe in this call of `safe`: each is looked into
                        # once (64 defs each calling the one before twice would be 2^64 looks)


def _always(_slot) -> bool:
    return True


def _safe(e, ok, defs=None, calling=frozenset()) -> bool:
    if isinstance(e, ir.Local):
        return ok(e.slot)
    if isinstance(e, (ir.Const, ir.Var)):
        return True
    if isinstance(e, ir.Special):
        return e.name in ("player_count", "players", "teams")
    if isinstance(e, ir.OwnedVar):
        return _index_type(e.owner.type) and _safe(e.owner, ok, defs, calling)
    if isinstance(e, ir.TableEntry):
        if e.key_kind == "card" and (isinstance(e.key, ir.CardNamed) or _a_card(e.key, ok)):   # a valid key
            return _safe(e.table, ok, defs, calling)
        return e.key_kind == "direct" and _index_type(e.key.type) and _safe(e.table, ok, defs, calling) and _safe(e.key, ok, defs, calling)
    if isinstance(e, ir.CardField):
        return isinstance(e.card, ir.CardNamed) or _a_card(e.card, ok)
    if isinstance(e, ir.DefCall):
        return _safe_call(e, ok, defs, calling)
    if isinstance(e, ir.Zone):
        return e.owner is None or (_index_type(e.owner.type) and _safe(e.owner, ok, defs, calling))
    if isinstance(e, ir.BuiltinCall):
        return e.name in ("size", "empty") and len(e.args) == 1 and _safe(e.args[0], ok, defs, calling) \
            and isinstance(e.args[0].type, (T.ZoneT, T.ListT)) and not isinstance(e.args[0], ir.Comprehension)
    if isinstance(e, ir.Property):
        return e.name in ("team", "seat") and _safe(e.obj, ok, defs, calling)
    if isinstance(e, ir.BinOp):
        return _safe_arithmetic(e, ok, defs, calling)
    if isinstance(e, ir.Compare):
        if e.op in ("in", "not in") or isinstance(e.left.type, T.ZoneT) or isinstance(e.right.type, T.ZoneT):
            return False
        if e.op not in ("==", "!=") and not (e.left.type is T.INT and e.right.type is T.INT):
            return False                # an order between other values (no card, say) could fail
        return _safe(e.left, ok, defs, calling) and _safe(e.right, ok, defs, calling)
    if isinstance(e, ir.BoolOp):
        return _safe(e.left, ok, defs, calling) and _safe(e.right, ok, defs, calling)
    if isinstance(e, (ir.Not, ir.Neg)):
        return _safe(e.operand, ok, defs, calling)
    if isinstance(e, ir.Match):       # its cases cover every value (the checker): only its parts can fail
        # (a match of a local only: another subject is computed once by an assignment expression, which
        # could not stand where a part computed before a comprehension goes)
        return type(e.subject) is ir.Local and ok(e.subject.slot) \
            and all(_safe(r, ok, defs, calling) for r in e.results) \
            and (e.otherwise is None or _safe(e.otherwise, ok, defs, calling))
    if isinstance(e, ir.Cond):
        return _safe(e.test, ok, defs, calling) and _safe(e.then, ok, defs, calling) and _safe(e.other, ok, defs, calling)
    return False


def _safe_call(e, ok, defs, calling) -> bool:
    """A def's call: safe arguments, and a body safe for any of them (found once per call of `safe`)."""
    d = defs.get(e.name) if defs is not None else None
    if d is None or e.name in calling or getattr(d, "binds_locals", True):
        return False
    if d.const:
        return True
    if not all(_safe(a, ok, defs, calling) for a in e.args):
        return False
    if _SAFE_BODIES is not None and e.name in _SAFE_BODIES:
        return True
    body = _safe(d.body, _always, defs, calling | {e.name})
    if body and _SAFE_BODIES is not None:
        _SAFE_BODIES[e.name] = True
    return body


def _safe_arithmetic(e, ok, defs, calling) -> bool:
    """`a + b`, `a - b`; a product with a number written out; a division or remainder by one not 0."""
    if isinstance(e.type, T.ListT) or not (_safe(e.left, ok, defs, calling) and _safe(e.right, ok, defs, calling)):
        return False
    if e.op in ("+", "-"):
        return True
    if e.op == "*":                 # a product of two computed numbers is bounded by rt_mul
        return isinstance(e.left, ir.Const) or isinstance(e.right, ir.Const)
    return isinstance(e.right, ir.Const) and e.right.value != 0


def _a_card(e, ok) -> bool:
    """A local of a card type (not optional): it holds a card of that type, whose fields and slot are there."""
    return isinstance(e, ir.Local) and isinstance(e.type, T.CardT) and ok(e.slot)


def worth_moving(e) -> bool:
    """Costly enough to compute that binding it once first pays: a variable's entry, a table's, a size,
    or five operations or more (not a name, a number or a little arithmetic on them)."""
    if isinstance(e, (ir.Const, ir.Local, ir.Var, ir.Special)):
        return False
    nodes = 0
    for n in ir.walk(e):
        if isinstance(n, (ir.OwnedVar, ir.TableEntry, ir.BuiltinCall)) or (isinstance(n, ir.Zone) and n.owner is not None):
            return True
        nodes += 1
    return nodes >= 5
