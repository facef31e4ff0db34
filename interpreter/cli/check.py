"""`rulecraft check`: parse and check rule files, printing every error."""
from __future__ import annotations

import sys
from pathlib import Path

from ..check.modules import display_path, importers_of, is_module
from ..diagnostics import RulesError, UnknownGame, render_all
from ..loader import game_path, load_file
from .terminal import echo

ERROR, HINT, OK = "bold red", "cyan", "green"


def add_arguments(check) -> None:
    check.description = (
        "Parse and check each FILE, printing every error with its file:line:col. "
        "Exit status 0 when all are clean, 1 otherwise.")
    check.add_argument("files", metavar="FILE", nargs="+", help="a .rules file (or a bundled game name)")


def show_diagnostics(text: str) -> None:
    """Rule-file diagnostics on standard error, their `error:` and `hint:` lines styled at a terminal."""
    for line in text.splitlines():
        style = ERROR if ": error: " in line or ": warning: " in line else HINT if line.startswith("hint: ") else None
        echo(line, style, stderr=True)


def show_warnings(program) -> None:
    """The warnings of rules that load (a declaration hiding a built-in…), rendered like errors."""
    if program.warnings:
        show_diagnostics(render_all(program.warnings, program.sources))


def _count(n: int) -> str:
    return "1 warning" if n == 1 else f"{n} warnings"


def cmd_check(args) -> int:
    failed = 0
    for ref in args.files:
        path = Path(ref)
        try:
            if path.is_file() and is_module(path):
                games = importers_of(path)
                for game in games:
                    load_file(game)
                if games:
                    print(f"{ref}: ok (a module, checked through {', '.join(display_path(g) for g in games)})")
                else:
                    load_file(path, module=True)
                    print(f"{ref}: ok (a module: declarations for games to `import`; it has no `game`, "
                          "`players` or `rule play` of its own, and no game near it imports it)")
                continue
            program = load_file(game_path(ref))
        except UnknownGame as e:
            echo(f"rulecraft: error: {e}", ERROR, stderr=True)
            failed += 1
            continue
        except RulesError as e:
            show_diagnostics(e.render())
            failed += 1
            continue
        show_warnings(program)
        echo(f"{ref}: ok" + (f" ({_count(len(program.warnings))})" if program.warnings else ""), OK)
    if failed and len(args.files) > 1:
        print(f"{failed} of {len(args.files)} files have errors", file=sys.stderr)
    return 1 if failed else 0

