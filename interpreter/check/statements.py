"""Pass 2 of checking, for bodies: each rule, def, scenario and statement, with a scope of locals.

Over 500 lines for one reason: one short method per kind of statement (and per scenario step),
each with the diagnostics of its misuse beside it; split up, a statement's checks and messages
would no longer read in one place.
"""
from __future__ import annotations

from ..builtins import a_type as _a
from ..diagnostics import did_you_mean
from ..syntax import ast
from ..ir import types as T
from .base import CheckerBase
from .expressions import _text_of, narrow_key
from .symbols import CardSym, DefSym, EnumSym, LocalSym, OptionSym, RuleSym, Scope, VarSym, ZoneSym


class Statements(CheckerBase):
    def check_all(self):
        for sym in list(self.defs.values()) + list(self.rules.values()):
            if sym.type_params:        # as written, before any use: its own mistakes are told where they are
                self.check_template(sym)
        for sym in self.cards:
            if sym.decl.named is not None:
                self.scope = Scope(sym.decl)
                for fname, (pos, ftyp) in sorted(sym.fields.items(), key=lambda kv: kv[1][0]):
                    self.scope.declare(fname, ftyp, sym.decl.span)
                self.expr(sym.decl.named)
                self.slots[id(sym.decl)] = self.scope.count
        for sym in self.options:
            d = sym.decl
            self.scope = Scope(d)
            if sym.kind != "choice":
                typ = self.expr(d.default)
                self.expect(d.default, typ, sym.type, "the default of this option")
            sym.default = _constant_option_value(d.default, sym, self)
        for sym in self.card_sets:
            self.scope = Scope(sym.decl)
            typ = self.expr(sym.decl.value)
            elem = T.element_of(typ)
            if not isinstance(typ, T.ListT) or not (isinstance(elem, T.CardT) or elem is T.ANY):
                if typ is not T.ANY:
                    self.error(sym.decl.value.span, f"a card set is a list of cards, not {typ}",
                               "for example [Card(s, n) for s in Suit for n in 1..13]")
                typ = T.ANY
            sym.type = typ
            self.slots[id(sym.decl)] = self.scope.count
        for sym in self.vars:
            d = sym.decl
            if d.init is not None:
                self.scope = Scope(d)
                self.in_rule = False
                want = sym.type.value if isinstance(sym.type, T.TableT) else sym.type
                typ = self.expecting(d.init, want)
                self.expect(d.init, typ, want, f"the starting value of '{d.name}'")
                self.slots[id(d)] = self.scope.count
        for sym in list(self.defs.values()):       # (a use of a generic def or rule adds its copy)
            self.check_def(sym)
        for sym in list(self.rules.values()):
            self.check_rule(sym)
        for sym in self.handlers:
            self.check_rule(sym)
        for sym in self.anytimes:
            self.check_rule(sym)
        for d in self.scenarios:
            self.check_scenario(d)
        for d in self.sheets.values():
            self.scope = Scope(d)
            self.current_decl = d
            if d.player is not None:
                self.check_binder_type(d.player, T.PLAYER, d.player_type, "a player's `sheet`")
                self.scope.declare(d.player, T.PLAYER, d.span)
            for line in d.lines:
                self.expr(line)
        for kind, d in self.scores.items():
            self.scope = Scope(d)
            self.check_binder_type(d.var, T.PLAYER, d.var_type, f"a `{kind}`")
            self.scope.declare(d.var, T.PLAYER, d.span)
            typ = self.expr(d.value)
            self.expect(d.value, typ, T.INT, f"the {kind}")
        if self.outcome is not None and self.outcome.kind.endswith("-sum") and "score" not in self.scores:
            self.error(self.outcome.span, f"a {self.outcome.kind} game needs a `score`",
                       "for example `score p: Player = p.points`")
        if self.outcome is not None and self.outcome.condition is not None:
            d = self.outcome
            self.scope = Scope(d)
            self.expect(d.condition, self.expr(d.condition), T.BOOL, "a cooperative game's `when`")
            self.slots[id(d)] = self.scope.count
        for d in self.invariants:
            self.scope = Scope(d)
            typ = self.expr(d.value)
            self.expect(d.value, typ, T.BOOL, "an invariant")
            self.slots[id(d)] = self.scope.count

    def check_binder_type(self, name: str, typ, written, whose: str):
        """A name a declaration binds (`score p: Player`, `when e(p: Player, f: Fruit)`): a type written must be its own."""
        if written is None or typ is T.ANY:
            return
        declared = self.resolve_type(written)
        if declared == typ or declared is T.ANY:
            return
        hint = f"write `{name}: {typ}`, or leave the type out"
        if typ is T.PLAYER and declared is T.TEAM and self.teams:
            hint += f"; a game is scored, shown and played per player (`{name}.team` is the player's team)"
        self.error(written.span, f"'{name}' is {_a(typ)} in {whose}, not {_a(declared)}", hint)

    def check_def(self, sym: DefSym):
        if sym.type_params:
            return self.check_template(sym)
        if sym.frame_size or sym.checking:
            return sym.ret
        d = sym.decl
        # a def is checked where it is first used; its own nesting starts again from zero there, so
        # a chain of defs is judged the same whichever is declared first
        saved = (self.scope, self.current_decl, self.in_rule, self.depth, self.narrowed, self.narrow_saved)
        self.narrowed, self.narrow_saved = set(), []      # what the caller knows is not the def's to rely on
        sym.checking = True
        self.scope = Scope(d)
        self.current_decl = d
        self.in_rule = False
        self.depth = 0
        for (name, typ), p in zip(sym.params, d.params):
            self.slots[id(p)] = self.scope.declare(name, typ, p.span).slot
        typ = self.expr(d.body) if sym.ret is None else self.expecting(d.body, sym.ret)
        if sym.ret is not None:
            self.expect(d.body, typ, sym.ret, f"the value of '{d.name}'")
        else:
            sym.ret = typ
        sym.frame_size = max(1, self.scope.count)
        sym.checking = False
        self.scope, self.current_decl, self.in_rule, self.depth, self.narrowed, self.narrow_saved = saved
        return sym.ret

    def check_rule(self, sym: RuleSym):
        if sym.type_params:
            return self.check_template(sym)
        # a copy of a generic rule is checked where it is first used, perhaps inside another body
        saved = (self.scope, self.current_decl, self.in_rule, self.depth, self.narrowed, self.narrow_saved,
                 getattr(self, "loop_depth", 0), self.current_rule)
        self.narrowed, self.narrow_saved, self.depth, self.loop_depth = set(), [], 0, 0
        self.current_rule = sym
        try:
            self.check_rule_body(sym)
            self.check_rule_returns(sym)
        finally:
            (self.scope, self.current_decl, self.in_rule, self.depth, self.narrowed, self.narrow_saved,
             self.loop_depth, self.current_rule) = saved

    def check_rule_body(self, sym: RuleSym):
        d = sym.decl
        self.scope = Scope(d)
        self.current_decl = d
        self.in_rule = True
        if isinstance(d, (ast.WhenDecl, ast.AnytimeDecl)):
            written = d.types if isinstance(d, ast.WhenDecl) else (d.player_type,)
            whose = f"event '{d.event}'" if isinstance(d, ast.WhenDecl) else "an `anytime` option"
            for (name, typ), t in zip(sym.params, tuple(written) + (None,) * len(sym.params)):
                self.check_binder_type(name, typ, t, whose)
                self.scope.declare(name, typ, d.span)
            if d.where is not None:
                self.expect(d.where, self.expr(d.where), T.BOOL, "a `where` condition")
            if isinstance(d, ast.AnytimeDecl):
                self.expr(d.label)
        else:
            for (name, typ), p in zip(sym.params, d.params):
                self.slots[id(p)] = self.scope.declare(name, typ, p.span).slot
        # a handler's `where` is tested just before its block runs: it vouches as an `if` would
        where = getattr(d, "where", None) if isinstance(d, ast.WhenDecl) else None
        self.with_narrowed(self.narrowings(where, True) if where is not None else [], self.block, d.body)
        sym.frame_size = self.scope.count
        self.in_rule = False

    def check_scenario(self, d: ast.ScenarioDecl):
        """Scenario steps: header lines, an optional `arrange:` block (checked as a rule body), expectations."""
        self.current_decl = d
        seen_arrange = False
        for step in d.steps:
            self.scope = Scope(d)
            self.in_rule = False
            if step.kind == "players":
                if not self.min_players <= step.value <= self.max_players:
                    self.error(step.span, f"this game is for {self.min_players}..{self.max_players} players, not {step.value}")
            elif step.kind == "option":
                opt = self.globals.get(step.name)
                if not isinstance(opt, OptionSym):
                    self.error(step.span, f"unknown option '{step.name}'", did_you_mean(step.name, [o.decl.name for o in self.options]))
                else:
                    _constant_option_value(step.value, opt, self)
            elif step.kind == "arrange":
                if seen_arrange:
                    self.error(step.span, "a scenario has one `arrange:` block")
                seen_arrange = True
                sym = RuleSym(d, ())
                sym.name = f"arrange {d.name}"
                self.in_rule = True
                self.block(step.value)
                sym.frame_size = self.scope.count
                self.slots[id(step)] = self.scope.count
                self.in_rule = False
            elif step.kind == "expect":
                self.expect(step.value, self.expr(step.value), T.BOOL, "an expectation")
                self.slots[id(step)] = self.scope.count
            elif step.kind == "deciding":
                typ = self.expr(step.value)
                if not T.assignable(typ, T.PLAYER):
                    self.error(step.value.span, f"who is deciding should be a Player, but this is {_a(typ)}",
                               "the player in seat k is `player(k)`")
            elif step.kind == "next shuffle":
                typ = self.expr(step.value)
                if T.element_of(typ) is None or isinstance(typ, T.ZoneT):
                    self.error(step.value.span, f"the order a shuffle gives is a list of cards, not {_a(typ)}",
                               'the cards in their new order, bottom first: [Card("a"), Card("b")]')
            elif step.kind in ("take", "legal", "illegal", "next random"):
                self.expr(step.value)
                for check in step.checks:          # `take "…":` and what is checked as the option's block ends
                    if check.kind == "expect":
                        self.scope = Scope(d)
                        self.expect(check.value, self.expr(check.value), T.BOOL, "an expectation")
                        self.slots[id(check)] = self.scope.count

    # ------------------------------------------------------------ statements
    def block(self, stmts):
        self.scope.push()
        for s in stmts:
            self.stmt(s)
        self.scope.pop()

    def stmt(self, s):
        m = getattr(self, "stmt_" + type(s).__name__)
        m(s)

    def stmt_Let(self, s: ast.Let):
        self.allow_rule_value(s.value)
        typ = self.expr(s.value)
        if typ is T.VOID:
            self.error(s.value.span, "this gives no value to keep")
            typ = T.ANY
        if self.scope.lookup(s.name) is not None:      # (a local may shadow a global on purpose: `let winner`)
            self.error(s.span, f"'{s.name}' is already a local name here", "choose another name")
        self.slots[id(s)] = self.scope.declare(s.name, typ, s.span).slot

    def stmt_Assign(self, s: ast.Assign):
        # `suit = Spades`, a value several enums share: the place assigned says which (checked after it)
        shared = s.op == "=" and isinstance(s.value, ast.Name) and len(self.enum_values.get(s.value.id, ())) > 1
        self.allow_rule_value(s.value)
        vtyp = None if shared else self.expr(s.value)
        key = narrow_key(s.target)
        was = key in self.narrowed
        if was and s.op == "=":
            self.narrowed.discard(key)       # the place itself may hold none: type it as declared
        ttyp = self.assign_target(s.target)
        if shared:
            vtyp = self.expecting(s.value, ttyp)
        if was and s.op != "=" and isinstance(ttyp, T.OptionalT):
            ttyp = ttyp.inner                # `x += 1` where `x != none` holds
        if s.op != "=":
            self.expect(s.value, vtyp, T.INT, f"'{s.op}'")
            self.expect(s.target, ttyp, T.INT, f"'{s.op}'")
        else:
            self.expect(s.value, vtyp, ttyp, "the new value")
        if key is not None:
            if vtyp is T.NONE or vtyp is T.ANY or isinstance(vtyp, T.OptionalT):
                self.unnarrow({key})
            else:
                if len(key) == 1:            # `k = 2`: what `marks[k]` reads is another entry now
                    self.unnarrow({("[]", key[0])})
                if was:
                    self.narrowed.add(key)

    def assignable_names(self):
        names = [n for n, s in self.globals.items() if isinstance(s, VarSym)]
        for f in self.scope.frames:
            names += list(f)
        return names

    def stmt_Move(self, s: ast.Move):
        what = self.expr(s.what)
        to = self.expr(s.to)
        if not isinstance(to, T.ZoneT) and to is not T.ANY:
            self.error(s.to.span, f"cards move to a zone, not to {to}", "for example `move c to p.hand`")
            return
        if T.is_card(what) or what is T.ANY:
            elem = what
        elif isinstance(what, (T.ListT, T.ZoneT)) and T.is_card(what.elem):
            elem = what.elem
        elif isinstance(what, T.OptionalT) and T.is_card(what.inner):
            self.error(s.what.span, f"this is {_a(what)}: it may be none",
                       f"move it inside `if {_text_of(s.what)} != none:`")
            return
        else:
            self.error(s.what.span, f"only cards can move, not {what}",
                       "move a card, a list of cards, or a zone (all its cards)")
            return
        if isinstance(to, T.ZoneT) and not T.assignable(elem, to.elem) and not T.assignable(to.elem, elem):
            self.error(s.span, f"a {elem} cannot go into a zone of {to.elem}")

    def stmt_Shuffle(self, s: ast.Shuffle):
        typ = self.expr(s.zone)
        if not isinstance(typ, T.ZoneT) and typ is not T.ANY:
            self.error(s.zone.span, f"only a zone can be shuffled, not {typ}")

    def stmt_Show(self, s: ast.Show):
        verb = "shown" if s.shown else "hidden"
        typ = self.expr(s.what)
        if not isinstance(typ, T.ZoneT) and typ is not T.ANY and not self.is_var_place(s.what):
            self.error(s.what.span, f"only a zone or a variable can be {verb}, not {_a(typ)}",
                       "to show one card, move it to a zone seen by those who may see it")
        if s.seats == "others" and isinstance(s.what, ast.Name):
            sym = self.scope.lookup(s.what.id) or self.globals.get(s.what.id)
            if isinstance(sym, (ZoneSym, VarSym)) and sym.owner is None:
                self.error(s.span, f"'{s.what.id}' belongs to the table: `others` leaves out an owner, and it has none",
                           "name the seats: a player, a team, a list of players, or `all`")
        if isinstance(s.seats, str):
            return
        who = self.expr(s.seats)
        if who in (T.PLAYER, T.TEAM, T.ANY) or (isinstance(who, T.ListT) and who.elem in (T.PLAYER, T.ANY)):
            return
        self.error(s.seats.span, f"`{'show' if s.shown else 'hide'}` names players, not {_a(who)}",
                   "name a player, a team, a list of players, `all` or `others`")

    def stmt_Say(self, s: ast.Say):
        self.expr(s.text)
        if s.to is not None:
            typ = self.expr(s.to)
            if typ not in (T.PLAYER, T.TEAM, T.ANY):
                self.error(s.to.span, f"`say to` tells a player or a team, not {_a(typ)}", 'for example `say to p "…"`')

    def stmt_ExprStmt(self, s: ast.ExprStmt):
        call = s.expr
        sym = self.globals.get(call.func)
        if call.func == "original":
            sym = self.original_sym(call)
        if isinstance(sym, RuleSym) and sym.type_params:
            before = self.error_count()
            arg_types = [self.expr(a) for a in call.args]
            inst = self.instance(sym, call, arg_types, self.error_count() > before)
            if inst is not None:
                self.call_args(call, inst.params, sym.decl.name, arg_types)
                self.refs[id(call)] = inst
            self.types[id(call)] = T.VOID
            self.unnarrow(variables=True)
            return
        if isinstance(sym, RuleSym):
            self.call_args(call, sym.params, sym.decl.name)
            self.refs[id(call)] = sym
            self.types[id(call)] = T.VOID
            self.unnarrow(variables=True)     # the rule may set any variable to none
            return
        typ = self.expr(call)
        if typ is not T.ANY:
            self.error(call.span, f"'{call.func}' gives a value but does nothing", "use it in `let`, `if` or an assignment")

    def stmt_Signal(self, s: ast.Signal):
        self.unnarrow(variables=True)         # its handlers may set any variable to none
        event = self.events.get(s.event)
        if event is None:
            for a in s.args:
                self.expr(a)
            self.error(s.span, f"unknown event '{s.event}'",
                       did_you_mean(s.event, self.events) or f"declare it: `event {s.event}(...)`")
            return
        fake = ast.Call(s.span, s.event, s.span, s.args)
        self.call_args(fake, event.params, s.event)
        self.refs[id(s)] = event

    def stmt_AddTo(self, s: ast.AddTo):
        self.list_update(s, "add")

    def stmt_RemoveFrom(self, s: ast.RemoveFrom):
        self.list_update(s, "remove")

    def list_update(self, s, verb):
        vtyp = self.expr(s.value)
        ttyp = self.assign_target(s.target)
        if ttyp is T.ANY:
            return
        if not isinstance(ttyp, T.ListT):
            self.error(s.target.span, f"{verb} works on a list variable, not {_a(ttyp)}",
                       f"for numbers write `{'+=' if verb == 'add' else '-='}`")
            return
        self.expect(s.value, vtyp, ttyp.elem, f"the value to {verb}")

    def assign_target(self, target):
        """The type of an assignable place (a var, a player's var, a table entry, a local), or ANY after an error."""
        if isinstance(target, ast.Name):
            sym = self.scope.lookup(target.id) or self.globals.get(target.id)
            if isinstance(sym, LocalSym):
                self.refs[id(target)] = sym
                self.types[id(target)] = sym.type
                return sym.type
            if isinstance(sym, VarSym):
                self.refs[id(target)] = sym
                self.types[id(target)] = sym.type
                if sym.owner:
                    self.error(target.span, f"'{target.id}' belongs to each {sym.owner}",
                               f"write `p.{target.id}` for a {sym.owner} p")
                    return T.ANY
                return sym.type
            if sym is None:
                self.error(target.span, f"unknown variable '{target.id}'",
                           did_you_mean(target.id, self.assignable_names()) or f"declare it with `var {target.id}: Int = 0`")
            else:
                self.error(target.span, f"'{target.id}' cannot be changed", "only a `var` or a local can be assigned")
            return T.ANY
        if isinstance(target, ast.Index):
            otyp = self.expr(target.obj)
            ktyp = self.expr(target.index)
            self.types[id(target)] = T.ANY
            if isinstance(otyp, T.TableT) and self.is_var_place(target.obj):
                self.check_key(target.index, ktyp, otyp)
                self.types[id(target)] = otyp.value
                return otyp.value
            if otyp is not T.ANY:
                self.error(target.span, "this cannot be changed", "only entries of a table `var ... by K` can be assigned")
            return T.ANY
        typ = self.expr(target)
        if not isinstance(self.refs.get(id(target)), VarSym):
            if typ is not T.ANY:
                self.error(target.span, "this cannot be assigned to", "only a `var` (like `p.points`) can be assigned")
            return T.ANY
        return typ

    def is_var_place(self, node):
        return isinstance(self.refs.get(id(node)), VarSym)

    def check_key(self, node, ktyp, table):
        if not isinstance(table.key, tuple):
            self.expect(node, ktyp, table.key, "the key of this table")
        else:
            self.expect(node, ktyp, T.INT, "the key of this table")

    def stmt_Pass(self, s):
        pass

    def stmt_Stop(self, s):
        pass

    def stmt_Break(self, s):
        if not getattr(self, "loop_depth", 0):
            self.error(s.span, "`break` leaves a loop, and there is none around it here",
                       "`stop` leaves the whole rule")

    def loop_body(self, body):
        """A loop's body: `break` may stand in it (a rule called from it is another matter)."""
        self.before_loop(body)
        self.loop_depth = getattr(self, "loop_depth", 0) + 1
        try:
            self.block(body)
        finally:
            self.loop_depth -= 1

    def stmt_If(self, s: ast.If):
        failed = []          # what the earlier conditions, having failed, vouch for
        self.allow_rule_value(s.branches[0][0])      # `if settle(p):` (an `else if` may not run its condition)
        for cond, body in s.branches:
            self.with_narrowed(failed, self._condition, cond)
            self.with_narrowed(failed + self.narrowings(cond, True), self.block, body)
            failed = failed + self.narrowings(cond, False)
        if s.otherwise is not None:
            self.with_narrowed(failed, self.block, s.otherwise)

    def _condition(self, cond):
        self.expect(cond, self.expr(cond), T.BOOL, "a condition")

    def before_loop(self, body):
        """A loop's body runs again after itself: what it may change is unknown at its start."""
        if not self.narrowed:
            return
        assigned, calls = set(), False
        for n in _walk_ast(body):
            if isinstance(n, ast.Assign):
                k = narrow_key(n.target)
                if k is not None:
                    assigned.add(k)
            elif isinstance(n, (ast.Signal, ast.Choose, ast.ExprStmt)):
                calls = True
        self.unnarrow(assigned, variables=calls)

    def stmt_For(self, s: ast.For):
        typ = self.expr(s.iterable)
        elem = self.iter_elem(s.iterable, typ)
        self.slots[(id(s), "list")] = self.scope.temp()
        self.slots[(id(s), "index")] = self.scope.temp()
        self.scope.push()
        self.slots[id(s)] = self.scope.declare(s.var, elem, s.span).slot
        self.loop_body(s.body)
        self.scope.pop()

    def stmt_While(self, s: ast.While):
        self.before_loop(s.body)              # the condition is tested again after the body
        self.expect(s.cond, self.expr(s.cond), T.BOOL, "a condition")
        self.loop_body(s.body)

    def stmt_Repeat(self, s: ast.Repeat):
        self.expect(s.count, self.expr(s.count), T.INT, "the number of repeats")
        self.slots[(id(s), "count")] = self.scope.temp()
        self.loop_body(s.body)

    def stmt_Choose(self, s: ast.Choose):
        self.unnarrow(variables=True)         # while the player decides, other rules may run (`anytime`)
        ctyp = self.expr(s.chooser)
        self.expect(s.chooser, ctyp, T.PLAYER, "the one who chooses")
        elem = self.choice_domain(s.domain)
        if s.prompt is not None:                # asked before an option is chosen: the choice's names are not bound
            self.expr(s.prompt)
        if s.var2 is not None:                  # a pair: the frame keeps the pair, the names are its parts
            elem2 = self.choice_domain(s.domain2)
            self.slots[(id(s), "pair")] = self.scope.temp()
        self.scope.push()
        self.slots[id(s)] = self.scope.declare(s.var, elem, s.span).slot
        if s.var2 is not None:
            if s.var2 == s.var:
                self.error(s.span, f"the two parts of a pair need two names, not '{s.var}' twice")
            self.slots[(id(s), "second")] = self.scope.declare(s.var2, elem2, s.span).slot
        if s.where is not None:
            self.expect(s.where, self.expr(s.where), T.BOOL, "a `where` condition")
        if s.label is not None:
            self.expr(s.label)
        self.block(s.body)
        self.scope.pop()
        if s.pass_label is not None:
            self.expr(s.pass_label)
        if s.otherwise is not None:
            self.block(s.otherwise)

    def choice_domain(self, domain):
        """The element type of a choice's domain, which must come from a fixed universe."""
        dtyp = self.expr(domain)
        elem = self.iter_elem(domain, dtyp)
        if isinstance(domain, ast.RangeExpr):
            self.range_universe_of(domain)
        elif not (isinstance(elem, (T.CardT, T.EnumT, T.ZoneT)) or elem in (T.PLAYER, T.TEAM, T.BOOL, T.ANY, T.ANYCARD)
                  or (elem is T.INT and _static_range(domain) is not None)):
            self.error(domain.span, f"the options of a choice must come from a fixed set, not {dtyp}",
                       "choose among cards, zones, players, teams, enum values, or a range like 1..6")
        return elem

    def stmt_ChooseSome(self, s: ast.ChooseSome):
        """Several options, one decision each (lowered to a loop of choices, check/lower.py)."""
        self.unnarrow(variables=True)
        self.expect(s.chooser, self.expr(s.chooser), T.PLAYER, "the one who chooses")
        dtyp = self.expr(s.domain)
        elem = self.iter_elem(s.domain, dtyp)
        if isinstance(s.domain, ast.RangeExpr):
            self.range_universe_of(s.domain)
        elif not (isinstance(elem, (T.CardT, T.EnumT, T.ZoneT)) or elem in (T.PLAYER, T.TEAM, T.BOOL, T.ANY, T.ANYCARD)
                  or (elem is T.INT and _static_range(s.domain) is not None)):
            self.error(s.domain.span, f"the options of a choice must come from a fixed set, not {dtyp}",
                       "choose among cards, zones, players, teams, enum values, or a range like 1..6")
        if s.most is not None:
            self.expect(s.most, self.expr(s.most), T.INT, "how many may be chosen")
        for part in ("most", "going", "before"):
            self.slots[(id(s), part)] = self.scope.temp()
        self.scope.push()
        self.slots[id(s)] = self.scope.declare(s.var, elem, s.span).slot
        if s.where is not None:
            self.expect(s.where, self.expr(s.where), T.BOOL, "a `where` condition")
        if s.label is not None:
            self.expr(s.label)
        self.scope.pop()
        if s.done_label is not None:
            self.expr(s.done_label)
        self.scope.push()
        self.slots[(id(s), "list")] = self.scope.declare(s.var, T.ListT(elem), s.span).slot
        self.block(s.body)
        self.scope.pop()

    def range_universe_of(self, r):
        """A choice over `lo..hi` computed when the rules run: its options' universe, from the bounds of both ends."""
        low, high = self.bounds(r.low), self.bounds(r.high)
        for end, b in ((r.low, low), (r.high, high)):
            if b is None:
                self.error(end.span, "the options of a choice must come from a fixed set: no bound can be derived "
                                     "for this end of the range",
                           "compute it from numbers, range options, variables of a range type (`var n: 0..8`) "
                           "or player_count")
                return
        lo, hi = low[0], high[1]
        if hi < lo:
            self.error(r.span, f"this range is always empty (its ends lie in {low[0]}..{low[1]} and {high[0]}..{high[1]})")
        elif hi - lo >= 100_000:
            self.error(r.span, f"this range can reach {lo}..{hi}: too many options", "a choice offers at most 100000 numbers")
        else:
            self.range_universe[id(r)] = (lo, hi)

    def iter_elem(self, node, typ):
        if isinstance(node, ast.Name) and isinstance(self.refs.get(id(node)), (EnumSym, CardSym)):
            return typ.elem
        elem = T.element_of(typ)
        if elem is None:
            self.error(node.span, f"cannot go through {typ} one by one", "use a list, a zone, an enum or a range")
            return T.ANY
        return elem



def _static_range(node):
    return (node.lo, node.hi) if isinstance(node, ast.RangeLit) else None


def _constant_option_value(node, sym, checker):
    """Option defaults must be constants: a value name, a number, true/false."""
    if sym.kind == "choice":
        if isinstance(node, ast.Name) and node.id in sym.type.values:
            return sym.type.values.index(node.id)
        checker.error(node.span, f"the default must be one of {', '.join(sym.type.values)}")
        return 0
    if sym.kind == "range":
        value = node.value if isinstance(node, ast.IntLit) else (-node.operand.value if isinstance(node, ast.Neg) and isinstance(node.operand, ast.IntLit) else None)
        lo, hi = sym.values
        if value is None:
            checker.error(node.span, "the default must be a number")
            return lo
        if not lo <= value <= hi:
            checker.error(node.span, f"the default {value} is outside {lo}..{hi}")
            return lo
        return value
    if isinstance(node, ast.BoolLit):
        return node.value
    checker.error(node.span, "the default must be true or false")
    return False




def _walk_ast(node):
    """Every syntax node under `node` (a node or a tuple of them)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
            continue
        if not hasattr(type(n), "__attrs_attrs__"):
            continue
        yield n
        for f in type(n).__attrs_attrs__:
            v = getattr(n, f.name)
            if isinstance(v, (tuple, list)) or hasattr(type(v), "__attrs_attrs__"):
                stack.append(v)
