"""The types of the rule language.

Values at run time are plain Python data chosen for speed and easy saving:
Int/Bool/Str as themselves, enum values and players and teams as ints, cards
as their component id, zones as the index of the zone instance, lists as tuples.
"""
from __future__ import annotations

from .. import slotclasses


@slotclasses.frozen
class Prim:
    name: str

    def __str__(self):
        return self.name


INT = Prim("Int")
BOOL = Prim("Bool")
STR = Prim("Str")
PLAYER = Prim("Player")
TEAM = Prim("Team")
VOID = Prim("nothing")
ANY = Prim("?")          # the type of something already reported as wrong: matches everything
ANYCARD = Prim("Card")   # any card type, for helpers such as `rule deal(source: Zone, ...)`
NONE = Prim("none")      # the type of `none`: a value of every optional type


@slotclasses.frozen
class EnumT:
    name: str
    values: tuple
    shown: tuple = slotclasses.field(default=(), eq=False)     # display names ("Full House"), one per value

    def __str__(self):
        return self.name


@slotclasses.frozen
class CardT:
    name: str

    def __str__(self):
        return self.name


@slotclasses.frozen
class ListT:
    elem: object

    def __str__(self):
        return f"List[{self.elem}]"


@slotclasses.frozen
class ZoneT:
    elem: object

    def __str__(self):
        return f"Zone[{self.elem}]" if self.elem is not ANYCARD else "Zone"


@slotclasses.frozen
class OptionalT:
    """`Player?`, `Witch?`: a value of `inner`, or none (None at run time, as a card is its id)."""
    inner: object

    def __str__(self):
        return f"{self.inner}?"


@slotclasses.frozen
class PairT:
    """The options of a pair choice (`p chooses s in 2..12, c in Cell`): tuples (first, second)."""
    first: object
    second: object

    def __str__(self):
        return f"({self.first}, {self.second})"


@slotclasses.frozen
class TypeVar:
    """`C` in `def led_suit[C](trick: Zone[C])`: a type each use of the def gives (see `bind`)."""
    name: str

    def __str__(self):
        return self.name


def bind(param, arg, found: dict) -> None:
    """Match a parameter's declared type against an argument's, recording in `found` what each
    TypeVar stands for where the argument says it (`Zone[C]` and a `Zone[Playing]`: C is Playing).
    The first argument that says wins; a later one that disagrees is caught when the arguments are
    checked against the types put in place."""
    if isinstance(param, TypeVar):
        if arg is not NONE and param.name not in found:
            found[param.name] = arg
    elif isinstance(param, OptionalT):
        if arg is not NONE:
            bind(param.inner, arg.inner if isinstance(arg, OptionalT) else arg, found)
    elif isinstance(param, (ListT, ZoneT)) and isinstance(arg, (ListT, ZoneT)):
        if isinstance(param, ListT) or isinstance(arg, ZoneT):
            bind(param.elem, arg.elem, found)


def substitute(t, types: dict):
    """`t` with each TypeVar replaced by the type `types` gives it."""
    if isinstance(t, TypeVar):
        return types.get(t.name, ANY)
    if isinstance(t, OptionalT):
        return optional(substitute(t.inner, types))
    if isinstance(t, ListT):
        return ListT(substitute(t.elem, types))
    if isinstance(t, ZoneT):
        return ZoneT(substitute(t.elem, types))
    return t


def has_any(t) -> bool:
    """Does `t` hold ANY (something already reported as wrong)?"""
    if t is ANY:
        return True
    if isinstance(t, OptionalT):
        return has_any(t.inner)
    if isinstance(t, (ListT, ZoneT)):
        return has_any(t.elem)
    return False


def optional(t):
    return t if isinstance(t, OptionalT) or t is ANY else OptionalT(t)


def is_card(t) -> bool:
    return isinstance(t, CardT) or t is ANYCARD or t is ANY


def element_of(t):
    """The element type when `t` can be iterated (a list, a zone), else None."""
    if isinstance(t, ListT):
        return t.elem
    if isinstance(t, ZoneT):
        return t.elem
    if t is ANY:
        return ANY
    return None


def assignable(value, target) -> bool:
    """Can a value of type `value` be used where `target` is expected?"""
    if value is ANY or target is ANY or value == target:
        return True
    if isinstance(target, OptionalT):
        return value is NONE or assignable(value.inner if isinstance(value, OptionalT) else value, target.inner)
    if target is ANYCARD and is_card(value):
        return True
    if value is ANYCARD and is_card(target):
        return True
    if isinstance(target, ListT):
        if isinstance(value, (ListT, ZoneT)):
            return assignable(value.elem, target.elem)
        return False
    if isinstance(target, ZoneT) and isinstance(value, ZoneT):
        return assignable(value.elem, target.elem)
    return False


def join(a, b):
    """The common type of two branches (`if ... then a else b`, list items), or None."""
    if a is ANY:
        return b
    if b is ANY:
        return a
    if a == b:
        return a
    if isinstance(a, ListT) and isinstance(b, ListT):
        if a.elem is ANY:
            return b
        if b.elem is ANY:
            return a
        j = join(a.elem, b.elem)
        return ListT(j) if j is not None else None
    if assignable(a, b):
        return b
    if assignable(b, a):
        return a
    if a is NONE and not isinstance(b, (ListT, ZoneT)):     # `if won then p else none`: a Player?
        return optional(b)
    if b is NONE and not isinstance(a, (ListT, ZoneT)):
        return optional(a)
    return None


@slotclasses.frozen
class TableT:
    """A `var ... by K`: one value per key (an enum value or a number in a range)."""
    key: object            # EnumT, CardT, PLAYER, or ("range", lo, hi)
    value: object

    def __str__(self):
        key = self.key if not isinstance(self.key, tuple) else f"{self.key[1]}..{self.key[2]}"
        return f"table of {self.value} by {key}"
