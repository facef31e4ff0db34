"""A checked game (the typed IR) as plain data (marshal), and back: the check cache's format.

Data, not code, as syntax/astdata.py: reading an entry back can only build the IR's node
classes, the types of ir/types.py, Span and Diagnostic, by number, with the fields they
declare; a planted or damaged entry cannot run anything. The data is marshal's (Python's own format
for lists, tuples, texts and numbers: about three times quicker to read back than JSON), holding only
lists, tuples, texts, numbers, booleans and None: anything else marshal can hold (a code object, a
float, bytes, a set) is refused as it is met. The object graph comes back as it was: an object met
twice is written once, marked (`[…, "="]`), and then referred to (`(n,)`, n counting the marked
objects finished before it), so what the compiler keys by identity (its constants' names) is shared
as it was, and the generated code is the same byte for byte. The module's own type constants
(`T.ANY`, `T.INT`, …, which the compiler tests with `is`) come back as themselves.

A node is `[field, …, class number]`; a tuple `[item, …, "t"]`, a list `[…, "l"]`, a dict
`[[key, …, "l"], [value, …, "l"], "d"]` (the tag last: the reader pops it and reads the rest as it
is, in place); a Span met once, a third of all nodes, is the tuple `(file, line, col, end_line,
end_col)`, built where it is met, as a reference is, without a call of the reader. Class numbers come
from the sorted class names, which the check cache's key covers (it hashes the sources of this package).
"""
from __future__ import annotations

import marshal

from .. import slotclasses
from ..diagnostics import Diagnostic, Span
from ..ir import nodes as ir
from ..ir import types as T

_CLASSES = {f"{m.__name__}.{c.__name__}": c for m in (ir, T) for c in vars(m).values()
            if isinstance(c, type) and slotclasses.has(c) and c.__module__ == m.__name__}
_CLASSES["Span"], _CLASSES["Diagnostic"] = Span, Diagnostic
_NAMES = sorted(_CLASSES)
_NUMBER = {_CLASSES[n]: i for i, n in enumerate(_NAMES)}
_BY_NUMBER = [_CLASSES[n] for n in _NAMES]
_FIELDS = {cls: tuple(f.name for f in slotclasses.fields(cls)) for cls in _NUMBER}
_ARITY = [len(_FIELDS[c]) for c in _BY_NUMBER]
# the type constants of ir/types.py, by class and fields: decoded, they are these objects again
_CONSTANTS = {(type(v), tuple(getattr(v, f) for f in _FIELDS[type(v)])): v
              for v in vars(T).values() if type(v) in _NUMBER}
_PLAIN = (str, int, bool, type(None))
_PLAIN_SET = frozenset(_PLAIN)


class BadData(Exception):
    """The data is not what this version of rulecraft writes."""


def dumps(value) -> bytes:
    """`value` (IR nodes, types, spans, diagnostics, in tuples, lists and dicts) as data; TypeError
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
            return (n,)
        if t is Span and count[id(v)] == 1:
            return (v.file, v.line, v.col, v.end_line, v.end_col)
        if t is tuple:
            out = [*map(enc, v), "t"]
        elif t is list:
            out = [*map(enc, v), "l"]
        elif t is dict:
            out = [[*map(enc, v), "l"], [*map(enc, v.values()), "l"], "d"]
        else:
            out = [*(enc(getattr(v, name)) for name in _FIELDS[t]), _NUMBER[t]]
        if count[id(v)] > 1:       # met again later: numbered, in the order they are finished
            numbers[id(v)] = len(numbers)
            out = [out, "="]
        return out

    return marshal.dumps(enc(value))


def loads(data: bytes):
    try:
        return _decoder()(marshal.loads(data))
    except (ValueError, TypeError, IndexError, KeyError, EOFError, RecursionError) as e:
        raise BadData(str(e)) from None


def _decoder():
    """A function from the data back to objects; one per entry (it keeps the numbered objects)."""
    shared: list = []
    classes, arity, constants, t_classes, plain = _BY_NUMBER, _ARITY, _CONSTANTS, _T_CLASSES, _PLAIN_SET

    def dec(v):
        head = v.pop()          # the lists are marshal's own, made for this decoding
        if head == "=":         # numbered as it is finished
            if len(v) != 1 or type(v[0]) is not list:
                raise ValueError("a broken share")
            out = dec(v[0])
            shared.append(out)
            return out
        i = 0
        for x in v:             # in place: no new list, no comprehension's call
            t = type(x)
            if t is list:
                v[i] = dec(x)
            elif t is tuple:    # a reference, or a Span met once
                if len(x) == 1:
                    v[i] = shared[x[0]]
                elif len(x) == 5 and type(x[0]) is str and type(x[1]) is int and type(x[2]) is int \
                        and type(x[3]) is int and type(x[4]) is int:
                    v[i] = Span(*x)
                else:
                    raise ValueError("a broken reference")
            elif t not in plain:
                raise ValueError(f"a checked game holds no {t.__name__}")
            i += 1
        items = v
        if type(head) is int:
            if head < 0 or len(items) != arity[head]:
                raise ValueError("unknown node")
            cls = classes[head]
            out = cls(*items)
            if cls in t_classes:
                try:
                    return constants.get((cls, tuple(items)), out)
                except TypeError:       # a field that cannot be a key (a list): no constant is one
                    return out
            return out
        if head == "t":
            return tuple(items)
        if head == "l":
            return items
        if head == "d":
            if len(items) != 2 or type(items[0]) is not list or type(items[1]) is not list \
                    or len(items[0]) != len(items[1]):
                raise ValueError("a broken dict")
            return dict(zip(items[0], items[1]))
        raise ValueError("unknown node")

    def top(v):
        if type(v) is list:
            return dec(v)
        if type(v) not in plain:
            raise ValueError("not IR data")
        return v
    return top


_T_CLASSES = frozenset(c for c in _NUMBER if c.__module__ == T.__name__)
