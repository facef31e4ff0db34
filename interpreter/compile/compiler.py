"""Checked program → closures.

Expressions become closures `f(state, frame)`; a rule becomes a flat list of
operations `op(state, frame) -> next pc` (negative: the frame stack changed, or
a decision is pending). Every name was resolved by the checker; here each one
becomes a slot index or a constant, so the inner loop does no look-ups by name.
"""
from __future__ import annotations

import re

from ..check import types as T
from ..check.checker import (BuiltinValue, TeamValue, CardSym, CardsSym, DefSym, EnumSym, EnumValueSym, LocalSym,
                             OptionSym, RuleSym, VarSym, ZoneSym)
from ..diagnostics import Diagnostic, did_you_mean
from ..syntax import ast
from .builtins import HELPERS, source as builtin_source
from .codecache import CodeCache
from .native import NativeMixin
from .errors import RuleFailure, StepBudgetSpent
from .program import AnytimeInfo, ChoiceInfo, Code, OptionInfo, Program, VarInfo, ZoneInfo

TICK_LINES = ["m.ticks -= 1", "if m.ticks < 0: raise StepBudgetSpent()"]
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


class Compiler(NativeMixin):
    def __init__(self, checked, diags, cache_key: str | None = None):
        self.c = checked
        self.code_cache = CodeCache(cache_key)
        self.diags = diags
        self.types = checked.types
        self.refs = checked.refs
        self.slots = checked.slots
        self.builder = _CardBuilder()
        self.frame_ctx = False        # compiling inside a rule (locals live in the frame)?
        self.pyslots: set = set()     # slots bound as Python variables (comprehensions, `by`)
        self.const_names: dict = {}
        self.keep: list = []
        self.def_names: dict = {}
        self.positions: dict = {}
        self.inlining: set = set()
        self.subst = None             # while a def is inlined: its parameter slots -> argument source
        self.env = dict(HELPERS)
        self.env["__builtins__"] = {"len": len, "tuple": tuple, "sum": sum, "any": any, "all": all, "abs": abs, "dict": dict,
                                    "range": range, "reversed": reversed, "int": int, "str": str, "True": True, "False": False}
        self.env["rt_needs_game"] = _needs_game
        self.anytime_offers: list = []   # (option id, closure(m, player) -> offered?), filled after the rules
        self.anytime_info: dict = {}
        self.env["ANYTIME"] = self.anytime_offers
        self.env["StepBudgetSpent"] = StepBudgetSpent
        self.native_lines: dict = {}
        self.native_names: dict = {}
        self.native_ops = 0
        self.temp_count = 0
        self.env["rt_make_card"] = self._make_card
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
            ids = self.constant(sym.decl.value)
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
        self.card_namers: dict = {}
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
            init = self.function("m", d.init) if d.init is not None else None
            size = 0
            vtype = v.type
            if isinstance(vtype, T.TableT):
                size = self.key_count(vtype.key)
                vtype = vtype.value
            var_infos.append(VarInfo(d.name, v.owner, v.slot, init, _default_of(vtype), 0, self.formatter(v.type), size))
        # rules and defs
        self.rule_index = {name: i for i, name in enumerate(c.rules)}
        for h in c.handlers:
            self.rule_index[h.name] = len(self.rule_index)
        for a in c.anytimes:
            self.rule_index[a.name] = len(self.rule_index)
        arranges = [(sc, step) for sc in c.scenarios for step in sc.steps if step.kind == "arrange"]
        for sc, _step in arranges:
            self.rule_index[f"arrange {sc.name}"] = len(self.rule_index)
        keyed = {name: sym for name, sym in c.rules.items()}
        keyed.update({h.name: h for h in c.handlers})
        keyed.update({a.name: a for a in c.anytimes})
        self.analyse_suspension(keyed)
        for i, key in enumerate(keyed):
            if not self.suspends[key]:
                self.native_names[key] = f"R{i}"
        for key, sym in keyed.items():
            if not self.suspends[key]:
                where = sym.decl.where if isinstance(sym.decl, (ast.WhenDecl, ast.AnytimeDecl)) else None
                label = key if isinstance(sym.decl, (ast.WhenDecl, ast.AnytimeDecl)) else f"rule {key.split('@')[0]}"
                self.native_function(self.native_names[key], sym, label, where)
        codes = [self.rule(sym) for sym in c.rules.values()]
        codes += [self.handler(h) for h in c.handlers]
        codes += [self.handler(a) for a in c.anytimes]
        codes += [self.block_code(f"arrange {sc.name}", step.span, step.value, self.slots.get(id(step), 0))
                  for sc, step in arranges]
        for a in c.anytimes:
            offer = self.function("m, v0", a.decl.where) if a.decl.where is not None else (lambda m, who: True)
            self.anytime_offers.append((self.action_count, offer))
            self.anytime_info[self.action_count] = AnytimeInfo(a.decl.name, self.rule_index[a.name],
                                                               self.function("m, v0", a.decl.label), a.frame_size)
            self.action_count += 1
        score = self.function("m, v0", c.scores["score"].value) if "score" in c.scores else None
        tiebreak = self.function("m, v0", c.scores["tiebreak"].value) if "tiebreak" in c.scores else None
        invariants = [(d.name, self.function("m", d.value), 0, d.span) for d in c.invariants]
        scenario_fns = {}
        for sc in c.scenarios:
            for step in sc.steps:
                if step.kind in ("expect", "take", "legal", "illegal"):
                    scenario_fns[id(step)] = self.function("m", step.value)
                if step.kind == "expect" and isinstance(step.value, ast.Compare):
                    # both sides, shown for people, to explain a failed comparison
                    sides = []
                    for side in (step.value.left, step.value.right):
                        value = self.function("m", side)
                        fmt = self.formatter(self.types[id(side)])
                        sides.append((side.span, value, fmt))
                    scenario_fns[(id(step), "sides")] = (step.value.op, sides)
        return Program(
            title=c.title, min_players=c.min_players, max_players=c.max_players, teams=c.teams,
            options=options, card_names=self.card_names, card_types=tuple(self.builder.types),
            cards_by_type=self.cards_by_type, zones=zones, zone_instance_names=self.zone_instance_names,
            zone_instance_owner=self.zone_instance_owner, zone_instance_zone=tuple(inst_zone),
            vars=var_infos, var_count=max([o.slot for o in c.options] + [v.slot for v in c.vars] + [-1]) + 1,
            codes=codes, rule_index=self.rule_index, choices=self.choices, action_count=self.action_count,
            score=score, tiebreak=tiebreak, invariants=invariants, scenarios=list(c.scenarios), limit=c.limit,
            native_lines=self.native_lines, anytimes=self.anytime_info,
            table_sheet=[self.function("m", line) for line in c.sheets["table"].lines] if "table" in c.sheets else [],
            player_sheet=[self.function("m, v0", line) for line in c.sheets["player"].lines]
            if "player" in c.sheets else [],
            scenario_fns=scenario_fns,
        )

    def key_count(self, key) -> int:
        if isinstance(key, T.EnumT):
            return len(key.values)
        if isinstance(key, T.CardT):
            return len(self.cards_by_type.get(key.name, ()))
        if key is T.PLAYER:
            return self.max_players
        return key[2] - key[1] + 1

    def card_positions(self, type_name):
        """card id -> its position among the cards of its type (the slot in a table keyed by that type)."""
        if type_name not in self.positions:
            table = [None] * len(self.builder.types)
            for i, c in enumerate(self.cards_by_type.get(type_name, ())):
                table[c] = i
            self.positions[type_name] = tuple(table)
        return self.positions[type_name]

    def card_name(self, i):
        tname = self.builder.types[i]
        values = self.builder.values[i]
        csym = self.c.globals[tname]
        fields = sorted(csym.fields.items(), key=lambda kv: kv[1][0])
        if csym.decl.named is not None:
            if tname not in self.card_namers:
                params = ", ".join(["m"] + [f"v{k}" for k in range(len(fields))])
                self.card_namers[tname] = self.function(params, csym.decl.named)
            try:
                return self.card_namers[tname](_ConstantState(self), *values)
            except (_NeedsGame, RuleFailure):
                pass
        shown = [self.formatter(t)(_ConstantState(self), v) for (_, (pos, t)), v in zip(fields, values)]
        return f"{tname} " + " ".join(shown)

    def _make_card(self, m, type_name, values):
        if not isinstance(m, _ConstantState):
            raise RuleFailure("cards can only be made when the game loads")
        return self.builder.make(type_name, values)

    def constant(self, node):
        """Evaluate a load-time expression (card sets); report if it needs the game."""
        fn = self.function("m", node)
        try:
            return fn(_ConstantState(self))
        except _NeedsGame:
            self.diags.append(Diagnostic(node.span, "cards are fixed when the game loads: this cannot use options, players or the game's state",
                                         "make all the cards here, then move only some of them into play in `rule setup`"))
        except RuleFailure as e:
            self.diags.append(Diagnostic(node.span, str(e)))
        return None

    # ============================================================ rules
    def native_code(self, key, sym) -> Code:
        """The VM face of a rule compiled to Python: one operation that calls it and returns."""
        fn = self.env[self.native_names[key]]
        n = len(sym.params)
        args = ", ".join(f"fr[{i + OFFSET}]" for i in range(n))
        op = eval(self.code_cache.compile(f"lambda m, fr: (F(m{', ' if n else ''}{args}), m.stack.pop(), {CALLED})[2]",
                                          "<rules>", "eval"), {"F": fn})
        return Code(sym.decl.name if not sym.name else sym.name, sym.decl.span, [op], [sym.decl.span],
                    sym.frame_size, n)

    def rule(self, sym: RuleSym) -> Code:
        d = sym.decl
        if not self.suspends.get(d.name, True):
            return self.native_code(d.name, sym)
        self.ops: list = []
        self.spans: list = []
        self.jumps: dict = {}
        self.rule_name = d.name.split("@")[0]
        self.frame_ctx, self.pyslots = True, set()
        self.block(d.body)
        self.emit(lambda: _return, d.span)
        ops = [make() for make in self.ops]
        return Code(d.name, d.span, ops, self.spans, sym.frame_size, len(sym.params))

    def handler(self, sym) -> Code:
        """A `when` handler: its `where` is checked when it starts (after earlier handlers ran)."""
        d = sym.decl
        if not self.suspends.get(sym.name, True):
            return self.native_code(sym.name, sym)
        self.ops, self.spans, self.jumps = [], [], {}
        self.rule_name = sym.name
        self.frame_ctx, self.pyslots = True, set()
        if d.where is not None:
            done = _Label()
            self.jump_unless(d.where, done, d.where.span)
            self.block(d.body)
            self.mark(done)
        else:
            self.block(d.body)
        self.emit(lambda: _return, d.span)
        return Code(sym.name, d.span, [make() for make in self.ops], self.spans, sym.frame_size, len(sym.params))

    def block_code(self, name, span, body, frame_size) -> Code:
        self.ops, self.spans, self.jumps = [], [], {}
        self.rule_name = name
        self.frame_ctx, self.pyslots = True, set()
        self.block(body)
        self.emit(lambda: _return, span)
        return Code(name, span, [make() for make in self.ops], self.spans, frame_size, 0)

    def emit(self, make, span) -> int:
        self.ops.append(make)
        self.spans.append(span)
        return len(self.ops) - 1

    def here(self) -> int:
        return len(self.ops)

    def block(self, stmts):
        """Statements of a rule that can suspend: waiting ones on the VM, runs of the others as Python."""
        run = []
        for s in stmts:
            if self.needs_vm(s):
                self.native_run(run)
                run = []
                getattr(self, "st_" + type(s).__name__)(s)
            else:
                run.append(s)
        self.native_run(run)

    def jump(self, label, span):
        """A plain jump; operations that would land on it go straight to its target (see `resolve`)."""
        pc = self.emit(lambda: (lambda m, fr: self.resolve(label.pc)), span)
        self.jumps[pc] = label

    def resolve(self, pc: int) -> int:
        """Follow plain jumps from `pc` to the first real operation (only valid once labels are placed)."""
        seen = set()
        while pc in self.jumps and pc not in seen:
            seen.add(pc)
            pc = self.jumps[pc].pc
        return pc

    def jump_unless(self, cond_node, label, span, tick=False):
        lines = TICK_LINES if tick else []
        self.gen_op(lines + [f"if not ({_braces(self.src(cond_node))}): return {{0}}"], span, (label,))

    def gen_op(self, lines, span, jumps=()):
        """Emit an operation from Python source lines (over m, fr); `return NEXT` is appended.

        `jumps` are labels whose pcs the lines use as {0}, {1}, ... (filled in once known, and
        resolved through plain jumps, as is NEXT).
        """
        nxt = self.here() + 1
        env = self.env

        def make():
            body = [line.format(*[self.resolve(lab.pc) for lab in jumps]) for line in lines]
            code = "def op(m, fr):\n" + "".join(f"    {line}\n" for line in body) + f"    return {self.resolve(nxt)}\n"
            scope = {}
            exec(self.code_cache.compile(code, "<rules>", "exec"), env, scope)  # noqa: S102 - generated from checked AST only
            return scope["op"]
        self.emit(make, span)

    def back_edge(self, top, span):
        """The jump back to a loop's head (a `while` head spends the step budget, so endless loops stop)."""
        label = _Label()
        label.pc = top
        self.jump(label, span)

    def mark(self, label):
        label.pc = self.here()

    # --------------------------------------------------------- statements
    def place(self, target) -> str:
        """Python source of an assignable place: a local, a var, a player's var, a table entry."""
        if isinstance(target, ast.Index):
            table = self.types[id(target.obj)]
            obj = self.src(target.obj)
            key = self.src(target.index)
            if isinstance(table, T.TableT) and isinstance(table.key, tuple):
                _, lo, hi = table.key
                return f"{obj}[rt_slot({key}, {lo}, {hi - lo + 1})]"
            if isinstance(table, T.TableT) and isinstance(table.key, T.CardT):
                return f"{obj}[{self.const(self.card_positions(table.key.name))}[{key}]]"
            return f"{obj}[{key}]"
        return self.src(target)

    def st_Signal(self, s: ast.Signal):
        """Push a frame for every handler of the event, last first, so they run in declaration order."""
        event = self.refs[id(s)]
        if not event.handlers:
            for a in s.args:
                self.src(a)   # still compiled, for errors; nothing to run
            return
        args = [self.expr(a) for a in s.args]
        targets = [(self.rule_index[h.name], h.frame_size) for h in reversed(event.handlers)]
        nxt = self.here() + 1

        def make():
            def signal(m, fr):
                values = [a(m, fr) for a in args]
                fr[1] = nxt
                for index, size in targets:
                    m.stack.append([index, 0, *values] + [None] * (size - len(values)))
                return CALLED
            return signal
        self.emit(make, s.span)

    def st_ExprStmt(self, s: ast.ExprStmt):
        call = s.expr
        sym = self.refs[id(call)]
        target = self.rule_index[self.rule_key(sym)]
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

    def st_Stop(self, s):
        self.emit(lambda: _return, s.span)

    def st_If(self, s: ast.If):
        end = _Label()
        for cond, body in s.branches:
            nxt = _Label()
            self.jump_unless(cond, nxt, cond.span)
            self.block(body)
            self.jump(end, s.span)
            self.mark(nxt)
        if s.otherwise is not None:
            self.block(s.otherwise)
        self.mark(end)

    def vm_loop(self, s, init_lines, head):
        """A loop on the VM: `init_lines`, then a head made by `head(exit_pc, body_pc)` that enters
        the body or leaves; the body's end jumps back to the head (fixed sequences and counts need
        no step budget)."""
        self.gen_op(init_lines, s.span)
        top = self.here()
        end = _Label()
        self.emit(lambda: head(self.resolve(end.pc), self.resolve(top + 1)), s.span)
        self.block(s.body)
        self.back_edge(top, s.span)
        self.mark(end)

    def st_For(self, s: ast.For):
        li = self.slots[(id(s), "list")] + OFFSET
        ii = self.slots[(id(s), "index")] + OFFSET
        vi = self.slots[id(s)] + OFFSET
        typ = self.types[id(s.iterable)]
        seq = _braces(self.seq_src(self.src(s.iterable), typ))

        def head(exit_pc, body_pc):
            def step(m, fr):
                i = fr[ii]
                xs = fr[li]
                if i >= len(xs):
                    fr[li] = None
                    return exit_pc
                fr[vi] = xs[i]
                fr[ii] = i + 1
                return body_pc
            return step
        self.vm_loop(s, [f"fr[{li}] = tuple({seq})" if isinstance(typ, T.ZoneT) else f"fr[{li}] = {seq}",
                         f"fr[{ii}] = 0"], head)

    def st_While(self, s: ast.While):
        top = self.here()
        end = _Label()
        self.jump_unless(s.cond, end, s.cond.span, tick=True)
        self.block(s.body)
        self.back_edge(top, s.span)
        self.mark(end)

    def st_Repeat(self, s: ast.Repeat):
        ci = self.slots[(id(s), "count")] + OFFSET

        def head(exit_pc, body_pc):
            def step(m, fr):
                left = fr[ci]
                if left <= 0:
                    return exit_pc
                fr[ci] = left - 1
                return body_pc
            return step
        self.vm_loop(s, [f"fr[{ci}] = {_braces(self.src(s.count))}"], head)

    def st_Choose(self, s: ast.Choose):
        dtyp = self.types[id(s.domain)]
        domain_node = s.domain
        elem = self._choice_elem(domain_node, dtyp)
        dedupe = not isinstance(dtyp, T.ZoneT)
        vi = self.slots[id(s)] + OFFSET
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
        # Generated: the options (filtered, without repeats), their option ids, the pending decision.
        seq_src = _braces(self.seq_src(self.src(domain_node), dtyp))
        var = f"fr[{vi}]"
        if s.where is not None:
            lines = [f"xs = [{var} for {var} in {seq_src} if {_braces(self.src(s.where))}]", f"{var} = None"]
        else:
            lines = [f"xs = {seq_src}"]
        lines.append("xs = tuple(dict.fromkeys(xs))" if dedupe else "xs = tuple(xs)")
        lines.append("if not xs: return {0}")
        lines.append(f"ids = {self.ids_src(elem, domain_node, info)}")
        if s.may:
            lines.append(f"ids = ids + ({info.offset + size},)")
        lines.append(f"who = {_braces(self.src(s.chooser))}")
        if self.c.anytimes:
            lines.append("ids = ids + tuple([i for i, offered in ANYTIME if offered(m, who)])")
        lines.append(f"m.pending = ({info.index}, who, xs, ids)")
        lines.append(f"fr[1] = {me}")
        lines.append(f"return {WAITING}")
        self.gen_op(lines, s.span, (skip,))
        self.block(s.body)
        self.jump(end, s.span)
        self.mark(skip)
        info.else_pc = skip.pc
        if s.otherwise is not None:
            self.block(s.otherwise)
        self.mark(end)
        if not s.may:
            info.else_pc = end.pc

    def ids_src(self, elem, domain_node, info) -> str:
        """Source of the option ids of the options `xs` (offset + position in the universe)."""
        off = info.offset
        if isinstance(elem, T.CardT):
            ids = self.cards_by_type.get(elem.name, ())
            if ids and list(ids) == list(range(ids[0], ids[0] + len(ids))):
                shift = off - ids[0]        # the cards of the type are numbered in a row
                return "xs" if shift == 0 else f"tuple([{shift} + x for x in xs])"
            return f"tuple([{off} + P[x] for x in xs])".replace("P", self.const(self.card_positions(elem.name)))
        if elem is T.INT and isinstance(domain_node, ast.RangeLit):
            return f"tuple([{off - domain_node.lo} + x for x in xs])"
        if elem is T.BOOL:
            return f"tuple([{off} + int(x) for x in xs])"
        return f"tuple([{off} + x for x in xs])"

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
        if isinstance(elem, T.ZoneT):
            return len(self.zone_instance_names), int, int
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
    # Expressions compile to Python source text over resolved slots and
    # constants, evaluated once at load into closures. Only generated names
    # (K12, D3, v7, rt_top, ...) ever appear in the source: the text of the
    # rules never does, so nothing in a rule file can run as Python.

    def const(self, value) -> str:
        key = id(value)
        name = self.const_names.get(key)
        if name is None:
            name = f"K{len(self.const_names)}"
            self.const_names[key] = name
            self.env[name] = value
            self.keep.append(value)
        return name

    def expr(self, e):
        """A closure `f(state, frame)` for an expression inside a rule."""
        return self.closure("m, fr", self.src(e))

    def closure(self, params, source):
        return eval(self.code_cache.compile(f"lambda {params}: {source}", "<rules>", "eval"), self.env)  # noqa: S307

    def function(self, params, body_src, frame_ctx=False):
        """Compile an expression in a context without a frame (defs, scores, invariants, card names)."""
        saved = self.frame_ctx
        self.frame_ctx = frame_ctx
        try:
            return self.closure(params, self.src(body_src))
        finally:
            self.frame_ctx = saved

    def src(self, e) -> str:
        source = getattr(self, "ex_" + type(e).__name__)(e)
        cast = self.c.downcasts.get(id(e))
        if cast is not None:
            many = isinstance(cast, tuple)
            name = cast[1] if many else cast
            check = "rt_cast_all" if many else "rt_cast"
            if isinstance(self.types.get(id(e)), T.ZoneT):
                source = f"m.zones[{source}]"
            return f"{check}(m, {source}, {self.const(self.card_positions(name))}, {self.const(name)})"
        return source

    def local(self, slot: int) -> str:
        if self.subst is not None and slot in self.subst:
            return self.subst[slot]
        if not self.frame_ctx or slot in self.pyslots:
            return f"v{slot}"
        return f"fr[{slot + OFFSET}]"

    def seq_src(self, source, typ):
        return f"m.zones[{source}]" if isinstance(typ, T.ZoneT) else source

    def ex_IntLit(self, e):
        return repr(int(e.value))

    def ex_BoolLit(self, e):
        return "True" if e.value else "False"

    def ex_RangeLit(self, e):
        return self.const(tuple(range(e.lo, e.hi + 1)))

    def ex_Template(self, e: ast.Template):
        pieces = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(self.const(part))
            else:
                fmt = self.const(self.formatter(self.types[id(part)]))
                pieces.append(f"{fmt}(m, {self.src(part)})")
        if not pieces:
            return self.const("")
        if len(pieces) == 1 and all(isinstance(p, str) for p in e.parts):
            return pieces[0]
        return '"".join((' + ", ".join(pieces) + ",))"

    def ex_Name(self, e: ast.Name):
        sym = self.refs[id(e)]
        if isinstance(sym, LocalSym):
            return self.local(sym.slot)
        if isinstance(sym, (OptionSym, VarSym)):
            return f"m.vars[{sym.slot}]"
        if isinstance(sym, EnumValueSym):
            return str(sym.index)
        if isinstance(sym, EnumSym):
            return self.const(tuple(range(len(sym.type.values))))
        if isinstance(sym, CardSym):
            return self.const(self.cards_by_type.get(sym.decl.name, ()))
        if isinstance(sym, CardsSym):
            sets = getattr(self, "card_sets", {})
            if sym.decl.name not in sets:
                return "rt_needs_game()"
            return self.const(sets[sym.decl.name])
        if isinstance(sym, ZoneSym):
            return str(self.zone_base[sym.decl.name])
        if isinstance(sym, DefSym):
            return self.def_call(sym, [])
        if isinstance(sym, TeamValue):
            return str(sym.index)
        if isinstance(sym, BuiltinValue):
            if sym.name == "players":
                return f"{self.const(self.players_by_n)}[m.n]"
            if sym.name == "player_count":
                return "m.n"
            if sym.name == "teams":
                return self.const(tuple(range(self.team_count)))
            if sym.name == "winners":
                return "rt_winners(m)"
        raise AssertionError(f"unresolved name {e.id}")

    def def_call(self, sym: DefSym, args):
        name = sym.decl.name
        if sym.params and name not in self.inlining and not _uses_locals(sym.decl.body) \
                and all(_pure(a) for a in args):
            # `strength(c)` becomes its body with `c` in place: no call in the inner loop
            self.inlining.add(name)
            saved = self.subst
            self.subst = {i: f"({a})" for i, a in enumerate(args)}
            try:
                return f"({self.src(sym.decl.body)})"
            finally:
                self.subst = saved
                self.inlining.discard(name)
        if not sym.params and name not in self.inlining and not _uses_locals(sym.decl.body):
            self.inlining.add(name)      # `def top_card = top(pile)` becomes its body, in place
            saved = (self.frame_ctx, self.pyslots, self.subst)
            self.frame_ctx, self.pyslots, self.subst = False, set(), None
            try:
                return f"({self.src(sym.decl.body)})"
            finally:
                self.frame_ctx, self.pyslots, self.subst = saved
                self.inlining.discard(name)
        fname = self.def_names.get(name)
        if fname is None:
            fname = f"D{len(self.def_names)}"
            self.def_names[name] = fname
            params = ", ".join(["m"] + [f"v{i}" for i in range(len(sym.params))])
            saved = (self.frame_ctx, self.pyslots, self.subst)
            self.frame_ctx, self.pyslots, self.subst = False, set(), None
            body = self.src(sym.decl.body)
            self.frame_ctx, self.pyslots, self.subst = saved
            code = f"def {fname}({params}):\n    return {body}\n"
            exec(self.code_cache.compile(code, "<rules>", "exec"), self.env)  # noqa: S102 - generated from checked AST only
        return f"{fname}({', '.join(['m'] + list(args))})"

    def ex_Attr(self, e: ast.Attr):
        ref = self.refs.get(id(e))
        if isinstance(ref, EnumValueSym):
            return str(ref.index)
        obj = self.src(e.obj)
        if ref == "owner":
            return f"rt_owner(m, {obj})"
        if ref == "zone":
            return f"rt_zone_of(m, {obj})"
        if ref == "team":
            return f"(({obj}) % {self.team_count})"
        if ref == "seat":
            return f"(({obj}) + 1)"
        if isinstance(ref, tuple) and ref[0] == "field":
            table = getattr(self, "card_field_tables", {}).get((ref[1], ref[2]))
            if table is None:
                return "rt_needs_game()"
            return f"{self.const(table)}[{obj}]"
        if isinstance(ref, ZoneSym):
            return f"({self.zone_base[ref.decl.name]} + {obj})"
        if isinstance(ref, VarSym):
            return f"m.vars[{ref.slot}][{obj}]"
        raise AssertionError(f"unresolved attribute {e.name}")

    def ex_Call(self, e: ast.Call):
        ref = self.refs.get(id(e))
        if isinstance(ref, DefSym):
            return self.def_call(ref, [self.src(a) for a in e.args])
        if isinstance(ref, tuple) and ref[0] == "card named":
            _, tname, wanted = ref
            ids = [i for i in self.cards_by_type.get(tname, ()) if self.card_names[i] == wanted] \
                if hasattr(self, "card_names") else []
            if not ids:
                names = [self.card_names[i] for i in self.cards_by_type.get(tname, ())] if hasattr(self, "card_names") else []
                self.diags.append(Diagnostic(e.args[0].span, f"there is no {tname} named '{wanted}'",
                                             did_you_mean(wanted, names)))
                return "None"
            return str(ids[0])
        if isinstance(ref, CardSym):
            args = ", ".join(self.src(a) for a in e.args)
            return f"rt_make_card(m, {self.const(ref.decl.name)}, ({args},))"
        if isinstance(ref, tuple) and ref[0] == "builtin":
            name = ref[1]
            if not e.args:
                return "None"
            arg = e.args[0]
            typ = self.types[id(arg)]
            if isinstance(arg, ast.BestBy):
                seq = self.seq_src(self.src(arg.iterable), self.types[id(arg.iterable)])
                slot = self.slots[id(arg)]
                self.pyslots.add(slot)
                best = (seq, f"v{slot}", self.src(arg.key))
                return builtin_source(name, "", typ, self, best)
            if name == "join":
                elem = T.element_of(typ)
                fmt = self.const(self.formatter(elem if elem is not None else T.ANY))
                seq = self.seq_src(self.src(arg), typ)
                return f"({self.src(e.args[1])}).join([{fmt}(m, x) for x in {seq}])"
            if name in ("any", "all") and isinstance(arg, ast.Comprehension):
                return f"{name}({self.src(arg)[len('tuple(['):-len('])')]})"   # a generator: stops at the first answer
            return builtin_source(name, self.src(arg), typ, self, None)
        raise AssertionError(f"unresolved call {e.func}")

    def ex_Index(self, e: ast.Index):
        if isinstance(self.types[id(e.obj)], T.TableT):
            return self.place(e)
        seq = self.seq_src(self.src(e.obj), self.types[id(e.obj)])
        return f"rt_index({seq}, {self.src(e.index)})"

    def ex_ListLit(self, e: ast.ListLit):
        if len(e.items) == 1 and isinstance(e.items[0], ast.Comprehension):
            return self.src(e.items[0])
        parts = []
        for item in e.items:
            source = self.src(item)
            parts.append(f"*{source}" if isinstance(item, ast.Comprehension) else source)
        if not parts:
            return "()"
        return "(" + ", ".join(parts) + ",)"

    def ex_Cond(self, e: ast.Cond):
        return f"(({self.src(e.then)}) if ({self.src(e.test)}) else ({self.src(e.other)}))"

    def ex_BinOp(self, e: ast.BinOp):
        a, b = self.src(e.left), self.src(e.right)
        op = e.op
        if op == "+" and isinstance(self.types[id(e)], T.ListT):
            sa = self.seq_src(a, self.types[id(e.left)])
            sb = self.seq_src(b, self.types[id(e.right)])
            return f"(tuple({sa}) + tuple({sb}))"
        if op in ("+", "-", "*"):
            return f"(({a}) {op} ({b}))"
        constant = isinstance(e.right, ast.IntLit) and e.right.value != 0
        if op == "/":
            return f"(({a}) // {b})" if constant else f"rt_div({a}, {b})"
        return f"(({a}) % {b})" if constant else f"rt_mod({a}, {b})"

    def ex_Compare(self, e: ast.Compare):
        a, b = self.src(e.left), self.src(e.right)
        op = e.op
        if op in ("in", "not in"):
            if isinstance(self.types[id(e.right)], T.ZoneT):
                return f"(m.where[{a}] {'==' if op == 'in' else '!='} ({b}))"
            fixed = self.fixed_collection(e.right)
            if fixed is not None:       # `c in Spell`, `k in 1..6`: a set made once, not a scan
                return f"(({a}) {op} {self.const(frozenset(fixed))})"
            return f"(({a}) {op} ({b}))"
        lt, rt = self.types[id(e.left)], self.types[id(e.right)]
        if isinstance(lt, T.ZoneT) != isinstance(rt, T.ZoneT) and op in ("==", "!="):
            # a zone compared with a list: compare the cards, bottom first
            return f"(tuple({self.seq_src(a, lt)}) {op} tuple({self.seq_src(b, rt)}))"
        return f"(({a}) {op} ({b}))"

    def fixed_collection(self, node):
        """The elements of a collection fixed at load (a card type, a card set, an enum, a range), else None."""
        if isinstance(node, ast.RangeLit):
            return range(node.lo, node.hi + 1)
        if isinstance(node, ast.Name):
            sym = self.refs.get(id(node))
            if isinstance(sym, CardSym):
                return self.cards_by_type.get(sym.decl.name, ())
            if isinstance(sym, CardsSym) and sym.decl.name in getattr(self, "card_sets", {}):
                return self.card_sets[sym.decl.name]
            if isinstance(sym, EnumSym):
                return range(len(sym.type.values))
        return None

    def ex_BoolOp(self, e: ast.BoolOp):
        return f"(({self.src(e.left)}) {e.op} ({self.src(e.right)}))"

    def ex_Not(self, e):
        return f"(not ({self.src(e.operand)}))"

    def ex_Neg(self, e):
        return f"(-({self.src(e.operand)}))"

    def ex_Comprehension(self, e: ast.Comprehension):
        clauses = []
        for f in e.fors:
            seq = self.seq_src(self.src(f.iterable), self.types[id(f.iterable)])
            slot = self.slots[id(f)]
            self.pyslots.add(slot)
            clause = f"for v{slot} in {seq}"
            if f.cond is not None:
                clause += f" if {self.src(f.cond)}"
            clauses.append(clause)
        return f"tuple([{self.src(e.element)} {' '.join(clauses)}])"

    def ex_BestBy(self, e):  # pragma: no cover - only reached through max/min/sort
        raise AssertionError("BestBy outside a builtin")

    # ============================================================ helpers
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
        if isinstance(typ, T.TableT):
            inner = self.formatter(typ.value)
            key = typ.key
            if isinstance(key, T.EnumT):
                keys = key.values
            elif isinstance(key, T.CardT):
                keys = [self.card_names[c] for c in self.cards_by_type.get(key.name, ())]
            elif key is T.PLAYER:
                keys = None
            else:
                keys = [str(k) for k in range(key[1], key[2] + 1)]
            if keys is None:
                return lambda m, v: ", ".join(f"{m.names[i]}: {inner(m, x)}" for i, x in enumerate(v[:m.n]))
            return lambda m, v: ", ".join(f"{k}: {inner(m, x)}" for k, x in zip(keys, v))
        if isinstance(typ, T.ZoneT):
            inner = self.formatter(typ.elem)
            return lambda m, v: ", ".join(inner(m, x) for x in m.zones[v]) if m.zones[v] else "nothing"
        return lambda m, v: str(v)



class _NeedsGame(Exception):
    pass


def _needs_game():
    raise _NeedsGame()


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


def _return(m, fr):
    m.stack.pop()
    return CALLED


def _pure(source: str) -> bool:
    """Source that may be evaluated more than once: names, numbers, indexing, sums — no calls."""
    return len(source) < 80 and re.fullmatch(r"[\w\[\]\s+\-.()]*", source) is not None \
        and re.search(r"\w\s*\(", source) is None


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


def _braces(source: str) -> str:
    """Escape braces so generated source survives str.format (jump targets are filled in later)."""
    return source.replace("{", "{{").replace("}", "}}")
