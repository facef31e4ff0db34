"""A checked game (the typed IR) as plain data (JSON), and back: the check cache's format.

Data, not code, as syntax/astdata.py: reading an entry back can only build the IR's node
classes, the types of check/types.py, Span and Diagnostic, by number, with the fields they
declare; a planted or damaged entry cannot run anything. The object graph comes back as it
was: an object met twice is written once, marked (`["=", …]`), and then referred to (`["r", n]`,
n counting the marked objects finished before it), so what the compiler keys by identity (its constants' names) is
shared as it was, and the generated code is the same byte for byte. The module's own type
constants (`T.ANY`, `T.INT`, …, which the compiler tests with `is`) come back as themselves.

A node is `[class number, field, …]`; a tuple `["t", item, …]`, a list `["l", …]`, a dict
`["d", ["l", key, …], ["l", value, …]]`. Class numbers come from the sorted class names, which the check
cache's key covers (it hashes the sources of this package).
"""
from __future__ import annotations

import json

import attrs

from ..diagnostics import Diagnostic, Span
from . import ir
from . import types as T

_CLASSES = {f"{m.__name__}.{c.__name__}": c for m in (ir, T) for c in vars(m).values()
            if isinstance(c, type) and attrs.has(c) and c.__module__ == m.__name__}
_CLASSES["Span"], _CLASSES["Diagnostic"] = Span, Diagnostic
_NAMES = sorted(_CLASSES)
_NUMBER = {_CLASSES[n]: i for i, n in enumerate(_NAMES)}
_BY_NUMBER = [_CLASSES[n] for n in _NAMES]
_FIELDS = {cls: tuple(f.name for f in attrs.fields(cls)) for cls in _NUMBER}
_ARITY = [len(_FIELDS[c]) for c in _BY_NUMBER]
# the type constants of check/types.py, by class and fields: decoded, they are these objects again
_CONSTANTS = {(type(v), tuple(getattr(v, f) for f in _FIELDS[type(v)])): v
              for v in vars(T).values() if type(v) in _NUMBER}
_PLAIN = (str, int, bool, type(None))


class BadData(Exception):
    """The data is not what this version of rulecraft writes."""


def dumps(value) -> bytes:
    """`value` (IR nodes, types, spans, diagnostics, in tuples, lists and dicts) as JSON; TypeError
    if it holds anything else."""
    count: dict = {}         # id -> how often the object is met (only containers and nodes)
    keep: list = []          # every object counted stays alive, so no id is reused while writing

    def tally(v):
        t = type(v)
        if t in _PLAIN:
            return
        n = count.get(id(v), 0)
        count[id(v)] = n + 1
        if n:
            return
        keep.append(v)
        if t is tuple or t is list:
            for x in v:
                tally(x)
        elif t is dict:
            for k, x in v.items():
                tally(k)
                tally(x)
        elif t in _NUMBER:
            for name in _FIELDS[t]:
                tally(getattr(v, name))
        else:
            raise TypeError(f"a checked game holds no {t.__name__}")

    tally(value)
    numbers: dict = {}

    def enc(v):
        t = type(v)
        if t in _PLAIN:
            return v
        n = numbers.get(id(v))
        if n is not None:
            return ["r", n]
        if t is tuple:
            out = ["t", *map(enc, v)]
        elif t is list:
            out = ["l", *map(enc, v)]
        elif t is dict:
            out = ["d", ["l", *map(enc, v)], ["l", *map(enc, v.values())]]
        else:
            out = [_NUMBER[t], *(enc(getattr(v, name)) for name in _FIELDS[t])]
        if count[id(v)] > 1:       # met again later: numbered, in the order they are finished
            numbers[id(v)] = len(numbers)
            out = ["=", out]
        return out

    return json.dumps(enc(value), separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def loads(data: bytes):
    try:
        return _decoder()(json.loads(data.decode("utf-8")))
    except (ValueError, TypeError, IndexError, KeyError, RecursionError) as e:
        raise BadData(str(e)) from None


def _decoder():
    """A function from the JSON form back to objects; one per entry (it keeps the numbered objects)."""
    shared: list = []
    classes, arity, constants, t_classes = _BY_NUMBER, _ARITY, _CONSTANTS, _T_CLASSES

    def dec(v):
        head = v[0]
        items = [x if type(x) is not list else dec(x) for x in v]   # [0] is the head, kept as it is
        if type(head) is int:
            if not 0 <= head < len(classes) or len(items) - 1 != arity[head]:
                raise ValueError("unknown node")
            cls = classes[head]
            out = cls(*items[1:])
            if cls in t_classes:
                try:
                    return constants.get((cls, tuple(items[1:])), out)
                except TypeError:       # a field that cannot be a key (a list): no constant is one
                    return out
            return out
        if head == "t":
            return tuple(items[1:])
        if head == "l":
            return items[1:]
        if head == "=":
            if len(items) != 2 or type(v[1]) is not list:
                raise ValueError("a broken share")
            shared.append(items[1])
            return items[1]
        if head == "r":
            return shared[v[1]]
        if head == "d":
            keys, values = items[1], items[2]
            if type(keys) is not list or type(values) is not list or len(keys) != len(values):
                raise ValueError("a broken dict")
            return dict(zip(keys, values))
        raise ValueError("unknown node")

    def top(v):
        if type(v) is float or type(v) is dict:
            raise ValueError("not IR data")
        return dec(v) if type(v) is list else v
    return top


_T_CLASSES = frozenset(c for c in _NUMBER if c.__module__ == T.__name__)
