"""Checked program → closures.

Expressions become closures `f(state, frame)`; a rule becomes a flat list of
operations `op(state, frame) -> next pc` (negative: the frame stack changed, or
a decision is pending). Every name was resolved by the checker; here each one
becomes a slot index or a constant, so the inner loop does no look-ups by name.
"""
from __future__ import annotations

from ..check import types as T
from ..check.checker import (BuiltinValue, CardSym, CardsSym, DefSym, EnumSym, EnumValueSym, LocalSym,
                             OptionSym, RuleSym, VarSym, ZoneSym)
from ..diagnostics import Diagnostic
from ..engine import rng
from ..syntax import ast
from .builtins import RUNTIME
from .errors import RuleFailure
from .program import ChoiceInfo, Code, OptionInfo, Program, VarInfo, ZoneInfo

CALLED = -1     # an operation pushed or popped a frame
WAITING = -2    # an operation set a pending decision

OFFSET = 2      # frame = [code index, pc, local 0, local 1, ...]


class _Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


class _CardBuilder:
    """Collects the components made by `cards` declarations, at load."""

    def __init__(self):
        self.types: list[str] = []
        self.values: list[tuple] = []

    def make(self, type_name, values):
        self.types.append(type_name)
        self.values.append(tuple(values))
        return len(self.types) - 1


class Compiler:
    def __init__(self, checked, diags):
        self.c = checked
        self.diags = diags
        self.types = checked.types
        self.refs = checked.refs
        self.slots = checked.slots
        self.builder = _CardBuilder()
        self.def_cells: dict = {}
        self.choices: list[ChoiceInfo] = []
        self.action_count = 0
        self.team_count = max(1, len(checked.teams))
        self.max_players = checked.max_players
        self.players_by_n = [tuple(range(n)) for n in range(checked.max_players + 1)]

    # ================================================================ layout
    def compile(self) -> Program:
        c = self.c
        # cards, evaluated once
        card_sets = {}
        for sym in c.card_sets:
            ids = self.constant(sym.decl.value, sym.decl, self.slots.get(id(sym.decl), 0))
            card_sets[sym.decl.name] = tuple(ids) if ids is not None else ()
        self.card_sets = card_sets
        n_cards = len(self.builder.types)
        self.card_field_tables = {}
        for csym in c.cards:
            for fname, (pos, _t) in csym.fields.items():
                table = [None] * n_cards
                for i, (tname, values) in enumerate(zip(self.builder.types, self.builder.values)):
                    if tname == csym.decl.name:
                        table[i] = values[pos]
                self.card_field_tables[(csym.decl.name, fname)] = tuple(table)
        self.cards_by_type = {cs.decl.name: tuple(i for i, t in enumerate(self.builder.types) if t == cs.decl.name)
                              for cs in c.cards}
        self.card_names = tuple(self.card_name(i) for i in range(n_cards))
        # zones: per-player zones get max_players instances, per-team ones one per team
        zones, inst_names, inst_owner, inst_zone = [], [], [], []
        self.zone_base = {}
        for zi, z in enumerate(c.zones):
            d = z.decl
            count = self.max_players if z.owner == "player" else (self.team_count if z.owner == "team" else 1)
            base = len(inst_names)
            self.zone_base[d.name] = base
            elem = z.type.elem
            zones.append(ZoneInfo(d.name, z.owner, z.seen, base, count, getattr(elem, "name", "Card")))
            for k in range(count):
                if z.owner == "player":
                    inst_names.append(f"{d.name} of player {k + 1}")
                    inst_owner.append(k)
                elif z.owner == "team":
                    inst_names.append(f"{d.name} of team {c.teams[k]}")
                    inst_owner.append(-(k + 2))
                else:
                    inst_names.append(d.name)
                    inst_owner.append(-1)
                inst_zone.append(zi)
        self.zone_instance_names = tuple(inst_names)
        self.zone_instance_owner = tuple(inst_owner)
        # options and vars share the variable slots
        options = []
        for o in c.options:
            d = o.decl
            values = d.domain.values if o.kind == "choice" else o.values
            options.append(OptionInfo(d.name, o.kind, tuple(values), o.default, d.doc, o.slot))
        var_infos = []
        for v in c.vars:
            d = v.decl
            init = self.expr(d.init) if d.init is not None else None
            var_infos.append(VarInfo(d.name, v.owner, v.slot, init, _default_of(v.type), self.slots.get(id(d), 0),
                                     self.formatter(v.type)))
        # rules and defs
        self.rule_index = {name: i for i, name in enumerate(c.rules)}
        codes = [self.rule(sym) for sym in c.rules.values()]
        score = tiebreak = None
        if "score" in c.scores:
            d = c.scores["score"]
            score = (self.expr(d.value), c.score_slots["score"])
        if "tiebreak" in c.scores:
            d = c.scores["tiebreak"]
            tiebreak = (self.expr(d.value), c.score_slots["tiebreak"])
        invariants = [(d.name, self.expr(d.value), self.slots.get(id(d), 0), d.span) for d in c.invariants]
        return Program(
            title=c.title, min_players=c.min_players, max_players=c.max_players, teams=c.teams,
            options=options, card_names=self.card_names, card_types=tuple(self.builder.types),
            cards_by_type=self.cards_by_type, zones=zones, zone_instance_names=self.zone_instance_names,
            zone_instance_owner=self.zone_instance_owner, zone_instance_zone=tuple(inst_zone),
            vars=var_infos, var_count=max([o.slot for o in c.options] + [v.slot for v in c.vars] + [-1]) + 1,
            codes=codes, rule_index=self.rule_index, choices=self.choices, action_count=self.action_count,
            score=score, tiebreak=tiebreak, invariants=invariants,
        )

    def card_name(self, i):
        tname = self.builder.types[i]
        values = self.builder.values[i]
        csym = self.c.globals[tname]
        fields = sorted(csym.fields.items(), key=lambda kv: kv[1][0])
        if csym.decl.named is not None:
            fn = self.expr(csym.decl.named)
            frame = [None, 0] + list(values) + [None] * (self.slots.get(id(csym.decl), 0) - len(values))
            try:
                return fn(_ConstantState(self), frame)
            except Exception:
                pass
        shown = [self.formatter(t)(_ConstantState(self), v) for (_, (pos, t)), v in zip(fields, values)]
        return f"{tname} " + " ".join(shown)

    def constant(self, node, decl, frame_size):
        """Evaluate a load-time expression (card sets); report if it needs the game."""
        fn = self.expr(node)
        try:
            return fn(_ConstantState(self), [None, 0] + [None] * frame_size)
        except _NeedsGame:
            self.diags.append(Diagnostic(node.span, "cards are fixed when the game loads: this cannot use options, players or the game's state",
                                         "make all the cards here, then move only some of them into play in `rule setup`"))
        except RuleFailure as e:
            self.diags.append(Diagnostic(node.span, str(e)))
        return None

    # ============================================================ rules
    def rule(self, sym: RuleSym) -> Code:
        d = sym.decl
        self.ops: list = []
        self.spans: list = []
        self.rule_name = d.name.split("@")[0]
        self.block(d.body)
        self.emit(lambda: _return, d.span)
        ops = [make() for make in self.ops]
        return Code(d.name, d.span, ops, self.spans, sym.frame_size, len(sym.params))

    def emit(self, make, span) -> int:
        self.ops.append(make)
        self.spans.append(span)
        return len(self.ops) - 1

    def here(self) -> int:
        return len(self.ops)

    def block(self, stmts):
        for s in stmts:
            getattr(self, "st_" + type(s).__name__)(s)

    def simple(self, fn, span):
        nxt = self.here() + 1

        def make():
            def op(m, fr):
                fn(m, fr)
                return nxt
            return op
        self.emit(make, span)

    def jump(self, label, span):
        self.emit(lambda: (lambda m, fr: label.pc), span)

    def jump_unless(self, cond, label, span):
        nxt = self.here() + 1

        def make():
            target = label.pc

            def op(m, fr):
                return nxt if cond(m, fr) else target
            return op
        self.emit(make, span)

    def mark(self, label):
        label.pc = self.here()

    # --------------------------------------------------------- statements
    def st_Let(self, s: ast.Let):
        value = self.expr(s.value)
        i = self.slots[id(s)] + OFFSET

        def let(m, fr):
            fr[i] = value(m, fr)
        self.simple(let, s.span)

    def st_Assign(self, s: ast.Assign):
        value = self.expr(s.value)
        target = s.target
        sym = self.refs.get(id(target))
        op = s.op
        if isinstance(sym, LocalSym):
            i = sym.slot + OFFSET
            if op == "=":
                def assign(m, fr):
                    fr[i] = value(m, fr)
            else:
                sign = 1 if op == "+=" else -1

                def assign(m, fr):
                    fr[i] += sign * value(m, fr)
        elif isinstance(sym, VarSym) and not sym.owner:
            k = sym.slot
            if op == "=":
                def assign(m, fr):
                    m.vars[k] = value(m, fr)
            else:
                sign = 1 if op == "+=" else -1

                def assign(m, fr):
                    m.vars[k] += sign * value(m, fr)
        elif isinstance(sym, VarSym):
            k = sym.slot
            who = self.expr(target.obj)
            if op == "=":
                def assign(m, fr):
                    m.vars[k][who(m, fr)] = value(m, fr)
            else:
                sign = 1 if op == "+=" else -1

                def assign(m, fr):
                    m.vars[k][who(m, fr)] += sign * value(m, fr)
        else:  # pragma: no cover - the checker rejects every other target
            raise AssertionError(target)
        self.simple(assign, s.span)

    def st_Move(self, s: ast.Move):
        what = self.expr(s.what)
        to = self.expr(s.to)
        wtyp = self.types[id(s.what)]
        bottom = s.bottom
        if isinstance(wtyp, T.ZoneT):
            def move(m, fr):
                src = what(m, fr)
                dst = to(m, fr)
                if src == dst:
                    return
                cards = m.zones[src]
                if not cards:
                    return
                m.zones[src] = []
                where = m.where
                for c in cards:
                    where[c] = dst
                if bottom:
                    m.zones[dst][0:0] = cards
                else:
                    m.zones[dst].extend(cards)
        elif isinstance(wtyp, T.ListT):
            def move(m, fr):
                dst = to(m, fr)
                for c in what(m, fr):
                    _move_card(m, c, dst, bottom)
        else:
            def move(m, fr):
                _move_card(m, what(m, fr), to(m, fr), bottom)
        self.simple(move, s.span)

    def st_Shuffle(self, s: ast.Shuffle):
        zone = self.expr(s.zone)

        def shuffle(m, fr):
            rng.shuffle(m, m.zones[zone(m, fr)])
        self.simple(shuffle, s.span)

    def st_Say(self, s: ast.Say):
        text = self.expr(s.text)

        def say(m, fr):
            if m.sink is not None:
                m.sink.append(text(m, fr))
        self.simple(say, s.span)

    def st_ExprStmt(self, s: ast.ExprStmt):
        call = s.expr
        sym = self.refs[id(call)]
        target = self.rule_index[sym.decl.name]
        args = [self.expr(a) for a in call.args]
        size = sym.frame_size
        pad = [None] * (size - len(args))
        nxt = self.here() + 1

        def make():
            def op(m, fr):
                frame = [target, 0]
                for a in args:
                    frame.append(a(m, fr))
                frame.extend(pad)
                fr[1] = nxt
                m.stack.append(frame)
                return CALLED
            return op
        self.emit(make, s.span)

    def st_Pass(self, s):
        pass

    def st_Stop(self, s):
        self.emit(lambda: _return, s.span)

    def st_If(self, s: ast.If):
        end = _Label()
        for cond, body in s.branches:
            nxt = _Label()
            self.jump_unless(self.expr(cond), nxt, cond.span)
            self.block(body)
            self.jump(end, s.span)
            self.mark(nxt)
        if s.otherwise is not None:
            self.block(s.otherwise)
        self.mark(end)

    def st_For(self, s: ast.For):
        seq = self.as_sequence(self.expr(s.iterable), self.types[id(s.iterable)])
        li = self.slots[(id(s), "list")] + OFFSET
        ii = self.slots[(id(s), "index")] + OFFSET
        vi = self.slots[id(s)] + OFFSET

        def init(m, fr):
            fr[li] = tuple(seq(m, fr))
            fr[ii] = 0
        self.simple(init, s.span)
        top = self.here()
        end = _Label()
        body = top + 1

        def make():
            exit_pc = end.pc

            def step(m, fr):
                i = fr[ii]
                xs = fr[li]
                if i >= len(xs):
                    fr[li] = None
                    return exit_pc
                fr[vi] = xs[i]
                fr[ii] = i + 1
                return body
            return step
        self.emit(make, s.span)
        self.block(s.body)
        self.emit(lambda: (lambda m, fr: top), s.span)
        self.mark(end)

    def st_While(self, s: ast.While):
        top = self.here()
        end = _Label()
        self.jump_unless(self.expr(s.cond), end, s.cond.span)
        self.block(s.body)
        self.emit(lambda: (lambda m, fr: top), s.span)
        self.mark(end)

    def st_Repeat(self, s: ast.Repeat):
        count = self.expr(s.count)
        ci = self.slots[(id(s), "count")] + OFFSET

        def init(m, fr):
            fr[ci] = count(m, fr)
        self.simple(init, s.span)
        top = self.here()
        end = _Label()
        body = top + 1

        def make():
            exit_pc = end.pc

            def step(m, fr):
                left = fr[ci]
                if left <= 0:
                    return exit_pc
                fr[ci] = left - 1
                return body
            return step
        self.emit(make, s.span)
        self.block(s.body)
        self.emit(lambda: (lambda m, fr: top), s.span)
        self.mark(end)

    def st_Choose(self, s: ast.Choose):
        chooser = self.expr(s.chooser)
        dtyp = self.types[id(s.domain)]
        domain_node = s.domain
        elem = self._choice_elem(domain_node, dtyp)
        seq = self.as_sequence(self.expr(domain_node), dtyp)
        dedupe = not isinstance(dtyp, T.ZoneT)
        vi = self.slots[id(s)] + OFFSET
        where = self.expr(s.where) if s.where is not None else None
        size, position, value_at = self.universe(elem, domain_node)
        fmt = self.formatter(elem)
        if s.label is not None:
            label = self.expr(s.label)
        else:
            verb = "choose"

            def label(m, fr):
                return f"{verb} {fmt(m, fr[vi])}"
        pass_label = self.expr(s.pass_label) if s.pass_label is not None else (lambda m, fr: "pass")
        info = ChoiceInfo(len(self.choices), self.rule_name, s.span, s.may, self.action_count, size, position,
                          value_at, vi, label, pass_label)
        self.action_count += size + (1 if s.may else 0)
        self.choices.append(info)
        me = self.here()
        info.body_pc = me + 1
        end = _Label()
        skip = _Label()
        may = s.may
        index = info.index

        def make():
            skip_pc = skip.pc

            def choose(m, fr):
                xs = seq(m, fr)
                if where is not None:
                    kept = []
                    for x in xs:
                        fr[vi] = x
                        if where(m, fr):
                            kept.append(x)
                    xs = kept
                    fr[vi] = None
                if dedupe:
                    xs = tuple(dict.fromkeys(xs))
                else:
                    xs = tuple(xs)
                if not xs:
                    return skip_pc
                m.pending = (index, chooser(m, fr), xs)
                fr[1] = me
                return WAITING
            return choose
        self.emit(make, s.span)
        self.block(s.body)
        self.jump(end, s.span)
        self.mark(skip)
        info.else_pc = skip.pc
        if s.otherwise is not None:
            self.block(s.otherwise)
        self.mark(end)
        if not s.may:
            info.else_pc = end.pc

    def _choice_elem(self, node, typ):
        if isinstance(node, ast.Name) and isinstance(self.refs.get(id(node)), (EnumSym, CardSym)):
            return typ.elem
        return T.element_of(typ)

    def universe(self, elem, domain_node):
        """(size, value -> position, position -> value) of a choice's fixed universe of options."""
        if isinstance(elem, T.CardT):
            ids = self.cards_by_type.get(elem.name, ())
            pos = {c: i for i, c in enumerate(ids)}
            return len(ids), pos.__getitem__, ids.__getitem__
        if elem is T.ANYCARD or elem is T.ANY and False:
            n = len(self.builder.types)
            return n, int, int
        if isinstance(elem, T.EnumT):
            return len(elem.values), int, int
        if elem is T.PLAYER:
            return self.max_players, int, int
        if elem is T.TEAM:
            return self.team_count, int, int
        if elem is T.BOOL:
            return 2, int, bool
        if elem is T.INT and isinstance(domain_node, ast.RangeLit):
            lo = domain_node.lo
            return domain_node.hi - lo + 1, (lambda v: v - lo), (lambda p: p + lo)
        n = len(self.builder.types)
        return n, int, int

    # ======================================================== expressions
    def expr(self, e):
        return getattr(self, "ex_" + type(e).__name__)(e)

    def ex_IntLit(self, e):
        v = e.value
        return lambda m, fr: v

    def ex_BoolLit(self, e):
        v = e.value
        return lambda m, fr: v

    def ex_RangeLit(self, e):
        v = tuple(range(e.lo, e.hi + 1))
        return lambda m, fr: v

    def ex_Template(self, e: ast.Template):
        pieces = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append((part, None))
            else:
                pieces.append((self.expr(part), self.formatter(self.types[id(part)])))
        if all(f is None for _, f in pieces):
            text = "".join(p for p, _ in pieces)
            return lambda m, fr: text

        def template(m, fr):
            out = []
            for p, f in pieces:
                out.append(p if f is None else f(m, p(m, fr)))
            return "".join(out)
        return template

    def ex_Name(self, e: ast.Name):
        sym = self.refs[id(e)]
        if isinstance(sym, LocalSym):
            i = sym.slot + OFFSET
            return lambda m, fr: fr[i]
        if isinstance(sym, (OptionSym, VarSym)):
            k = sym.slot
            return lambda m, fr: m.vars[k]
        if isinstance(sym, EnumValueSym):
            v = sym.index
            return lambda m, fr: v
        if isinstance(sym, EnumSym):
            v = tuple(range(len(sym.type.values)))
            return lambda m, fr: v
        if isinstance(sym, CardSym):
            v = self.cards_by_type.get(sym.decl.name, ())
            return lambda m, fr: v
        if isinstance(sym, CardsSym):
            name = sym.decl.name
            cell = self.card_sets if hasattr(self, "card_sets") else None
            if cell is None or name not in cell:
                def card_set(m, fr):
                    raise _NeedsGame()
                return card_set
            v = cell[name]
            return lambda m, fr: v
        if isinstance(sym, ZoneSym):
            base = self.zone_base[sym.decl.name]
            return lambda m, fr: base
        if isinstance(sym, DefSym):
            return self.def_call(sym, [])
        if isinstance(sym, BuiltinValue):
            if sym.name == "players":
                table = self.players_by_n
                return lambda m, fr: table[m.n]
            if sym.name == "player_count":
                return lambda m, fr: m.n
            if sym.name == "teams":
                v = tuple(range(self.team_count))
                return lambda m, fr: v
        raise AssertionError(f"unresolved name {e.id}")

    def def_call(self, sym: DefSym, args):
        name = sym.decl.name
        if name not in self.def_cells:
            cell = [None]
            self.def_cells[name] = cell
            cell[0] = self.expr(sym.decl.body)
        cell = self.def_cells[name]
        size = sym.frame_size
        if not args and size <= 1 and not sym.params and not _uses_locals(sym.decl.body):
            return lambda m, fr: cell[0](m, fr)
        pad = [None] * max(0, size - len(args))
        nargs = len(args)
        if nargs == 1:
            a0 = args[0]

            def call1(m, fr):
                return cell[0](m, [None, 0, a0(m, fr), *pad])
            return call1

        def call(m, fr):
            frame = [None, 0]
            for a in args:
                frame.append(a(m, fr))
            frame.extend(pad)
            return cell[0](m, frame)
        return call

    def ex_Attr(self, e: ast.Attr):
        ref = self.refs.get(id(e))
        if isinstance(ref, EnumValueSym):
            v = ref.index
            return lambda m, fr: v
        obj = self.expr(e.obj)
        if ref == "owner":
            owners = self.zone_instance_owner
            names = self.card_names if hasattr(self, "card_names") else None

            def owner(m, fr):
                c = obj(m, fr)
                where = m.where[c]
                p = owners[where] if where >= 0 else -1
                if p < 0:
                    raise RuleFailure(f"{m.program.card_names[c]} is not in a player's zone, so it has no owner")
                return p
            return owner
        if ref == "team":
            t = self.team_count
            return lambda m, fr: obj(m, fr) % t
        if ref == "seat":
            return lambda m, fr: obj(m, fr) + 1
        if isinstance(ref, tuple) and ref[0] == "field":
            table = self.card_field_tables.get((ref[1], ref[2])) if hasattr(self, "card_field_tables") else None
            if table is None:
                def need(m, fr):
                    raise _NeedsGame()
                return need
            return lambda m, fr: table[obj(m, fr)]
        if isinstance(ref, ZoneSym):
            base = self.zone_base[ref.decl.name]
            return lambda m, fr: base + obj(m, fr)
        if isinstance(ref, VarSym):
            k = ref.slot
            return lambda m, fr: m.vars[k][obj(m, fr)]
        raise AssertionError(f"unresolved attribute {e.name}")

    def ex_Call(self, e: ast.Call):
        ref = self.refs.get(id(e))
        if isinstance(ref, DefSym):
            return self.def_call(ref, [self.expr(a) for a in e.args])
        if isinstance(ref, CardSym):
            args = [self.expr(a) for a in e.args]
            builder = self.builder
            tname = ref.decl.name

            def make_card(m, fr):
                if not isinstance(m, _ConstantState):
                    raise RuleFailure("cards can only be made when the game loads")
                return builder.make(tname, [a(m, fr) for a in args])
            return make_card
        if isinstance(ref, tuple) and ref[0] == "builtin":
            name = ref[1]
            arg = e.args[0]
            typ = self.types[id(arg)]
            if isinstance(arg, ast.BestBy):
                seq = self.as_sequence(self.expr(arg.iterable), self.types[id(arg.iterable)])
                best = (seq, self.slots[id(arg)] + OFFSET, self.expr(arg.key))
                return RUNTIME[name](None, typ, self, best)
            return RUNTIME[name](self.expr(arg), typ, self, None)
        raise AssertionError(f"unresolved call {e.func}")

    def ex_Index(self, e: ast.Index):
        seq = self.as_sequence(self.expr(e.obj), self.types[id(e.obj)])
        idx = self.expr(e.index)

        def index(m, fr):
            xs = seq(m, fr)
            i = idx(m, fr)
            if not -len(xs) <= i < len(xs):
                raise RuleFailure(f"index {i} is outside a list of {len(xs)}")
            return xs[i]
        return index

    def ex_ListLit(self, e: ast.ListLit):
        parts = []
        for item in e.items:
            fn = self.expr(item)
            parts.append((fn, isinstance(item, ast.Comprehension)))
        if len(parts) == 1 and parts[0][1]:
            return parts[0][0]

        def list_lit(m, fr):
            out = []
            for fn, splice in parts:
                if splice:
                    out.extend(fn(m, fr))
                else:
                    out.append(fn(m, fr))
            return tuple(out)
        return list_lit

    def ex_Cond(self, e: ast.Cond):
        test, a, b = self.expr(e.test), self.expr(e.then), self.expr(e.other)
        return lambda m, fr: a(m, fr) if test(m, fr) else b(m, fr)

    def ex_BinOp(self, e: ast.BinOp):
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op == "+":
            if isinstance(self.types[id(e)], T.ListT):
                sa = self.as_sequence(a, self.types[id(e.left)])
                sb = self.as_sequence(b, self.types[id(e.right)])
                return lambda m, fr: tuple(sa(m, fr)) + tuple(sb(m, fr))
            return lambda m, fr: a(m, fr) + b(m, fr)
        if op == "-":
            return lambda m, fr: a(m, fr) - b(m, fr)
        if op == "*":
            return lambda m, fr: a(m, fr) * b(m, fr)

        def guarded(fn):
            def div(m, fr):
                d = b(m, fr)
                if d == 0:
                    raise RuleFailure("division by zero")
                return fn(a(m, fr), d)
            return div
        if op == "/":
            return guarded(lambda x, y: x // y)
        return guarded(lambda x, y: x % y)

    def ex_Compare(self, e: ast.Compare):
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        if op in ("in", "not in"):
            rtyp = self.types[id(e.right)]
            if isinstance(rtyp, T.ZoneT):
                if op == "in":
                    return lambda m, fr: m.where[a(m, fr)] == b(m, fr)
                return lambda m, fr: m.where[a(m, fr)] != b(m, fr)
            if op == "in":
                return lambda m, fr: a(m, fr) in b(m, fr)
            return lambda m, fr: a(m, fr) not in b(m, fr)
        return {
            "==": lambda m, fr: a(m, fr) == b(m, fr),
            "!=": lambda m, fr: a(m, fr) != b(m, fr),
            "<": lambda m, fr: a(m, fr) < b(m, fr),
            ">": lambda m, fr: a(m, fr) > b(m, fr),
            "<=": lambda m, fr: a(m, fr) <= b(m, fr),
            ">=": lambda m, fr: a(m, fr) >= b(m, fr),
        }[op]

    def ex_BoolOp(self, e: ast.BoolOp):
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op == "and":
            return lambda m, fr: a(m, fr) and b(m, fr)
        return lambda m, fr: a(m, fr) or b(m, fr)

    def ex_Not(self, e):
        a = self.expr(e.operand)
        return lambda m, fr: not a(m, fr)

    def ex_Neg(self, e):
        a = self.expr(e.operand)
        return lambda m, fr: -a(m, fr)

    def ex_Comprehension(self, e: ast.Comprehension):
        loops = []
        for f in e.fors:
            seq = self.as_sequence(self.expr(f.iterable), self.types[id(f.iterable)])
            cond = self.expr(f.cond) if f.cond is not None else None
            loops.append((seq, self.slots[id(f)] + OFFSET, cond))
        element = self.expr(e.element)
        if len(loops) == 1:
            seq, vi, cond = loops[0]
            if cond is None:
                def comp1(m, fr):
                    out = []
                    for x in seq(m, fr):
                        fr[vi] = x
                        out.append(element(m, fr))
                    return tuple(out)
                return comp1

            def comp1f(m, fr):
                out = []
                for x in seq(m, fr):
                    fr[vi] = x
                    if cond(m, fr):
                        out.append(element(m, fr))
                return tuple(out)
            return comp1f

        def comp(m, fr):
            out = []

            def walk(k):
                if k == len(loops):
                    out.append(element(m, fr))
                    return
                seq, vi, cond = loops[k]
                for x in seq(m, fr):
                    fr[vi] = x
                    if cond is None or cond(m, fr):
                        walk(k + 1)
            walk(0)
            return tuple(out)
        return comp

    def ex_BestBy(self, e):  # pragma: no cover - only reached through max/min/sort
        raise AssertionError("BestBy outside a builtin")

    # ============================================================ helpers
    def as_sequence(self, fn, typ):
        """A closure giving the elements of a list or a zone (zones: their cards, bottom first)."""
        if isinstance(typ, T.ZoneT):
            return lambda m, fr: m.zones[fn(m, fr)]
        return fn

    def formatter(self, typ):
        """value -> text for people, by static type."""
        if typ is T.PLAYER:
            return lambda m, v: m.names[v] if 0 <= v < len(m.names) else f"Player {v + 1}"
        if isinstance(typ, T.CardT) or typ is T.ANYCARD:
            return lambda m, v: m.program.card_names[v] if v is not None else "no card"
        if isinstance(typ, T.EnumT):
            values = typ.values
            return lambda m, v: values[v]
        if typ is T.TEAM:
            teams = self.c.teams
            return lambda m, v: teams[v]
        if typ is T.BOOL:
            return lambda m, v: "yes" if v else "no"
        if isinstance(typ, T.ListT):
            inner = self.formatter(typ.elem)
            return lambda m, v: ", ".join(inner(m, x) for x in v) if v else "nothing"
        if isinstance(typ, T.ZoneT):
            inner = self.formatter(typ.elem)
            return lambda m, v: ", ".join(inner(m, x) for x in m.zones[v]) if m.zones[v] else "nothing"
        return lambda m, v: str(v)

    @property
    def zone_instance_names_(self):
        return self.zone_instance_names


class _NeedsGame(Exception):
    pass


class _ConstantState:
    """Stands in for a game while cards are made at load: any use of the game fails."""

    def __init__(self, compiler):
        self._compiler = compiler
        self.names = ()

    @property
    def program(self):
        c = self._compiler

        class _P:
            card_names = getattr(c, "card_names", ())
        return _P

    def __getattr__(self, name):
        raise _NeedsGame()


def _move_card(m, c, dst, bottom):
    src = m.where[c]
    if src == dst and not bottom:
        z = m.zones[dst]
        z.remove(c)
        z.append(c)
        return
    if src >= 0:
        m.zones[src].remove(c)
    if bottom:
        m.zones[dst].insert(0, c)
    else:
        m.zones[dst].append(c)
    m.where[c] = dst


def _return(m, fr):
    m.stack.pop()
    return CALLED


def _uses_locals(node) -> bool:
    """Does an expression bind locals (comprehensions, `by`)? Then it needs its own frame."""
    if isinstance(node, (ast.Comprehension, ast.BestBy)):
        return True
    for field in getattr(type(node), "__attrs_attrs__", ()):
        v = getattr(node, field.name)
        items = v if isinstance(v, tuple) else (v,)
        for item in items:
            if hasattr(type(item), "__attrs_attrs__") and _uses_locals(item):
                return True
    return False


def _default_of(typ):
    if typ is T.INT:
        return 0
    if typ is T.BOOL:
        return False
    if typ is T.PLAYER or typ is T.TEAM or isinstance(typ, T.EnumT):
        return 0
    if isinstance(typ, T.ListT):
        return ()
    return None
