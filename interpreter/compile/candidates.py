"""A pair choice's options found from its `where`, not by testing every pair (IR → lines of Python).

`p chooses a in 1..32, b in 1..32 where piece[a] == p.seat and b in targets(p, a)` means the pairs
of 1..32 × 1..32, in that order, for which the `where` holds: 1,024 tests at every decision, most
of them of squares `p` does not hold. The `where` tells more than its truth: a conjunct that reads
only `a` (or neither part) filters `a` before any `b` is enumerated, and a conjunct `b in S`, with
S read from `a` alone, gives the `b`s to try — those of S that are in the second domain, in its
order. So the same options come out in the same order (option ids and their order are the
transcripts'), found in a fraction of the tests:

    _xs = []
    for _pa in <first domain>:
        v = (_pa, None)                           # the choice's local: the pair being tested
        if not (<the conjuncts of a alone>): continue
        for _pb in sorted(set(<S>)):              # S once per a (the second domain is lo..hi)
            if _pb < lo: continue
            if _pb > hi: break
            v = (_pa, _pb)
            if <the other conjuncts>: _xs.append(v)

A `where` that is one call of a `def` whose body is such a conjunction is looked into (the def's
parameters standing for its arguments, when those are names or constants). What makes it sound:
conjuncts are computed in the order written and stop early, so only a run of conjuncts at the
start moves before the `b`s (a conjunct further on moves only when it and those it passes cannot
fail: `invariants.safe`), and `b in S` only when it is the first conjunct left; each is computed
for a first part only when the original would have computed it for some pair (the second domain
is not empty). Nothing that draws chance is looked into. tests/test_candidates.py holds the
options to those of every pair tested, decision by decision.
"""
from __future__ import annotations

from .. import slotclasses
from ..ir import nodes as ir
from ..ir import types as T
from .invariants import safe

_UNFOLD_DEPTH = 4       # defs looked into inside one another at most


@slotclasses.frozen
class Plan:
    """How a pair choice's options are found: the conjuncts that test the first part alone (`first`),
    the set the second part is taken from (`members`, an expression of the first part, or None: the
    whole second domain), and the conjuncts tested on each pair (`rest`)."""
    first: tuple
    members: object
    rest: tuple
    low: int            # the second domain's range, when `members` is used
    high: int


def plan(prog: ir.Program, s: ir.Choose) -> Plan | None:
    """The plan for choice `s`, or None when its options are best found as they are (no pair choice, no
    `where`, nothing to move, or something that draws chance)."""
    if not isinstance(s.domain, ir.Pairs) or s.where is None or _draws_chance(s.where, prog.defs, set()):
        return None
    pair = s.slot
    parts = _conjuncts(s.where, prog.defs, 0)
    first, rest = [], []
    for c in parts:
        if _reads(c, pair, 1):
            rest.append(c)
        elif not rest or (safe(c, defs=prog.defs) and all(safe(r, defs=prog.defs) for r in rest)):
            first.append(c)
        else:
            rest.append(c)
    members = None
    second = s.domain.second
    if rest and _ranged(second) and _is_membership(rest[0], pair):
        members = rest[0].right
        rest = rest[1:]
    if not first and members is None:
        return None
    if not _never_empty(second):
        return None         # the first part's tests would run where the original ran none
    lo, hi = (second.lo, second.hi) if members is not None else (0, -1)
    return Plan(tuple(first), members, tuple(rest), lo, hi)


def lines(p: Plan, s: ir.Choose, x, into: str) -> list[tuple[int, str]]:
    """The lines (indentation, text) that fill the list `into` with the options of choice `s`, as pairs,
    in the order of its domain; `x` writes the expressions. The choice's local holds the pair being
    tested (the first part alone, while only it is), so the `where`'s parts read it as they do."""
    v = f"v{s.slot}"
    with x.unbinding():
        first_domain = x.seq(s.domain.first)
        second_domain = x.seq(s.domain.second) if p.members is None else None
    out = [(0, f"{into} = []"), (0, f"for _pa in {first_domain}:"), (1, f"{v} = (_pa, None)")]
    if p.first:
        out.append((1, f"if not ({' and '.join(f'({x.test(c)})' for c in p.first)}): continue"))
    if p.members is not None:
        out.append((1, f"for _pb in sorted(set({x.src(p.members)})):"))
        out.append((2, f"if _pb < {p.low}: continue"))
        out.append((2, f"if _pb > {p.high}: break"))
    else:
        out.append((1, f"for _pb in {second_domain}:"))
    out.append((2, f"{v} = (_pa, _pb)"))
    append = f"{into}.append({v})"
    if p.rest:
        out.append((2, f"if {' and '.join(f'({x.test(c)})' for c in p.rest)}: {append}"))
    else:
        out.append((2, append))
    return out


def _conjuncts(e, defs, depth) -> list:
    """`e` as the conjuncts `and` joins, in order; a call of a def whose body is a conjunction looked into."""
    if isinstance(e, ir.BoolOp) and e.op == "and":
        return _conjuncts(e.left, defs, depth) + _conjuncts(e.right, defs, depth)
    if isinstance(e, ir.DefCall) and depth < _UNFOLD_DEPTH:
        body = _unfolded(e, defs)
        if body is not None and ((isinstance(body, ir.BoolOp) and body.op == "and") or isinstance(body, ir.DefCall)):
            return _conjuncts(body, defs, depth + 1)
    return [e]


def _unfolded(call, defs):
    """The body of the def `call` calls with its arguments in place of its parameters, or None when that
    would change what is computed: a const, a body that binds locals of its own, an argument that is
    more than a name or a constant (it would be computed where it is used, not once before)."""
    d = defs.get(call.name)
    if d is None or d.const or d.binds_locals:
        return None
    if not all(isinstance(a, (ir.Local, ir.PairPart, ir.Const, ir.Var)) for a in call.args):
        return None
    for n in ir.walk(d.body):       # a local of its own (ir.BINDERS: a `let`, a comprehension's `for`, …)
        if type(n) in ir.BINDERS or (isinstance(n, ir.Local) and n.slot >= d.params):
            return None
    return _substituted(d.body, call.args)


def _substituted(node, args):
    """A copy of `node` (a def's body) with each parameter (local slot k < len(args)) replaced by args[k]."""
    t = type(node)
    if t is tuple:
        return tuple(_substituted(n, args) for n in node)
    if t is ir.Local:
        return args[node.slot]
    if not slotclasses.has(t):
        return node
    changes = {}
    for name in ir._child_fields(t):
        value = getattr(node, name)
        new = _substituted(value, args)
        if new is not value:
            changes[name] = new
    return slotclasses.evolve(node, **changes) if changes else node


def _reads(e, pair: int, which: int) -> bool:
    """Does `e` read part `which` of the pair (or the whole pair)?"""
    for n in ir.walk(e):
        if isinstance(n, ir.PairPart) and n.which == which:
            return True
        if isinstance(n, ir.Local) and n.slot == pair and not _in_part(e, n):
            return True
    return False


def _in_part(e, local) -> bool:
    """Is this read of the pair's local one inside a PairPart (a part, not the whole)?"""
    return any(isinstance(n, ir.PairPart) and n.pair is local for n in ir.walk(e))


def _is_membership(c, pair: int) -> bool:
    """`b in S`: the second part, in a list of numbers read from the first part alone."""
    return isinstance(c, ir.Compare) and c.op == "in" and isinstance(c.left, ir.PairPart) and c.left.which == 1 \
        and isinstance(c.left.pair, ir.Local) and c.left.pair.slot == pair \
        and isinstance(c.right.type, T.ListT) and c.right.type.elem is T.INT and not _reads(c.right, pair, 1)


def _ranged(e) -> bool:
    return isinstance(e, ir.Fixed) and e.kind == "range"


def _never_empty(e) -> bool:
    """Is the second domain known never to be empty (so every first part is looked at with some pair)?"""
    if isinstance(e, ir.Fixed):
        return e.lo <= e.hi if e.kind == "range" else e.kind == "enum"
    return False


def _draws_chance(e, defs, seen: set) -> bool:
    for n in ir.walk(e):
        if isinstance(n, ir.BuiltinCall) and n.name == "random":
            return True
        if isinstance(n, ir.DefCall) and n.name not in seen:
            seen.add(n.name)
            d = defs.get(n.name)
            if d is not None and _draws_chance(d.body, defs, seen):
                return True
    return False
