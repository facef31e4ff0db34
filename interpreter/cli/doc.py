"""`rulecraft doc GAME`: the game's rules as a Markdown or HTML document."""
from __future__ import annotations

import sys
from pathlib import Path

from ..diagnostics import UserError
from .arguments import GAME_HELP


def add_arguments(doc) -> None:
    doc.description = (
        "Write a document of GAME generated from its rule file (merged with its base game and imports): "
        "title and players, options with their descriptions, components (cards, zones and who sees them, "
        "variables), the rules in order with their comments, scoring, invariants, the notes the file starts "
        "with, and the scenarios as worked examples. Markdown on standard output unless --html or --out.")
    doc.add_argument("game", metavar="GAME", help=GAME_HELP)
    doc.add_argument("--html", action="store_true", help="write one HTML page (with highlighted rules) instead")
    doc.add_argument("--out", "-o", metavar="FILE", help="write to FILE (.html implies --html)")


def cmd_doc(args) -> int:
    from ..document import document
    from ..document.render import html_page, markdown
    from ..loader import game_path
    from .terminal import safe
    blocks = document(game_path(args.game))
    as_html = args.html or (args.out is not None and args.out.lower().endswith((".html", ".htm")))
    # a file is read in a browser or an editor: the terminal's sanitizer there too (ESC, BEL, bidi overrides)
    text = safe(html_page(blocks) if as_html else markdown(blocks))
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"cannot write {args.out}: {e.strerror or e}") from None
    print(f"wrote {args.out}")
    return 0
