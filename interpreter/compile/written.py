"""What the code generator knows of the source it has written, kept beside the text.

Some decisions depend on what a part's source turned out to be: is it a table's look-up whose
row can be read before a loop (ExprGen.hoisted)? is it one name or number, to be used as it is
rather than given a name of its own (StatementGen.once)? does it call nothing, so that writing it
twice costs little (ExprGen.cheap)? The generator knows when it writes such a source, so it says
so with the text, rather than a later step reading the text back: each is a `str` (so it is
written into longer source as it is) of its own class — `Cheap`, and of those an `Atom` or a
`Lookup`, which also holds the table's name and the locals it is indexed by. Any longer source
written around one is a plain `str` again, as it should be: it is no longer one name, nor one
look-up, and what is around it may call something.
"""
from __future__ import annotations


class Cheap(str):
    """Source that calls nothing and goes through nothing: computed twice, it costs little (a name, a
    number, a look-up, an inlined def's argument that is_simple says is cheap)."""

    __slots__ = ()


class Atom(Cheap):
    """One name or one number, written as it is: a local (`v3`), a constant (`K12`), a number, a name
    the namespace made (`_h5`, a part computed before a loop)."""

    __slots__ = ()


class Lookup(Cheap):
    """`K9[v1][v2]`: a table's look-up by locals, with the table's name and the slots of its keys."""

    __slots__ = ("table", "keys")

    def __new__(cls, table: str, keys: tuple):
        self = super().__new__(cls, table + "".join(f"[v{k}]" for k in keys))
        self.table, self.keys = table, keys
        return self
