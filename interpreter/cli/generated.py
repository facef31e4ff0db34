"""`rulecraft show GAME --python`: the Python a game's rules compile to, as one module to read;
`--ir`: the typed IR they check to, the compiler's input (ir.dump).

What the compiler makes of each rule, def, label and score (loader.generated_python), with the
constants its functions share. `--fast` shows the twin the fast path plays (engine.playout). The
same rules give the same text: tests/codegen holds some of it, so a change in the generated code
shows in review.
"""
from __future__ import annotations

from . import common
from .arguments import GAME_HELP


def add_arguments(p) -> None:
    p.description = (
        "Print the Python module the rules of GAME compile to: the constants its functions share, then each "
        "function (a rule's blocks, its option labels, defs, scores) under a comment naming what it runs. "
        "With --ir, the typed IR the rules check to instead: one node a line, its children indented.")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    view = p.add_mutually_exclusive_group()
    view.add_argument("--python", action="store_true", help="the generated Python (the default)")
    view.add_argument("--ir", action="store_true", help="the typed IR, the compiler's input")
    p.add_argument("--fast", action="store_true", help="the twin compiled for the fast path of playouts (with --python)")


def cmd_show(args) -> int:
    from ..loader import generated_ir, generated_python
    if args.ir and args.fast:
        raise common.UserError("--fast shows the fast path's Python: it goes with --python, not --ir")
    common.load_program(args.game)            # bad rules: their diagnostics, as every command says them
    print(generated_ir(args.game) if args.ir else generated_python(args.game, fast=args.fast), end="")
    return 0
