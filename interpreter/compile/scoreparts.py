"""What a score is made of, for the final screen (`rulecraft play`): derived from the `score`
expression, so that no game needs to declare it.

A score written as a sum of terms (`garden_points(p) + shed_points(p) - debt(p)`) is made of its
terms, each named by its def (`garden points`) or, for any other term, by its text as written. A
score that is one `sum(E for x in L)` (`sum(c.number for c in p.won)`) is made of the elements of
L, each with its E. Any other score is one part, and no breakdown is shown.
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T
from ..ir.hidden import reads_hidden
from .program import ScorePart


def score_parts(compiler) -> tuple:
    node = compiler.prog.score
    if node is None:
        return ()
    terms = _terms(node, 1)
    if len(terms) > 1:
        return tuple(ScorePart(_name(term), term.span, sign, compiler.scoring(term, "a part of the score"),
                               hidden=reads_hidden(compiler.prog, term))
                     for sign, term in terms)
    comp = node.args[0] if isinstance(node, ir.BuiltinCall) and node.name == "sum" and len(node.args) == 1 else None
    if not (isinstance(comp, ir.Comprehension) and len(comp.fors) == 1):
        return ()
    loop = comp.fors[0]
    elem = T.element_of(loop.iterable.type)
    if elem is None:
        return ()
    listed = ir.Comprehension(T.ListT(elem), comp.span, ir.Local(elem, comp.span, loop.slot), comp.fors)
    name = compiler.ns.fresh("E")
    value = compiler.ns.define(name, f"def {name}(m, v0, v{loop.slot}):",
                               compiler.x.statements.def_lines(comp.element, comp.span), "a part of the score", comp.span)
    cards = isinstance(elem, T.CardT)
    return (ScorePart(None, comp.span, 1, compiler.scoring(listed, "the parts of the score"), value,
                      compiler.layout.formatter(elem), cards, not cards and reads_hidden(compiler.prog, comp)),)


def _terms(node, sign: int) -> list:
    """The terms of a sum `a + b - c` as (sign, term)."""
    if isinstance(node, ir.BinOp) and node.op in ("+", "-") and node.type is T.INT:
        return _terms(node.left, sign) + _terms(node.right, sign if node.op == "+" else -sign)
    return [(sign, node)]


def _name(term) -> str | None:
    """A term's name: its def's, in words; None: its text as written (cli.plaintext finds it)."""
    return term.name.replace("_", " ") if isinstance(term, ir.DefCall) else None
