"""Operators: arithmetic (`rt_mul`, `rt_div` where a plain operator could overflow or fail),
comparisons, `and`/`or`/`not`, conditional expressions, and conditions whose truth alone counts
(`test`). A part of ExprGen (expressions.py), which mixes it in."""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T
from .hoisting import MOVABLE
from .ranges import small

_NONEMPTY = {(">", 0): True, (">=", 1): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}


def _size_truth(e):
    """`size(x) > 0` and the like, a size compared so that only emptiness counts: (x, is the test
    "not empty"?), else None."""
    left, right = e.left, e.right
    if isinstance(left, ir.BuiltinCall) and left.name == "size" and len(left.args) == 1 \
            and isinstance(right, ir.Const) and type(right.value) is int and (e.op, right.value) in _NONEMPTY:
        return left.args[0], _NONEMPTY[(e.op, right.value)]
    return None


class Operators:
    """Arithmetic, comparisons, logic, and conditions."""

    def test(self, e) -> str:
        """Source of a condition whose truth alone counts (an `if`, a `while`, a filter, a choice's
        `where`, the elements of `any`/`all`): `size(x) > 0` is `x` itself and `size(x) == 0` is
        `not x`, with no call of len; `and`, `or` and `not` pass the same on to their operands."""
        if self.loops and type(e) in MOVABLE and self.movable(e) and self.scope_for(e) is not None:
            return self.src(e)          # computed once before the loop: its name is cheaper still
        if isinstance(e, ir.Compare):
            sized = _size_truth(e)
            if sized is not None:
                xs = self.seq(sized[0])
                self.written.ops += 0 if sized[1] else 1
                return f"({xs})" if sized[1] else f"(not {xs})"
        elif isinstance(e, ir.BoolOp):
            self.written.ops += 1
            return f"(({self.test(e.left)}) {e.op} ({self.test(e.right)}))"
        elif isinstance(e, ir.Not):
            self.written.ops += 1
            return f"(not ({self.test(e.operand)}))"
        return self.src(e)

    def ex_Cond(self, e):
        return f"(({self.src(e.then)}) if ({self.src(e.test)}) else ({self.src(e.other)}))"

    def ex_BinOp(self, e):
        op = e.op
        if op == "+" and isinstance(e.type, T.ListT):
            return f"rt_list(tuple({self.seq(e.left)}) + tuple({self.seq(e.right)}))"
        a, b = self.src(e.left), self.src(e.right)
        if op == "*" and not isinstance(e.left, ir.Const) and not isinstance(e.right, ir.Const):
            x, y = self.known_values(e.left), self.known_values(e.right)
            if not (x and y and all(type(v) is int and abs(v) <= 1 << 24 for v in x + y)) \
                    and not small(self.range_of(e)):       # small: no overflow
                return f"rt_mul({a}, {b})"
        if op in ("+", "-", "*"):
            return f"(({a}) {op} ({b}))"
        constant = isinstance(e.right, ir.Const) and e.right.value != 0
        if op == "/":
            return f"(({a}) // {b})" if constant else f"rt_div({a}, {b})"
        return f"(({a}) % {b})" if constant else f"rt_mod({a}, {b})"

    def ex_Compare(self, e):
        op = e.op
        lt, rt = e.left.type, e.right.type
        if op in ("==", "!=") and isinstance(lt, T.ZoneT) != isinstance(rt, T.ZoneT):
            # a zone compared with a list: compare the cards, bottom first
            return f"(tuple({self.seq(e.left)}) {op} tuple({self.seq(e.right)}))"
        a = self.src(e.left)
        if op in ("in", "not in"):
            if isinstance(rt, T.ZoneT):
                return f"(m.where[{a}] {'==' if op == 'in' else '!='} ({self.src(e.right)}))"
            if isinstance(e.right, ir.Fixed):
                values = self.fixed(e.right)
                if values is not None:      # `c in Spell`, `k in 1..6`: a set made once, not a scan
                    return f"(({a}) {op} {self.const(frozenset(values))})"
        b = self.src(e.right)
        return f"(({a}) {op} ({b}))"

    def ex_BoolOp(self, e):
        return f"(({self.src(e.left)}) {e.op} ({self.src(e.right)}))"

    def ex_Not(self, e):
        return f"(not ({self.src(e.operand)}))"

    def ex_Neg(self, e):
        return f"(-({self.src(e.operand)}))"
