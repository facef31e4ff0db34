"""What some seat may not see, read by an expression: the zones not seen by all (any zone once a
`show`/`hide` changes who sees), the variables whose value not all see, through the defs called.
The compiler asks it of each choice (`skip_reveals`): skipping a choice that has no option left
must not tell the table what it may not see (check/reveals.py says why).
"""
from __future__ import annotations

from . import nodes as ir
from . import types as T


def reads_hidden(prog: ir.Program, nodes, counts_public: bool = False) -> bool:
    """Do these expressions read what some seat may not see: a zone not seen by all, or a variable
    whose value not all see — directly or through the defs they call? With `counts_public`, how many
    cards a zone holds (`size`, `empty`) is not hidden (a zone's size is public)."""
    hidden_zones = {z.name for z in prog.zones if z.seen != "all" or prog.changes_seen}   # (`hide` hides any)
    secret_slots = {v.slot for v in prog.vars if v.seen != "all" or v.slot in prog.shown_vars}
    todo, seen_defs = [nodes], set()
    while todo:
        here = todo.pop()
        counted = {id(x) for n in ir.walk(here)
                   if isinstance(n, ir.BuiltinCall) and n.name in ("size", "empty")
                   and isinstance(getattr(n.args[0], "type", None), T.ZoneT)
                   for x in ir.walk(n.args)} if counts_public else ()
        for n in ir.walk(here):
            if id(n) in counted:
                continue
            if isinstance(n, ir.Zone) and n.zone in hidden_zones:
                return True
            if isinstance(n, (ir.Var, ir.OwnedVar)) and n.slot in secret_slots:
                return True
            if isinstance(n, ir.DefCall) and n.name not in seen_defs:
                seen_defs.add(n.name)
                todo.append(prog.defs[n.name].body)
    return False


def skip_reveals(prog: ir.Program, s: ir.Choose) -> str | None:
    """Would skipping this choice, when no option is left, tell some seat what it may not see?
    "domain": whenever it happens (the options are computed from hidden things); "where": when the
    filter left nothing of a domain that was not empty (a zone's size is public); None: never."""
    if s.may:
        return None
    if not isinstance(getattr(s.domain, "type", None), T.ZoneT) and reads_hidden(prog, s.domain):
        return "domain"
    if s.where is not None and reads_hidden(prog, (s.domain, s.where)):
        return "where"      # a filter over hidden cards, or reading what is hidden
    return None
