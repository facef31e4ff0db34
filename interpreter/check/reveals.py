"""What is shown, and what it reveals: two checks over the typed IR.

1. What is only shown must not play: no chance in narration, labels, sheets, invariants or a
heuristic (which agents and `simulate` evaluate as they like).

`say` texts, option labels and sheets are evaluated only when someone looks (`run -q`
narrates nothing; `view` shows a sheet), and invariants only when `rulecraft test`
checks them. If one of them drew from the game's random generator, what is shown would
change the game: `run -q` would play another game than `run`, and a transcript would no
longer replay. So none of them may call `random`, directly or through a `def`.

2. Being asked is information. A `may choose` over options some seat may not see asks its
player even when only the pass is left. A choice without a pass whose options are filtered
by what some seat may not see (`p chooses c in p.hand where c.n > 4`) would be skipped when
nothing is left, and the others would learn it: the compiled rules stop there with an error
telling the author to write `may choose` (how many cards a zone holds is public, so an
empty hidden zone is skipped as before). `skip_reveals` (ir/hidden.py) says which
choices need that check; the compiler asks it.

3. Who sees what is public (State.seen): a `show` or `hide` under a condition that reads what some
seat may not see tells every seat the condition. `shows_on_secrets` warns of it.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..ir import nodes as ir
from ..ir.hidden import reads_hidden


def chance_in_shown_things(prog: ir.Program) -> list[Diagnostic]:
    chancy = _defs_drawing_chance(prog)
    shown = []                                    # (what it is, expression)
    for rule in prog.rules.values():
        for s in ir.walk(rule.body):
            if isinstance(s, ir.Say):
                shown.append(("narration", s.text))
            elif isinstance(s, ir.Choose):
                shown += [("an option's label", x) for x in (s.label, s.pass_label) if x is not None]
                if s.prompt is not None:
                    shown.append(("a choice's prompt", s.prompt))
    shown += [("an option's label", a.label) for a in prog.anytimes]
    shown += [("a sheet", x) for x in prog.sheet_table + prog.sheet_player]
    shown += [("an invariant", value) for _name, value, _span in prog.invariants]
    if prog.heuristic is not None:
        shown.append(("a heuristic", prog.heuristic))
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


def shows_on_secrets(prog: ir.Program) -> list[Diagnostic]:
    """A warning at each `show`/`hide` inside an `if` or `while` whose condition reads what some seat
    may not see: who sees what is public, so whether it ran tells the table the condition."""
    if not prog.changes_seen:
        return []
    out, warned = [], set()
    for rule in prog.rules.values():
        for n in ir.walk(rule.body):
            if isinstance(n, ir.If):
                conds = [c for c, _body in n.branches]
                bodies = [body for _c, body in n.branches] + [n.otherwise or ()]
            elif isinstance(n, ir.While):
                conds, bodies = [n.cond], [n.body]
            else:
                continue
            if not reads_hidden(prog, tuple(conds), counts_public=True):
                continue
            for x in ir.walk(tuple(bodies)):
                if isinstance(x, ir.Show) and id(x.span) not in warned:
                    warned.add(id(x.span))
                    out.append(Diagnostic(x.span, "whether this runs hangs on what some seat may not see, and who "
                                          "sees what is public: the table learns the condition",
                                          "show or hide whatever the hidden cards are, or tell it with `say to`",
                                          "warning"))
    return out
