"""Names and types: turns merged declarations into a checked program.

The algorithm, in two passes over the declarations:

1. *Declare.* Every top-level name (options, enums and their values, card
   types, card sets, zones, variables, defs, rules, scores) goes into one
   global table; enum types first, since other declarations mention them.
2. *Check.* Each body is walked with a scope of locals. Each expression gets a
   type (recorded in `types`, keyed by node id) and each name a symbol
   (`refs`); each local gets a slot number in its rule's frame (`slots`).
   Nothing stops at the first error: an expression that is wrong gets the type
   ANY, which matches everything, so one mistake reports once.

The compiler reads only what this module records; it never resolves a name.
"""
from __future__ import annotations

import attrs

from ..diagnostics import Diagnostic, did_you_mean
from ..syntax import ast
from . import types as T
from ..builtins import FUNCTIONS, REGISTRY, a_type as _a


# ------------------------------------------------------------------ symbols
@attrs.define(eq=False)
class OptionSym:
    decl: object
    type: object
    values: tuple            # allowed values (ints for choice/bool options), or (lo, hi) for ranges
    kind: str                # "choice" | "range" | "bool"
    slot: int = -1
    default: object = None


@attrs.define(eq=False)
class EnumSym:
    decl: object
    type: T.EnumT


@attrs.define(eq=False)
class EnumValueSym:
    type: T.EnumT
    index: int


@attrs.define(eq=False)
class CardSym:
    decl: object
    type: T.CardT
    fields: dict              # name -> (position, type)


@attrs.define(eq=False)
class CardsSym:
    decl: object
    type: object


@attrs.define(eq=False)
class ZoneSym:
    decl: object
    type: T.ZoneT
    owner: str | None
    seen: str


@attrs.define(eq=False)
class VarSym:
    decl: object
    type: object
    owner: str | None
    slot: int = -1


@attrs.define(eq=False)
class DefSym:
    decl: object
    params: tuple            # ((name, type), ...)
    ret: object = None
    frame_size: int = 0
    checking: bool = False


@attrs.define(eq=False)
class RuleSym:
    decl: object
    params: tuple
    frame_size: int = 0
    name: str = ""            # set for `when` handlers, which have no name of their own


@attrs.define(eq=False)
class EventSym:
    decl: object
    params: tuple
    handlers: list = attrs.Factory(list)     # RuleSym of each `when`, in declaration order


@attrs.define(eq=False)
class LocalSym:
    name: str
    type: object
    slot: int
    span: object


@attrs.define(eq=False)
class TeamValue:
    index: int


@attrs.define(eq=False)
class BuiltinValue:
    name: str                # players, player_count
    type: object


class _Scope:
    """Locals of one rule or def body; slots only grow, so nested blocks never share one."""

    def __init__(self, owner):
        self.owner = owner
        self.frames: list[dict] = [{}]
        self.count = 0

    def lookup(self, name):
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def declare(self, name, typ, span) -> LocalSym:
        sym = LocalSym(name, typ, self.count, span)
        self.count += 1
        self.frames[-1][name] = sym
        return sym

    def temp(self) -> int:
        self.count += 1
        return self.count - 1

    def push(self):
        self.frames.append({})

    def pop(self):
        self.frames.pop()


class Checker:
    def __init__(self, decls, originals, diags):
        self.decls = decls
        self.originals = originals
        self.diags = diags
        self.globals: dict = {}
        self.types: dict = {}
        self.refs: dict = {}
        self.slots: dict = {}
        self.scope: _Scope | None = None
        self.current_decl = None
        self.enum_values: dict[str, list] = {}
        self.var_count = 0
        self.options: list = []
        self.enums: list = []
        self.cards: list = []
        self.card_sets: list = []
        self.zones: list = []
        self.vars: list = []
        self.defs: dict = {}
        self.rules: dict = {}
        self.scores: dict = {}
        self.invariants: list = []
        self.events: dict = {}
        self.handlers: list = []
        self.scenarios: list = []
        self.anytimes: list = []
        self.sheets: dict = {}
        self.limit = None
        self.in_rule = False
        self.option_types: dict = {}
        self.best_allowed: set = set()
        self.depth = 0
        self.too_deep = False
        self.module = False
        self.downcasts: dict = {}

    # ---------------------------------------------------------------- errors
    def error(self, span, message, hint="", related=()):
        self.diags.append(Diagnostic(span, message, hint, "error", tuple(related)))

    # ---------------------------------------------------------------- pass 1
    def declare_all(self):
        d_game = [d for d in self.decls if isinstance(d, ast.GameDecl)]
        d_players = [d for d in self.decls if isinstance(d, ast.PlayersDecl)]
        d_teams = [d for d in self.decls if isinstance(d, ast.TeamsDecl)]
        self.title = d_game[-1].title if d_game else "Untitled game"
        if d_players:
            p = d_players[-1]
            self.min_players, self.max_players = p.lo, p.hi
            if not (1 <= p.lo <= p.hi <= 64):
                self.error(p.span, f"a game has between 1 and 64 players, not {p.lo}..{p.hi}",
                           "write something like `players 2..6`")
                self.min_players, self.max_players = 1, max(1, min(p.hi, 64))
        else:
            self.min_players, self.max_players = 1, 8
            if self.decls and not self.module:
                self.error(self.decls[0].span, "the game does not say how many play", "add a line like `players 2..6`")
        if not self.decls:
            self.error(self.empty_span, "this file declares no game",
                       "a game needs at least `players N` and `rule play:` (see docs/language.md)")
        self.teams = d_teams[-1].names if d_teams else ()
        self.globals["players"] = BuiltinValue("players", T.ListT(T.PLAYER))
        self.globals["player_count"] = BuiltinValue("player_count", T.INT)
        if self.teams:
            self.globals["teams"] = BuiltinValue("teams", T.ListT(T.TEAM))
            for i, name in enumerate(self.teams):
                if name in self.globals:
                    self.error(d_teams[-1].span, f"the team name '{name}' is already used", "choose another name")
                self.globals[name] = TeamValue(i)
        # enums first: everything else may mention them
        for d in self.decls:
            if isinstance(d, ast.EnumDecl):
                self.declare_enum(d, d.name, d.values)
            elif isinstance(d, ast.OptionDecl) and isinstance(d.domain, ast.ChoiceDomain):
                self.declare_enum(d, d.name, d.domain.values, is_option=True)
        for d in self.decls:
            if isinstance(d, ast.CardDecl):
                if self.claim(d.name, d):
                    typ = T.CardT(d.name)
                    fields = {}
                    for i, f in enumerate(d.fields):
                        if f.name in fields or f.name in ("owner", "zone"):
                            self.error(f.span, f"field '{f.name}' is defined twice" if f.name in fields
                                       else f"'{f.name}' is a built-in attribute of every card", "rename the field")
                        fields[f.name] = (i, self.resolve_type(f.type))
                    sym = CardSym(d, typ, fields)
                    self.globals[d.name] = sym
                    self.cards.append(sym)
        for d in self.decls:
            if isinstance(d, ast.OptionDecl):
                self.declare_option(d)
            elif isinstance(d, ast.ZoneDecl):
                typ = self.resolve_type(d.type)
                if not T.is_card(typ):
                    self.error(d.type.span, f"a zone holds cards, not {typ}", "name a card type, like `zone hand of Card`")
                    typ = T.ANY
                if d.seen == "owner" and d.owner is None:
                    self.error(d.span, "a shared zone has no owner to see it", "use `per player` or another `seen by`")
                if d.seen == "team" and d.owner is None:
                    self.error(d.span, "a shared zone has no team to see it", "use `per team` or another `seen by`")
                if d.owner == "team" and not self.teams:
                    self.error(d.span, "this game has no teams", "declare them with `teams A, B`")
                if self.claim(d.name, d):
                    sym = ZoneSym(d, T.ZoneT(typ), d.owner, d.seen)
                    self.globals[d.name] = sym
                    self.zones.append(sym)
            elif isinstance(d, ast.VarDecl):
                typ = self.resolve_type(d.type)
                if d.owner == "team" and not self.teams:
                    self.error(d.span, "this game has no teams", "declare them with `teams A, B`")
                if d.index is not None:
                    key = self.table_key(d.index)
                    typ = T.TableT(key, typ) if key is not None else T.ANY
                if self.claim(d.name, d):
                    sym = VarSym(d, typ, d.owner, self.new_var_slot())
                    self.globals[d.name] = sym
                    self.vars.append(sym)
            elif isinstance(d, ast.CardsDecl):
                if self.claim(d.name, d):
                    sym = CardsSym(d, T.ANY)
                    self.globals[d.name] = sym
                    self.card_sets.append(sym)
            elif isinstance(d, ast.DefDecl):
                if self.claim(d.name, d):
                    params = self.resolve_params(d.params)
                    sym = DefSym(d, params, self.resolve_type(d.ret) if d.ret is not None else None)
                    self.globals[d.name] = sym
                    self.defs[d.name] = sym
            elif isinstance(d, ast.RuleDecl):
                if self.claim(d.name, d):
                    sym = RuleSym(d, self.resolve_params(d.params))
                    self.globals[d.name] = sym
                    self.rules[d.name] = sym
            elif isinstance(d, ast.ScoreDecl):
                self.scores[d.kind] = d
            elif isinstance(d, ast.InvariantDecl):
                self.invariants.append(d)
            elif isinstance(d, ast.EventDecl):
                if self.claim(d.name, d):
                    sym = EventSym(d, self.resolve_params(d.params))
                    self.globals[d.name] = sym
                    self.events[d.name] = sym
            elif isinstance(d, ast.SheetDecl):
                self.sheets["table" if d.player is None else "player"] = d
            elif isinstance(d, ast.AnytimeDecl):
                if self.claim(d.name, d):
                    sym = RuleSym(d, ((d.player, T.PLAYER),))
                    sym.name = f"anytime {d.name}"
                    self.globals[d.name] = sym
                    self.anytimes.append(sym)
            elif isinstance(d, ast.LimitDecl):
                if d.decisions < 1:
                    self.error(d.span, "the limit must be at least one decision")
                self.limit = d.decisions
            elif isinstance(d, ast.ScenarioDecl):
                if any(x.name == d.name for x in self.scenarios):
                    self.error(d.span, f"scenario '{d.name}' is defined twice", "rename one of them")
                self.scenarios.append(d)
        for d in self.decls:
            if isinstance(d, ast.WhenDecl):
                event = self.events.get(d.event)
                if event is None:
                    self.error(d.span, f"unknown event '{d.event}'",
                               did_you_mean(d.event, self.events) or f"declare it: `event {d.event}(...)`")
                    continue
                if len(d.params) != len(event.params):
                    self.error(d.span, f"event '{d.event}' has {len(event.params)} parameter(s), not {len(d.params)}",
                               f"{d.event}({', '.join(n for n, _ in event.params)})")
                    continue
                name = f"when {d.event}#{len(event.handlers) + 1}"
                sym = RuleSym(d, tuple((n, t) for n, (_, t) in zip(d.params, event.params)))
                sym.name = name
                event.handlers.append(sym)
                self.handlers.append(sym)
        self.globals["winners"] = BuiltinValue("winners", T.ListT(T.PLAYER))
        if "play" not in self.rules and self.decls and not self.module:
            self.error(self.decls[0].span, "the game has no `rule play`", "add `rule play:` with the course of the game")

    def table_key(self, t):
        if isinstance(t, ast.RangeType):
            if t.lo > t.hi or t.hi - t.lo > 10000:
                self.error(t.span, f"a table needs a small range, not {t.lo}..{t.hi}")
                return None
            return ("range", t.lo, t.hi)
        typ = self.resolve_type(t)
        if isinstance(typ, (T.EnumT, T.CardT)) or typ is T.PLAYER:
            return typ
        if typ is not T.ANY:
            self.error(t.span, f"a table is indexed by an enum, a card type, Player or a range like 1..6, not {typ}")
        return None

    def new_var_slot(self) -> int:
        self.var_count += 1
        return self.var_count - 1

    def claim(self, name, decl) -> bool:
        if name in ("players", "player_count", "teams", "original", "winners"):
            self.error(decl.span, f"'{name}' is a built-in name", "choose another name")
            return False
        if name in self.globals:
            other = self.globals[name]
            odecl = getattr(other, "decl", None)
            self.error(decl.span, f"'{name}' is already defined", "choose another name",
                       [(odecl.span, "the other definition is here")] if odecl is not None else [])
            return False
        if name in ("Int", "Bool", "Str", "Player", "Team", "List", "Zone"):
            self.error(decl.span, f"'{name}' is a built-in type", "choose another name")
            return False
        return True

    def declare_enum(self, decl, name, values, is_option=False):
        if len(set(values)) != len(values):
            dup = next(v for v in values if values.count(v) > 1)
            self.error(decl.span, f"'{dup}' appears twice in '{name}'")
        typ = T.EnumT(name, tuple(values))
        if not is_option:
            if not self.claim(name, decl):
                return
            self.globals[name] = EnumSym(decl, typ)
            self.enums.append(self.globals[name])
        else:
            self.enums.append(EnumSym(decl, typ))
        for i, v in enumerate(values):
            self.enum_values.setdefault(v, []).append(EnumValueSym(typ, i))
            if v in self.globals and not isinstance(self.globals[v], EnumValueSym):
                self.error(decl.span, f"the value '{v}' has the name of another definition", "rename one of them")
            else:
                self.globals.setdefault(v, EnumValueSym(typ, i))
        self.option_types[id(decl)] = typ

    def declare_option(self, d: ast.OptionDecl):
        dom = d.domain
        if isinstance(dom, ast.ChoiceDomain):
            typ = self.option_types.get(id(d), T.ANY)
            sym = OptionSym(d, typ, tuple(range(len(dom.values))), "choice")
        elif isinstance(dom, ast.RangeDomain):
            if dom.lo > dom.hi:
                self.error(dom.span, f"the range {dom.lo}..{dom.hi} is empty", "write the smaller number first")
            sym = OptionSym(d, T.INT, (dom.lo, dom.hi), "range")
        else:
            sym = OptionSym(d, T.BOOL, (False, True), "bool")
        if self.claim(d.name, d):
            sym.slot = self.new_var_slot()
            self.globals[d.name] = sym
            self.options.append(sym)

    def resolve_params(self, params):
        out = []
        seen = set()
        for p in params:
            if p.name in seen:
                self.error(p.span, f"parameter '{p.name}' appears twice")
            seen.add(p.name)
            out.append((p.name, self.resolve_type(p.type)))
        return tuple(out)

    def resolve_type(self, t):
        if t is None:
            return T.ANY
        if isinstance(t, ast.RangeType):
            if t.lo > t.hi:
                self.error(t.span, f"the range {t.lo}..{t.hi} is empty", "write the smaller number first")
            return T.INT
        if isinstance(t, ast.GenericType):
            inner = self.resolve_type(t.arg)
            if t.name == "List":
                return T.ListT(inner)
            if t.name == "Zone":
                if not T.is_card(inner):
                    self.error(t.arg.span, f"a zone holds cards, not {inner}")
                    return T.ZoneT(T.ANY)
                return T.ZoneT(inner)
            self.error(t.span, f"unknown type '{t.name}[...]'", "the types with [..] are List[T] and Zone[T]")
            return T.ANY
        name = t.name
        if name == "Card" and isinstance(self.globals.get(name), CardSym):
            return self.globals[name].type      # a game's own card type called Card
        prim = {"Int": T.INT, "Bool": T.BOOL, "Str": T.STR, "Player": T.PLAYER, "Team": T.TEAM,
                "Card": T.ANYCARD, "Zone": T.ZoneT(T.ANYCARD)}
        if name in prim:
            if name == "Team" and not self.teams:
                self.error(t.span, "this game has no teams", "declare them with `teams A, B`")
            return prim[name]
        if name == "List":
            self.error(t.span, "say what the list holds", "for example List[Player]")
            return T.ANY
        sym = self.globals.get(name)
        if isinstance(sym, EnumSym):
            return sym.type
        if isinstance(sym, CardSym):
            return sym.type
        known = ["Int", "Bool", "Str", "Player", "List", "Zone"] + [s.decl.name for s in self.enums if isinstance(s.decl, ast.EnumDecl)] \
            + [c.decl.name for c in self.cards]
        self.error(t.span, f"unknown type '{name}'", did_you_mean(name, known))
        return T.ANY

    # ---------------------------------------------------------------- pass 2
    def check_all(self):
        for sym in self.cards:
            if sym.decl.named is not None:
                self.scope = _Scope(sym.decl)
                for fname, (pos, ftyp) in sorted(sym.fields.items(), key=lambda kv: kv[1][0]):
                    self.scope.declare(fname, ftyp, sym.decl.span)
                self.expr(sym.decl.named)
                self.slots[id(sym.decl)] = self.scope.count
        for sym in self.options:
            d = sym.decl
            self.scope = _Scope(d)
            if sym.kind != "choice":
                typ = self.expr(d.default)
                self.expect(d.default, typ, sym.type, "the default of this option")
            sym.default = _constant_option_value(d.default, sym, self)
        for sym in self.card_sets:
            self.scope = _Scope(sym.decl)
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
                self.scope = _Scope(d)
                self.in_rule = False
                typ = self.expr(d.init)
                want = sym.type.value if isinstance(sym.type, T.TableT) else sym.type
                self.expect(d.init, typ, want, f"the starting value of '{d.name}'")
                self.slots[id(d)] = self.scope.count
        for sym in self.defs.values():
            self.check_def(sym)
        for sym in self.rules.values():
            self.check_rule(sym)
        for sym in self.handlers:
            self.check_rule(sym)
        for sym in self.anytimes:
            self.check_rule(sym)
        for d in self.scenarios:
            self.check_scenario(d)
        for d in self.sheets.values():
            self.scope = _Scope(d)
            self.current_decl = d
            if d.player is not None:
                self.scope.declare(d.player, T.PLAYER, d.span)
            for line in d.lines:
                self.expr(line)
        for kind, d in self.scores.items():
            self.scope = _Scope(d)
            self.scope.declare(d.var, T.PLAYER, d.span)
            typ = self.expr(d.value)
            self.expect(d.value, typ, T.INT, f"the {kind}")
        for d in self.invariants:
            self.scope = _Scope(d)
            typ = self.expr(d.value)
            self.expect(d.value, typ, T.BOOL, "an invariant")
            self.slots[id(d)] = self.scope.count

    def check_def(self, sym: DefSym):
        if sym.frame_size or sym.checking:
            return sym.ret
        d = sym.decl
        saved = (self.scope, self.current_decl, self.in_rule)
        sym.checking = True
        self.scope = _Scope(d)
        self.current_decl = d
        self.in_rule = False
        for (name, typ), p in zip(sym.params, d.params):
            self.slots[id(p)] = self.scope.declare(name, typ, p.span).slot
        typ = self.expr(d.body)
        if sym.ret is not None:
            self.expect(d.body, typ, sym.ret, f"the value of '{d.name}'")
        else:
            sym.ret = typ
        sym.frame_size = max(1, self.scope.count)
        sym.checking = False
        self.scope, self.current_decl, self.in_rule = saved
        return sym.ret

    def check_rule(self, sym: RuleSym):
        d = sym.decl
        self.scope = _Scope(d)
        self.current_decl = d
        self.in_rule = True
        if isinstance(d, (ast.WhenDecl, ast.AnytimeDecl)):
            for (name, typ) in sym.params:
                self.scope.declare(name, typ, d.span)
            if d.where is not None:
                self.expect(d.where, self.expr(d.where), T.BOOL, "a `where` condition")
            if isinstance(d, ast.AnytimeDecl):
                self.expr(d.label)
        else:
            for (name, typ), p in zip(sym.params, d.params):
                self.slots[id(p)] = self.scope.declare(name, typ, p.span).slot
        self.block(d.body)
        sym.frame_size = self.scope.count
        self.in_rule = False

    def check_scenario(self, d: ast.ScenarioDecl):
        """Scenario steps: header lines, an optional `arrange:` block (checked as a rule body), expectations."""
        self.current_decl = d
        seen_arrange = False
        for step in d.steps:
            self.scope = _Scope(d)
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
            elif step.kind in ("take", "legal", "illegal"):
                self.expr(step.value)

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
        typ = self.expr(s.value)
        if typ is T.VOID:
            self.error(s.value.span, "this gives no value to keep")
            typ = T.ANY
        if self.scope.lookup(s.name) is not None:
            self.error(s.span, f"'{s.name}' is already a local name here", "choose another name")
        elif s.name in self.globals and not isinstance(self.globals[s.name], EnumValueSym):
            pass  # a local may shadow a global on purpose (e.g. `let winner`)
        self.slots[id(s)] = self.scope.declare(s.name, typ, s.span).slot

    def stmt_Assign(self, s: ast.Assign):
        vtyp = self.expr(s.value)
        ttyp = self.assign_target(s.target)
        if s.op != "=":
            self.expect(s.value, vtyp, T.INT, f"'{s.op}'")
            self.expect(s.target, ttyp, T.INT, f"'{s.op}'")
        else:
            self.expect(s.value, vtyp, ttyp, "the new value")

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

    def stmt_Say(self, s: ast.Say):
        self.expr(s.text)

    def stmt_ExprStmt(self, s: ast.ExprStmt):
        call = s.expr
        sym = self.globals.get(call.func)
        if call.func == "original":
            sym = self.original_sym(call)
        if isinstance(sym, RuleSym):
            self.call_args(call, sym.params, sym.decl.name)
            self.refs[id(call)] = sym
            self.types[id(call)] = T.VOID
            return
        typ = self.expr(call)
        if typ is not T.ANY:
            self.error(call.span, f"'{call.func}' gives a value but does nothing", "use it in `let`, `if` or an assignment")

    def stmt_Signal(self, s: ast.Signal):
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

    def stmt_If(self, s: ast.If):
        for cond, body in s.branches:
            self.expect(cond, self.expr(cond), T.BOOL, "a condition")
            self.block(body)
        if s.otherwise is not None:
            self.block(s.otherwise)

    def stmt_For(self, s: ast.For):
        typ = self.expr(s.iterable)
        elem = self.iter_elem(s.iterable, typ)
        self.slots[(id(s), "list")] = self.scope.temp()
        self.slots[(id(s), "index")] = self.scope.temp()
        self.scope.push()
        self.slots[id(s)] = self.scope.declare(s.var, elem, s.span).slot
        self.block(s.body)
        self.scope.pop()

    def stmt_While(self, s: ast.While):
        self.expect(s.cond, self.expr(s.cond), T.BOOL, "a condition")
        self.block(s.body)

    def stmt_Repeat(self, s: ast.Repeat):
        self.expect(s.count, self.expr(s.count), T.INT, "the number of repeats")
        self.slots[(id(s), "count")] = self.scope.temp()
        self.block(s.body)

    def stmt_Choose(self, s: ast.Choose):
        ctyp = self.expr(s.chooser)
        self.expect(s.chooser, ctyp, T.PLAYER, "the one who chooses")
        dtyp = self.expr(s.domain)
        elem = self.iter_elem(s.domain, dtyp)
        if not (isinstance(elem, (T.CardT, T.EnumT, T.ZoneT)) or elem in (T.PLAYER, T.TEAM, T.BOOL, T.ANY, T.ANYCARD)
                or (elem is T.INT and _static_range(s.domain) is not None)):
            self.error(s.domain.span, f"the options of a choice must come from a fixed set, not {dtyp}",
                       "choose among cards, zones, players, teams, enum values, or a range like 1..6")
        self.scope.push()
        self.slots[id(s)] = self.scope.declare(s.var, elem, s.span).slot
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

    def iter_elem(self, node, typ):
        if isinstance(node, ast.Name) and isinstance(self.refs.get(id(node)), (EnumSym, CardSym)):
            return typ.elem
        elem = T.element_of(typ)
        if elem is None:
            self.error(node.span, f"cannot go through {typ} one by one", "use a list, a zone, an enum or a range")
            return T.ANY
        return elem

    # ----------------------------------------------------------- expressions
    def expect(self, node, got, want, what):
        if not T.assignable(got, want):
            self.error(node.span, f"{what} should be {_a(want)}, but this is {_a(got)}")
            return
        # a card of any type used as a card of one type: checked when the rules run
        if got is T.ANYCARD and isinstance(want, T.CardT):
            self.downcasts[id(node)] = want.name
        elif isinstance(got, (T.ListT, T.ZoneT)) and got.elem is T.ANYCARD and isinstance(want, T.ListT) \
                and isinstance(want.elem, T.CardT):
            self.downcasts[id(node)] = ("list", want.elem.name)

    MAX_DEPTH = 60

    def expr(self, e):
        self.depth += 1
        try:
            if self.depth > self.MAX_DEPTH:
                if not self.too_deep:
                    self.too_deep = True
                    self.error(e.span, f"this expression is nested more than {self.MAX_DEPTH} levels deep",
                               "split it with `let` steps or `def`s")
                self.types[id(e)] = T.ANY
                return T.ANY
            typ = getattr(self, "expr_" + type(e).__name__)(e)
        finally:
            self.depth -= 1
        self.types[id(e)] = typ
        return typ

    def expr_IntLit(self, e):
        return T.INT

    def expr_BoolLit(self, e):
        return T.BOOL

    def expr_Template(self, e):
        for part in e.parts:
            if not isinstance(part, str):
                typ = self.expr(part)
                if typ is T.VOID:
                    self.error(part.span, "this has no value to show")
        return T.STR

    def expr_RangeLit(self, e):
        if e.lo > e.hi:
            self.error(e.span, f"the range {e.lo}..{e.hi} is empty", "write the smaller number first")
        if e.hi - e.lo > 100000:
            self.error(e.span, "this range is too large", "ranges in rules hold at most 100000 numbers")
        return T.ListT(T.INT)

    def expr_Name(self, e: ast.Name):
        sym = self.scope.lookup(e.id) if self.scope else None
        if sym is None:
            sym = self.globals.get(e.id)
        if sym is None and e.id in self.enum_values:
            sym = self.enum_values[e.id][0]
        if sym is None:
            self.error(e.span, f"unknown name '{e.id}'", did_you_mean(e.id, self.visible_names()))
            return T.ANY
        self.refs[id(e)] = sym
        if isinstance(sym, LocalSym):
            return sym.type
        if isinstance(sym, OptionSym):
            return sym.type
        if isinstance(sym, EnumValueSym):
            if len(self.enum_values.get(e.id, ())) > 1:
                names = " or ".join(f"{v.type.name}.{e.id}" for v in self.enum_values[e.id])
                self.error(e.span, f"'{e.id}' is a value of more than one enum", f"write {names}")
            return sym.type
        if isinstance(sym, EnumSym):
            return T.ListT(sym.type)
        if isinstance(sym, CardSym):
            return T.ListT(sym.type)
        if isinstance(sym, CardsSym):
            return sym.type if sym.type is not T.ANY else T.ListT(T.ANY)
        if isinstance(sym, ZoneSym):
            if sym.owner:
                self.error(e.span, f"'{e.id}' belongs to each {sym.owner}",
                           f"write `p.{e.id}` for a {sym.owner} p")
                return T.ANY
            return sym.type
        if isinstance(sym, VarSym):
            if sym.owner:
                self.error(e.span, f"'{e.id}' belongs to each {sym.owner}", f"write `p.{e.id}` for a {sym.owner} p")
                return T.ANY
            return sym.type
        if isinstance(sym, DefSym):
            if sym.params:
                self.error(e.span, f"'{e.id}' needs {len(sym.params)} argument(s)", f"write {e.id}(...)")
                return T.ANY
            return self.def_type(sym, e)
        if isinstance(sym, RuleSym):
            self.error(e.span, f"'{e.id}' is a rule: it is run as a statement, `{e.id}()`, and has no value")
            return T.ANY
        if isinstance(sym, BuiltinValue):
            return sym.type
        if isinstance(sym, TeamValue):
            return T.TEAM
        return T.ANY

    def def_type(self, sym, node):
        if sym.checking and sym.ret is None:
            self.error(node.span, f"'{sym.decl.name}' uses itself; give it a type",
                       f"write `def {sym.decl.name}(...): Int = ...`")
            return T.ANY
        ret = self.check_def(sym)
        return ret if ret is not None else T.ANY

    def visible_names(self):
        names = list(self.globals) + list(self.enum_values)
        if self.scope:
            for f in self.scope.frames:
                names += list(f)
        return names

    def expr_Attr(self, e: ast.Attr):
        # Qualified enum value: Colour.Red
        if isinstance(e.obj, ast.Name) and isinstance(self.globals.get(e.obj.id), EnumSym) \
                and (self.scope is None or self.scope.lookup(e.obj.id) is None):
            esym = self.globals[e.obj.id]
            self.refs[id(e.obj)] = esym
            if e.name in esym.type.values:
                sym = EnumValueSym(esym.type, esym.type.values.index(e.name))
                self.refs[id(e)] = sym
                return esym.type
            self.error(e.name_span, f"'{e.obj.id}' has no value '{e.name}'", did_you_mean(e.name, esym.type.values))
            return T.ANY
        otyp = self.expr(e.obj)
        if otyp is T.ANY:
            return T.ANY
        if isinstance(otyp, (T.CardT,)) or otyp is T.ANYCARD:
            if e.name == "owner":
                self.refs[id(e)] = "owner"
                return T.PLAYER
            if e.name == "zone":
                self.refs[id(e)] = "zone"
                return T.ZoneT(otyp)
            if otyp is T.ANYCARD:
                self.error(e.name_span, f"cards of any type have no field '{e.name}'", "give the card a type")
                return T.ANY
            card = self.globals[otyp.name]
            if e.name in card.fields:
                self.refs[id(e)] = ("field", otyp.name, e.name)
                return card.fields[e.name][1]
            self.error(e.name_span, f"a {otyp.name} has no '{e.name}'",
                       did_you_mean(e.name, list(card.fields) + ["owner"]) or f"its fields are {', '.join(card.fields)}")
            return T.ANY
        if otyp in (T.PLAYER, T.TEAM):
            kind = "player" if otyp is T.PLAYER else "team"
            sym = self.globals.get(e.name)
            if isinstance(sym, (ZoneSym, VarSym)) and sym.owner == kind:
                self.refs[id(e)] = sym
                return sym.type
            if otyp is T.PLAYER and e.name == "team" and self.teams:
                self.refs[id(e)] = "team"
                return T.TEAM
            if e.name in ("seat", "index"):
                self.refs[id(e)] = "seat"
                return T.INT
            owned = [n for n, s in self.globals.items() if isinstance(s, (ZoneSym, VarSym)) and s.owner == kind]
            if isinstance(sym, (ZoneSym, VarSym)):
                self.error(e.name_span, f"'{e.name}' is not kept per {kind}",
                           f"it is {'shared' if not sym.owner else 'per ' + sym.owner}: write `{e.name}`" if not sym.owner else "")
            else:
                self.error(e.name_span, f"a {kind} has no '{e.name}'",
                           did_you_mean(e.name, owned + ["seat"] + (["team"] if self.teams and kind == "player" else []))
                           or (f"things kept per {kind}: {', '.join(owned)}" if owned else f"nothing is declared `per {kind}`"))
            return T.ANY
        self.error(e.name_span, f"{_a(otyp)} has no attributes", "attributes belong to cards, players and teams")
        return T.ANY

    def expr_Call(self, e: ast.Call):
        if e.func == "original":
            sym = self.original_sym(e)
            if sym is None:
                for a in e.args:
                    self.expr(a)
                return T.ANY
        else:
            sym = self.globals.get(e.func)
        if sym is None and (e.func in FUNCTIONS or e.func == "player" or (e.func == "score" and "score" in self.scores)):
            return self.check_builtin(e)
        if isinstance(sym, DefSym):
            self.refs[id(e)] = sym
            self.call_args(e, sym.params, sym.decl.name)
            return self.def_type(sym, e)
        if isinstance(sym, CardSym) and len(e.args) == 1 and isinstance(e.args[0], ast.Template) \
                and all(isinstance(x, str) for x in e.args[0].parts) \
                and not (len(sym.fields) == 1 and next(iter(sym.fields.values()))[1] is T.STR):
            self.refs[id(e)] = ("card named", sym.decl.name, "".join(e.args[0].parts))
            self.types[id(e.args[0])] = T.STR
            return sym.type
        if isinstance(sym, CardSym):
            self.refs[id(e)] = sym
            params = tuple((n, t) for n, (i, t) in sorted(sym.fields.items(), key=lambda kv: kv[1][0]))
            self.call_args(e, params, sym.decl.name)
            if self.in_rule or not isinstance(self.current_decl, ast.CardsDecl) and self.scope and not isinstance(self.scope.owner, ast.CardsDecl):
                self.error(e.span, "new cards can only be made in a `cards` declaration",
                           f"declare them once: `cards name = [{e.func}(...), ...]`")
            return sym.type
        if isinstance(sym, RuleSym):
            self.error(e.span, f"'{e.func}' is a rule: call it as a statement on its own line")
            for a in e.args:
                self.expr(a)
            return T.ANY
        if sym is None:
            self.error(e.func_span, f"unknown function '{e.func}'",
                       did_you_mean(e.func, list(FUNCTIONS) + list(self.globals)))
        else:
            self.error(e.func_span, f"'{e.func}' cannot be called", "only functions (`def`), rules and card types can")
        for a in e.args:
            self.expr(a)
        return T.ANY

    def check_builtin(self, e: ast.Call):
        """A call of a built-in: its arity here, the rest by its entry in rulecraft.builtins."""
        b = REGISTRY[e.func]
        if len(e.args) != b.arity:
            self.error(e.span, f"'{e.func}' takes {b.arity} argument(s), not {len(e.args)}", b.doc)
            for a in e.args:
                self.expr(a)
            return T.ANY
        arg = e.args[0]
        best = isinstance(arg, ast.BestBy)
        if best and e.func in ("max", "min", "sort"):
            self.best_allowed.add(id(arg))
        typ = self.expr(arg)
        self.refs[id(e)] = ("builtin", e.func)
        if best and e.func not in ("max", "min", "sort"):
            self.error(arg.span, f"'{e.func}' does not take `by`", b.doc)
            return T.ANY
        return b.check(self, e, typ)

    def original_sym(self, e):
        name = self.originals.get(id(self.current_decl))
        if name is None:
            self.error(e.span, "`original` is only meaningful inside an `override` of a def or rule")
            return None
        return self.globals.get(name)

    def call_args(self, e, params, name):
        if len(e.args) != len(params):
            self.error(e.span, f"'{name}' takes {len(params)} argument(s), not {len(e.args)}",
                       f"{name}({', '.join(f'{n}: {t}' for n, t in params)})")
        for a, (pname, ptyp) in zip(e.args, params):
            if isinstance(a, (ast.Comprehension, ast.BestBy)):
                typ = self.expr(a)
            else:
                typ = self.expr(a)
            self.expect(a, typ, ptyp, f"argument '{pname}' of '{name}'")
        for a in e.args[len(params):]:
            self.expr(a)

    def expr_Index(self, e: ast.Index):
        otyp = self.expr(e.obj)
        if isinstance(otyp, T.TableT):
            self.check_key(e.index, self.expr(e.index), otyp)
            return otyp.value
        self.expect(e.index, self.expr(e.index), T.INT, "an index")
        elem = T.element_of(otyp)
        if elem is None:
            self.error(e.obj.span, f"{_a(otyp)} cannot be indexed", "only lists and zones can")
            return T.ANY
        return elem

    def expr_ListLit(self, e: ast.ListLit):
        elem = T.ANY
        for item in e.items:
            typ = self.expr(item)
            if isinstance(item, ast.Comprehension):
                typ = T.element_of(typ) or T.ANY
            j = T.join(elem, typ)
            if j is None:
                self.error(item.span, f"a list holds one type: this is {_a(typ)}, the others {_a(elem)}")
            else:
                elem = j
        if len(e.items) == 1 and isinstance(e.items[0], ast.Comprehension):
            return self.types[id(e.items[0])]
        return T.ListT(elem)

    def expr_Cond(self, e: ast.Cond):
        self.expect(e.test, self.expr(e.test), T.BOOL, "a condition")
        a = self.expr(e.then)
        b = self.expr(e.other)
        j = T.join(a, b)
        if j is None:
            self.error(e.span, f"both branches must have one type, not {a} and {b}")
            return T.ANY
        return j

    def expr_BinOp(self, e: ast.BinOp):
        a = self.expr(e.left)
        b = self.expr(e.right)
        if e.op == "+" and isinstance(a, T.ListT) and isinstance(b, T.ListT):
            j = T.join(a, b)
            if j is None:
                self.error(e.span, f"cannot join {a} and {b}")
                return T.ANY
            return j
        self.expect(e.left, a, T.INT, f"'{e.op}'")
        self.expect(e.right, b, T.INT, f"'{e.op}'")
        return T.INT

    def expr_Compare(self, e: ast.Compare):
        a = self.expr(e.left)
        b = self.expr(e.right)
        if e.op in ("in", "not in"):
            elem = T.element_of(b)
            if elem is None:
                self.error(e.right.span, f"'{e.op}' needs a list or a zone on its right, not {_a(b)}")
            elif T.join(a, elem) is None:
                self.error(e.span, f"{_a(a)} is never in {_a(b)}")
            return T.BOOL
        if e.op in ("<", ">", "<=", ">="):
            self.expect(e.left, a, T.INT, f"'{e.op}'")
            self.expect(e.right, b, T.INT, f"'{e.op}'")
            return T.BOOL
        if T.join(a, b) is None:
            self.error(e.span, f"{_a(a)} is never equal to {_a(b)}", "compare values of the same type")
        return T.BOOL

    def expr_BoolOp(self, e: ast.BoolOp):
        self.expect(e.left, self.expr(e.left), T.BOOL, f"'{e.op}'")
        self.expect(e.right, self.expr(e.right), T.BOOL, f"'{e.op}'")
        return T.BOOL

    def expr_Not(self, e: ast.Not):
        self.expect(e.operand, self.expr(e.operand), T.BOOL, "'not'")
        return T.BOOL

    def expr_Neg(self, e: ast.Neg):
        self.expect(e.operand, self.expr(e.operand), T.INT, "'-'")
        return T.INT

    def expr_Comprehension(self, e: ast.Comprehension):
        self.scope.push()
        for f in e.fors:
            typ = self.expr(f.iterable)
            elem = self.iter_elem(f.iterable, typ)
            self.slots[id(f)] = self.scope.declare(f.var, elem, f.span).slot
            if f.cond is not None:
                self.expect(f.cond, self.expr(f.cond), T.BOOL, "a filter")
        elem = self.expr(e.element)
        self.scope.pop()
        return T.ListT(elem)

    def expr_BestBy(self, e: ast.BestBy):
        if id(e) not in self.best_allowed:
            self.error(e.span, "`x in xs by key` only works inside max(...), min(...) or sort(...)")
        typ = self.expr(e.iterable)
        elem = self.iter_elem(e.iterable, typ)
        self.scope.push()
        self.slots[id(e)] = self.scope.declare(e.var, elem, e.span).slot
        self.expect(e.key, self.expr(e.key), T.INT, "the key after `by`")
        self.scope.pop()
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


def check(decls, originals, diags, file_span=None, module: bool = False):
    """Check merged declarations; return the typed IR (rulecraft.check.ir.Program), or None when
    an error was found (every one is in `diags`). `file_span` (the entry file's first line) is where
    a file with no declarations is reported; a `module` (a file to be imported) needs no `players`
    and no `rule play`."""
    c = Checker(decls, originals, diags)
    c.empty_span = file_span
    c.module = module
    c.declare_all()
    c.check_all()
    for name, sym in list(c.defs.items()):
        if not sym.frame_size:
            c.check_def(sym)
    if any(d.severity == "error" for d in diags):
        return None
    from .lower import lower
    return lower(c)
