"""The built-in functions of the rule language, each declared once.

One entry per function: its arity, its documentation line (used in hints and
checked against docs/language.md), how the checker types a call, and how the
compiler writes it as Python. What can fail at run time with a sentence for the
rule author calls a helper of rulecraft.runtime.helpers; the rest is inlined.
(cel-go's `common/decls`: a function's signature and its implementation side by
side, so adding one cannot miss a place.)

A check function gets the checker and the call's syntax node and returns the
type; an emit function gets the expression generator, the call's IR node and
the Python source of its first argument (its sequence, for a zone) and returns
Python source.
"""
from __future__ import annotations

import attrs

from .check import types as T


@attrs.frozen
class Builtin:
    name: str
    arity: int
    doc: str
    check: object            # (checker, call node, argument type) -> result type
    emit: object             # (generator, BuiltinCall, argument source) -> Python source


REGISTRY: dict[str, Builtin] = {}


def builtin(name, arity, doc):
    """Declare a built-in: decorates its check function; `.emits` attaches its code generation."""
    def register(check):
        def emits(emit):
            REGISTRY[name] = Builtin(name, arity, doc, check, emit)
            return emit
        check.emits = emits
        return check
    return register


def a_type(t) -> str:
    """`an Int`, `a List[Card]`: a type named in a sentence (the checker's messages use it too)."""
    if t is T.ANY:
        return "something unknown"
    s = str(t)
    return ("an " if s[:1].lower() in "aeiou" else "a ") + s


def _collection(name):
    """Check: the argument is a list or a zone; give its element type (or None after an error)."""
    def check(ck, e, typ):
        elem = T.element_of(typ)
        if elem is None:
            ck.error(e.args[0].span, f"'{name}' needs a list or a zone, not {a_type(typ)}")
        return elem
    return check


def _expects(want, result, what=None):
    def check(ck, e, typ):
        ck.expect(e.args[0], typ, want, what or f"'{e.func}'")
        return result
    return check


# ------------------------------------------------------------------ sizes and cards
@builtin("size", 1, "size(zone or list): how many")
def _size(ck, e, typ):
    _collection("size")(ck, e, typ)
    return T.INT


@_size.emits
def _(gen, call, a):
    return f"len({a})"


@builtin("empty", 1, "empty(zone or list): true when nothing is there")
def _empty(ck, e, typ):
    _collection("empty")(ck, e, typ)
    return T.BOOL


@_empty.emits
def _(gen, call, a):
    return f"(not {a})"


def _zone_end(name):
    def check(ck, e, typ):
        if not isinstance(typ, T.ZoneT) and typ is not T.ANY:
            ck.error(e.args[0].span, f"'{name}' needs a zone, not {a_type(typ)}", "for a list, use xs[0] or xs[-1]")
            return T.ANY
        return T.element_of(typ)
    return check


@builtin("top", 1, "top(zone): the top card")
def _top(ck, e, typ):
    return _zone_end("top")(ck, e, typ)


@_top.emits
def _(gen, call, a):
    zone = gen.src(call.args[0])
    if gen.is_simple(call.args[0]):
        return f"(m.zones[{zone}] or rt_top(m, {zone}))[-1]"
    return f"rt_top(m, {zone})"


@builtin("bottom", 1, "bottom(zone): the bottom card")
def _bottom(ck, e, typ):
    return _zone_end("bottom")(ck, e, typ)


@_bottom.emits
def _(gen, call, a):
    return f"rt_bottom(m, {gen.src(call.args[0])})"


@builtin("list", 1, "list(zone): its cards, bottom first")
def _list(ck, e, typ):
    elem = _collection("list")(ck, e, typ)
    return T.ListT(elem) if elem is not None else T.ANY


@_list.emits
def _(gen, call, a):
    return gen.kept(call.args[0])


@builtin("reverse", 1, "reverse(list)")
def _reverse(ck, e, typ):
    elem = _collection("reverse")(ck, e, typ)
    return T.ListT(elem) if elem is not None else T.ANY


@_reverse.emits
def _(gen, call, a):
    return f"tuple(reversed({a}))"


@builtin("distinct", 1, "distinct(list): without repeats, first occurrences in order")
def _distinct(ck, e, typ):
    elem = _collection("distinct")(ck, e, typ)
    return T.ListT(elem) if elem is not None else T.ANY


@_distinct.emits
def _(gen, call, a):
    return f"tuple(dict.fromkeys({a}))"


@builtin("random", 1, "random(list): one element, drawn with the game's dice")
def _random(ck, e, typ):
    elem = _collection("random")(ck, e, typ)
    return elem if elem is not None else T.ANY


@_random.emits
def _(gen, call, a):
    return f"rt_random(m, {a})"


# ------------------------------------------------------------------ players and teams
@builtin("players_from", 1, "players_from(p): every player, clockwise from p")
def _players_from(ck, e, typ):
    return _expects(T.PLAYER, T.ListT(T.PLAYER))(ck, e, typ)


@_players_from.emits
def _(gen, call, a):
    # every rotation of the seats, computed once: ROT[n][p] is the players clockwise from p
    n_max = gen.layout.max_players
    rotations = tuple(tuple(tuple((p + i) % n for i in range(n)) for p in range(n)) for n in range(n_max + 1))
    return f"{gen.const(rotations)}[m.n][{a}]"


@builtin("next_player", 1, "next_player(p): the player to the left (clockwise)")
def _next_player(ck, e, typ):
    return _expects(T.PLAYER, T.PLAYER)(ck, e, typ)


@_next_player.emits
def _(gen, call, a):
    return f"(({a}) + 1) % m.n"


@builtin("previous_player", 1, "previous_player(p): the player to the right")
def _previous_player(ck, e, typ):
    return _expects(T.PLAYER, T.PLAYER)(ck, e, typ)


@_previous_player.emits
def _(gen, call, a):
    return f"(({a}) - 1) % m.n"


@builtin("members", 1, "members(team): its players in seat order")
def _members(ck, e, typ):
    return _expects(T.TEAM, T.ListT(T.PLAYER))(ck, e, typ)


@_members.emits
def _(gen, call, a):
    # every team's members for every player count, computed once: MEMBERS[n][t]
    teams, n_max = gen.layout.team_count, gen.layout.max_players
    table = tuple(tuple(tuple(p for p in range(n) if p % teams == t) for t in range(teams)) for n in range(n_max + 1))
    return f"{gen.const(table)}[m.n][{a}]"


@builtin("player", 1, "player(k): the player in seat k, from 1")
def _player(ck, e, typ):
    return _expects(T.INT, T.PLAYER, "the seat")(ck, e, typ)


@_player.emits
def _(gen, call, a):
    return f"rt_player(m, {a})"


@builtin("score", 1, "score(p): a player's score now, by the game's `score`")
def _score(ck, e, typ):
    return _expects(T.PLAYER, T.INT, "score's player")(ck, e, typ)


@_score.emits
def _(gen, call, a):
    return f"rt_score(m, {a})"


# ------------------------------------------------------------------ numbers and conditions
@builtin("sum", 1, "sum(numbers)")
def _sum(ck, e, typ):
    return _expects(T.ListT(T.INT), T.INT, "'sum'")(ck, e, typ)


@_sum.emits
def _(gen, call, a):
    return f"sum({gen.iterated(call.args[0])})"


def _best(name):
    def check(ck, e, typ):
        if e.args and type(e.args[0]).__name__ == "BestBy":
            return typ
        ck.expect(e.args[0], typ, T.ListT(T.INT), f"'{name}'")
        return T.INT
    return check


@builtin("max", 1, "max(numbers), or max(x in xs by key) for the element with the largest key")
def _max(ck, e, typ):
    return _best("max")(ck, e, typ)


@_max.emits
def _(gen, call, a):
    return gen.best_by(call, "rt_max_by") if gen.is_best_by(call) else f"rt_max({a})"


@builtin("min", 1, "min(numbers), or min(x in xs by key)")
def _min(ck, e, typ):
    return _best("min")(ck, e, typ)


@_min.emits
def _(gen, call, a):
    return gen.best_by(call, "rt_min_by") if gen.is_best_by(call) else f"rt_min({a})"


@builtin("sort", 1, "sort(x in xs by key): the elements, smallest key first")
def _sort(ck, e, typ):
    if not (e.args and type(e.args[0]).__name__ == "BestBy"):
        ck.error(e.args[0].span, "sort needs the form `sort(x in xs by key)`")
        return T.ANY
    return T.ListT(typ)


@_sort.emits
def _(gen, call, a):
    return gen.best_by(call, "rt_sort_by")


@builtin("any", 1, "any(conditions)")
def _any(ck, e, typ):
    return _expects(T.ListT(T.BOOL), T.BOOL)(ck, e, typ)


@_any.emits
def _(gen, call, a):
    return f"any({gen.iterated(call.args[0])})"    # a generator: stops at the first answer


@builtin("all", 1, "all(conditions)")
def _all(ck, e, typ):
    return _expects(T.ListT(T.BOOL), T.BOOL)(ck, e, typ)


@_all.emits
def _(gen, call, a):
    return f"all({gen.iterated(call.args[0])})"


@builtin("count", 1, "count(conditions): how many are true")
def _count(ck, e, typ):
    return _expects(T.ListT(T.BOOL), T.INT, "'count'")(ck, e, typ)


@_count.emits
def _(gen, call, a):
    arg = call.args[0]
    if type(arg).__name__ == "Comprehension":     # count(x > 2 for x in xs): how many pass, no list of booleans
        return f"len([0 {gen.comprehension_clauses(arg)} if {gen.src(arg.element)}])"
    return f"rt_count({a})"


@builtin("abs", 1, "abs(number)")
def _abs(ck, e, typ):
    return _expects(T.INT, T.INT, "'abs'")(ck, e, typ)


@_abs.emits
def _(gen, call, a):
    return f"abs({a})"


# ------------------------------------------------------------------ text
@builtin("join", 2, "join(list, \", \"): the elements as text, with the separator between them")
def _join(ck, e, typ):
    if T.element_of(typ) is None:
        ck.error(e.args[0].span, f"'join' needs a list or a zone, not {a_type(typ)}", REGISTRY["join"].doc)
    ck.expect(e.args[1], ck.expr(e.args[1]), T.STR, "the separator")
    return T.STR


@_join.emits
def _(gen, call, a):
    elem = T.element_of(call.args[0].type)
    fmt = gen.const(gen.layout.formatter(elem if elem is not None else T.ANY))
    return f"({gen.src(call.args[1])}).join([{fmt}(m, x) for x in {a}])"


# `player` and `score` are called like functions but are not offered in "did you mean" lists of
# functions a rule might have misspelled, and `score` exists only in games with a score.
SPECIAL = ("player", "score")
FUNCTIONS = tuple(name for name in REGISTRY if name not in SPECIAL)
