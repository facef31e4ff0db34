"""Which choices' options cannot repeat a value (so the rules' code makes no set of them at each
decision to offer each once): a fact of the program, found before any rule is written
(analysis.analyse) and read by the generator (RuleGen.option_ids asks `Analysis.distinct`)."""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T

MAX_DEPTH = 8       # lists within lists looked into; deeper, they may repeat


def distinct_options(prog: ir.Program, fixed=None, chooses: dict | None = None) -> dict:
    """id(Choose) -> are its options sure not to repeat a value, for every choice of the rules.
    `fixed(e)` gives the values of a fixed collection known at load (ExprGen.fixed: the cards are
    made first), or None; without it, only ranges and enums are known. `chooses`: rule key -> its
    choices, when the rules were walked already (analysis._walk_rules)."""
    out = {}
    for key, rule in prog.rules.items():
        chooses_here = chooses[key] if chooses is not None else [n for n in ir.walk(rule.body) if type(n) is ir.Choose]
        if chooses_here:
            lists = _Lists(prog, rule, fixed or _ranges_only)
            for s in chooses_here:
                out[id(s)] = lists.distinct(s.domain)
    return out


def _ranges_only(e):
    return tuple(range(e.lo, e.hi + 1)) if e.kind in ("range", "enum") else None


class _Lists:
    """The lists of one rule that cannot repeat a value."""

    def __init__(self, prog, rule, fixed):
        self.prog, self.rule, self.fixed = prog, rule, fixed
        self.bindings = None        # local slot -> the value of its one `let`, or False (bound_once)

    def distinct(self, e, depth: int = 0, own: bool = True) -> bool:
        """Does the list `e` never hold a value twice? A zone, the seats or teams (or those from a seat,
        or a team's members), a range, an enum, a card type, a card set made of distinct cards, a filter
        of such a list, the top (or bottom) cards of each element's own zone (a card is in one zone at a
        time), a list of one value, one of a written list of such lists, or a local bound once, by a
        `let` of such a list (`own`: a local of the rule, not of a def's body)."""
        if depth > MAX_DEPTH:
            return False
        if isinstance(e.type, T.ZoneT) or isinstance(e, ir.Special):
            return True
        if isinstance(e, ir.Fixed):
            values = self.fixed(e)
            return values is not None and len(set(values)) == len(values)
        if isinstance(e, ir.ListLit):
            if len(e.items) == 1 and isinstance(e.items[0], ir.Comprehension):
                return self.distinct(e.items[0], depth + 1, own)
            if len(e.items) == 1:
                return not isinstance(e.items[0], ir.Comprehension)      # one value
            return all(isinstance(i, ir.Const) for i in e.items) and len({i.value for i in e.items}) == len(e.items)
        if isinstance(e, ir.Comprehension):
            return len(e.fors) == 1 and self.distinct(e.fors[0].iterable, depth + 1, own) \
                and one_to_one(e.element, e.fors[0].slot)
        if isinstance(e, ir.Index):
            return bool(isinstance(e.seq, ir.ListLit) and e.seq.items
                        and all(not isinstance(i, ir.Comprehension) and self.distinct(i, depth + 1, own) for i in e.seq.items))
        if isinstance(e, ir.Cond):
            return self.distinct(e.then, depth + 1, own) and self.distinct(e.other, depth + 1, own)
        if isinstance(e, ir.DefCall):       # whatever the arguments, the def's body says it
            return self.distinct(self.prog.defs[e.name].body, depth + 1, False)
        if isinstance(e, ir.BuiltinCall):
            return e.name in ("players_from", "members")
        if isinstance(e, ir.Local) and own:
            value = self.bound_once(e.slot)
            return value is not None and self.distinct(value, depth + 1)
        return False

    def bound_once(self, slot: int):
        """The value of the one `let` that binds local `slot` in the rule, when nothing else binds or
        changes it (no other `let`, loop, choice, assignment, `add` or `remove`, and it is no
        parameter); else None."""
        if slot < self.rule.params:
            return None
        known = self.bindings
        if known is None:
            known = self.bindings = {}
            for n in ir.walk(self.rule.body):
                if type(n) in ir.BINDERS:
                    for bound in ir.bound_by(n):
                        known[bound] = n.value if type(n) is ir.Let and bound not in known else False
                elif isinstance(n, (ir.Assign, ir.AddTo, ir.RemoveFrom)) and isinstance(n.place, ir.Local):
                    known[n.place.slot] = False
        return known.get(slot) or None


def one_to_one(element, slot: int) -> bool:
    """Are different values of local `slot` sure to give different `element`s? The local itself,
    or the top or bottom card of a zone it owns (each owner's is a zone of its own)."""
    if isinstance(element, ir.Local):
        return element.slot == slot
    if isinstance(element, ir.BuiltinCall) and element.name in ("top", "bottom") and len(element.args) == 1:
        zone = element.args[0]
        return isinstance(zone, ir.Zone) and type(zone.owner) is ir.Local and zone.owner.slot == slot
    return False
