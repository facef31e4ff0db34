"""What a name can mean while checking: one symbol class per kind, and the scope of a body's locals.

The checker's own bookkeeping; lowering (lower.py) turns each use of a symbol into a
resolved IR node, so nothing after checking sees these.
"""
from __future__ import annotations

import attrs

from ..ir import types as T

@attrs.define(eq=False)
class OptionSym:
    decl: object
    type: object
    values: tuple            # allowed values (ints for choice/bool options), or (lo, hi) for ranges
    kind: str                # "choice" | "range" | "bool"
    slot: int = -1
    default: object = None


@attrs.define(eq=False)
class EnumSym:
    decl: object
    type: T.EnumT
    fields: dict = attrs.Factory(dict)     # data each value carries: name -> (type, tuple of values)


@attrs.define(eq=False)
class EnumValueSym:
    type: T.EnumT
    index: int


@attrs.define(eq=False)
class CardSym:
    decl: object
    type: T.CardT
    fields: dict              # name -> (position, type)


@attrs.define(eq=False)
class CardsSym:
    decl: object
    type: object


@attrs.define(eq=False)
class ZoneSym:
    decl: object
    type: T.ZoneT
    owner: str | None
    seen: str


@attrs.define(eq=False)
class VarSym:
    decl: object
    type: object
    owner: str | None
    slot: int = -1
    seen: str = "all"        # who sees its value (like a zone's `seen by`)


@attrs.define(eq=False)
class DefSym:
    decl: object
    params: tuple            # ((name, type), ...)
    ret: object = None
    frame_size: int = 0
    checking: bool = False
    type_params: tuple = ()  # names of a generic def's type parameters (check/generics.py)
    instances: dict = attrs.Factory(dict)    # of a generic def: tuple of types -> the DefSym checked for them
    template_ok: bool | None = None          # of a generic def: its body checked as written, without an error


@attrs.define(eq=False)
class RuleSym:
    decl: object
    params: tuple
    frame_size: int = 0
    name: str = ""            # set for `when` handlers, which have no name of their own
    type_params: tuple = ()  # as DefSym's
    ret: object = None        # `rule settle(…): Bool:`: the type of its value (check/returns.py)
    value: object = None      # ... and the hidden VarSym that carries it to the caller
    instances: dict = attrs.Factory(dict)
    template_ok: bool | None = None


@attrs.define(eq=False)
class EventSym:
    decl: object
    params: tuple
    handlers: list = attrs.Factory(list)     # RuleSym of each `when`, in declaration order


@attrs.define(eq=False)
class LocalSym:
    name: str
    type: object
    slot: int
    span: object


@attrs.define(eq=False)
class TeamValue:
    index: int


@attrs.define(eq=False)
class BuiltinValue:
    name: str                # players, player_count
    type: object


class Scope:
    """Locals of one rule or def body; slots only grow, so nested blocks never share one."""

    def __init__(self, owner):
        self.owner = owner
        self.frames: list[dict] = [{}]
        self.count = 0

    def lookup(self, name):
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def declare(self, name, typ, span) -> LocalSym:
        sym = LocalSym(name, typ, self.count, span)
        self.count += 1
        self.frames[-1][name] = sym
        return sym

    def temp(self) -> int:
        self.count += 1
        return self.count - 1

    def push(self):
        self.frames.append({})

    def pop(self):
        self.frames.pop()

