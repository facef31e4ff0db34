"""`rulecraft check` (parse and check rule files) and `rulecraft list` (bundled games and their options)."""
from __future__ import annotations

import sys
from pathlib import Path

from ..check.modules import bundled_games, display_path, importers_of, is_module
from ..diagnostics import RulesError
from ..loader import load, load_file
from . import show


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
                    print(f"{ref}: ok (a module)")
                continue
            if path.is_file():
                load_file(path)
            elif ref in bundled_games():
                load(ref)
            else:
                print(f"rulecraft: error: there is no file '{ref}'", file=sys.stderr)
                failed += 1
                continue
        except RulesError as e:
            print(e.render(), file=sys.stderr)
            failed += 1
            continue
        print(f"{ref}: ok")
    if failed and len(args.files) > 1:
        print(f"{failed} of {len(args.files)} files have errors", file=sys.stderr)
    return 1 if failed else 0


def cmd_list(args) -> int:
    entries = [(name, path) for name, path in bundled_games().items()]
    for ref in args.paths:
        p = Path(ref)
        if p.is_dir():
            entries += [(str(f), f) for f in sorted(p.glob("*.rules"))]
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
        for line in show.game_card(name, program):
            print(line)
    return 1 if broken else 0
