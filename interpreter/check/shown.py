"""What is only shown must not play: no chance in narration, labels, sheets or invariants.

`say` texts, option labels and sheets are evaluated only when someone looks (`run -q`
narrates nothing; `view` shows a sheet), and invariants only when `rulecraft test`
checks them. If one of them drew from the game's random generator, what is shown would
change the game: `run -q` would play another game than `run`, and a transcript would no
longer replay. So none of them may call `random`, directly or through a `def`.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from . import ir


def chance_in_shown_things(prog: ir.Program) -> list[Diagnostic]:
    chancy = _defs_drawing_chance(prog)
    shown = []                                    # (what it is, expression)
    for rule in prog.rules.values():
        for s in ir.walk(rule.body):
            if isinstance(s, ir.Say):
                shown.append(("narration", s.text))
            elif isinstance(s, ir.Choose):
                shown += [("an option's label", x) for x in (s.label, s.pass_label) if x is not None]
    shown += [("an option's label", a.label) for a in prog.anytimes]
    shown += [("a sheet", x) for x in prog.sheet_table + prog.sheet_player]
    shown += [("an invariant", value) for _name, value, _span in prog.invariants]
    out = []
    for what, expr in shown:
        for n in ir.walk(expr):
            if isinstance(n, ir.BuiltinCall) and n.name == "random":
                out.append(Diagnostic(n.span, f"{what} may not draw chance: it is only shown, and showing it would "
                                              "change the game", "draw with `let x = random(...)` first, then show x"))
            elif isinstance(n, ir.DefCall) and n.name in chancy:
                out.append(Diagnostic(n.span, f"{what} may not draw chance, and '{n.name}' draws with random(...)",
                                      "draw with `let x = random(...)` first, then show x"))
    return out


def _defs_drawing_chance(prog: ir.Program) -> set:
    calls = {name: {n.name for n in ir.walk(d.body) if isinstance(n, ir.DefCall)} for name, d in prog.defs.items()}
    chancy = {name for name, d in prog.defs.items()
              if any(isinstance(n, ir.BuiltinCall) and n.name == "random" for n in ir.walk(d.body))}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name not in chancy and callees & chancy:
                chancy.add(name)
                changed = True
    return chancy
