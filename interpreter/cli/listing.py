"""`rulecraft list`: bundled games (and any given files or folders) with their player counts and options.

Named listing.py, not list.py, so that importing it never shadows the builtin `list`.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..check.modules import bundled_games
from ..diagnostics import RulesError
from ..loader import load_file
from . import plaintext


def add_arguments(lst) -> None:
    lst.description = (
        "List the games bundled with rulecraft: title, player counts and options (allowed values, default). "
        "Variants outside the package (e.g. examples/ in a checkout) are listed when their files or "
        "folders are given as PATH.")
    lst.add_argument("paths", metavar="PATH", nargs="*", help="more .rules files or folders of them to list")


def cmd_list(args) -> int:
    entries = [(name, path) for name, path in bundled_games().items()]
    for ref in args.paths:
        p = Path(ref)
        if p.is_dir():
            entries += [(str(f), f) for f in sorted(p.glob("*.rules")) if f.is_file()]   # not a pipe or a folder
        elif p.is_file():
            entries.append((ref, p))
        else:
            print(f"rulecraft: error: there is no file or folder '{ref}'", file=sys.stderr)
            return 1
    broken = 0
    for i, (name, path) in enumerate(entries):
        if i:
            print()
        try:
            program = load_file(path)
        except RulesError as e:
            first = e.diagnostics[0] if e.diagnostics else None
            why = f"{first.span}: {first.message}" if first else "cannot be loaded"
            print(f"{name}: has errors ({why}); run 'rulecraft check {path}'")
            broken += 1
            continue
        for line in plaintext.game_card(name, program):
            print(line)
    return 1 if broken else 0
