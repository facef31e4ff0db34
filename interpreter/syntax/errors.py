"""Lark's exceptions → diagnostics, in words: the one place where a syntax error is explained.

An unexpected token is named ("unexpected end of line"), the expected tokens are listed in
words, and common mistakes get a hint (a missing `:`, `=` for `==`, an unclosed bracket, a
line indented more than the one before it).
"""
from __future__ import annotations


import functools
import re

from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from ..diagnostics import Diagnostic, Span


_TOKEN_NAMES = {
    "_NL": "the end of the line", "$END": "the end of the file", "_INDENT": "an indented block",
    "_DEDENT": "the end of the block", "NAME": "a name", "INT": "a number", "STRING": "a text in quotes",
    "COLON": "':'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "EQ": "'='",
    "DOT": "'.'", "MINUS": "'-'", "PLUS": "'+'", "STAR": "'*'", "SLASH": "'/'", "PERCENT": "'%'",
    "PLUS_EQ": "'+='", "MINUS_EQ": "'-='", "COMP_OP": "a comparison", "IN": "'in'", "VBAR": "'|'",
    "ARROW": "'->'",
}

_MATCH_INSIDE = re.compile(r"\bmatch\s*$")                 # `1 + match h:`: `match` read as a name
_MATCH_ON_ONE_LINE = re.compile(r"\bmatch\b.*:\s*$")      # `match h: Pair -> 1`
_EXPECT_CHECKS = re.compile(r'^\s*expect\s+(?:not\s+legal\b|legal\b|deciding\b|over\b)')   # `expect deciding p and …`
_EXPECT_MIXED = re.compile(r'^\s*expect\b.*\band\s+(?:not\s+)?(?:legal|deciding|over)\s*$')  # `expect n == 1 and legal`
_CASE_KEYS = re.compile(r'\s*[-\w."]+(?:\s*,\s*[-\w."]+)*\s*$')   # `Pair: 2`, `A, B = 3`: a case without its `->`


def _describe_expected(expected) -> str:
    names = []
    for t in sorted(expected):
        if t in _TOKEN_NAMES:
            names.append(_TOKEN_NAMES[t])
        elif t.isupper() and not t.startswith("_"):
            names.append("'" + t.lower().replace("_", " ") + "'")
    names = sorted(set(names))
    if not names:
        return ""
    if len(names) > 8:
        names = names[:8] + ["…"]
    return "expected " + ", ".join(names)


@functools.lru_cache(maxsize=1)
def _grammar() -> str:
    import importlib.resources
    return importlib.resources.files("rulecraft.grammar").joinpath("rulecraft.lark").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset:
    """The language's keywords: the quoted words of the grammar (read once, when a syntax error needs them)."""
    return frozenset(re.findall(r'"([a-z][a-z_]*)"', _grammar()))


@functools.lru_cache(maxsize=1)
def _terminal_words() -> dict:
    """Keyword terminals written as alternatives in the grammar (`CHOOSE: "chooses" | "choose"`) → their words."""
    return {m[1]: re.findall(r'"([a-z][a-z_]*)"', m[2])
            for m in re.finditer(r'^([A-Z][A-Z_]*)(?:\.\d+)?:\s*("[a-z_]+"(?:\s*\|\s*"[a-z_]+")*)\s*$', _grammar(), re.M)}


def _misspelt_keyword(tok, expected, before: str) -> str:
    """A hint for a keyword written wrong: the unexpected name itself (`p choses k`), or a lone word
    that starts the line and was read as a name (`sya "hi"`): 'did you mean …?'."""
    from ..diagnostics import did_you_mean
    if tok.type == "NAME":
        words = _terminal_words()
        wanted = {w for t in expected for w in words.get(t, [t.lower()]) if w in keywords()}
        return did_you_mean(str(tok), wanted or keywords())
    word = before.strip()
    if re.fullmatch(r"[a-z_]\w*", word) and word not in keywords():
        return did_you_mean(word, keywords())
    return ""


def _token_text(tok) -> str:
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "indentation"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "$END":
        return "end of file"
    return repr(str(tok))


def diagnostic_from_lark(e: LarkError, path: str, text: str) -> Diagnostic:
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else "?"
        hint = "text goes in double quotes" if ch in "'`" else ""
        if ch == "\t":
            hint = "indent with spaces"
        return Diagnostic(Span(path, e.line, e.column, e.line, e.column + 1), f"unexpected character {ch!r}", hint)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        line = tok.line if tok.line is not None else e.line
        col = tok.column if tok.column is not None else e.column
        unclosed = _unclosed_bracket(text, e.pos_in_stream if e.pos_in_stream is not None else len(text), line)
        if unclosed is not None:
            bline, bcol, ch = unclosed
            return Diagnostic(Span(path, bline, bcol, bline, bcol + 1), f"'{ch}' is never closed",
                              f"close it with '{')' if ch == '(' else ']'}': until it is closed, the lines after it are read as part of its line")
        if tok.type == "_INDENT":
            line, col = _next_code_line(text, line or 1)
            after_comma = _end_of_previous_code(text, line - 1)
            ends_in_comma = text.splitlines()[after_comma[0] - 1].split("#", 1)[0].rstrip().endswith(",")
            return Diagnostic(Span(path, line, col, line, col + 1), "unexpected indentation",
                              "to go on with the line before, end it with '\\' (a line also goes on inside ( ) and [ ])"
                              if ends_in_comma else "this line is indented more than the one before it")
        if tok.type in ("_NL", "$END", "_DEDENT") or line is None or line < 1:
            line, col = _end_of_previous_code(text, line if line and line > 0 else None)
            width = 1
        else:
            width = max(1, (tok.end_column or col + 1) - col) if tok.end_line == tok.line else 1
        expected = set(e.expected) if e.expected else set()
        hint = _describe_expected(expected)
        before = _line_before(text, tok)
        if tok.type != "_NL" and _MATCH_INSIDE.search(before):
            at = _MATCH_INSIDE.search(before).start() + 1
            return Diagnostic(Span(path, line, at, line, at + 5), "a `match` cannot stand inside an expression",
                              "a match ends its line, its cases on the lines below: the value of a def, a const, a "
                              "score, a `let` or an assignment; name it (`def`, `let`) to use it in an expression")
        if expected == {"_NL"} and _MATCH_ON_ONE_LINE.search(before):
            hint = "a match's cases go on the lines below it, indented, one a line: `Pair -> 2`"
        elif (_EXPECT_CHECKS.match(before) and before.rstrip().endswith(" and")) or _EXPECT_MIXED.match(before):
            hint = ("a condition goes on an `expect` line of its own (`expect total == 5`); `legal`, `not legal`, "
                    "`deciding` and `over` share a line with each other (`expect deciding player(1) and legal \"…\"`)")
        elif "ARROW" in expected and tok.type in ("COLON", "EQ") and _CASE_KEYS.match(before):
            hint = "a case of a match is written `VALUE -> result` (several values: `A, B -> result`)"
        elif "ELSE" in expected and tok.type == "_NL" and re.search(r"\bthen\b", _code_line(text, line)):
            hint = ("an `if … then … else …` over several lines goes inside ( ): `(if … then …`, then "
                    "`else if … then …` and `else …)` on the lines below (or end each line but the last with '\\')")
        elif tok.type == "COLON" and "AS" in expected and "COLON" not in expected:
            hint = 'an alternative of `chooses one of` says how its options read: `as "…"` before the \':\''
        elif tok.type == "_NL" and _code_line(text, line).rstrip().endswith(","):
            hint = "to go on with the line below, end this one with '\\' (a line also goes on inside ( ) and [ ])"
        elif "COLON" in expected and tok.type in ("_NL", "$END"):
            hint = "a line that opens a block ends with ':'"
        elif tok.type == "EQ" and "COMP_OP" in expected:
            hint = "to compare, write '=='"
        elif tok.type == "_INDENT":
            hint = "this line is indented more than the one before it"
        elif tok.type == "PLUS" and before.rstrip().endswith('"'):
            hint = 'texts are not added: write them as one text, with values in braces: "{a}{b}"'
        else:
            hint = _misspelt_keyword(tok, expected, before) or hint
        return Diagnostic(Span(path, line, col, line, col + width), f"unexpected {_token_text(tok)}", hint)
    if isinstance(e, UnexpectedEOF):
        line, col = _end_of_previous_code(text, None)
        return Diagnostic(Span(path, line, col), "the file ends in the middle of something", _describe_expected(e.expected))
    return Diagnostic(Span(path, getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1), "syntax error")


def _line_before(text: str, tok) -> str:
    """The text of the token's line before it (without a comment)."""
    pos = getattr(tok, "start_pos", None)
    if pos is None or tok.type in ("_NL", "_INDENT", "_DEDENT", "$END"):
        return ""
    start = text.rfind("\n", 0, pos) + 1
    return text[start:pos]


def _code_line(text: str, line: int) -> str:
    """The code of a line (1-based), without its comment."""
    lines = text.splitlines()
    return lines[line - 1].split("#", 1)[0] if 0 < line <= len(lines) else ""


def _next_code_line(text: str, line: int):
    """(line, column) of the first code character on a line after `line`."""
    lines = text.splitlines()
    for i in range(line, len(lines)):
        code = lines[i].split("#", 1)[0]
        if code.strip():
            return i + 1, len(code) - len(code.lstrip()) + 1
    return line, 1


def _unclosed_bracket(text: str, pos: int, err_line):
    """The last '(' or '[' still open at `pos`, if it was opened on an earlier line than the error."""
    stack = []
    line, col = 1, 0
    i = 0
    in_string = False
    while i < min(pos, len(text)):
        ch = text[i]
        col += 1
        if in_string:
            if ch == "\\":
                i += 1
                col += 1
            elif ch == '"' or ch == "\n":
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif ch in "([":
            stack.append((line, col, ch))
        elif ch in ")]" and stack:
            stack.pop()
        if i < len(text) and text[i] == "\n":
            line, col = line + 1, 0
        i += 1
    if stack and err_line is not None and stack[-1][0] < err_line:
        return stack[-1]
    return None


def _end_of_previous_code(text: str, line: int | None):
    """Position just after the last code character up to `line` (for errors at line ends)."""
    lines = text.splitlines() or [""]
    n = min(line or len(lines), len(lines))
    for i in range(n - 1, -1, -1):
        code = lines[i].split("#", 1)[0].rstrip()
        if code:
            return i + 1, len(code) + 1
    return 1, 1


def line_of_dedent(message: str, text: str) -> int:
    # Lark does not say where; find the first line whose indentation is not a known level.
    levels = [0]
    for no, raw in enumerate(text.splitlines(), 1):
        stripped = raw.split("#", 1)[0]
        if not stripped.strip():
            continue
        ind = len(raw) - len(raw.lstrip(" \t"))
        if ind > levels[-1]:
            levels.append(ind)
            continue
        while ind < levels[-1]:
            levels.pop()
        if ind != levels[-1]:
            return no
    return 1
