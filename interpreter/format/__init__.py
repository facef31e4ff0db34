"""`rulecraft fmt`: one canonical layout for rule files (whitespace.py decides it), in the settled style
(spelling.py writes the old forms the grammar still accepts the settled way).

format_text refuses to return a text whose syntax tree differs from the input's
(compared without positions, by shape.py): a formatter that changed what a game
means would be worse than none.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, RulesError, Span
from ..syntax.parser import parse_module
from .whitespace import layout
from .spelling import respell
from .shape import shape

MEANING_CHANGED = "the formatter could not keep this file's meaning"

__all__ = ["MEANING_CHANGED", "format_text", "shape"]


def format_text(text: str, path: str = "<text>") -> str:
    """The canonical layout of a rule file's text; RulesError when it does not parse."""
    before = parse_module(text, path)            # the parser's own diagnostics for a file that does not parse
    try:
        result = layout(respell(text.replace("\r\n", "\n")))
        after = parse_module(result, path)
    except (RulesError, AssertionError):          # a gap in the layout rules: never write such a text
        after = None
    if after is None or shape(after) != shape(before):
        raise RulesError([Diagnostic(Span(path, 1, 1), MEANING_CHANGED,
                                     "the file is left as it is; please report this as a bug in rulecraft fmt")],
                         {path: text})
    return result
