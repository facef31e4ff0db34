"""Run-time versions of the built-in functions (signatures: rulecraft.check.builtins).

Each maker takes the compiled argument closure, its type, the compiler context
and, for `x in xs by key`, (sequence, slot, key) and returns a closure `f(state, frame)`.
"""
from __future__ import annotations

from ..engine import rng
from ..check.types import ZoneT
from .errors import RuleFailure


def _size(arg, typ, ctx, best):
    if isinstance(typ, ZoneT):
        return lambda m, fr: len(m.zones[arg(m, fr)])
    return lambda m, fr: len(arg(m, fr))


def _empty(arg, typ, ctx, best):
    if isinstance(typ, ZoneT):
        return lambda m, fr: not m.zones[arg(m, fr)]
    return lambda m, fr: not arg(m, fr)


def _top(arg, typ, ctx, best):
    names = ctx.zone_instance_names

    def top(m, fr):
        z = m.zones[arg(m, fr)]
        if not z:
            raise RuleFailure(f"top of an empty zone ({names[arg(m, fr)]})")
        return z[-1]
    return top


def _bottom(arg, typ, ctx, best):
    names = ctx.zone_instance_names

    def bottom(m, fr):
        z = m.zones[arg(m, fr)]
        if not z:
            raise RuleFailure(f"bottom of an empty zone ({names[arg(m, fr)]})")
        return z[0]
    return bottom


def _random(arg, typ, ctx, best):
    seq = ctx.as_sequence(arg, typ)

    def pick(m, fr):
        xs = seq(m, fr)
        if not xs:
            raise RuleFailure("random choice from nothing")
        return xs[rng.below(m, len(xs))]
    return pick


def _players_from(arg, typ, ctx, best):
    def players_from(m, fr):
        p = arg(m, fr)
        n = m.n
        return tuple((p + i) % n for i in range(n))
    return players_from


def _next_player(arg, typ, ctx, best):
    return lambda m, fr: (arg(m, fr) + 1) % m.n


def _previous_player(arg, typ, ctx, best):
    return lambda m, fr: (arg(m, fr) - 1) % m.n


def _sum(arg, typ, ctx, best):
    return lambda m, fr: sum(arg(m, fr))


def _extreme(pick_max):
    def make(arg, typ, ctx, best):
        if best is not None:
            seq, slot, key = best

            def best_of(m, fr):
                found = None
                best_key = None
                for x in seq(m, fr):
                    fr[slot] = x
                    k = key(m, fr)
                    if best_key is None or (k > best_key if pick_max else k < best_key):
                        best_key, found = k, x
                if best_key is None:
                    raise RuleFailure(f"{'max' if pick_max else 'min'} of nothing")
                return found
            return best_of
        fn = max if pick_max else min

        def extreme(m, fr):
            xs = arg(m, fr)
            if not xs:
                raise RuleFailure(f"{'max' if pick_max else 'min'} of nothing")
            return fn(xs)
        return extreme
    return make


def _sort(arg, typ, ctx, best):
    seq, slot, key = best

    def sort(m, fr):
        keyed = []
        for i, x in enumerate(seq(m, fr)):
            fr[slot] = x
            keyed.append((key(m, fr), i, x))
        keyed.sort()
        return tuple(x for _, _, x in keyed)
    return sort


def _any(arg, typ, ctx, best):
    return lambda m, fr: any(arg(m, fr))


def _all(arg, typ, ctx, best):
    return lambda m, fr: all(arg(m, fr))


def _count(arg, typ, ctx, best):
    return lambda m, fr: sum(1 for x in arg(m, fr) if x)


def _abs(arg, typ, ctx, best):
    return lambda m, fr: abs(arg(m, fr))


def _list(arg, typ, ctx, best):
    return ctx.as_sequence(arg, typ)


def _reverse(arg, typ, ctx, best):
    seq = ctx.as_sequence(arg, typ)
    return lambda m, fr: tuple(reversed(seq(m, fr)))


def _members(arg, typ, ctx, best):
    teams = ctx.team_count

    def members(m, fr):
        t = arg(m, fr)
        return tuple(p for p in range(m.n) if p % teams == t)
    return members


RUNTIME = {
    "size": _size, "empty": _empty, "top": _top, "bottom": _bottom, "random": _random,
    "players_from": _players_from, "next_player": _next_player, "previous_player": _previous_player,
    "sum": _sum, "max": _extreme(True), "min": _extreme(False), "sort": _sort, "any": _any, "all": _all,
    "count": _count, "abs": _abs, "list": _list, "reverse": _reverse, "members": _members,
}
