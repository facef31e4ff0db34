"""What the code generator knows of the source it has written, kept beside the text.

Some decisions depend on what a part's source turned out to be: is it a table's look-up whose
row can be read before a loop (ExprGen.hoisted)? The generator knows when it writes one, so it
says so with the text, rather than a later step reading the text back: a table's look-up is a
`Lookup`, a `str` (so it is written into longer source as it is) that also holds the table's name
and the locals it is indexed by. Any longer source written around one is a plain `str` again.
"""
from __future__ import annotations


class Lookup(str):
    """`K9[v1][v2]`: a table's look-up by locals, with the table's name and the slots of its keys."""

    __slots__ = ("table", "keys")

    def __new__(cls, table: str, keys: tuple):
        self = super().__new__(cls, table + "".join(f"[v{k}]" for k in keys))
        self.table, self.keys = table, keys
        return self
