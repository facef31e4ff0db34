"""What the code generator knows of the source it has written, kept beside the text.

Some decisions depend on what a part's source turned out to be: is it a table's look-up whose
row can be read before a loop (ExprGen.hoisted)? is it one name or number, to be used as it is
rather than given a name of its own (StatementGen.once)? The generator knows when it writes such
a source, so it says so with the text, rather than a later step reading the text back: each is a
`str` (so it is written into longer source as it is) of its own class — an `Atom`, a `Lookup`, which
also holds the table's name and the locals it is indexed by. Any longer source written around one
is a plain `str` again, as it should be: it is no longer one name, nor one look-up.
"""
from __future__ import annotations


class Atom(str):
    """One name or one number, written as it is: a local (`v3`), a constant (`K12`), a number, a name
    the namespace made (`_h5`, a part computed before a loop)."""

    __slots__ = ()


class Lookup(str):
    """`K9[v1][v2]`: a table's look-up by locals, with the table's name and the slots of its keys."""

    __slots__ = ("table", "keys")

    def __new__(cls, table: str, keys: tuple):
        self = super().__new__(cls, table + "".join(f"[v{k}]" for k in keys))
        self.table, self.keys = table, keys
        return self
