"""The settled style's spelling of the forms the grammar accepts two ways (docs/language.md, "Style").

Where the language keeps an old form working beside the one the style settled on, `fmt` writes the
settled one. Each rewrite is decided, like the layout, from the parser's tokens and the grammar rule
each belongs to, and leaves the syntax tree as it was (format_text checks that):

- `elif` (a statement's) is written `else if`, as conditional expressions write it;
- an option's help text is written after its name, `option NAME "help": DOMAIN = DEFAULT`, where a
  scenario's description and an enum value's display name stand.

What the style asks beyond these (a type on every name a declaration binds) changes the tree, so it
is the author's to write; `rulecraft check` holds a written type to the name's own.
"""
from __future__ import annotations

from .whitespace import tokens_with_parents

RESPELLED = {("elif_clause", "elif"): "else if"}      # (grammar rule, token) -> the settled spelling
HELP_AFTER_NAME = "option_decl"                      # a declaration whose text moves to after its name


def respell(text: str) -> str:
    """`text` (which must parse) with every accepted old form written in the settled style."""
    if not text.endswith("\n"):
        text += "\n"
    items = [(tok, parent) for tok, parent in tokens_with_parents(text)
             if tok.type not in ("_NL", "_INDENT", "_DEDENT")]
    edits: list[tuple[int, int, str]] = []           # (start, end, replacement) in `text`
    name = None                                      # the name token of the option being read
    after_eq = False
    for i, (tok, parent) in enumerate(items):
        new = RESPELLED.get((parent, str(tok)))
        if new is not None:
            edits.append((tok.start_pos, tok.end_pos, new))
        if parent != HELP_AFTER_NAME:
            continue
        if tok.type == "NAME" and name is None:
            name, after_eq = tok, False
        elif tok.type == "EQ":
            after_eq = True
        elif tok.type == "STRING" and after_eq and name is not None:
            prev = items[i - 1][0]
            if not text[prev.end_pos:tok.start_pos].strip(" \t"):     # on the same line as the default
                edits.append((name.end_pos, name.end_pos, " " + str(tok)))
                edits.append((prev.end_pos, tok.end_pos, ""))
            name = None
        elif str(tok) == "option":
            name = None
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text
