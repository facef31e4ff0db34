"""Where rule files are: the bundled games and stdlib, a game named by the user, a path shown short.

Apart from modules.py (which reads and merges the files) so that a load answered from the
check cache (checkcache.py) finds its files without importing the parser and Lark.
"""
from __future__ import annotations

import importlib
from pathlib import Path

from ..regularfile import read_regular

MAX_RULES_BYTES = 512 * 1024  # the files of one game (the game, its base, its imports) together; past it, refused
                              # (docs/security.md: 512 KB of `var` lines check in about 4 s; games/ are under 64 KB)


def bundled_dir(package: str) -> Path:
    """The folder of a bundled package of rule files (rulecraft.games, rulecraft.stdlib, rulecraft.grammar).

    Its `__path__`, not importlib.resources, whose import costs a load about 10 ms (tempfile, random, typing)."""
    return Path(importlib.import_module(package).__path__[0])


def bundled_games() -> dict[str, Path]:
    return {p.stem: p for p in sorted(bundled_dir("rulecraft.games").glob("*.rules"))}


def stdlib_modules() -> dict[str, Path]:
    return {p.stem: p for p in sorted(bundled_dir("rulecraft.stdlib").glob("*.rules"))}


def display_path(path: Path) -> str:
    """A short path for messages: a bundled file as `games/…` or `stdlib/…` (not the folder it is installed
    in, which may lie under the current one: `.venv/lib/python3.11/site-packages/…`), any other relative
    to the current folder when it can be."""
    for package, label in (("rulecraft.games", "games"), ("rulecraft.stdlib", "stdlib")):
        try:
            return f"{label}/" + path.resolve().relative_to(bundled_dir(package).resolve()).as_posix()
        except ValueError:
            continue
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def resolve_game(ref: str) -> Path:
    """A bundled game name (`blackmore`) or a path to a .rules file."""
    games = bundled_games()
    if ref in games:
        return games[ref]
    p = Path(ref)
    if p.is_file():
        return p
    raise FileNotFoundError(ref)


def read_rules(path, limit: int = MAX_RULES_BYTES) -> bytes:
    """At most `limit` + 1 bytes of the regular file `path`: a pipe or a device put in the file's place is
    an OSError, never a wait (regularfile.py)."""
    return read_regular(path, limit)
