"""The canonical layout of a rule file, worked out from the parser's own tokens.

Generic over the grammar: the text is parsed with grammar/rulecraft.lark (the
same terminals, contextual lexer and indenter as the real parser, but keeping
every token), and the layout is decided from token kinds alone — a new
construct in the grammar is laid out without a change here. What is decided:

- indentation: four spaces per block level (the indenter's _INDENT/_DEDENT);
- spacing within a line: one space between tokens, none inside brackets, before
  `,` `:` `)` `]`, around `.` and `..`, before the `(`/`[` of a call or index,
  after a unary minus, and inside a bundled module name (`weird-sisters`);
- line breaks: kept where the author put them inside brackets (continuation lines
  indented four spaces per line of open brackets) and after a `\\`
  (continuation eight spaces in, so it stands apart from a block's body);
- blank lines: at most one in a row, none at the start of the file or of a
  block, none inside a bracketed expression;
- comments: kept, each where it was. A comment on its own line is indented like
  the block it stands in (between the levels of the lines around it); a trailing
  comment keeps its column, so comments aligned by hand stay aligned, but at
  least two spaces after the code.

Here only whitespace changes (spelling.py, run first, rewrites a few spellings to the
language's style, each meaning the same), so the meaning stays the same; format_text
checks that by comparing the two syntax trees without positions.
"""
from __future__ import annotations

import functools
import importlib.resources

from lark import Lark, Token, Tree

from ..syntax.parser import _RulesIndenter

INDENT = 4
BACKSLASH_INDENT = 8
MAX_BLANK_LINES = 1
TRAILING_GAP = 2

OPENERS = {"(": ")", "[": "]"}
CLOSERS = {")", "]"}
NO_SPACE_BEFORE = {",", ":", ")", "]", ".", ".."}
NO_SPACE_AFTER = {"(", "[", ".", ".."}
ATTACHED_AFTER = {"NAME"}             # `f(x)`, `order[0]`, `List[Witch]`: brackets hug a name or a closing bracket
TIGHT_PARENTS = {"module_ref", "outcome_kind"}   # `extends weird-sisters`, `outcome zero-sum`
UNARY_PARENTS = {"neg", "signed_int"}   # `-x`, `scores -2..2`
POSTFIX_PARENTS = {"optional_type"}   # `Player?`
STRUCTURE = {"_NL", "_INDENT", "_DEDENT"}


@functools.lru_cache(maxsize=1)
def _lark_all_tokens() -> Lark:
    text = importlib.resources.files("rulecraft.grammar").joinpath("rulecraft.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", postlex=_RulesIndenter(), keep_all_tokens=True,
                maybe_placeholders=False, start="start")


def tokens_with_parents(text: str) -> list[tuple[Token, str]]:
    """Every token the parser consumed, in order, with the grammar rule it belongs to."""
    tree = _lark_all_tokens().parse(text)
    out: list[tuple[Token, str]] = []
    stack: list = [(tree, "start")]
    while stack:                       # depth-first, left to right, without recursion (rules nest deeply)
        node, parent = stack.pop()
        if isinstance(node, Tree):
            stack.extend((child, node.data) for child in reversed(node.children))
        else:
            out.append((node, parent))
    return out


def _token_text(tok: Token) -> str:
    if tok.type != "STRING" and any(ch.isspace() for ch in tok):
        return " ".join(str(tok).split())          # `not   in` is `not in`
    return str(tok)


def _space_between(prev: Token, prev_parent: str, tok: Token, parent: str) -> str:
    a, b = str(prev), str(tok)
    if prev_parent in TIGHT_PARENTS and parent in TIGHT_PARENTS:
        gap = ""
    elif a in NO_SPACE_AFTER or b in NO_SPACE_BEFORE:
        gap = ""
    elif b in OPENERS and (prev.type in ATTACHED_AFTER or a in CLOSERS):
        gap = ""
    elif prev_parent in UNARY_PARENTS and a == "-":
        gap = ""
    elif parent in POSTFIX_PARENTS and b == "?":
        gap = ""
    else:
        gap = " "
    if not gap and _word_char(a[-1]) and _word_char(b[0]):
        gap = " "                                   # never glue two words into one
    return gap


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _indent_width(s: str) -> int:
    return s.count(" ") + s.count("\t") * _RulesIndenter.tab_len


class _Gap:
    """The text between two tokens: a trailing comment, then whole lines (blank or comment), then the next token's indentation."""

    def __init__(self, text: str, col: int):
        parts = text.split("\n")
        self.newline = len(parts) > 1
        first = parts[0]
        stripped = first.strip()
        self.trailing = None
        self.trailing_col = 0
        if stripped.startswith("#"):
            self.trailing = stripped
            self.trailing_col = col + _indent_width(first[:first.index("#")])
        self.lines: list = []                      # None for a blank line, (column, comment) for a comment line
        for part in parts[1:-1]:
            body = part.strip()
            if body.startswith("#"):
                self.lines.append((_indent_width(part[:len(part) - len(part.lstrip())]), body))
            elif body in ("", "\\"):
                self.lines.append(None)
            else:                                   # cannot happen: the parser read this text
                raise AssertionError(f"unexpected text between tokens: {part!r}")


class _Writer:
    def __init__(self):
        self.lines: list[str] = []
        self.current = ""
        self.blank = 0                # blank lines waiting to be written before the next line

    def add(self, s: str) -> None:
        self.current += s

    def comment_after(self, comment: str, col: int) -> None:
        code = self.current.rstrip()
        self.current = code + " " * max(TRAILING_GAP, col - len(code)) + comment if code else comment

    def newline(self) -> None:
        if self.current.strip() or self.lines:
            self.lines.append(self.current.rstrip())
        self.current = ""

    def start_line(self, indent: int) -> None:
        if self.lines and self.blank:
            self.lines.extend([""] * min(self.blank, MAX_BLANK_LINES))
        self.blank = 0
        self.current = " " * indent

    def text(self) -> str:
        self.newline()
        while self.lines and not self.lines[-1]:
            self.lines.pop()
        return "\n".join(self.lines) + "\n" if self.lines else ""


def layout(text: str) -> str:
    """The canonical layout of `text`, which must parse (Lark's exceptions pass through)."""
    text = text.replace("\r\n", "\n")
    if not text.endswith("\n"):
        text += "\n"
    items = tokens_with_parents(text)
    out = _Writer()
    depth = 0
    old_cols = [0]                    # the author's column of each block level, to place their comments
    brackets: list[int] = []          # for each open bracket, the output line it was opened on
    backslashed = False
    prev: Token | None = None
    prev_parent = ""
    pending_nl = False
    delta = 0
    just_opened = False
    for index, (tok, parent) in enumerate(items):
        if tok.type == "_NL":
            pending_nl = True
            continue
        if tok.type == "_INDENT":
            delta += 1
            continue
        if tok.type == "_DEDENT":
            delta -= 1
            continue
        start = prev.end_pos if prev is not None else 0
        gap = _Gap(text[start:tok.start_pos], prev.end_column - 1 if prev is not None else 0)
        if prev is None or pending_nl:
            old_depth = depth
            depth += delta
            if delta > 0:
                old_cols = old_cols[:depth] + [tok.column - 1]
            just_opened = delta > 0
            _between_lines(out, gap, old_depth, depth, old_cols, just_opened, first=prev is None)
            out.start_line(INDENT * depth)
            brackets.clear()
            backslashed = False
            pending_nl = False
            delta = 0
        elif gap.newline:
            if gap.trailing:
                out.comment_after(gap.trailing, gap.trailing_col)
            if not brackets:
                backslashed = True
                out.add(" \\")
            out.newline()
            closing = _leading_closers(items, index, text)
            open_lines = len(set(brackets[:len(brackets) - closing])) if closing else len(set(brackets))
            indent = INDENT * depth + (BACKSLASH_INDENT if backslashed else 0) + INDENT * open_lines
            for entry in gap.lines:
                if entry is not None:
                    out.start_line(indent)
                    out.add(entry[1])
                    out.newline()
            out.start_line(indent)
        else:
            out.add(_space_between(prev, prev_parent, tok, parent))
        value = str(tok)
        out.add(_token_text(tok))
        if value in OPENERS:
            brackets.append(len(out.lines))
        elif value in CLOSERS and brackets:
            brackets.pop()
        prev, prev_parent = tok, parent
    tail = _Gap(text[prev.end_pos:] if prev is not None else text, prev.end_column - 1 if prev is not None else 0)
    _between_lines(out, tail, depth, 0, old_cols, False, first=prev is None)
    return out.text()


def _leading_closers(items, index: int, text: str) -> int:
    """How many closing brackets start the line that begins at items[index]."""
    count = 0
    prev_end = None
    for tok, _parent in items[index:]:
        if tok.type in STRUCTURE:
            break
        if prev_end is not None and "\n" in text[prev_end:tok.start_pos]:
            break
        if str(tok) not in CLOSERS:
            break
        count += 1
        prev_end = tok.end_pos
    return count


def _between_lines(out: _Writer, gap: _Gap, old_depth: int, new_depth: int, old_cols: list[int],
                   just_opened: bool, first: bool) -> None:
    """End the current line (with its trailing comment) and write the comment and blank lines before the next."""
    if gap.trailing:
        if first:
            out.start_line(0)
            out.add(gap.trailing)
        else:
            out.comment_after(gap.trailing, gap.trailing_col)
    if not first or gap.trailing:
        out.newline()
    lo, hi = min(old_depth, new_depth), max(old_depth, new_depth)
    blank_allowed = not just_opened
    for entry in gap.lines:
        if entry is None:
            if blank_allowed:
                out.blank += 1
            continue
        col, comment = entry
        level = lo
        for d in range(lo, hi + 1):
            if d < len(old_cols) and old_cols[d] <= col:
                level = d
        out.start_line(INDENT * level)
        out.add(comment)
        out.newline()
        blank_allowed = True
