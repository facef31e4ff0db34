"""Finding and merging rule files: `import` and `extends`.

A game is one entry file. Its `extends` names a base game whose declarations
come first; `import` brings a module's declarations into the same namespace,
laid over the base, so a module may `override` what the game it joins defines
(a module of extra rules, such as an expansion, shared by several variants).
The entry file's declarations are then laid over them: a declaration marked
`override` replaces the one of the same name (the replaced one stays reachable
as `original` inside the new body); any other repeated name is an error.

Files are only read from the import roots: the bundled stdlib and games, and
the folder of the entry file.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from ..diagnostics import Diagnostic, RulesError, did_you_mean
from ..syntax import ast
from ..syntax.parser import parse_module
from .places import MAX_RULES_BYTES, bundled_dir, read_rules, bundled_games, display_path, resolve_game, stdlib_modules  # noqa: F401 (re-exported)

SINGLETONS = (ast.GameDecl, ast.PlayersDecl, ast.TeamsDecl, ast.LimitDecl, ast.OutcomeDecl)


@attrs.define
class Loaded:
    """The merged declarations of a game and everything needed to report on them."""

    entry: Path
    decls: list
    sources: dict            # display path -> text
    originals: dict          # id(override decl) -> name of the replaced declaration
    digest: str              # sha256 of every file read, in order
    diagnostics: list
    files: list = attrs.Factory(list)   # (resolved path, display path, sha256 of its bytes) of each file read, in order


class _Loader:
    def __init__(self, entry: Path, overlays: dict | None = None):
        self.entry = entry.resolve()
        self.overlays = overlays or {}     # resolved path -> text not yet saved (an editor's buffer)
        self.roots = [bundled_dir("rulecraft.stdlib").resolve(), bundled_dir("rulecraft.games").resolve(), self.entry.parent]
        self.sources: dict[str, str] = {}
        self.files: list[tuple[str, str, str]] = []
        self.diags: list[Diagnostic] = []
        self.originals: dict[int, str] = {}
        self.hash = hashlib.sha256()
        self.stack: list[Path] = []
        self.imported: dict[Path, list] = {}
        self.counter = 0
        self.size = 0                      # bytes read so far, held to MAX_RULES_BYTES together

    def read(self, path: Path, span=None) -> ast.Module | None:
        shown = display_path(path)
        try:
            if path in self.overlays:
                data = self.overlays[path].encode("utf-8", "surrogatepass")
            else:
                data = read_rules(path, MAX_RULES_BYTES - self.size)
        except OSError as e:
            self.diags.append(Diagnostic(span or _file_span(shown), f"cannot read {shown}: {e.strerror or e}"))
            return None
        self.size += len(data)
        if self.size > MAX_RULES_BYTES:
            whole = "" if path == self.entry else ", with the files read before it,"
            self.diags.append(Diagnostic(span or _file_span(shown), f"{shown}{whole} is larger than "
                                         f"{MAX_RULES_BYTES // 1024} KB: too large to be rules"))
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            self.diags.append(Diagnostic(_file_span(shown), f"{shown} is not UTF-8 text (byte {e.start})",
                                         "save the rules as UTF-8"))
            return None
        self.hash.update(data + b"\0")
        self.sources[shown] = text
        if path not in self.overlays:
            self.files.append((str(path), shown, hashlib.sha256(data).hexdigest()))
        try:
            return parse_module(text, shown)
        except RulesError as e:
            self.diags.extend(e.diagnostics)
            return None

    def find(self, decl, here: Path, kind: str) -> Path | None:
        bundled = stdlib_modules() if kind == "import" else bundled_games()
        if decl.is_path and "/" not in decl.ref and not decl.ref.endswith(".rules") and decl.ref in bundled:
            return bundled[decl.ref].resolve()      # `extends "weird-sisters"`: a bundled name in quotes
        if decl.is_path:
            try:
                p = (here.parent / decl.ref).resolve()
                inside = any(_inside(p, r) for r in self.roots)
                found = inside and p.is_file()        # a regular file: not a folder, a pipe or a device
            except (OSError, ValueError):             # a name too long for the system, or with a NUL in it
                self.diags.append(Diagnostic(decl.span, f"'{decl.ref[:60]}…' is not a file name this system accepts"
                                             if len(decl.ref) > 60 else f"'{decl.ref}' is not a file name this system accepts"))
                return None
            if not inside:
                self.diags.append(Diagnostic(decl.span, f"'{decl.ref}' is outside the folders rules may read",
                                             "keep imported files beside the game, or use a bundled module"))
                return None
            if not decl.ref.endswith(".rules"):
                self.diags.append(Diagnostic(decl.span, f"'{decl.ref}' is not a .rules file",
                                             f"{kind} names rule files: write the path of one ending in .rules"))
                return None
            if not found:
                self.diags.append(Diagnostic(decl.span, f"there is no file '{decl.ref}'"))
                return None
            return p
        table = stdlib_modules() if kind == "import" else bundled_games()
        if decl.ref in table:
            return table[decl.ref].resolve()
        what = "stdlib module" if kind == "import" else "bundled game"
        self.diags.append(Diagnostic(decl.span, f"there is no {what} '{decl.ref}'",
                                     did_you_mean(decl.ref, table) or f"known: {', '.join(sorted(table)) or 'none'}"))
        return None

    def load(self, path: Path, span=None, raw: bool = False) -> list | None:
        path = path.resolve()
        if path in self.stack:
            self.diags.append(Diagnostic(span or _file_span(display_path(path)),
                                         f"{display_path(path)} extends or imports itself (a cycle)"))
            return None
        self.stack.append(path)
        try:
            module = self.read(path, span)
            if module is None:
                return None
            return self.merge(module, path, raw)
        finally:
            self.stack.pop()

    def merge(self, module: ast.Module, path: Path, raw: bool = False) -> list:
        """This file's declarations over its base (`extends`) and its imports.

        With `raw` (a module being imported), its own declarations are returned as they
        are, after those of its imports, for the importing file to lay over its base:
        so the module's `override`s reach what the importer defines."""
        base: list = []
        extends = [d for d in module.decls if isinstance(d, ast.ExtendsDecl)]
        for extra in extends[1:]:
            self.diags.append(Diagnostic(extra.span, "a game can extend only one other game"))
        if extends:
            target = self.find(extends[0], path, "extends")
            if target is not None:
                base = list(self.load(target, extends[0].span) or [])
        for imp in (d for d in module.decls if isinstance(d, ast.ImportDecl)):
            target = self.find(imp, path, "import")
            if target is None:
                continue
            if target in self.imported:
                continue
            decls = self.load(target, imp.span, raw=True)
            self.imported[target] = decls or []
            # laid over what came before, so a module's `override`s apply to the game importing it
            base = self.overlay(base, self.imported[target])
        mine = [d for d in module.decls if not isinstance(d, (ast.ExtendsDecl, ast.ImportDecl))]
        if raw and not extends:
            return base + mine
        return self.overlay(base, mine)

    def overlay(self, base: list, mine: list) -> list:
        result = list(base)
        index = {_key(d): i for i, d in enumerate(result) if _key(d) is not None}
        seen_here: dict = {}
        for d in mine:
            if isinstance(d, ast.DropDecl):
                key = ("scenario", d.name)
                if key not in index:
                    self.diags.append(Diagnostic(d.span, f"there is no scenario '{d.name}' to drop",
                                                 did_you_mean(d.name, [k[1] for k in index if k[0] == "scenario"])))
                    continue
                result.pop(index[key])
                index = {_key(x): i for i, x in enumerate(result) if _key(x) is not None}
                continue
            if isinstance(d, SINGLETONS):
                k = type(d)
                result = [x for x in result if not isinstance(x, k)]
                index = {_key(x): i for i, x in enumerate(result) if _key(x) is not None}
                if k in seen_here:
                    self.diags.append(Diagnostic(d.span, f"a second '{_KIND[k]}' declaration",
                                                 related=((seen_here[k].span, "the first one is here"),)))
                seen_here[k] = d
                result.append(d)
                continue
            key = _key(d)
            if key is None:          # `when` handlers have no name: a variant adds them
                result.append(d)
                continue
            name = d.name
            if key in seen_here:
                self.diags.append(Diagnostic(d.span, f"'{name}' is defined twice", "rename one of them",
                                             related=((seen_here[key].span, "the first definition is here"),)))
                continue
            seen_here[key] = d
            if getattr(d, "override", False):
                if key not in index:
                    known = [k[1] for k in index if isinstance(k[1], str)]
                    self.diags.append(Diagnostic(d.span, f"'{name}' overrides nothing: there is no {_describe(d)} '{name}' to replace",
                                                 did_you_mean(name, known) or "remove `override` to add a new definition"))
                    result.append(d)
                    index[key] = len(result) - 1
                    continue
                old = result[index[key]]
                if isinstance(old, (ast.DefDecl, ast.RuleDecl)):
                    self.counter += 1
                    renamed = attrs.evolve(old, name=f"{old.name}@original{self.counter}")
                    self.originals[id(d)] = renamed.name
                    result.append(renamed)
                result[index[key]] = d
            else:
                if key in index:
                    old = result[index[key]]
                    self.diags.append(Diagnostic(d.span, f"'{name}' is already defined",
                                                 f"write `{_override_form(d)}` to replace it"
                                                 if type(old) is type(d) else "choose another name",
                                                 related=((old.span, "it is defined here"),)))
                    continue
                result.append(d)
                index[key] = len(result) - 1
        return result


_KIND = {ast.GameDecl: "game", ast.PlayersDecl: "players", ast.TeamsDecl: "teams", ast.LimitDecl: "limit",
         ast.OutcomeDecl: "outcome"}


def _describe(d) -> str:
    if isinstance(d, ast.DefDecl) and d.const:
        return "const"
    return {ast.OptionDecl: "option", ast.EnumDecl: "enum", ast.CardDecl: "card", ast.CardsDecl: "cards",
            ast.ZoneDecl: "zone", ast.VarDecl: "var", ast.DefDecl: "def", ast.RuleDecl: "rule",
            ast.ScoreDecl: "score", ast.InvariantDecl: "invariant", ast.EventDecl: "event",
            ast.ScenarioDecl: "scenario", ast.AnytimeDecl: "anytime", ast.SheetDecl: "sheet"}.get(type(d), "declaration")


def _override_form(d) -> str:
    """How the author writes the override of `d`: `override sheet p:` has no name after `sheet`."""
    if isinstance(d, ast.SheetDecl):
        return "override sheet:" if d.player is None else f"override sheet {d.player}:"
    return f"override {_describe(d)} {d.name}"


def _key(d):
    if isinstance(d, ast.ScoreDecl):
        return ("score", d.kind)
    if isinstance(d, ast.ScenarioDecl):
        return ("scenario", d.name)
    if isinstance(d, ast.SheetDecl):
        return ("sheet", d.player is None)
    if isinstance(d, ast.NAMED_DECLS):
        return ("name", d.name)
    return None


def _inside(p: Path, root: Path) -> bool:
    try:
        p.relative_to(root)
        return True
    except ValueError:
        return False


def _file_span(shown: str):
    from ..diagnostics import Span
    return Span(shown, 1, 1)


def load_declarations(entry: Path, overlays: dict | None = None) -> Loaded:
    """`overlays` maps resolved paths to texts read instead of the files (the language server's open buffers)."""
    loader = _Loader(entry, overlays)
    decls = loader.load(entry) or []
    return Loaded(entry=loader.entry, decls=decls, sources=loader.sources, originals=loader.originals,
                  digest=loader.hash.hexdigest(), diagnostics=loader.diags,
                  files=loader.files if not overlays else [])


def _parsed_or_none(path: Path) -> ast.Module | None:
    """The file at `path` parsed, or None when it is no regular file, is too large, or does not parse."""
    try:
        data = read_rules(path)
        if len(data) > MAX_RULES_BYTES:
            return None
        return parse_module(data.decode("utf-8"), display_path(path))
    except (OSError, UnicodeDecodeError, RulesError):
        return None


def is_module(path: Path) -> bool:
    """A file that is not a game by itself: no `game`, no `players`, no `rule play` (e.g. stdlib/cards).

    A file that `extends` a game is a variant of it, a game, even with no line of its own."""
    module = _parsed_or_none(path)
    if module is None:
        return False
    return not any(isinstance(d, (ast.GameDecl, ast.PlayersDecl, ast.ExtendsDecl)) or (isinstance(d, ast.RuleDecl) and d.name == "play")
                   for d in module.decls)


def importers_of(path: Path) -> list[Path]:
    """Games near a module (its folder and the one above, and the bundled games) that import it."""
    target = path.resolve()
    found = []
    folders = {target.parent, target.parent.parent}
    candidates = {p.resolve() for folder in folders for p in folder.glob("*.rules")} | \
        {p.resolve() for p in bundled_games().values()}
    for game in sorted(candidates):
        if game == target:
            continue
        module = _parsed_or_none(game)
        if module is None:
            continue
        for d in module.decls:
            if isinstance(d, ast.ImportDecl):
                ref = (game.parent / d.ref).resolve() if d.is_path else stdlib_modules().get(d.ref)
                if ref is not None and Path(ref).resolve() == target:
                    found.append(game)
                    break
    return found
