"""One error type for every phase: a position, a message for people, a hint.

Every phase collects all the diagnostics it finds instead of stopping at the
first; `render` prints them the same way everywhere (file:line:col, the source
line, a caret under the span, the hint).
"""
from __future__ import annotations

from . import slotclasses


@slotclasses.frozen
class Span:
    """Where a piece of source text lies: file, 1-based line and column, and length."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


WIDE = 240   # longer source lines are shown as a window around the error


@slotclasses.frozen
class Diagnostic:
    span: Span
    message: str
    hint: str = ""
    severity: str = "error"
    related: tuple = ()

    def sort_key(self):
        return (self.span.file, self.span.line, self.span.col, self.message)


class RulesError(Exception):
    """Raised with every diagnostic found when rules cannot be loaded."""

    def __init__(self, diagnostics, sources=None):
        self.diagnostics = sorted(set(diagnostics), key=Diagnostic.sort_key)
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return render_all(self.diagnostics, self.sources)


class UserError(Exception):
    """A plain-sentence error for the user (bad move, bad option, corrupt save)."""


class UnknownGame(UserError):
    """A game reference that names neither a bundled game nor a file (loader.game_path); `hint` suggests one."""

    def __init__(self, ref: str, hint: str):
        self.ref = ref
        self.hint = hint
        super().__init__(f"there is no bundled game or file named '{ref}' ({hint})")


def render(diag: Diagnostic, sources: dict[str, str]) -> str:
    span = diag.span
    out = [f"{span}: {diag.severity}: {diag.message}"]
    text = sources.get(span.file)
    if text is not None and span.line > 0:
        lines = text.splitlines()
        if 0 < span.line <= len(lines):
            src = lines[span.line - 1].rstrip("\n").replace("\t", " ")
            gutter = f"{span.line:5d} | "
            width = 1
            if span.end_line == span.line and span.end_col > span.col:
                width = span.end_col - span.col
            width = max(1, min(width, max(1, len(src) - span.col + 1)))
            col = span.col
            if len(src) > WIDE:
                # show a window of a very long line around the error
                start = max(0, col - 1 - WIDE // 3)
                shown = src[start:start + WIDE]
                prefix = "…" if start > 0 else ""
                suffix = "…" if start + WIDE < len(src) else ""
                src = prefix + shown + suffix
                col = col - start + len(prefix)
                width = max(1, min(width, WIDE - (col - 1)))
            out.append(gutter + src)
            out.append(" " * (len(gutter) - 2) + "| " + " " * (col - 1) + "^" * width)
    if diag.hint:
        out.append(f"hint: {diag.hint}")
    for rel_span, rel_msg in diag.related:
        out.append(f"{rel_span}: note: {rel_msg}")
    return "\n".join(out)


def render_all(diags, sources) -> str:
    return "\n".join(render(d, sources) for d in diags)


def did_you_mean(name: str, candidates) -> str:
    """A hint naming the closest known names, or an empty string."""
    import difflib          # only when a name is not found: a load does not pay its import
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=2, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in candidates}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    if not close:
        return ""
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
