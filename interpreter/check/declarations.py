"""Pass 1 of checking: every top-level name into one global table (enum types first)."""
from __future__ import annotations

from ..builtins import FUNCTIONS, a_type as _a
from ..diagnostics import did_you_mean
from ..syntax import ast
from ..ir import types as T
from .expressions import CARD_ATTRIBUTES
from .generics import Generics
from .symbols import BuiltinValue, CardSym, CardsSym, DefSym, EnumSym, EnumValueSym, EventSym, OptionSym, RuleSym, TeamValue, VarSym, ZoneSym

MAX_DECISION_LIMIT = 100_000    # the largest `limit decisions` (docs/security.md)

_KIND_WORDS = {"CardDecl": "card type", "ZoneDecl": "zone", "VarDecl": "variable", "CardsDecl": "card set",
               "DefDecl": "def", "RuleDecl": "rule", "EventDecl": "event", "AnytimeDecl": "anytime action",
               "OptionDecl": "option", "EnumDecl": "enum"}


class Declarations(Generics):
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
        if len(self.teams) == 1 and self.min_players > 1 and not any(isinstance(d, ast.OutcomeDecl) for d in self.decls):
            self.warn(d_teams[-1].span, "with one team, every player wins every game",
                      "say when they win together: `outcome cooperative when …` (docs/language.md)")
        self.globals["players"] = BuiltinValue("players", T.ListT(T.PLAYER))
        self.globals["player_count"] = BuiltinValue("player_count", T.INT)
        self.globals["Bool"] = BuiltinValue("Bool", T.ListT(T.BOOL))     # its values, as an enum's name gives
        if self.teams:
            self.globals["teams"] = BuiltinValue("teams", T.ListT(T.TEAM))
            for i, name in enumerate(self.teams):
                if name in self.globals:
                    self.error(d_teams[-1].span, f"the team name '{name}' is already used", "choose another name")
                self.globals[name] = TeamValue(i)
        # enums first: everything else may mention them
        for d in self.decls:
            if isinstance(d, ast.EnumDecl):
                self.declare_enum(d, d.name, d.values, shown=tuple(s or v for s, v in zip(d.shown, d.values))
                                  if any(d.shown) else ())
            elif isinstance(d, ast.OptionDecl) and isinstance(d.domain, ast.ChoiceDomain):
                self.declare_enum(d, d.name, d.domain.values, is_option=True)
        for d in self.decls:
            if isinstance(d, ast.CardDecl):
                if self.claim(d.name, d):
                    typ = T.CardT(d.name)
                    fields = {}
                    for i, f in enumerate(d.fields):
                        if f.name in fields or f.name in CARD_ATTRIBUTES:
                            self.error(f.span, f"field '{f.name}' is defined twice" if f.name in fields
                                       else f"'{f.name}' is a built-in attribute of every card", "rename the field")
                        fields[f.name] = (i, self.resolve_type(f.type))
                    sym = CardSym(d, typ, fields)
                    self.globals[d.name] = sym
                    self.cards.append(sym)
        for sym in self.enums:
            if isinstance(sym.decl, ast.EnumDecl):
                self.declare_enum_data(sym)
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
                if d.seen == "others" and d.owner is None:
                    self.error(d.span, "a shared zone has no owner for the others to be told from",
                               "use `per player` or `per team`, or `seen by all`")
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
                seen = d.seen or "all"
                if seen in ("owner", "team", "others") and d.owner is None:
                    self.error(d.span, f"a shared variable has no {'team' if d.seen == 'team' else 'owner'} to see it",
                               "use `per player` or `per team`, or `seen by nobody`")
                if seen == "team" and not self.teams:
                    self.error(d.span, "this game has no teams", "declare them with `teams A, B`")
                if self.claim(d.name, d):
                    sym = VarSym(d, typ, d.owner, self.new_var_slot(), seen)
                    self.globals[d.name] = sym
                    self.vars.append(sym)
            elif isinstance(d, ast.CardsDecl):
                if self.claim(d.name, d):
                    sym = CardsSym(d, T.ANY)
                    self.globals[d.name] = sym
                    self.card_sets.append(sym)
            elif isinstance(d, ast.DefDecl):
                if self.claim(d.name, d):
                    tvars = self.declare_type_params(d)
                    params = self.resolve_params(d.params)
                    sym = DefSym(d, params, self.resolve_type(d.ret) if d.ret is not None else None, type_params=tvars)
                    self.type_vars = {}
                    self.check_type_params_used(d, tvars, params)
                    self.globals[d.name] = sym
                    self.defs[d.name] = sym
            elif isinstance(d, ast.RuleDecl):
                if self.claim(d.name, d):
                    tvars = self.declare_type_params(d)
                    sym = RuleSym(d, self.resolve_params(d.params), type_params=tvars)
                    if d.returns is not None:
                        self.declare_rule_value(sym)
                    self.type_vars = {}
                    self.check_type_params_used(d, tvars, sym.params)
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
                elif d.decisions > MAX_DECISION_LIMIT:     # a game that never ends would run for hours
                    self.error(d.span, f"the limit must be at most {MAX_DECISION_LIMIT:,} decisions",
                               "a longer game is no game a person plays: give the rules an end")
                self.limit = d.decisions
            elif isinstance(d, ast.OutcomeDecl):
                self.declare_outcome(d)
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

    def declare_outcome(self, d) -> None:
        """`outcome cooperative when C`, `outcome zero-sum`, `outcome constant-sum K`, each with an optional
        `, scores LO..HI`: which parts each kind takes."""
        forms = {"cooperative": "outcome cooperative when total >= 10", "zero-sum": "outcome zero-sum",
                 "constant-sum": "outcome constant-sum 10"}
        if d.kind not in forms:
            self.error(d.span, f"an outcome is cooperative, zero-sum or constant-sum, not '{d.kind}'",
                       did_you_mean(d.kind, forms) or "for example `outcome zero-sum`")
            return
        cooperative = d.kind == "cooperative"
        if cooperative and d.condition is None:
            self.error(d.span, "a cooperative game says when its players win together",
                       f"for example `{forms['cooperative']}`")
        elif not cooperative and d.condition is not None:
            self.error(d.condition.span, f"only a cooperative outcome takes `when`", f"write `{forms[d.kind]}`")
        if (d.kind == "constant-sum") != (d.total is not None):
            self.error(d.span, "a constant-sum outcome gives the sum of the scores" if d.total is None
                       else f"only a constant-sum outcome takes a number", f"write `{forms[d.kind]}`")
        if d.bounds_word is not None and d.bounds_word != "scores":
            self.error(d.span, f"an outcome's bounds are written `, scores LO..HI`, not `, {d.bounds_word} …`")
        elif d.low is not None and d.low > d.high:
            self.error(d.span, f"the scores' bounds {d.low}..{d.high} are empty", f"write `, scores {d.high}..{d.low}`")
        self.outcome = d

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
        self.warn_if_hiding(name, decl)
        return True

    def warn_if_hiding(self, name, decl):
        """A declaration named like a built-in function hides it: `var first` and `first(x in xs where …)`
        cannot both be used in one game. Legal, so a warning: a rename the author should make."""
        if name not in FUNCTIONS and name != "player":
            return
        what = _KIND_WORDS.get(type(decl).__name__, "declaration")
        if isinstance(decl, ast.DefDecl) and decl.const:
            what = "const"
        typ = getattr(decl, "type", None)
        word = getattr(typ, "name", None) if isinstance(decl, ast.VarDecl) else None
        example = f", e.g. '{name}_{word.lower()}'" if isinstance(word, str) and word.isidentifier() else ""
        self.warn(decl.span, f"the {what} '{name}' hides the built-in function {name}(…)",
                  f"in a game that declares '{name}', `{name}(…)` cannot be called: rename it{example}")

    def declare_enum(self, decl, name, values, is_option=False, shown=()):
        if len(set(values)) != len(values):
            dup = next(v for v in values if values.count(v) > 1)
            self.error(decl.span, f"'{dup}' appears twice in '{name}'")
        typ = T.EnumT(name, tuple(values), shown)
        if not is_option:
            if not self.claim(name, decl):
                return
            self.globals[name] = EnumSym(decl, typ)
            self.enums.append(self.globals[name])
        else:
            self.enums.append(EnumSym(decl, typ))
        for i, v in enumerate(values):
            self.enum_values.setdefault(v, []).append(EnumValueSym(typ, i))
            if v in FUNCTIONS or v == "player":
                self.warn(decl.span, f"the value '{v}' of {name} hides the built-in function {v}(…)",
                          f"in a game that declares '{v}', `{v}(…)` cannot be called: rename it")
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

    def declare_enum_data(self, sym):
        """`enum Rank(points: Int): Ten(10), Ace(11)`: each value's data, constants checked here."""
        d = sym.decl
        for f in d.fields:
            typ = self.resolve_type(f.type)
            if not (typ in (T.INT, T.STR, T.BOOL, T.ANY) or isinstance(typ, T.EnumT)):
                self.error(f.type.span, f"an enum value carries numbers, text, true/false or enum values, not {typ}")
                typ = T.ANY
            if f.name in sym.fields or f.name == "position":
                self.error(f.span, f"'{f.name}' is defined twice" if f.name in sym.fields
                           else "'position' is a built-in of every enum value", "rename it")
            sym.fields[f.name] = (typ, [])
        for value, args, span in zip(d.values, d.data, d.spans or (d.span,) * len(d.values)):
            args = args or ()
            if len(args) != len(d.fields):
                want = ", ".join(f.name for f in d.fields)
                self.error(span, f"'{value}' gives {len(args)} value(s), but {d.name} carries {len(d.fields)}"
                           + (f": {want}" if want else ""),
                           f"for example {value}({', '.join('…' for _ in d.fields)})" if d.fields
                           else "declare them: `enum NAME(field: Type, …): …`")
            for f, arg in zip(d.fields, args):
                typ, values = sym.fields[f.name]
                values.append(self.enum_constant(arg, typ, f.name))
        for name, (typ, values) in list(sym.fields.items()):
            values += [None] * (len(d.values) - len(values))
            sym.fields[name] = (typ, tuple(values))

    def enum_constant(self, node, typ, field):
        """A constant written after an enum value: a number, text without {…}, true/false, an enum value."""
        if isinstance(node, ast.IntLit) and typ is T.INT:
            return node.value
        if isinstance(node, ast.Neg) and isinstance(node.operand, ast.IntLit) and typ is T.INT:
            return -node.operand.value
        if isinstance(node, ast.BoolLit) and typ is T.BOOL:
            return node.value
        if isinstance(node, ast.Template) and typ is T.STR and all(isinstance(p, str) for p in node.parts):
            return "".join(node.parts)
        if isinstance(typ, T.EnumT):
            if isinstance(node, ast.Name) and node.id in typ.values:
                return typ.values.index(node.id)
            if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == typ.name \
                    and node.name in typ.values:
                return typ.values.index(node.name)
        if typ is not T.ANY:
            self.error(node.span, f"'{field}' is {_a(typ)}: write a constant {typ} here",
                       "an enum value's data is written out: a number, text in quotes without {…}, true/false, "
                       "or a value of the enum")
        return None

    def resolve_type(self, t):
        if t is None:
            return T.ANY
        if isinstance(t, ast.OptionalType):
            inner = self.resolve_type(t.inner)
            if isinstance(inner, (T.ZoneT, T.ListT)):
                self.error(t.span, f"{inner} cannot be optional",
                           "an empty zone or list is its 'none': test it with `empty(…)`")
                return T.ANY
            return T.optional(inner)
        if isinstance(t, ast.RangeType):
            if t.lo > t.hi:
                self.error(t.span, f"the range {t.lo}..{t.hi} is empty", "write the smaller number first")
            return T.INT
        if isinstance(t, ast.GenericType):
            inner = self.resolve_type(t.arg)
            if t.name == "List":
                return T.ListT(inner)
            if t.name == "Zone":
                if not T.is_card(inner) and not isinstance(inner, T.TypeVar):
                    self.error(t.arg.span, f"a zone holds cards, not {inner}")
                    return T.ZoneT(T.ANY)
                return T.ZoneT(inner)
            self.error(t.span, f"unknown type '{t.name}[...]'", "the types with [..] are List[T] and Zone[T]")
            return T.ANY
        name = t.name
        if name in self.type_vars:
            return self.type_vars[name]
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

