"""What the language server knows of one open rule file, without any protocol.

`analyse(path, text)` parses and checks the text (open buffers stand in for the
files on disk, so an unsaved base game or module is read as the editor has it) and
keeps the merged declarations of the game — its own, its base game's (`extends`)
and its imports' — with their positions. Hover, definition, completion and
symbols are answered from those, and from the bindings (`let`, parameters, loop
and choice variables) of the declaration the cursor is in.
"""
from __future__ import annotations

import re
from pathlib import Path

import attrs

from ..builtins import REGISTRY
from ..check.checker import check
from ..check.modules import bundled_dir, display_path, load_declarations
from ..diagnostics import Diagnostic, RulesError, Span
from ..document.source import first_line, leading_comment
from ..highlight import words
from ..syntax import ast
from ..syntax.parser import parse_module

WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")

KIND_OF = {ast.OptionDecl: "option", ast.EnumDecl: "enum", ast.CardDecl: "card", ast.CardsDecl: "cards",
           ast.ZoneDecl: "zone", ast.VarDecl: "var", ast.DefDecl: "def", ast.RuleDecl: "rule",
           ast.ScoreDecl: "score", ast.InvariantDecl: "invariant", ast.EventDecl: "event",
           ast.ScenarioDecl: "scenario", ast.AnytimeDecl: "anytime"}


@attrs.define
class Definition:
    name: str
    kind: str              # "rule", "def", "zone", "enum value", "field", "let", "parameter", …
    span: Span
    detail: str = ""        # the declaration's first line, as written
    doc: str = ""           # the comment lines just above it
    owner: str = ""         # for a field: its card; for an enum value: its enum
    type: str = ""          # its type as the checker worked it out (a def's result), when known


@attrs.define
class Analysis:
    path: Path
    text: str
    module: ast.Module | None          # this file's own syntax tree (None when it does not parse)
    diagnostics: list                  # rulecraft Diagnostics of this file
    definitions: dict                  # name -> Definition, over the whole game (base and imports too)
    sources: dict                      # display path -> text, of every file read


def analyse(path: Path, text: str, overlays: dict | None = None) -> Analysis:
    path = path.resolve()
    shown = display_path(path)
    buffers = dict(overlays or {})
    buffers[path] = text
    try:
        module = parse_module(text, shown)
    except RulesError as e:
        return Analysis(path, text, None, list(e.diagnostics), _previous_definitions(path), {shown: text})
    loaded = load_declarations(path, buffers)
    diags = list(loaded.diagnostics)
    checkers: list = []
    if not any(d.severity == "error" for d in diags):
        try:
            check(loaded.decls, loaded.originals, diags, Span(shown, 1, 1), _is_module(module), inspect=checkers)
        except RecursionError:
            diags.append(Diagnostic(Span(shown, 1, 1), "these rules are too deeply nested to check"))
    definitions = _definitions(loaded.decls, loaded.sources)
    if checkers:
        _add_types(definitions, checkers[0])
    _LAST[path] = definitions
    mine = [d for d in diags if d.span.file == shown]
    return Analysis(path, text, module, mine, definitions, loaded.sources)


_LAST: dict = {}    # the definitions of a file's last readable version, for a buffer being typed into


def _previous_definitions(path: Path) -> dict:
    return _LAST.get(path, {})


def _add_types(definitions: dict, checker) -> None:
    """Each global name's type from the checker's tables: a def's result even when the file leaves it out."""
    for name, d in definitions.items():
        if d.kind not in ("def", "zone", "var", "option", "enum value", "cards"):
            continue
        sym = checker.defs.get(name) if d.kind == "def" else checker.globals.get(name)
        typ = getattr(sym, "ret", None) if d.kind == "def" else getattr(sym, "type", None)
        if typ is not None:
            try:
                d.type = str(typ)
            except Exception:          # a type that cannot name itself is left out of the hover
                continue


def _is_module(module: ast.Module) -> bool:
    return not any(isinstance(d, (ast.GameDecl, ast.PlayersDecl)) or (isinstance(d, ast.RuleDecl) and d.name == "play")
                   for d in module.decls)


def _definitions(decls, sources: dict) -> dict:
    out: dict = {}
    for d in decls:
        kind = KIND_OF.get(type(d))
        if kind is None or "@original" in getattr(d, "name", ""):
            continue
        name = d.name
        out[name] = Definition(name, kind, d.span, first_line(d.span, sources), leading_comment(d.span, sources)[0])
        if isinstance(d, ast.EnumDecl):
            for value in d.values:
                out.setdefault(value, Definition(value, "enum value", d.span, first_line(d.span, sources),
                                                 f"a value of the enum {d.name}", d.name))
        if isinstance(d, ast.CardDecl):
            for f in d.fields:
                out.setdefault(f"{d.name}.{f.name}", Definition(f.name, "field", f.span, first_line(f.span, sources),
                                                               f"a field of the card {d.name}", d.name))
    return out


# ------------------------------------------------------------------ positions
def word_at(text: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The name under a 0-based position, with its 0-based start and end columns."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    for m in WORD.finditer(lines[line]):
        if m.start() <= col <= m.end():
            return m.group(), m.start(), m.end()
    return None


def receiver_before(text: str, line: int, col: int) -> str | None:
    """`p` when the cursor is in `p.hand` or right after `p.`: the name whose attribute is being written."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    before = lines[line][:col]
    m = re.search(r"([A-Za-z_][A-Za-z_0-9]*)(?:\([^()]*\))?\s*\.\s*[A-Za-z_0-9]*$", before)
    return m.group(1) if m else None


def _contains(span: Span, line: int, col: int) -> bool:
    """Whether a 1-based position lies in a span."""
    end_line = span.end_line or span.line
    if not span.line <= line <= end_line:
        return False
    if line == span.line and col < span.col:
        return False
    return not (line == end_line and span.end_col and col > span.end_col)


def enclosing_decl(module: ast.Module | None, line: int, col: int):
    if module is None:
        return None
    for d in module.decls:
        if _contains(d.span, line + 1, col + 1):
            return d
    return None


def local_bindings(decl, line: int) -> list[Definition]:
    """The names a declaration binds before a 0-based line: parameters, `let`, loop and choice variables."""
    out: list[Definition] = []
    for node in _walk(decl):
        span = getattr(node, "span", None)
        if span is None or span.line > line + 1:
            continue
        if isinstance(node, ast.Param):
            out.append(Definition(node.name, "parameter", span, detail=f"{node.name}: {ast.type_text(node.type)}"))
        elif isinstance(node, ast.Let):
            out.append(Definition(node.name, "let", span, detail=f"let {node.name}"))
        elif isinstance(node, (ast.For, ast.Choose, ast.CompFor, ast.BestBy, ast.Alternative)):
            choice = isinstance(node, (ast.Choose, ast.Alternative))
            out.append(Definition(node.var, "choice" if choice else "loop variable", span, detail=node.var))
            if choice and node.var2 is not None:          # the second name of a pair
                out.append(Definition(node.var2, "choice", span, detail=node.var2))
    if isinstance(decl, ast.WhenDecl):
        out.extend(Definition(n, "parameter", decl.span, detail=n) for n in decl.params)
    if isinstance(decl, ast.AnytimeDecl):
        out.append(Definition(decl.player, "parameter", decl.span, detail=f"{decl.player}: Player"))
    if isinstance(decl, ast.ScoreDecl):
        out.append(Definition(decl.var, "parameter", decl.span, detail=f"{decl.var}: Player"))
    return out


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if attrs.has(type(n)):
            yield n
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)))
        elif isinstance(n, (tuple, list)):
            stack.extend(n)


# ------------------------------------------------------------------ answers
def lookup(a: Analysis, line: int, col: int) -> Definition | None:
    """What the name under a 0-based position stands for."""
    found = word_at(a.text, line, col)
    if found is None:
        return None
    name, start, _end = found
    receiver = receiver_before(a.text, line, start)
    if receiver is not None:
        fields = [d for k, d in a.definitions.items() if d.kind == "field" and d.name == name]
        if fields:
            return fields[0]
        own = a.definitions.get(name)
        return own if own is not None and own.kind in ("zone", "var") else None
    decl = enclosing_decl(a.module, line, col)
    if decl is not None:
        for binding in reversed(local_bindings(decl, line)):
            if binding.name == name:
                return binding
    if name in a.definitions:
        return a.definitions[name]
    if name in REGISTRY:
        return Definition(name, "built-in function", Span("", 0, 0), detail=f"{name}(…)", doc=REGISTRY[name].doc)
    return None


def hover_text(d: Definition) -> str:
    head = f"({d.kind}) {d.name}" + (f": {d.type}" if d.type else "") + (f" of {d.owner}" if d.owner and d.kind == "field" else "")
    parts = [head]
    if d.detail:
        parts.append(f"```rulecraft\n{d.detail}\n```")
    if d.doc:
        parts.append(d.doc)
    return "\n\n".join(parts)


def completions(a: Analysis, line: int, col: int) -> list[Definition]:
    """Names that may stand at a 0-based position: attributes after a `.`, else everything in scope."""
    lines = a.text.split("\n")
    before = lines[line][:col] if 0 <= line < len(lines) else ""
    if re.search(r"\.\s*[A-Za-z_0-9]*$", before):
        return _attributes(a, _receiver_type(a, line, col))
    out: dict = {}
    decl = enclosing_decl(a.module, line, col)
    if decl is not None:
        for b in local_bindings(decl, line):
            out[b.name] = b
    for d in a.definitions.values():
        if d.kind != "field":
            out.setdefault(d.name, d)
    for name, b in REGISTRY.items():
        out.setdefault(name, Definition(name, "built-in function", Span("", 0, 0), detail=f"{name}(…)", doc=b.doc))
    for w in words.keywords():
        out.setdefault(w, Definition(w, "keyword", Span("", 0, 0)))
    return list(out.values())


def _receiver_type(a: Analysis, line: int, col: int) -> str | None:
    """The declared type of the name before the `.` at a position, when it says (`c: Witch`, `var first: Player`)."""
    receiver = receiver_before(a.text, line, col)
    if receiver is None:
        return None
    if receiver == "player":                      # `player(1).hand`
        return "Player"
    decl = enclosing_decl(a.module, line, col)
    if decl is not None:
        for b in reversed(local_bindings(decl, line)):
            if b.name == receiver:
                m = re.fullmatch(r"\w+: (\w+)", b.detail)
                return m.group(1) if m else None
    d = a.definitions.get(receiver)
    return d.type if d is not None and d.kind in ("var", "def") and d.type else None


def _attributes(a: Analysis, typ: str | None) -> list[Definition]:
    """What may follow a `.`: a card's fields, a player's own zones and variables, or (type unknown) all of them."""
    cards = {d.owner for d in a.definitions.values() if d.kind == "field"}
    is_card, is_player = typ in cards, typ == "Player"
    unknown = not is_card and not is_player
    seen: dict = {}
    for d in a.definitions.values():
        if d.kind == "field" and (unknown or d.owner == typ):
            seen.setdefault(d.name, d)
        elif d.kind in ("zone", "var") and re.search(r"\bper\b", d.detail) and (unknown or is_player):
            seen.setdefault(d.name, d)
    if unknown or is_card:
        seen.setdefault("owner", Definition("owner", "field", Span("", 0, 0), doc="the player a card belongs to"))
    return sorted(seen.values(), key=lambda d: d.name)


def path_of(shown: str) -> Path | None:
    """The file a display path (as in a Span) stands for."""
    candidates = [Path.cwd() / shown, Path(shown)]
    for package, label in (("rulecraft.games", "games"), ("rulecraft.stdlib", "stdlib")):
        if shown.startswith(label + "/"):
            candidates.append(bundled_dir(package) / shown[len(label) + 1:])
    for c in candidates:
        if c.is_file():
            return c.resolve()
    return None


def symbols(module: ast.Module | None) -> list[tuple[str, str, Span, list]]:
    """(name, kind, span, children) for each declaration of the file, in order."""
    out = []
    for d in module.decls if module is not None else ():
        kind = KIND_OF.get(type(d))
        if kind is None:
            continue
        name = d.name
        children = []
        if isinstance(d, ast.EnumDecl):
            children = [(v, "enum value", d.span, []) for v in d.values]
        elif isinstance(d, ast.CardDecl):
            children = [(f.name, "field", f.span, []) for f in d.fields]
        out.append((name, kind, d.span, children))
    return out
