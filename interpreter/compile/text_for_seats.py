"""What the seats may see of a shown text: a narration, a label, a sheet (compile side).

A text becomes segments (runtime.helpers): plain strings; a card, shown as itself to the seats
that may see where it lies and as "a Witch" to the others; and a value computed from what some
seat may not see, with the cards, zones and private values it was computed from, so that each
seat is shown it only if it sees all of them. What a value reads is found through the bodies of
the defs it calls too (`shown_bodies`). The generator (expressions.ExprGen) writes the sources.
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T
from ..diagnostics import Diagnostic
from .invariants import safe

MAX_SHOWN_CALLS = 10_000    # def calls a shown value is read through (docs/security.md)


def hidden_as(card_type) -> str:
    """What a card is called when a seat may not see which it is: "a Witch", "an Ingredient", "a card"."""
    name = card_type.name if isinstance(card_type, T.CardT) else "card"
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def _counts_a_zone(n) -> bool:
    """`size(z)` or `empty(z)` of a whole zone: how many cards a zone holds is public. (The size of a list
    made from a zone, `size([c for c in p.hand if …])`, says something of its cards, so it is not.)"""
    return isinstance(n, ir.BuiltinCall) and n.name in ("size", "empty") and bool(n.args) \
        and all(isinstance(a.type, T.ZoneT) for a in n.args)


def _optional_card(typ) -> bool:
    """`Witch?`: a card or none, shown like a card (or "none")."""
    return isinstance(typ, T.OptionalT) and T.is_card(typ.inner) and typ.inner is not T.ANY


class ShownText:
    """The shown-text half of one game's expression generator `gen`."""

    def __init__(self, gen):
        self.gen = gen

    def segments(self, e: ir.Text) -> str:
        """A shown text as segments (runtime.helpers): strings, and cards that may be hidden from some seats."""
        pieces = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(self.gen.const(part))
            elif isinstance(part, ir.BuiltinCall) and part.name == "reveal":    # shown to all, on purpose
                pieces.append(f"{self.gen.const(self.gen.layout.formatter(part.type))}(m, {self.gen.src(part)})")
            elif T.is_card(part.type) and part.type is not T.ANY and not self.private_reads(part):
                pieces.append(f"rt_seg_card(m, {self.gen.src(part)}, {self.gen.const(hidden_as(part.type))})")
            elif _optional_card(part.type) and not self.private_reads(part):
                pieces.append(f"rt_seg_card_or_none(m, {self.gen.src(part)}, {self.gen.const(hidden_as(part.type.inner))})")
            elif isinstance(part.type, (T.ListT, T.ZoneT)) and T.is_card(part.type.elem) and part.type.elem is not T.ANY:
                pieces.append(f"rt_seg_cards(m, {self.gen.seq(part)}, {self.gen.const(hidden_as(part.type.elem))})")
            else:
                text = f"{self.gen.const(self.gen.layout.formatter(part.type))}(m, {self.gen.src(part)})"
                cards, zones, unknown = self.derived_from(part)
                masks = self.private_reads(part) + (["0"] if unknown else [])
                if cards or zones or masks:     # a value computed from what some seat may not see
                    pieces.append(f'("derived", {text}, ({"".join(c + ", " for c in cards)}), '
                                  f'({"".join(z + ", " for z in zones)}), {" & ".join(masks) or "-1"}, "(hidden)")')
                else:
                    pieces.append(text)
        return "(" + "".join(p + ", " for p in pieces) + ")"

    def derived_from(self, e) -> tuple[list, list, bool]:
        """The cards and zone instances a shown value is computed from (sources of their Python values):
        its seats are those that see all of them. How many cards a zone holds is public, so a whole zone
        inside `size`/`empty` is not a source (`_counts_a_zone`); nor is a card fixed at load, or one named only inside a
        comprehension (the zone it goes through is the source then). The bodies of the defs it calls
        are read too (`shown_bodies`). The third result says a zone read depends on a loop's local
        (`q.hand` for each `q`): then no seat is sure to see what the value was computed from."""
        cards, zones = [], []
        unknown = False

        def visit(n, bound):
            nonlocal unknown
            if isinstance(n, ir.BuiltinCall) and (n.name == "reveal" or _counts_a_zone(n)):
                return
            typ = getattr(n, "type", None)
            if typ is not None and (T.is_card(typ) and typ is not T.ANY or _optional_card(typ)) \
                    and not isinstance(n, (ir.CardNamed, ir.MakeCard)):
                if self.gen.slots_under(n).isdisjoint(bound):
                    cards.append(self.source_that_may_fail(n))
                return
            if isinstance(n, ir.Zone):
                if not self.gen.slots_under(n).isdisjoint(bound):
                    unknown = True
                else:
                    zones.append(self.source_that_may_fail(n))
                return
            for name in ir._child_fields(type(n)):
                v = getattr(n, name)
                for item in (v if isinstance(v, tuple) else (v,)):
                    if hasattr(type(item), "__record_fields__"):
                        visit(item, bound)

        for body, bound in self.shown_bodies(e, counted_public=True):
            visit(body, bound)
        return cards, zones, unknown

    def source_that_may_fail(self, e) -> str:
        """Source of `e` as what a shown value may have read: None where computing it fails."""
        sure = safe(e) and (self.gen.subst is None or not self.gen.slots_under(e))
        return self.gen.src(e) if sure else f"rt_or_none(lambda: {self.gen.src(e)})"

    def shown_bodies(self, e, bound=frozenset(), chain=(), counted_public=False, seen=None):
        """What a shown value reads: `e` itself, then the body of each def it calls (and so on), each
        yielded with the locals that cannot be named where the text stands. Those are the locals bound
        inside it (by comprehensions, `… by`, `first(… where …)`, a def's `let`s) and, in a def's body,
        the parameters whose arguments read such locals; what they hold is read where they are bound
        (the zone a comprehension goes through, a `let`'s value, the argument). The other parameters
        stand for their arguments while the body is read, as when the def is inlined. With
        `counted_public`, a def whose zone is only counted (`size(h(p))`) is not read: a zone's size is public.
        A def called twice with the same arguments is read once (`seen`), and a const not at all (it reads
        nothing of the game): defs that each call the one before twice are read in linear time, not 2^n."""
        seen = set() if seen is None else seen
        nodes = self.gen.under(e)
        counted = {id(x) for n in nodes if _counts_a_zone(n) for x in self.gen.under(n.args)} if counted_public else ()
        bound = set(bound) | {slot for n in nodes if type(n) in ir.BINDERS for slot in ir.bound_by(n)}
        yield e, bound
        for n in nodes:
            if not isinstance(n, ir.DefCall) or n.name in chain or id(n) in counted or self.gen.prog.defs[n.name].const:
                continue
            subst, unnamed = {}, set()
            for i, a in enumerate(n.args):
                if not self.gen.slots_under(a).isdisjoint(bound):
                    unnamed.add(i)
                else:
                    subst[i] = self.gen.argument(a, brackets=False)
            key = (n.name, tuple(sorted(subst.items())), frozenset(unnamed))
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > MAX_SHOWN_CALLS:
                self.gen.diags.append(Diagnostic(e.span, f"this reads through more than {MAX_SHOWN_CALLS:,} calls "
                                                 "of defs with different arguments: too many to see what it shows",
                                                 "compute the value in a `let` step before it is shown"))
                return
            # (subst_locals: no tables made here, Tabulator.real_locals)
            with self.gen.emitting(subst=subst, plain_subst=subst, subst_locals=dict.fromkeys(subst)):
                yield from self.shown_bodies(self.gen.prog.defs[n.name].body, unnamed, chain + (n.name,), counted_public, seen)

    def private_reads(self, e) -> list[str]:
        """Sources of the masks of the seats that see each variable `e` reads whose value not all see
        (through the defs it calls too: `shown_bodies`)."""
        seen = {v.slot: v for v in self.gen.prog.vars if v.seen != "all" or v.slot in self.gen.prog.shown_vars}
        out = []
        for body, bound in self.shown_bodies(e):
            nodes = self.gen.under(body)
            revealed = {id(x) for n in nodes if isinstance(n, ir.BuiltinCall) and n.name == "reveal"
                        for x in self.gen.under(n.args)}
            for n in nodes:
                if isinstance(n, (ir.Var, ir.OwnedVar)) and n.slot in seen and id(n) not in revealed:
                    v = seen[n.slot]
                    if isinstance(n, ir.OwnedVar) and not self.gen.slots_under(n.owner).isdisjoint(bound):
                        # whose value varies inside the expression: the seats that see every owner's
                        out.append(f"rt_all_values_seen(m, {self.gen.layout.value_base[v.slot]}, {v.owner == 'team'})")
                        continue
                    owner = self.gen.src(n.owner) if isinstance(n, ir.OwnedVar) else "None"
                    out.append(f"rt_value_seen(m, {self.gen.layout.value_base[v.slot]}, {owner})")
        return out
