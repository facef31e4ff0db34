"""One call from a file to a runnable game: parse, check, compile (cel-go style).

`load(ref)` returns a Program or raises RulesError carrying every diagnostic.
"""
from __future__ import annotations

from pathlib import Path

from .check.checker import check
from .check.modules import display_path, load_declarations, resolve_game
from .compile.compiler import Compiler
from .diagnostics import Diagnostic, RulesError, Span


def load_file(path: str | Path, module: bool = False):
    """Parse, check and compile; `module` checks a file meant to be imported (it needs no players or play)."""
    path = Path(path)
    loaded = load_declarations(path)
    diags = list(loaded.diagnostics)
    if any(d.severity == "error" for d in diags):
        # syntax errors stop here: names in a half-read file would only add noise
        raise RulesError(diags, loaded.sources)
    try:
        checked = check(loaded.decls, loaded.originals, diags, Span(display_path(path), 1, 1), module)
        if checked is None or module:
            if checked is None:
                raise RulesError(diags, loaded.sources)
            return None      # a module is checked, not compiled: it runs as part of a game
        compiler = Compiler(checked, diags, loaded.digest)
        program = compiler.compile()
        compiler.ns.cache.save()
    except (RecursionError, SyntaxError, MemoryError) as e:
        # a last guard: rules so large or deep that Python cannot compile what we generate
        diags.append(Diagnostic(Span(display_path(path), 1, 1),
                                f"these rules are too large or too deeply nested to compile ({type(e).__name__})",
                                "split long expressions with `let` steps or `def`s"))
        raise RulesError(diags, loaded.sources) from None
    if any(d.severity == "error" for d in diags):
        raise RulesError(diags, loaded.sources)
    program.entry = display_path(path)
    program.digest = loaded.digest
    program.sources = loaded.sources
    return program


def game_path(ref: str) -> Path:
    """The file a game reference names: a bundled game's name (`blackmore`) or a path to a .rules file.

    The one place a reference is resolved, for `load` and for every command; raises UnknownGame."""
    from .check.modules import bundled_games
    from .diagnostics import UnknownGame, did_you_mean
    try:
        return resolve_game(ref)
    except FileNotFoundError:
        games = bundled_games()
        raise UnknownGame(ref, did_you_mean(ref, games) or f"bundled games: {', '.join(games) or 'none'}") from None


def load(ref: str):
    """A bundled game name or a path, loaded; a missing game too is a RulesError here, for callers that catch only that."""
    from .diagnostics import UnknownGame
    try:
        path = game_path(ref)
    except UnknownGame as e:
        raise RulesError([Diagnostic(Span(ref, 0, 0), f"no game or file named '{ref}'", e.hint)]) from None
    return load_file(path)
