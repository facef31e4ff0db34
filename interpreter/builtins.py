"""The built-in functions of the rule language, each declared once.

One entry per function: its arity, its documentation line (used in hints; a test
checks docs/language.md's table against this registry), how the checker types a
call, and how the compiler writes it as Python. What can fail at run time with a
sentence for the rule author calls a helper of rulecraft.runtime.helpers; the
rest is inlined. (cel-go's `common/decls`: a function's signature and its
implementation side by side, so adding one cannot miss a place.)

A check gets the checker, the call's syntax node and its first argument's type,
and returns the call's type. The code is a template over `{a}`, the Python
source of the first argument (a zone's card list for a zone), or a function
(generator, the call's IR node, that source) -> Python source.
"""
from __future__ import annotations

from . import slotclasses

from .ir import types as T


@slotclasses.frozen
class Builtin:
    name: str
    arity: int
    doc: str
    check: object            # (checker, call node, argument type) -> result type
    code: object             # template over {a}, or (generator, BuiltinCall, argument source) -> source

    def emit(self, gen, call, a: str) -> str:
        return self.code.format(a=a) if isinstance(self.code, str) else self.code(gen, call, a)


REGISTRY: dict[str, Builtin] = {}


def declare(name, arity, doc, check, code):
    REGISTRY[name] = Builtin(name, arity, doc, check, code)


def a_type(t) -> str:
    """`an Int`, `a List[Card]`: a type named in a sentence (the checker's messages use it too)."""
    if t is T.ANY:
        return "something unknown"
    s = str(t)
    return ("an " if s[:1].lower() in "aeiou" else "a ") + s


# ------------------------------------------------------------------ checks
def expects(want, result, what=None):
    """Check: the argument is a `want`; the call gives a `result`."""
    def check(ck, e, typ):
        ck.expect(e.args[0], typ, want, what or f"'{e.func}'")
        return result
    return check


def collection(result, fixed=None):
    """Check: the argument is a list or a zone; the call gives `result(element type)`, or the type
    `fixed` whatever the argument (so one wrong argument is reported once)."""
    def check(ck, e, typ):
        elem = T.element_of(typ)
        if elem is None:
            ck.error(e.args[0].span, f"'{e.func}' needs a list or a zone, not {a_type(typ)}")
            return fixed or T.ANY
        return fixed or result(elem)
    return check


def zone_end(ck, e, typ):
    """Check for top/bottom: the argument is a zone; the call gives one of its cards."""
    if not isinstance(typ, T.ZoneT) and typ is not T.ANY:
        ck.error(e.args[0].span, f"'{e.func}' needs a zone, not {a_type(typ)}", "for a list, use xs[0] or xs[-1]")
        return T.ANY
    return T.element_of(typ)


def best(ck, e, typ):
    """Check for max/min: numbers, or `x in xs by key` (then the element)."""
    if type(e.args[0]).__name__ == "BestBy":
        return typ
    if isinstance(typ, T.ListT) and isinstance(typ.elem, T.EnumT):
        return typ.elem             # the greatest / least value of an enum, in the order it lists them
    ck.expect(e.args[0], typ, T.ListT(T.INT), f"'{e.func}'")
    return T.INT


def sort_check(ck, e, typ):
    if type(e.args[0]).__name__ != "BestBy":
        ck.error(e.args[0].span, "sort needs the form `sort(x in xs by key)`")
        return T.ANY
    return T.ListT(typ)


def join_check(ck, e, typ):
    if T.element_of(typ) is None:
        ck.error(e.args[0].span, f"'join' needs a list or a zone, not {a_type(typ)}", REGISTRY["join"].doc)
    ck.expect(e.args[1], ck.expr(e.args[1]), T.STR, "the separator")
    return T.STR


def pad_check(ck, e, typ):
    ck.expect(e.args[1], ck.expr(e.args[1]), T.INT, "the width")
    return T.STR


def pad_code(how):
    """`pad(x, w)` and its kin: x as `{…}` shows it, in a field of w characters (rt_pad checks w first)."""
    def code(gen, call, a):
        fmt = gen.const(gen.layout.formatter(call.args[0].type))
        return f"rt_pad({fmt}(m, {a}), {gen.src(call.args[1])}, {how!r})"
    return code


def first_check(ck, e, typ):
    """Check for first: `x in xs where cond` or a list or zone; the call gives one element."""
    elem = T.element_of(typ)
    if elem is None:
        ck.error(e.args[0].span, f"'first' needs a list, a zone or `x in xs where condition`, not {a_type(typ)}",
                 REGISTRY["first"].doc)
        return T.ANY
    return elem


# ------------------------------------------------------------------ code
def top_code(gen, call, a):
    zone = gen.src(call.args[0])
    if gen.cheap(call.args[0]):
        return f"(m.zones[{zone}] or rt_top(m, {zone}))[-1]"
    return f"rt_top(m, {zone})"


def players_from_code(gen, call, a):
    # every rotation of the seats, computed once: ROT[n][p] is the players clockwise from p
    n_max = gen.layout.max_players
    rotations = tuple(tuple(tuple((p + i) % n for i in range(n)) for p in range(n)) for n in range(n_max + 1))
    return f"{gen.const(rotations)}[m.n][{a}]"


def members_code(gen, call, a):
    # every team's members for every player count, computed once: MEMBERS[n][t]
    teams, n_max = gen.layout.team_count, gen.layout.max_players
    table = tuple(tuple(tuple(p for p in range(n) if p % teams == t) for t in range(teams)) for n in range(n_max + 1))
    return f"{gen.const(table)}[m.n][{a}]"


def best_code(helper, plain, python=None):
    """max/min/sort `by` a key through `helper`; else `plain`, or — for a list written out, never empty —
    the largest or smallest of its parts with no list made and nothing to check (ExprGen.extreme)."""
    def code(gen, call, a):
        if gen.is_best_by(call):
            return gen.best_by(call, helper)
        items = getattr(call.args[0], "items", None)
        if python and type(call.args[0]).__name__ == "ListLit" and items \
                and not any(type(i).__name__ == "Comprehension" for i in items):
            return gen.extreme(python, items)
        return plain.format(a=a)
    return code


def size_code(gen, call, a):
    arg = call.args[0]
    if type(arg).__name__ == "BuiltinCall" and arg.name == "distinct":     # how many different: no list made
        with gen.unbinding():
            return f"len(set({gen.seq(arg.args[0])}))"
    return f"len({a})"


def count_code(gen, call, a):
    arg = call.args[0]
    if type(arg).__name__ == "Comprehension":     # count(x > 2 for x in xs): how many pass, no list of booleans
        return f"len([{gen.comprehension(arg, filtered=True)}])"
    return f"rt_count({a})"


def join_code(gen, call, a):
    elem = T.element_of(call.args[0].type)
    fmt = gen.const(gen.layout.formatter(elem if elem is not None else T.ANY))
    return f"rt_text(({gen.src(call.args[1])}).join([{fmt}(m, x) for x in {a}]))"


def iterated(template, whole=False, truth=False):
    """Code over the argument gone through once (`whole`: to its end, as sum does; `truth`: only the
    truth of each element counts, as for any and all): see ExprGen.iterated."""
    def code(gen, call, a):
        return template.format(a=gen.iterated(call.args[0], whole, truth))
    return code


# ------------------------------------------------------------------ the functions
declare("size", 1, "size(zone or list): how many", collection(None, T.INT), size_code)
declare("empty", 1, "empty(zone or list): true when nothing is there", collection(None, T.BOOL), "(not {a})")
declare("top", 1, "top(zone): the top card", zone_end, top_code)
declare("bottom", 1, "bottom(zone): the bottom card", zone_end,
        lambda gen, call, a: f"rt_bottom(m, {gen.src(call.args[0])})")
declare("list", 1, "list(zone): its cards, bottom first", collection(T.ListT),
        lambda gen, call, a: gen.kept(call.args[0]))
declare("reverse", 1, "reverse(list)", collection(T.ListT), "tuple(reversed({a}))")
declare("distinct", 1, "distinct(list): without repeats, first occurrences in order", collection(T.ListT),
        "tuple(dict.fromkeys({a}))")
declare("random", 1, "random(list): one element, drawn with the game's dice", collection(lambda elem: elem),
        lambda gen, call, a: f"rt_random(m, {a}, {gen.const(gen.layout.formatter(call.type))})")
declare("players_from", 1, "players_from(p): every player, clockwise from p", expects(T.PLAYER, T.ListT(T.PLAYER)),
        players_from_code)
declare("next_player", 1, "next_player(p): the player to the left (clockwise)", expects(T.PLAYER, T.PLAYER),
        "(({a}) + 1) % m.n")
declare("previous_player", 1, "previous_player(p): the player to the right", expects(T.PLAYER, T.PLAYER),
        "(({a}) - 1) % m.n")
declare("members", 1, "members(team): its players in seat order", expects(T.TEAM, T.ListT(T.PLAYER)), members_code)
declare("player", 1, "player(k): the player in seat k, from 1", expects(T.INT, T.PLAYER, "the seat"), "rt_player(m, {a})")
declare("score", 1, "score(p): a player's score now, by the game's `score`", expects(T.PLAYER, T.INT, "score's player"),
        "rt_score(m, {a})")
declare("sum", 1, "sum(numbers)", expects(T.ListT(T.INT), T.INT, "'sum'"), iterated("sum({a})", whole=True))
declare("max", 1, "max(numbers), or max(x in xs by key) for the element with the largest key", best,
        best_code("rt_max_by", "rt_max({a})", "max"))
declare("min", 1, "min(numbers), or min(x in xs by key)", best, best_code("rt_min_by", "rt_min({a})", "min"))
declare("sort", 1, "sort(x in xs by key): the elements, smallest key first", sort_check, best_code("rt_sort_by", ""))
declare("any", 1, "any(conditions)", expects(T.ListT(T.BOOL), T.BOOL), iterated("any({a})", truth=True))
declare("all", 1, "all(conditions)", expects(T.ListT(T.BOOL), T.BOOL), iterated("all({a})", truth=True))
declare("count", 1, "count(conditions): how many are true", expects(T.ListT(T.BOOL), T.INT, "'count'"), count_code)
declare("first", 1, "first(x in xs where condition): the first element that meets it; first(xs): the first element",
        first_check, "rt_first({a})")
declare("abs", 1, "abs(number)", expects(T.INT, T.INT, "'abs'"), "abs({a})")
declare("reveal", 1, "reveal(x): x, shown on purpose: the rules reveal a secret here (a throw, a bid)",
        lambda ck, e, typ: typ, "rt_reveal(m, {a})")
declare("join", 2, "join(list, \", \"): the elements as text, with the separator between them", join_check, join_code)

declare("pad", 2, "pad(x, 5): x as text, with spaces after it to fill 5 characters (left-aligned)",
        pad_check, pad_code("left"))
declare("pad_left", 2, "pad_left(x, 5): x as text, with spaces before it to fill 5 characters (right-aligned)",
        pad_check, pad_code("right"))
declare("centre", 2, "centre(x, 5): x as text, centred in 5 characters", pad_check, pad_code("centre"))

# `player` and `score` are called like functions but are not offered in "did you mean" lists of
# functions a rule might have misspelled, and `score` exists only in games with a score.
SPECIAL = ("player", "score")
FUNCTIONS = tuple(name for name in REGISTRY if name not in SPECIAL)
