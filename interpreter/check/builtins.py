"""The built-in functions: their signatures, for the checker.

Each entry says what the function takes and gives; `check_builtin` applies it.
Their run-time versions live in rulecraft.compile.builtins under the same names.
"""
from __future__ import annotations

from ..syntax import ast
from . import types as T

# name -> (arity, short description used in hints)
BUILTINS = {
    "size": (1, "size(zone or list): how many"),
    "empty": (1, "empty(zone or list): true when nothing is there"),
    "top": (1, "top(zone): the top card"),
    "bottom": (1, "bottom(zone): the bottom card"),
    "random": (1, "random(list): one element, drawn with the game's dice"),
    "players_from": (1, "players_from(p): every player, clockwise from p"),
    "next_player": (1, "next_player(p): the player to the left (clockwise)"),
    "previous_player": (1, "previous_player(p): the player to the right"),
    "sum": (1, "sum(numbers)"),
    "max": (1, "max(numbers), or max(x in xs by key) for the element with the largest key"),
    "min": (1, "min(numbers), or min(x in xs by key)"),
    "sort": (1, "sort(x in xs by key): the elements, smallest key first"),
    "any": (1, "any(conditions)"),
    "all": (1, "all(conditions)"),
    "count": (1, "count(conditions): how many are true"),
    "abs": (1, "abs(number)"),
    "list": (1, "list(zone): its cards, bottom first"),
    "reverse": (1, "reverse(list)"),
    "members": (1, "members(team): its players in seat order"),
    "distinct": (1, "distinct(list): without repeats, first occurrences in order"),
    "join": (2, "join(list, \", \"): the elements as text, with the separator between them"),
}


def check_builtin(checker, e: ast.Call):
    name = e.func
    arity, doc = BUILTINS[name]
    if len(e.args) != arity:
        checker.error(e.span, f"'{name}' takes {arity} argument(s), not {len(e.args)}", doc)
        for a in e.args:
            checker.expr(a)
        return T.ANY
    arg = e.args[0]
    if name == "join":
        typ = checker.expr(arg)
        checker.refs[id(e)] = ("builtin", name)
        if T.element_of(typ) is None:
            checker.error(arg.span, f"'join' needs a list or a zone, not {_a(typ)}", doc)
        checker.expect(e.args[1], checker.expr(e.args[1]), T.STR, "the separator")
        return T.STR
    if name in ("max", "min", "sort") and isinstance(arg, ast.BestBy):
        checker.best_allowed.add(id(arg))
    typ = checker.expr(arg)
    checker.refs[id(e)] = ("builtin", name)
    best = isinstance(arg, ast.BestBy)
    if name in ("max", "min"):
        if best:
            return typ
        checker.expect(arg, typ, T.ListT(T.INT), f"'{name}'")
        return T.INT
    if name == "sort":
        if not best:
            checker.error(arg.span, "sort needs the form `sort(x in xs by key)`")
            return T.ANY
        return T.ListT(typ)
    if best:
        checker.error(arg.span, f"'{name}' does not take `by`", doc)
        return T.ANY
    if name in ("size", "empty"):
        if T.element_of(typ) is None:
            checker.error(arg.span, f"'{name}' needs a zone or a list, not {_a(typ)}")
        return T.INT if name == "size" else T.BOOL
    if name in ("top", "bottom"):
        if not isinstance(typ, T.ZoneT) and typ is not T.ANY:
            checker.error(arg.span, f"'{name}' needs a zone, not {_a(typ)}", "for a list, use xs[0] or xs[-1]")
            return T.ANY
        return T.element_of(typ)
    if name in ("random", "list", "reverse", "distinct"):
        elem = T.element_of(typ)
        if elem is None:
            checker.error(arg.span, f"'{name}' needs a list or a zone, not {_a(typ)}")
            return T.ANY
        return T.ListT(elem) if name in ("list", "reverse", "distinct") else elem
    if name in ("players_from",):
        checker.expect(arg, typ, T.PLAYER, f"'{name}'")
        return T.ListT(T.PLAYER)
    if name in ("next_player", "previous_player"):
        checker.expect(arg, typ, T.PLAYER, f"'{name}'")
        return T.PLAYER
    if name == "members":
        checker.expect(arg, typ, T.TEAM, f"'{name}'")
        return T.ListT(T.PLAYER)
    if name == "sum":
        checker.expect(arg, typ, T.ListT(T.INT), "'sum'")
        return T.INT
    if name in ("any", "all"):
        checker.expect(arg, typ, T.ListT(T.BOOL), f"'{name}'")
        return T.BOOL
    if name == "count":
        checker.expect(arg, typ, T.ListT(T.BOOL), "'count'")
        return T.INT
    if name == "abs":
        checker.expect(arg, typ, T.INT, "'abs'")
        return T.INT
    raise AssertionError(name)


def _a(t):
    s = str(t)
    return ("an " if s[:1].lower() in "aeiou" else "a ") + s
