"""A declaration's own text and the comments written around it, read from the sources by its Span.

Shared by `rulecraft doc` and the language server's hover: what the author wrote
beside a declaration is its documentation.
"""
from __future__ import annotations

import re

from ..diagnostics import Span

DIVIDER = re.compile(r"#\s*[-=]{3,}\s*(.*)$")      # `# ------------ Setup`: a section of the file


def line_of(span: Span, sources: dict, n: int) -> str | None:
    text = sources.get(span.file)
    if text is None:
        return None
    lines = text.splitlines()
    return lines[n - 1] if 0 < n <= len(lines) else None


def strip_comment(line: str) -> str:
    """A line without its trailing comment (a `#` inside quotes is text)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i].rstrip()
    return line


def first_line(span: Span, sources: dict) -> str:
    line = line_of(span, sources, span.line)
    return strip_comment(line).strip() if line is not None else ""


def source_of(span: Span, sources: dict) -> str:
    """The declaration's lines as written (dedented, comments kept)."""
    text = sources.get(span.file)
    if text is None:
        return ""
    last = span.end_line or span.line
    if last > span.line and span.end_col <= 1:      # the span ends with the newline that closes the last line
        last -= 1
    lines = text.splitlines()[span.line - 1:last]
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()                                 # comments after a declaration belong to the next one
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    return "\n".join(l[indent:] for l in lines)


def leading_comment(span: Span, sources: dict, trailing: bool = True) -> tuple[str, str | None]:
    """(the comment lines right above a declaration, and the section divider above them if any).

    With `trailing`, the declaration's own end-of-line comment comes first."""
    out = []
    section = None
    n = span.line - 1
    while n > 0:
        line = line_of(span, sources, n)
        if line is None or not line.strip().startswith("#"):
            break
        m = DIVIDER.match(line.strip())
        if m:
            section = m.group(1).strip() or None
            break
        out.append(line.strip()[1:].strip())
        n -= 1
    if section is None and n > 0:                   # a divider, then one blank line, then the comments
        above = line_of(span, sources, n - 1) if (line_of(span, sources, n) or "x").strip() == "" else None
        m = DIVIDER.match(above.strip()) if above else None
        section = (m.group(1).strip() or None) if m else None
    out.reverse()
    if trailing:
        own = line_of(span, sources, span.line) or ""
        tail = own[len(strip_comment(own)):].strip()
        if tail:
            out.insert(0, tail[1:].strip())
    return "\n".join(out), section


def header_comment(text: str) -> str:
    """The comment block a file starts with (a game's notes: source, completions), without the `#`s."""
    out = []
    for line in text.splitlines():
        if not line.strip().startswith("#"):
            break
        body = line.strip()[1:]
        out.append(body[1:] if body.startswith(" ") else body)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)
