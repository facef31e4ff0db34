"""Calls: a def inlined at its call site or written as a function of its own (`D3(m, v0, …)`), a
`const` computed once at load, and builtin calls (their source is the registry's: builtins.REGISTRY).
A part of ExprGen (expressions.py), which mixes it in."""
from __future__ import annotations

from ..builtins import REGISTRY
from ..ir import nodes as ir
from ..diagnostics import Diagnostic
from ..runtime.errors import RuleFailure
from .codegen import TICK
from .written import Argument, Atom, Cheap, Number, is_name, number_of

MAX_INLINED = 8     # defs inlined within each other; deeper, a call (Python limits nested brackets)

# argument nodes cheap and safe to evaluate more than once (no calls, no comprehension)


_SIMPLE = (ir.Local, ir.Var, ir.Const, ir.OwnedVar, ir.Zone, ir.CardField, ir.Special, ir.Index, ir.BinOp,
           ir.Neg, ir.TableEntry, ir.CardNamed, ir.NoneValue)


class Calls:
    """Def calls, consts and builtin calls."""

    @staticmethod
    def is_simple(e) -> bool:
        """Cheap to evaluate twice: names, numbers, fields, indexing, sums, a player's team or seat — no calls."""
        return all(isinstance(n, _SIMPLE) or (isinstance(n, ir.Property) and n.name in ("team", "seat"))
                   for n in ir.walk(e))

    def cheap(self, e) -> bool:
        """is_simple, and so is what each parameter of a def being inlined that `e` reads stands for
        (`as_ingredient(one_of(p, k))` inlined: its `c` is a call, computed once, not once per use): its
        Argument is cheap as `argument` wrote it — simple itself, or a name, a constant, a table's look-up."""
        if not self.is_simple(e):
            return False
        subst = self.subst
        return subst is None or all(subst[n.slot].cheap for n in ir.walk(e) if type(n) is ir.Local and n.slot in subst)

    def inlinable(self, d, args) -> bool:
        """Can a call of def `d` become its body with the arguments in place? Only when its body binds no
        locals of its own, and each argument is cheap or used at most once (so nothing is computed twice)."""
        if d.binds_locals or d.name in self.inlining or len(self.inlining) >= MAX_INLINED:
            return False
        uses = self.defs.param_uses[d.name]        # (deffacts.py: found before writing)
        return all(uses[i] <= 1 or self.cheap(a) for i, a in enumerate(args)) and self.matches_inlinable(d, args)

    def matches_inlinable(self, d, args) -> bool:
        """A match tested case by case reads its subject once per case: inlined, the subject must be cheap
        to compute again (in its own function, it is computed once into a local). Whether a match is a
        table is asked as it is written: a match of cards is one only once the cards are made."""
        for n in self.defs.matches[d.name]:
            if not self.is_table(n):
                if not self.is_simple(n.subject) or not all(self.cheap(args[x.slot]) for x in ir.walk(n.subject)
                                                              if isinstance(x, ir.Local) and x.slot < len(args)):
                    return False
        return True

    def pure(self, name: str) -> bool:
        """Is computing def `name` free of effects: no `random`, no step spent, no card made — through the
        defs it calls too (deffacts.py: found before writing)?"""
        return self.defs.pure[name]

    def ex_DefCall(self, e):
        d = self.prog.defs[e.name]
        if d.const:
            return self.const_value(d)
        if self.inlinable(d, e.args):
            # `strength(c)` becomes its body with `c` in place: no call in the inner loop
            self.inlining.add(e.name)
            try:
                body = self.substituted(d.body, e.args)
                if isinstance(body, Number):
                    return Number(body.value, f"({body})")
                return Cheap(f"({body})") if isinstance(body, Cheap) else f"({body})"
            finally:
                self.inlining.discard(e.name)
        fname = self.def_names.get(e.name)
        if fname is None:
            fname = self.ns.fresh("D")
            self.def_names[e.name] = fname
            params = ", ".join(["m"] + [f"v{i}" for i in range(d.params)])
            # its lets and result as statements (LoopGen.def_lines), or one expression, in a function of its
            # own: nothing substituted or moved before a loop; the defs it calls inline anew
            with self.emitting(subst=None, loops=[], local_types={}, inlining=set()), self.apart():
                lines = self.statements.def_lines(d.body, d.span) if self.statements is not None \
                    else [(1, f"return {self.src(d.body)}", d.span)]
            if self.calls_defs(d):       # a step per call: defs calling each other twice cannot run unseen
                lines = [(1, text, d.span) for text in TICK] + lines
            self.ns.define(fname, f"def {fname}({params}):", lines, f"def {e.name}", d.span)
        self.written.elsewhere = True      # a def's own function, not looked into: no table of a part calling it
        return f"{fname}({', '.join(['m'] + [self.src(a) for a in e.args])})"

    def calls_defs(self, d) -> bool:
        """Does def `d` call another (not a const)? Only such a def's calls spend the step budget: one that
        calls none does work bounded by its body (its loops spend steps themselves), and is called often."""
        return self.defs.calls_defs[d.name]

    def substituted(self, body, args) -> str:
        """Source of `body` (a def's, or a rule's condition) with its parameters' slots standing for `args`:
        Cheap when it is, or when it is_simple over Cheap arguments (`cheap`)."""
        facts = self.inlined_args(args)
        subst = {i: self.argument(a) for i, a in enumerate(args)}
        plain = subst
        if self.loops:
            with self.emitting(loops=[]):
                plain = {i: self.argument(a) for i, a in enumerate(args)}
        arg_locals = {i: self.tables.real_locals(a) for i, a in enumerate(args)}
        with self.emitting(subst=subst, plain_subst=plain, arg_facts=facts, subst_locals=arg_locals):
            source = self.src(body)
            return source if isinstance(source, Cheap) or not self.cheap(body) else Cheap(source)

    def argument(self, a, brackets: bool = True) -> Argument:
        """An argument of a def being inlined, as its parameter is written in the body (in brackets): cheap
        when its source is Cheap or is_simple says it is; what it does is written where it is used."""
        with self.apart() as written, self.unbinding():
            source = self.src(a)
        return Argument(f"({source})" if brackets else source, isinstance(source, Cheap) or self.cheap(a), written,
                        number_of(source), is_name(source))

    def const_value(self, d) -> str:
        """A `const`: its body run once, now, against a stand-in that refuses the game; then a constant."""
        known = self.const_values.get(d.name)
        if known is None:
            from .layout import ConstantState, NeedsGame
            self.const_values[d.name] = "None"        # (a const that used itself was refused by the checker)
            with self.emitting(subst=None), self.apart():
                fn = self.ns.function("m", self.src(d.body), f"const {d.name}", d.span)
            try:
                value = fn(ConstantState(self.layout))
            except NeedsGame:
                self.diags.append(Diagnostic(d.span, f"'{d.name}' is a const, computed once when the rules load: it "
                                             "cannot use options, players or the game's state",
                                             f"write `def {d.name} = …` for a value computed each time it is used"))
                value = None
            except RuleFailure as e:
                self.diags.append(Diagnostic(d.span, f"the const '{d.name}' cannot be computed: {e}"))
                value = None
            except Exception:            # it uses a const that could not be computed (said above): None
                if not self.diags:
                    raise
                value = None
            known = self.const_values[d.name] = self.const(value)
        return known

    def ex_BuiltinCall(self, e):
        first = e.args[0] if e.args else None
        with self.unbinding():        # (a builtin may go through its argument in a comprehension: join)
            a = "" if first is None or isinstance(first, ir.BestBy) else self.seq(first)
        return REGISTRY[e.name].emit(self, e, a)

    @staticmethod
    def is_best_by(call) -> bool:
        return bool(call.args) and isinstance(call.args[0], ir.BestBy)

    def extreme(self, which: str, items) -> str:
        """`min(a, b, …)` / `max(…)` of numbers written out, as conditional expressions: `(_t1 if (_t1 := a)
        <= (_t2 := b) else _t2)`, each part computed once and in order (a name or a number used as it is),
        the first of equal ones kept, as Python's own keeps it — whose call costs three times as much.
        Where no name may be bound (`unbinding`) Python's own is called."""
        sources = [self.src(i) for i in items]
        if len(sources) == 1:
            return f"({sources[0]})"
        if not self.options.extremes or self.unbound:
            return f"{which}({', '.join(sources)})"
        self.written.binds = True

        def held(source):          # (source that computes it, the name or number that holds it after)
            if isinstance(source, Atom):
                return source, source
            name = self.ns.fresh("_t")
            return f"({name} := {source})", name
        op = "<=" if which == "min" else ">="
        first, best = held(sources[0])
        for k, source in enumerate(sources[1:]):
            other, held_other = held(source)
            result = f"({best} if {first} {op} {other} else {held_other})"
            if k == len(sources) - 2:
                return result
            first, best = held(result)
