"""Names and types: turns merged declarations into the typed IR.

The algorithm, in two passes over the declarations (starlark-go's resolver):

1. *Declare* (declarations.py). Every top-level name (options, enums and their
   values, card types, card sets, zones, variables, defs, rules, events, scores)
   goes into one global table; enum types first, since other declarations
   mention them.
2. *Check* (statements.py, expressions.py, matches.py). Each body is walked with a scope of
   locals. Each expression gets a type and each name a symbol (symbols.py);
   each local gets a slot number in its rule's frame. Nothing stops at the first
   error: an expression that is wrong gets the type ANY, which matches
   everything, so one mistake reports once.

When no error was found, lowering (lower.py) turns the checked tree and what
the passes recorded into the typed IR (ir/nodes.py) — the only thing the compiler
reads. The records themselves (keyed by node) never leave this package.
"""
from __future__ import annotations

from .alternatives import Alternatives
from .declarations import Declarations
from .expressions import Expressions
from .generics import Generics
from .lower import lower
from .matches import Matches
from .returns import Returns
from .reveals import chance_in_shown_things, shows_on_secrets
from .statements import Statements


class Checker(Declarations, Statements, Expressions, Generics, Matches, Returns, Alternatives):
    """The two passes over one game's declarations; its state is declared in base.CheckerBase."""


def check(decls, originals, diags, file_span=None, module: bool = False, inspect: list | None = None):
    """Check merged declarations; return the typed IR (rulecraft.ir.nodes.Program), or None when
    an error was found (every one is in `diags`). `file_span` (the entry file's first line) is where
    a file with no declarations is reported; a `module` (a file to be imported) needs no `players`
    and no `rule play`. `inspect`, a list, receives the Checker, whose symbol tables tell the
    language server each name's type."""
    c = Checker(decls, originals, diags)
    c.empty_span = file_span
    c.module = module
    c.declare_all()
    c.check_all()
    for name, sym in list(c.defs.items()):
        if not sym.frame_size:
            c.check_def(sym)
    if inspect is not None:
        inspect.append(c)
    if any(d.severity == "error" for d in diags):
        return None
    program = lower(c)
    problems = chance_in_shown_things(program)
    if problems:
        diags.extend(problems)
        return None
    diags.extend(shows_on_secrets(program))
    return program

