"""A parsed module as plain data (JSON), and back: the parse cache's format.

Data, not code: reading an entry back can only build the AST's own node classes (and
Span), by name, with the fields they declare — unlike pickle, a planted or damaged entry
cannot run anything. A node is `[class number, field, …]`, a tuple `["t", item, …]`; the
class numbers come from the sorted class names, which the cache key covers (the source of
ast.py is in it).
"""
from __future__ import annotations

import json

import attrs

from .. import slotclasses
from ..diagnostics import Span
from . import ast

_CLASSES = {c.__name__: c for c in vars(ast).values() if isinstance(c, type) and attrs.has(c)}
_CLASSES["Span"] = Span
_NAMES = sorted(_CLASSES)
_NUMBER = {_CLASSES[n]: i for i, n in enumerate(_NAMES)}
_FIELDS = {cls: tuple(f.name for f in (slotclasses.fields(cls) if slotclasses.has(cls) else attrs.fields(cls))) for cls in _NUMBER}


class BadData(Exception):
    """The data is not a module this version of rulecraft wrote."""


def dumps(module: ast.Module) -> bytes:
    return json.dumps(_encode(module), separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def loads(data: bytes) -> ast.Module:
    try:
        module = _decode(json.loads(data.decode("utf-8")))
    except (ValueError, TypeError, IndexError, KeyError, RecursionError) as e:
        raise BadData(str(e)) from None
    if not isinstance(module, ast.Module):
        raise BadData("not a module")
    return module


def _encode(v):
    if type(v) is tuple:
        return ["t", *map(_encode, v)]
    number = _NUMBER.get(type(v))
    if number is not None:
        return [number, *(_encode(getattr(v, name)) for name in _FIELDS[type(v)])]
    if v is None or type(v) in (str, int, bool):
        return v
    raise TypeError(f"an AST holds no {type(v).__name__}")


def _decode(v):
    if type(v) is list:
        head = v[0]
        if head == "t":
            return tuple(map(_decode, v[1:]))
        if type(head) is not int or not 0 <= head < len(_NAMES):
            raise ValueError("unknown node")
        cls = _CLASSES[_NAMES[head]]
        if len(v) - 1 != len(_FIELDS[cls]):
            raise ValueError(f"a {cls.__name__} with other fields")
        return cls(*map(_decode, v[1:]))
    if type(v) is float or type(v) is dict:
        raise ValueError("not AST data")
    return v
