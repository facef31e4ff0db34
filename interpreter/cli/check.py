"""`rulecraft check`: parse and check rule files, printing every error."""
from __future__ import annotations

import sys
from pathlib import Path

from ..check.modules import display_path, importers_of, is_module
from ..diagnostics import RulesError, UnknownGame
from ..loader import game_path, load_file
from .terminal import echo

ERROR, HINT, OK = "bold red", "cyan", "green"


def show_diagnostics(text: str) -> None:
    """Rule-file diagnostics on standard error, their `error:` and `hint:` lines styled at a terminal."""
    for line in text.splitlines():
        style = ERROR if ": error: " in line or ": warning: " in line else HINT if line.startswith("hint: ") else None
        echo(line, style, stderr=True)


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
            load_file(game_path(ref))
        except UnknownGame as e:
            echo(f"rulecraft: error: {e}", ERROR, stderr=True)
            failed += 1
            continue
        except RulesError as e:
            show_diagnostics(e.render())
            failed += 1
            continue
        echo(f"{ref}: ok", OK)
    if failed and len(args.files) > 1:
        print(f"{failed} of {len(args.files)} files have errors", file=sys.stderr)
    return 1 if failed else 0

