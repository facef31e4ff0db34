"""Checked syntax tree → typed IR: the last step of checking.

The checker records, while it resolves names and types, what each name means;
this pass turns every expression and statement into its resolved IR node (see
ir/nodes.py), so that nothing downstream looks at syntax or at those records. It runs
only when checking found no error, so every name here is known.
"""
from __future__ import annotations

from ..syntax import ast
from ..ir import nodes as ir
from ..ir import types as T
from .alternatives import lower_one_of
from .symbols import (BuiltinValue, CardSym, CardsSym, DefSym, EnumSym, EnumValueSym, LocalSym, OptionSym,
                      RuleSym, TeamValue, VarSym, ZoneSym)


class Lowerer:
    def __init__(self, checker):
        self.c = checker
        self.types = checker.types
        self.refs = checker.refs
        self.slots = checker.slots
        self.came_from = False      # does the program read a card's `came_from`? (then moves keep it)
        self.changes_seen = False   # does a `show`/`hide` change who sees a zone or a value?
        self.shown_vars: set = set()    # the slots of the variables a `show`/`hide` names
        self.rule_sym = None            # the rule being lowered

    # ------------------------------------------------------------ program
    def program(self) -> ir.Program:
        c = self.c
        cards = tuple(self.card_type(sym) for sym in c.cards)
        card_sets = tuple(ir.CardSet(s.decl.name, s.decl.span, self.expr(s.decl.value)) for s in c.card_sets)
        zones = tuple(ir.ZoneDecl(z.decl.name, z.decl.span, z.type, z.owner, z.seen) for z in c.zones)
        options = tuple(ir.OptionDecl(o.decl.name, o.decl.span, o.kind,
                                      tuple(o.decl.domain.values) if o.kind == "choice" else tuple(o.values),
                                      o.default, o.decl.doc, o.slot) for o in c.options)
        variables = tuple(ir.VarDecl(v.decl.name, v.decl.span, v.type, v.owner, v.slot,
                                     self.expr(v.decl.init) if v.decl.init is not None else None, v.seen)
                          for v in c.vars)
        defs = {name: self.define(sym) for name, sym in c.defs.items() if not sym.type_params}
        rules = {}
        for name, sym in c.rules.items():
            if not sym.type_params:        # (written with [..]: each use has a copy of its own, check/generics.py)
                rules[name] = self.rule(name, f"rule {name.split('@')[0]}", sym, None)
        for h in c.handlers:
            rules[h.name] = self.rule(h.name, h.name, h, h.decl.where)
        for a in c.anytimes:
            rules[a.name] = self.rule(a.name, a.name, a, None)
        scenarios = []
        for sc in c.scenarios:
            steps = []
            for step in sc.steps:
                steps.append(self.step(sc, step, rules))
            scenarios.append(ir.Scenario(sc.name, sc.span, sc.doc, tuple(steps)))
        anytimes = tuple(ir.Anytime(a.decl.name, a.name,
                                    self.expr(a.decl.where) if a.decl.where is not None else None,
                                    self.expr(a.decl.label)) for a in c.anytimes)
        events = {name: tuple(h.name for h in ev.handlers) for name, ev in c.events.items()}
        sheets = c.sheets
        return ir.Program(
            title=c.title, min_players=c.min_players, max_players=c.max_players, teams=c.teams,
            options=options, cards=cards, card_sets=card_sets, zones=zones, vars=variables,
            var_count=max([o.slot for o in c.options] + [v.slot for v in c.vars] + [-1]) + 1,
            defs=defs, rules=rules, events=events, anytimes=anytimes,
            score=self.expr(c.scores["score"].value) if "score" in c.scores else None,
            tiebreak=self.expr(c.scores["tiebreak"].value) if "tiebreak" in c.scores else None,
            heuristic=self.expr(c.scores["heuristic"].value) if "heuristic" in c.scores else None,
            invariants=tuple((d.name, self.expr(d.value), d.span) for d in c.invariants),
            scenarios=tuple(scenarios),
            sheet_table=tuple(self.expr(x) for x in sheets["table"].lines) if "table" in sheets else (),
            sheet_player=tuple(self.expr(x) for x in sheets["player"].lines) if "player" in sheets else (),
            limit=c.limit, outcome=self.outcome(c.outcome),
            tracks_came_from=self.came_from, changes_seen=self.changes_seen,
            shown_vars=tuple(sorted(self.shown_vars)))     # (last: read once every part is lowered)

    def outcome(self, d):
        if d is None:
            return None
        total = 0 if d.kind == "zero-sum" else d.total
        condition = self.expr(d.condition) if d.condition is not None else None
        return (d.kind, total, d.low, d.high, condition, d.span)

    def card_type(self, sym) -> ir.CardType:
        fields = tuple((name, t) for name, (_pos, t) in sorted(sym.fields.items(), key=lambda kv: kv[1][0]))
        named = self.expr(sym.decl.named) if sym.decl.named is not None else None
        return ir.CardType(sym.decl.name, sym.decl.span, fields, named)

    def define(self, sym: DefSym) -> ir.Def:
        d = sym.decl
        body = self.expr(d.body)
        binds = any(True for _ in ir.binders(body))
        return ir.Def(d.name, d.span, len(sym.params), sym.ret, body, binds, d.const)

    def rule(self, key, label, sym, where) -> ir.Rule:
        d = sym.decl
        self.rule_sym = sym             # (a `return` sets the value of the rule it stands in)
        return ir.Rule(key, label, d.span, len(sym.params), sym.frame_size,
                       self.expr(where) if where is not None else None, self.block(d.body))

    def step(self, sc, step, rules) -> ir.Step:
        kind = step.kind
        if kind == "option":
            opt = self.c.globals[step.name]
            return ir.Step(kind, step.span, _option_value(opt, step.value), step.name)
        if kind == "arrange":
            key = f"arrange {sc.name}"
            rules[key] = ir.Rule(key, key, step.span, 0, self.slots.get(id(step), 0), None, self.block(step.value))
            return ir.Step(kind, step.span, key)
        if kind in ("expect", "take", "legal", "illegal", "deciding", "next random", "next shuffle"):
            checks = tuple(self.step(sc, check, rules) for check in step.checks)
            return ir.Step(kind, step.span, self.expr(step.value), checks=checks)
        return ir.Step(kind, step.span, step.value, step.name)

    # ------------------------------------------------------------ statements
    def block(self, stmts) -> tuple:
        out = []
        for s in stmts:
            lowered = self.stmt(s)
            out.extend(lowered if isinstance(lowered, tuple) else (lowered,))   # (a statement lowered to several)
        return tuple(out)

    def stmt(self, s):
        return getattr(self, "st_" + type(s).__name__)(s)

    def st_Let(self, s):
        call, value = self.rule_value(s.value)
        return call + (ir.Let(s.span, self.slots[id(s)], value),)

    def st_Assign(self, s):
        call, value = self.rule_value(s.value)
        return call + (ir.Assign(s.span, self.expr(s.target), s.op, value),)

    def rule_value(self, e):
        """((statements to run first), the value) of an expression: a call of a rule that gives a value
        (check/returns.py) is the call, run first, and then the variable that carries its value."""
        sym = self.refs.get(id(e)) if isinstance(e, ast.Call) else None
        if not isinstance(sym, RuleSym) or sym.value is None:
            return (), self.expr(e)
        call = ir.CallRule(e.span, sym.decl.name, tuple(self.expr(a) for a in e.args))
        return (call,), ir.Var(sym.ret, e.span, sym.value.slot)

    def st_Return(self, s):
        call, value = self.rule_value(s.value)
        holder = self.rule_sym.value
        return call + (ir.Assign(s.span, ir.Var(holder.type, s.span, holder.slot), "=", value), ir.Stop(s.span))

    def st_AddTo(self, s):
        return ir.AddTo(s.span, self.expr(s.target), self.expr(s.value))

    def st_RemoveFrom(self, s):
        return ir.RemoveFrom(s.span, self.expr(s.target), self.expr(s.value))

    def st_Move(self, s):
        return ir.Move(s.span, self.expr(s.what), self.expr(s.to), s.bottom)

    def st_Shuffle(self, s):
        return ir.Shuffle(s.span, self.expr(s.zone))

    def st_Show(self, s):
        self.changes_seen = True
        seats = s.seats if isinstance(s.seats, str) else self.expr(s.seats)
        what = self.expr(s.what)
        if isinstance(what, (ir.Var, ir.OwnedVar)):
            self.shown_vars.add(what.slot)
        return ir.Show(s.span, what, seats, s.shown)

    def st_Say(self, s):
        return ir.Say(s.span, self.expr(s.text), self.expr(s.to) if s.to is not None else None)

    def st_ExprStmt(self, s):
        call = s.expr
        sym = self.refs[id(call)]
        return ir.CallRule(s.span, sym.name or sym.decl.name, tuple(self.expr(a) for a in call.args))

    def st_Signal(self, s):
        return ir.Signal(s.span, s.event, tuple(self.expr(a) for a in s.args))

    def st_Pass(self, s):
        return ir.Pass(s.span)

    def st_Stop(self, s):
        return ir.Stop(s.span)

    def st_Break(self, s):
        return ir.Break(s.span)

    def st_If(self, s):
        call, first = self.rule_value(s.branches[0][0])
        return call + (ir.If(s.span, ((first, self.block(s.branches[0][1])),)
                             + tuple((self.expr(c), self.block(b)) for c, b in s.branches[1:]),
                             self.block(s.otherwise) if s.otherwise is not None else None),)

    def st_For(self, s):
        return ir.For(s.span, self.slots[id(s)], self.slots[(id(s), "list")], self.slots[(id(s), "index")],
                      self.expr(s.iterable), self.block(s.body))

    def pair_choice(self, s):
        """`p chooses a in A, b in B where c as "…": body`: one choice over the pairs (a, b); its frame slot
        holds the pair, `a` and `b` in `where` and the labels are its parts, and the body starts by naming them."""
        e1, e2 = self.elem_of(s.domain), self.elem_of(s.domain2)
        ptype = T.PairT(e1, e2)
        pair = ir.Local(ptype, s.span, self.slots[(id(s), "pair")])
        first, second = self.slots[id(s)], self.slots[(id(s), "second")]
        parts = {first: ir.PairPart(e1, s.span, pair, 0), second: ir.PairPart(e2, s.span, pair, 1)}
        saved, self.pair_parts = getattr(self, "pair_parts", {}), parts
        try:
            where = self.expr(s.where) if s.where is not None else None
            label = self.expr(s.label) if s.label is not None else None
        finally:
            self.pair_parts = saved
        domain = ir.Pairs(T.ListT(ptype), s.domain.span, self.expr(s.domain), self.expr(s.domain2))
        body = (ir.Let(s.span, first, parts[first]), ir.Let(s.span, second, parts[second])) + self.block(s.body)
        return ir.Choose(s.span, self.expr(s.chooser), s.may, pair.slot, domain, ptype, where, label,
                         self.expr(s.pass_label) if s.pass_label is not None else None,
                         body, self.block(s.otherwise) if s.otherwise is not None else None, bool(s.secret),
                         self.expr(s.prompt) if s.prompt is not None else None)

    def st_ChooseSome(self, s):
        """`p chooses some x in xs where c up to N as "…" or "done": body`, as the loop it means:

            chosen = []; most = N; going = true
            while going and size(chosen) < most:
                before = size(chosen)
                if size(chosen) < N (with `exactly`):  p chooses x in xs where x not in chosen and c: add x to chosen
                else:  p may choose x in xs where x not in chosen and c or "done": add x to chosen  else: going = false
                if size(chosen) == before: going = false        (nothing was left to choose)
            body, with x the list chosen
        Each decision is an ordinary one (its ids, labels, agents); the two choices have their own blocks."""
        sp = s.span
        dtyp = self.types[id(s.domain)]
        if isinstance(self.refs.get(id(s.domain)), (EnumSym, CardSym)) and isinstance(s.domain, ast.Name):
            elem = dtyp.elem
        else:
            elem = T.element_of(dtyp)
        lst = self.slots[(id(s), "list")]
        most, going, before = (self.slots[(id(s), k)] for k in ("most", "going", "before"))
        one = self.slots[id(s)]
        L = lambda slot, typ: ir.Local(typ, sp, slot)
        chosen = L(lst, T.ListT(elem))
        size = ir.BuiltinCall(T.INT, sp, "size", (chosen,))
        fresh = ir.Compare(T.BOOL, sp, "not in", L(one, elem), chosen)
        where = fresh if s.where is None else ir.BoolOp(T.BOOL, sp, "and", fresh, self.expr(s.where))
        label = self.expr(s.label) if s.label is not None else None
        done = self.expr(s.done_label) if s.done_label is not None else ir.Text(T.STR, sp, ("done",))
        add = (ir.AddTo(sp, chosen, L(one, elem)),)
        domain = self.expr(s.domain)
        chooser = self.expr(s.chooser)

        def choose(may):
            return ir.Choose(sp, chooser, may, one, domain, elem, where, label, done if may else None, add,
                             (ir.Assign(sp, L(going, T.BOOL), "=", ir.Const(T.BOOL, sp, False)),) if may else None,
                             bool(s.secret))
        limit = self.expr(s.most) if s.most is not None else ir.Const(T.INT, sp, 1_000_000)
        asking = choose(True)
        if s.exact:
            asking = ir.If(sp, ((ir.Compare(T.BOOL, sp, "<", size, L(most, T.INT)), (choose(False),)),), (asking,))
        loop = ir.While(sp, ir.BoolOp(T.BOOL, sp, "and", L(going, T.BOOL), ir.Compare(T.BOOL, sp, "<", size, L(most, T.INT))), (
            ir.Let(sp, before, size),
            asking,
            ir.If(sp, ((ir.Compare(T.BOOL, sp, "==", size, L(before, T.INT)),
                        (ir.Assign(sp, L(going, T.BOOL), "=", ir.Const(T.BOOL, sp, False)),)),), None),
        ))
        return (ir.Let(sp, lst, ir.ListLit(T.ListT(elem), sp, ())),
                ir.Let(sp, most, limit),
                ir.Let(sp, going, ir.Const(T.BOOL, sp, True)),
                loop) + self.block(s.body)

    def st_ChooseOneOf(self, s):
        return lower_one_of(self, s)

    def st_While(self, s):
        return ir.While(s.span, self.expr(s.cond), self.block(s.body))

    def st_Repeat(self, s):
        return ir.Repeat(s.span, self.slots[(id(s), "count")], self.expr(s.count), self.block(s.body))

    def elem_of(self, domain):
        dtyp = self.types[id(domain)]
        if isinstance(self.refs.get(id(domain)), (EnumSym, CardSym)) and isinstance(domain, ast.Name):
            return dtyp.elem
        return T.element_of(dtyp)

    def st_Choose(self, s):
        if s.var2 is not None:
            return self.pair_choice(s)
        domain = self.expr(s.domain)
        dtyp = self.types[id(s.domain)]
        if isinstance(self.refs.get(id(s.domain)), (EnumSym, CardSym)) and isinstance(s.domain, ast.Name):
            elem = dtyp.elem
        else:
            elem = T.element_of(dtyp)
        return ir.Choose(s.span, self.expr(s.chooser), s.may, self.slots[id(s)], domain, elem,
                         self.expr(s.where) if s.where is not None else None,
                         self.expr(s.label) if s.label is not None else None,
                         self.expr(s.pass_label) if s.pass_label is not None else None,
                         self.block(s.body), self.block(s.otherwise) if s.otherwise is not None else None, bool(s.secret),
                         self.expr(s.prompt) if s.prompt is not None else None)

    # ----------------------------------------------------------- expressions
    def expr(self, e):
        node = getattr(self, "ex_" + type(e).__name__)(e)
        cast = self.c.downcasts.get(id(e))
        if cast is not None:
            many = isinstance(cast, tuple)
            name = cast[1] if many else cast
            typ = T.ListT(T.CardT(name)) if many else T.CardT(name)
            return ir.Cast(typ, e.span, node, name, many)
        return node

    def typ(self, e):
        return self.types.get(id(e), T.ANY)

    def ex_IntLit(self, e):
        return ir.Const(T.INT, e.span, int(e.value))

    def ex_CardLookup(self, e):
        ref = self.refs[id(e)]
        return ir.CardNamed(self.typ(e), e.span, ref[1], ref[2])

    def ex_NoneLit(self, e):
        return ir.NoneValue(T.NONE, e.span)

    def ex_BoolLit(self, e):
        return ir.Const(T.BOOL, e.span, bool(e.value))

    def ex_RangeExpr(self, e):
        universe = self.c.range_universe.get(id(e))
        lo, hi = universe if universe is not None else (0, -1)
        return ir.ComputedRange(T.ListT(T.INT), e.span, self.expr(e.low), self.expr(e.high), lo, hi, "range",
                                universe is not None)

    def ex_RangeLit(self, e):
        return ir.Fixed(T.ListT(T.INT), e.span, "range", "", e.lo, e.hi)

    def ex_Template(self, e):
        return ir.Text(T.STR, e.span, tuple(p if isinstance(p, str) else self.expr(p) for p in e.parts))

    def ex_Name(self, e):
        sym = self.refs[id(e)]
        typ = self.typ(e)
        if isinstance(sym, LocalSym):
            part = getattr(self, "pair_parts", {}).get(sym.slot)
            if part is not None:
                return part               # in a pair choice's `where` and labels: a part of the option
            return ir.Local(typ, e.span, sym.slot)
        if isinstance(sym, (OptionSym, VarSym)):
            return ir.Var(typ, e.span, sym.slot)
        if isinstance(sym, EnumValueSym):
            return ir.Const(typ, e.span, sym.index)
        if isinstance(sym, EnumSym):
            return ir.Fixed(typ, e.span, "enum", sym.type.name, 0, len(sym.type.values) - 1)
        if isinstance(sym, CardSym):
            return ir.Fixed(typ, e.span, "cards", sym.decl.name)
        if isinstance(sym, CardsSym):
            return ir.Fixed(typ, e.span, "card set", sym.decl.name)
        if isinstance(sym, ZoneSym):
            return ir.Zone(typ, e.span, sym.decl.name)
        if isinstance(sym, DefSym):
            return ir.DefCall(typ, e.span, sym.decl.name, ())
        if isinstance(sym, TeamValue):
            return ir.Const(T.TEAM, e.span, sym.index)
        if isinstance(sym, BuiltinValue):
            if sym.name == "Bool":        # `chooses b in Bool`, `for b in Bool`: [true, false]
                return ir.ListLit(typ, e.span, (ir.Const(T.BOOL, e.span, True), ir.Const(T.BOOL, e.span, False)))
            return ir.Special(typ, e.span, sym.name)
        raise AssertionError(f"unresolved name {e.id}")

    def ex_Attr(self, e):
        ref = self.refs.get(id(e))
        typ = self.typ(e)
        if isinstance(ref, EnumValueSym):
            return ir.Const(typ, e.span, ref.index)
        obj = self.expr(e.obj)
        if ref in ("owner", "zone", "team", "seat", "zone owner"):
            return ir.Property(typ, e.span, ref, obj)
        if ref == "came_from":
            self.came_from = True
            return ir.Property(typ, e.span, ref, obj)
        if isinstance(ref, tuple) and ref[0] == "field":
            return ir.CardField(typ, e.span, ref[1], ref[2], obj)
        if isinstance(ref, tuple) and ref[0] in ("enum data", "enum position"):
            return ir.EnumData(typ, e.span, ref[1] if ref[0] == "enum data" else None, obj)
        if isinstance(ref, ZoneSym):
            return ir.Zone(typ, e.span, ref.decl.name, obj)
        if isinstance(ref, VarSym):
            return ir.OwnedVar(typ, e.span, ref.slot, obj)
        raise AssertionError(f"unresolved attribute {e.name}")

    def ex_Call(self, e):
        ref = self.refs.get(id(e))
        typ = self.typ(e)
        if isinstance(ref, DefSym):
            return ir.DefCall(typ, e.span, ref.decl.name, tuple(self.expr(a) for a in e.args))
        if isinstance(ref, tuple) and ref[0] == "card named":
            return ir.CardNamed(typ, e.span, ref[1], ref[2])
        if isinstance(ref, CardSym):
            return ir.MakeCard(typ, e.span, ref.decl.name, tuple(self.expr(a) for a in e.args))
        if isinstance(ref, tuple) and ref[0] == "builtin":
            return ir.BuiltinCall(typ, e.span, ref[1], tuple(self.expr(a) for a in e.args))
        raise AssertionError(f"unresolved call {e.func}")

    def ex_Index(self, e):
        otyp = self.typ(e.obj)
        typ = self.typ(e)
        if isinstance(otyp, T.TableT):
            table = self.expr(e.obj)
            key = self.expr(e.index)
            if isinstance(otyp.key, tuple):
                _, lo, hi = otyp.key
                return ir.TableEntry(typ, e.span, table, key, "range", lo, hi - lo + 1)
            if isinstance(otyp.key, T.CardT):
                return ir.TableEntry(typ, e.span, table, key, "card", card_type=otyp.key.name)
            return ir.TableEntry(typ, e.span, table, key, "direct")
        return ir.Index(typ, e.span, self.expr(e.obj), self.expr(e.index))

    def ex_ListLit(self, e):
        return ir.ListLit(self.typ(e), e.span, tuple(self.expr(i) for i in e.items))

    def ex_LetIn(self, e):
        return ir.LetIn(self.typ(e), e.span, self.slots[id(e)], self.expr(e.value), self.expr(e.body))

    def ex_Cond(self, e):
        return ir.Cond(self.typ(e), e.span, self.expr(e.test), self.expr(e.then), self.expr(e.other))

    def ex_Match(self, e):
        return ir.Match(self.typ(e), e.span, self.expr(e.subject), tuple(self.c.match_keys[id(c)] for c in e.cases),
                        tuple(self.expr(c.value) for c in e.cases),
                        self.expr(e.otherwise) if e.otherwise is not None else None)

    def ex_BinOp(self, e):
        return ir.BinOp(self.typ(e), e.span, e.op, self.expr(e.left), self.expr(e.right))

    def ex_Compare(self, e):
        return ir.Compare(self.typ(e), e.span, e.op, self.expr(e.left), self.expr(e.right))

    def ex_BoolOp(self, e):
        return ir.BoolOp(self.typ(e), e.span, e.op, self.expr(e.left), self.expr(e.right))

    def ex_Not(self, e):
        return ir.Not(self.typ(e), e.span, self.expr(e.operand))

    def ex_Neg(self, e):
        return ir.Neg(self.typ(e), e.span, self.expr(e.operand))

    def ex_Comprehension(self, e):
        fors = tuple(ir.CompFor(self.slots[id(f)], self.expr(f.iterable),
                                self.expr(f.cond) if f.cond is not None else None, f.span) for f in e.fors)
        return ir.Comprehension(self.typ(e), e.span, self.expr(e.element), fors)

    def ex_FindWhere(self, e):
        return ir.FindWhere(self.typ(e), e.span, self.slots[id(e)], self.expr(e.iterable), self.expr(e.cond))

    def ex_BestBy(self, e):
        return ir.BestBy(self.typ(e), e.span, self.slots[id(e)], self.expr(e.iterable), self.expr(e.key))


def _option_value(opt, node):
    """The stored value of `option name = value` in a scenario (checked to be a constant)."""
    if opt.kind == "choice":
        return opt.type.values.index(node.id)
    if opt.kind == "bool":
        return node.value
    if isinstance(node, ast.Neg):
        return -node.operand.value
    return node.value


def lower(checker) -> ir.Program:
    return Lowerer(checker).program()
