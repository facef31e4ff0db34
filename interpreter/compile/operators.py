"""Operators: arithmetic (`rt_mul`, `rt_div` where a plain operator could overflow or fail),
comparisons (a count compared first with 0), `and`/`or`/`not` (folded where a side is known, two
comparisons sharing a number chained), conditional expressions, and conditions whose truth alone
counts (`test`). A part of ExprGen (expressions.py), which mixes it in."""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T
from .calls import MAX_INLINED
from .hoisting import MOVABLE
from .invariants import safe
from .ranges import small
from .written import own_operations

_NONEMPTY = {(">", 0): True, (">=", 1): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}


def _size_truth(e):
    """`size(x) > 0` and the like, a size compared so that only emptiness counts: (x, is the test
    "not empty"?), else None."""
    left, right = e.left, e.right
    if isinstance(left, ir.BuiltinCall) and left.name == "size" and len(left.args) == 1 \
            and isinstance(right, ir.Const) and type(right.value) is int and (e.op, right.value) in _NONEMPTY:
        return left.args[0], _NONEMPTY[(e.op, right.value)]
    return None


_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "=="}    # `a op b` is `b FLIPPED[op] a`


def alike(a, b) -> bool:
    """Are two IR nodes the same expression, wherever they are written (their spans aside)?"""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(alike(x, y) for x, y in zip(a, b))
    fields = getattr(type(a), "__record_fields__", None)
    if fields is None:
        return a == b
    return all(f.name == "span" or alike(getattr(a, f.name), getattr(b, f.name)) for f in fields)


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
            folded = self.folded(e)
            if folded is not None:
                return self.test(folded)
            self.written.ops += 1
            return self.chained(e) or f"(({self.test(e.left)}) {e.op} ({self.test(e.right)}))"
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
        folded = self.folded(e)
        if folded is not None:
            return self.src(folded)
        return self.chained(e) or f"(({self.src(e.left)}) {e.op} ({self.src(e.right)}))"

    def chained(self, e):
        """`p.grown[c] > 0 and p.grown[c] < c.height` as Python's chained `0 < x < h`, the number
        shared by both comparisons computed once; None when `e` is no such `and`. The shared part
        cannot fail and changes nothing (`safe`), nor can a side turned round to the other side of its
        comparison (it is computed at another moment), and neither comparison is computed before a
        loop or is a table's."""
        if e.op != "and":
            return None
        left, right = e.left, e.right
        if type(left) is not ir.Compare or type(right) is not ir.Compare or left.op not in _FLIPPED \
                or right.op not in _FLIPPED or any(x.type is not T.INT for x in (left.left, left.right, right.left, right.right)):
            return None
        ok = self.local_safe if self.subst is not None else None

        def movable(side):          # computed at another moment than written: it must not fail
            return safe(side, ok, self.prog.defs)
        if alike(left.right, right.left):
            first, op1, shared, op2, last = left.left, left.op, left.right, right.op, right.right
        elif alike(left.left, right.left) and movable(left.right):
            first, op1, shared, op2, last = left.right, _FLIPPED[left.op], left.left, right.op, right.right
        elif alike(left.right, right.right) and movable(right.left):
            first, op1, shared, op2, last = left.left, left.op, left.right, _FLIPPED[right.op], right.left
        elif alike(left.left, right.right) and movable(left.right) and movable(right.left):
            first, op1, shared, op2, last = left.right, _FLIPPED[left.op], left.left, _FLIPPED[right.op], right.left
        else:
            return None
        if not safe(shared, ok, self.prog.defs) or (type(shared) is ir.Local and self.subst is None):
            return None     # a local is read as fast as it is kept: `x >= 0 and x <= 6` is quicker than `0 <= x <= 6`
        for c in (left, right):
            if (self.loops and self.movable(c) and self.scope_for(c) is not None) or self.tables.table(c, worth=2):
                return None
        self.written.ops += own_operations(left) + own_operations(right)
        return f"(({self.src(first)}) {op1} ({self.src(shared)}) {op2} ({self.src(last)}))"

    def folded(self, e):
        """`a and b` / `a or b` with a side known (known_truth) as the side it comes to: `true or x` is
        true, `true and x` is x, `x and true` is x, and `x or true` is true where x cannot fail (a hook
        of a variant, `def can_use_apiary(p) = true`, costs nothing where it is used); else None."""
        absorbing = e.op == "or"              # true decides an `or`, false an `and`
        left = self.known_truth(e.left)
        if left is not None:
            return e.left if left == absorbing else e.right
        right = self.known_truth(e.right)
        if right is None:
            return None
        if right != absorbing:
            return e.left
        return e.right if safe(e.left, self.local_safe if self.subst is not None else None, self.prog.defs) else None

    def known_truth(self, e, depth: int = 0):
        """True or False when `e` is a constant: `true`, `false`, `not` of one, or a call of a def whose
        body is one and that is inlined here (its arguments are then not computed at all); else None."""
        if isinstance(e, ir.Const) and e.type is T.BOOL:
            return bool(e.value)
        if isinstance(e, ir.Not):
            known = self.known_truth(e.operand, depth)
            return None if known is None else not known
        if isinstance(e, ir.DefCall) and depth < MAX_INLINED:
            d = self.prog.defs[e.name]
            if not d.const and self.inlinable(d, e.args):
                return self.known_truth(d.body, depth + 1)
        return None

    def ex_Not(self, e):
        return f"(not ({self.src(e.operand)}))"

    def ex_Neg(self, e):
        return f"(-({self.src(e.operand)}))"
