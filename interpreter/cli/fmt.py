"""`rulecraft fmt`: rewrite rule files in the canonical layout (or, with --check/--diff, only tell)."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

from ..diagnostics import RulesError, UserError
from ..format import format_text


def add_arguments(fmt) -> None:
    fmt.description = (
        "Rewrite each FILE (or every .rules file under a folder) in rulecraft's canonical layout: four "
        "spaces per block, one space between words, comments kept where they are, and the spellings of "
        "the language's style (`else if`, an option's help after its name). The formatter checks that "
        "the file still means the same. With --check or --diff "
        "nothing is written. Exit status 0 when every file is (or now is) formatted; with --check or "
        "--diff, 1 when some file would change; 1 when a file does not parse.")
    fmt.add_argument("files", metavar="FILE", nargs="+", help="a .rules file or a folder of them ('-': standard input)")
    fmt.add_argument("--check", action="store_true", help="only list the files that are not formatted")
    fmt.add_argument("--diff", action="store_true", help="only print how each file would change (a unified diff)")


def cmd_fmt(args) -> int:
    paths = _expand(args.files)
    changed = failed = 0
    for path in paths:
        name = "<stdin>" if path == "-" else str(path)
        try:
            text = sys.stdin.read() if path == "-" else _read(path)
            result = format_text(text, name)
        except RulesError as e:
            print(e.render(), file=sys.stderr)
            failed += 1
            continue
        if path == "-" and not (args.check or args.diff):
            # piped to an editor: the text itself; at a terminal: through the CLI's sanitizer
            out = sys.stdout if sys.__stdout__ is None or sys.__stdout__.isatty() else sys.__stdout__
            out.write(result)
            continue
        if result == text:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), result.splitlines(True),
                                                       f"{name}", f"{name} (formatted)"))
        elif args.check:
            print(f"{name}: not formatted")
        else:
            Path(path).write_text(result, encoding="utf-8")
            print(f"{name}: formatted")
    if failed:
        return 1
    return 1 if changed and (args.check or args.diff) else 0


def _read(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text") from None
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror or e}") from None


def _expand(refs: list[str]) -> list:
    out: list = []
    for ref in refs:
        if ref == "-":
            out.append("-")
            continue
        path = Path(ref)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.rules")))
        elif path.exists():
            out.append(path)
        else:
            raise UserError(f"there is no file or folder named '{ref}'")
    return out
