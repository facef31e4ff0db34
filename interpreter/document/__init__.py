"""`rulecraft doc GAME`: a game's rules as a document to read or share (Markdown or HTML).

Everything comes from the rule file, merged with its base game and imports as the
game is played: title and players, options with their descriptions, components
(cards, zones and who sees them, variables), the rules in order with the comments
written above them and under the file's own section dividers, scoring, what always
holds, the notes the file starts with (a game's completions), and its scenarios as
worked examples. The document is a list of blocks; render.py writes them as
Markdown or HTML.
"""
from __future__ import annotations

from pathlib import Path

from ..check.modules import display_path, load_declarations, stdlib_modules
from ..diagnostics import RulesError
from ..syntax import ast
from .source import header_comment, leading_comment, source_of

SEEN = {"all": "everyone", "owner": "its owner", "nobody": "nobody", "team": "its owner's team",
        "others": "everyone but its owner"}
RULE_LIKE = (ast.RuleDecl, ast.DefDecl, ast.EventDecl, ast.WhenDecl, ast.AnytimeDecl, ast.SheetDecl)
HEADINGS = {ast.RuleDecl: "rule", ast.DefDecl: "def", ast.EventDecl: "event", ast.WhenDecl: "when",
            ast.AnytimeDecl: "anytime", ast.SheetDecl: "sheet"}


def document(path: Path) -> list[tuple]:
    """The blocks of a game's document: ("h", level, text), ("p", text), ("pre", text), ("code", text),
    ("table", headers, rows). RulesError when the game does not load."""
    loaded = load_declarations(path)
    if any(d.severity == "error" for d in loaded.diagnostics):
        raise RulesError(loaded.diagnostics, loaded.sources)
    from ..loader import load_file
    load_file(path)                              # a document of a game that does not check would mislead
    sources = loaded.sources
    # the game's own declarations and its base game's; the bundled modules it imports are named, not copied
    stdlib = {display_path(p) for p in stdlib_modules().values()}
    decls = [d for d in loaded.decls if "@original" not in str(getattr(d, "name", ""))
             and d.span.file not in stdlib]
    entry_text = sources.get(display_path(path), "")
    blocks: list[tuple] = []
    title = next((d.title for d in decls if isinstance(d, ast.GameDecl)), path.stem)
    blocks.append(("h", 1, title))
    blocks.append(("p", _table_line(decls, entry_text)))
    notes = header_comment(entry_text)
    if notes:
        blocks += [("h", 2, "Notes from the rule file"), ("pre", notes)]
    blocks += _options(decls, sources)
    blocks += _components(decls, sources)
    blocks += _rules(decls, sources)
    blocks += _scoring(decls, sources)
    blocks += _scenarios(decls, sources)
    return blocks


def _table_line(decls, entry_text: str) -> str:
    players = next((d for d in decls if isinstance(d, ast.PlayersDecl)), None)
    parts = []
    if players is not None:
        parts.append(f"Players: {players.lo}" if players.lo == players.hi else f"Players: {players.lo}–{players.hi}")
    teams = next((d for d in decls if isinstance(d, ast.TeamsDecl)), None)
    if teams is not None:
        parts.append("teams: " + ", ".join(teams.names))
    try:
        from ..syntax.parser import parse_module
        own = parse_module(entry_text, "entry.rules").decls
    except RulesError:
        own = ()
    base = next((d for d in own if isinstance(d, ast.ExtendsDecl)), None)
    if base is not None:
        parts.append(f"a variant of {base.ref}")
    imports = [d.ref for d in own if isinstance(d, ast.ImportDecl)]
    if imports:
        parts.append("uses " + ", ".join(imports))
    return ". ".join(p[0].upper() + p[1:] for p in parts) + "." if parts else ""


def _domain(d: ast.OptionDecl) -> str:
    dom = d.domain
    if isinstance(dom, ast.ChoiceDomain):
        return " or ".join(dom.values)
    if isinstance(dom, ast.RangeDomain):
        return f"{dom.lo} to {dom.hi}"
    return "yes or no"


def _options(decls, sources) -> list:
    options = [d for d in decls if isinstance(d, ast.OptionDecl)]
    if not options:
        return []
    rows = [[d.name, _domain(d), _default(d, sources), d.doc] for d in options]
    return [("h", 2, "Options"), ("p", "Set with `--set NAME=VALUE`."),
            ("table", ["option", "values", "default", "what it sets"], rows)]


def _default(d: ast.OptionDecl, sources) -> str:
    s = d.default.span
    lines = sources.get(s.file, "").splitlines()
    if s.line == s.end_line and 0 < s.line <= len(lines):
        return lines[s.line - 1][s.col - 1:s.end_col - 1]
    return " ".join(source_of(s, sources).split())


def _components(decls, sources) -> list:
    out: list = [("h", 2, "Components")]
    enums = [d for d in decls if isinstance(d, ast.EnumDecl)]
    if enums:
        out.append(("table", ["kind", "values"], [[d.name, ", ".join(d.values)] for d in enums]))
    cards = [d for d in decls if isinstance(d, ast.CardDecl)]
    decks = [d for d in decls if isinstance(d, ast.CardsDecl)]
    if cards or decks:
        out.append(("h", 3, "Cards"))
        out.append(("code", "\n".join(source_of(d.span, sources) for d in cards + decks)))
    zones = [d for d in decls if isinstance(d, ast.ZoneDecl)]
    if zones:
        out.append(("h", 3, "Zones"))
        out.append(("table", ["zone", "holds", "one per", "seen by", "note"],
                    [[d.name, ast.type_text(d.type), d.owner or "the table", SEEN.get(d.seen, d.seen),
                      leading_comment(d.span, sources)[0].replace("\n", " ")] for d in zones]))
    variables = [d for d in decls if isinstance(d, ast.VarDecl)]
    if variables:
        out.append(("h", 3, "What is recorded"))
        out.append(("table", ["variable", "type", "one per", "seen by", "note"],
                    [[d.name, ast.type_text(d.type) + (f" by {ast.type_text(d.index)}" if d.index is not None else ""),
                      d.owner or "the table", SEEN.get(d.seen or "all", d.seen or "everyone"),
                      leading_comment(d.span, sources)[0].replace("\n", " ")] for d in variables]))
    return out if len(out) > 1 else []


def _rules(decls, sources) -> list:
    out: list = [("h", 2, "Rules")]
    for d in decls:
        if not isinstance(d, RULE_LIKE):
            continue
        comment, section = leading_comment(d.span, sources, trailing=False)
        if section:
            out.append(("h", 3, section))
        name = getattr(d, "name", None) or getattr(d, "event", None) or getattr(d, "player", None) or ""
        out.append(("h", 4, f"{HEADINGS[type(d)]} {name}".strip()))
        if comment:
            out.append(("p", comment))
        out.append(("code", source_of(d.span, sources)))
    return out if len(out) > 1 else []


def _scoring(decls, sources) -> list:
    out: list = []
    scores = [d for d in decls if isinstance(d, (ast.ScoreDecl, ast.OutcomeDecl))]     # `outcome`: how results relate
    if scores:
        out.append(("h", 2, "Scoring"))
        for d in scores:
            comment, _section = leading_comment(d.span, sources, trailing=False)
            if comment:
                out.append(("p", comment))
            out.append(("code", source_of(d.span, sources)))
    checks = [d for d in decls if isinstance(d, (ast.InvariantDecl, ast.LimitDecl))]
    if checks:
        out.append(("h", 2, "What always holds"))
        rows = []
        for d in checks:
            comment = leading_comment(d.span, sources, trailing=False)[0].replace("\n", " ")
            rows.append([getattr(d, "name", "limit"), source_of(d.span, sources).replace("\n", " "), comment])
        out.append(("table", ["name", "rule file", "why"], rows))
    return out


def _scenarios(decls, sources) -> list:
    scenarios = [d for d in decls if isinstance(d, ast.ScenarioDecl)]
    if not scenarios:
        return []
    out: list = [("h", 2, "Worked examples"),
                 ("p", "Each example sets up a position, takes decisions by their labels and states what must "
                       "follow; `rulecraft test` runs them all.")]
    for d in scenarios:
        out.append(("h", 3, d.doc or d.name.replace("_", " ")))
        comment = leading_comment(d.span, sources, trailing=False)[0]
        if comment:
            out.append(("p", comment))
        out.append(("code", source_of(d.span, sources)))
    return out
