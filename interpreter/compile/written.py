"""What the code generator knows of the source it has written, kept beside the text.

Some decisions depend on what a part's source turned out to be: is it a table's look-up? is it one name or number, to be used as it is
rather than given a name of its own (StatementGen.once)? does it call nothing, so that writing it
twice costs little (ExprGen.cheap)? how many operations does a part compute, once its own parts
became tables — is it still worth a table (Tabulator.make)? The generator knows as it writes, so
it says so with the text rather than a later step reading the text back. A source is a `str` (so
it is written into longer source as it is) of its own class — `Cheap`, and of those an `Atom` (a
`Number` when it is a whole number, with its value) or a `Lookup`, which also holds the table's name and the slots of its keys; an inlined def's `Argument`
— and any longer source written around one is a plain `str` again, as it should be: it is no
longer one name, nor one look-up, and what is around it may call something. What a part's code
computes is added up, node by node as it is written, in a `Written` (ExprGen.src, ExprGen.apart).
"""
from __future__ import annotations

from ..ir import nodes as ir


class Cheap(str):
    """Source that calls nothing and goes through nothing: computed twice, it costs little (a name, a
    number, a look-up, an inlined def's body that is_simple says is cheap)."""

    __slots__ = ()


class Atom(Cheap):
    """One name or one number, written as it is: a local (`v3`), a constant (`K12`), a number, a name
    the namespace made (`_h5`, a part computed before a loop)."""

    __slots__ = ()


class Number(Atom):
    """A whole number known as the code is written — a literal, a card named in the rules (its id) —
    with its `value`: a card's field or slot of it is then read now (ExprGen.ex_CardField). The same
    number in brackets (an inlined def's body or argument) is one too."""

    __slots__ = ("value",)

    def __new__(cls, value: int, text: str | None = None):
        self = super().__new__(cls, repr(value) if text is None else text)
        self.value = value
        return self


class Constant(Atom):
    """The name of a value bound in the namespace at load (`K12`, codegen.Namespace.const), with the
    `value`: a list known at load is indexed, or its length read, now (ExprGen.ex_Index)."""

    __slots__ = ("value",)

    def __new__(cls, name: str, value):
        self = super().__new__(cls, name)
        self.value = value
        return self


def number_of(source):
    """The value of a source that is a known whole number (a Number, or an Argument holding one), else None."""
    value = getattr(source, "value", None) if isinstance(source, (Number, Argument)) else None
    return value if type(value) is int else None


class Lookup(Cheap):
    """`K9[v1][v2]`: a table's look-up by locals, with the table's name and the slots of its keys."""

    __slots__ = ("table", "keys")

    def __new__(cls, table: str, keys: tuple):
        self = super().__new__(cls, table + "".join(f"[v{k}]" for k in keys))
        self.table, self.keys = table, keys
        return self


class Argument(str):
    """An argument of a def being inlined, as its parameter is written in the body (ExprGen.argument):
    `cheap`, is it cheap to compute at each use (ExprGen.cheap); `written`, what its source does,
    added up where the parameter is written (as often as it is)."""

    __slots__ = ("cheap", "written", "value", "name")

    def __new__(cls, text: str, cheap: bool, written, value=None, name: bool = False):
        self = super().__new__(cls, text)
        self.cheap, self.written = cheap, written
        self.value, self.name = value, name      # a Number's value, in brackets; is it one name, in brackets?
        return self


def is_name(source) -> bool:
    """Is the source one name (an Atom that is no number, or an inlined def's argument that is one)?"""
    if isinstance(source, Argument):
        return source.name
    return isinstance(source, Atom) and not isinstance(source, Number)


class Written:
    """What the source written for a part does, added up by the generator as it writes it (ExprGen.src,
    ExprGen.apart): `ops`, how many operations it computes (a part that became a table: its look-up);
    `binds`, does it bind a name of its own or write a text (a table made at load holds neither);
`elsewhere`, does it read what the function computes elsewhere (a part computed before a loop, a
    def computed first, a value the statement's lines named) or call a def's own function. Tabulator.make
    asks it of a part: is it still worth a table, and can one be made at load?"""

    __slots__ = ("ops", "elsewhere", "binds")

    def __init__(self):
        self.ops = 0
        self.elsewhere = False
        self.binds = False      # does it bind a name (an assignment expression, a lambda) or write a text?

    def add(self, other: "Written") -> None:
        self.ops += other.ops
        self.elsewhere = self.elsewhere or other.elsewhere
        self.binds = self.binds or other.binds


# the nodes whose own code computes nothing: a name, a number, a constant; a def's call (inlined, its
# body's operations count; else it is `elsewhere`); a conditional's choice, a sign (their parts' count)
_NO_OPERATION = frozenset((ir.Local, ir.Const, ir.CardNamed, ir.NoneValue, ir.Fixed, ir.DefCall, ir.Cond, ir.Neg))


def own_operations(e) -> int:
    """How many operations the code written for `e` itself computes, not counting its parts': one for an
    arithmetic operator, a comparison, `and`/`or`/`not`, a look-up; none for a membership test (a set's
    look-up, as cheap as a table's would be; `not in`: its `not`); two for a cast (its card's slot
    looked up, and tested)."""
    t = type(e)
    if t in _NO_OPERATION or (t is ir.Compare and e.op == "in"):
        return 0
    return 2 if t is ir.Cast else 1
