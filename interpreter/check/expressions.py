"""Pass 2 of checking, for expressions: each gets a type and each name its symbol.

Nothing stops at the first error: an expression that is wrong gets the type ANY,
which matches everything, so one mistake reports once.

Over 500 lines for one reason: one short method per kind of expression, each with the
diagnostics of its misuse beside it (the builtins' own checks are in builtins.py).
"""
from __future__ import annotations

from ..builtins import FUNCTIONS, REGISTRY, a_type as _a
from ..diagnostics import did_you_mean
from ..syntax import ast
from ..ir import types as T
from .base import CheckerBase
from .symbols import BuiltinValue, CardSym, CardsSym, DefSym, EnumSym, EnumValueSym, LocalSym, OptionSym, RuleSym, TeamValue, VarSym, ZoneSym


CARD_ATTRIBUTES = ("owner", "zone", "came_from")     # built into every card: no field may take these names


class Expressions(CheckerBase):
    def expect(self, node, got, want, what):
        if not T.assignable(got, want):
            hint = None
            if isinstance(got, T.OptionalT) and T.assignable(got.inner, want):
                hint = f"it may be none: use it inside `if {_text_of(node)} != none:`"
            self.error(node.span, f"{what} should be {_a(want)}, but this is {_a(got)}", hint)
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
            if isinstance(typ, T.OptionalT) and self.narrowed:
                key = narrow_key(e)
                if key is not None and key in self.narrowed:
                    typ = typ.inner          # checked not to be none where this stands
        finally:
            self.depth -= 1
        self.types[id(e)] = typ
        return typ

    def expecting(self, e, want):
        """The type of `e` where the other side fixes it to `want`: a value name several enums share
        (`c.suit == Spades`, `s = Spades`, `x in [Spades, Hearts]`) is then the value of `want`'s enum."""
        want = want.inner if isinstance(want, T.OptionalT) else want
        if isinstance(e, ast.ListLit) and isinstance(want, (T.ListT, T.ZoneT)):
            for item in e.items:
                self.hint_enum(item, want.elem)
        elif isinstance(e, ast.Cond):
            self.hint_enum(e.then, want)
            self.hint_enum(e.other, want)
        else:
            self.hint_enum(e, want)
        return self.expr(e)

    def hint_enum(self, e, want):
        if isinstance(e, ast.Name) and isinstance(want, T.EnumT) and e.id in want.values:
            self.enum_hints[id(e)] = want

    def enum_value(self, e: ast.Name):
        """The enum value a bare name stands for: the one of the enum the other side fixes, else the first."""
        want = self.enum_hints.get(id(e))
        for sym in self.enum_values[e.id]:
            if want is not None and sym.type == want:
                return sym
        self.enum_hints.pop(id(e), None)
        return self.enum_values[e.id][0]

    def expr_CardLookup(self, e):
        sym = self.globals.get(e.card_type)
        if not isinstance(sym, CardSym):
            self.error(e.span, f"'{e.card_type}' is not a card type", "`named` looks up a card by how it is shown: `Tile named \"Red 7\"`")
            return T.ANY
        self.refs[id(e)] = ("card named", sym.decl.name, e.wanted)
        return sym.type

    def expr_NoneLit(self, e):
        return T.NONE

    # ---- optional values: `x != none` lets `x` be used as a value where it holds
    def narrowings(self, cond, holds: bool) -> list:
        """The keys of the expressions known not to be none when `cond` is `holds`."""
        if isinstance(cond, ast.Compare) and cond.op in ("==", "!="):
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if isinstance(b, ast.NoneLit) and narrow_key(a) is not None:
                    return [narrow_key(a)] if (cond.op == "!=") == holds else []
        if isinstance(cond, ast.BoolOp) and (cond.op == "and") == holds:
            return self.narrowings(cond.left, holds) + self.narrowings(cond.right, holds)
        if isinstance(cond, ast.Not):
            return self.narrowings(cond.operand, not holds)
        return []

    def with_narrowed(self, keys, check, *args):
        """Run `check(*args)` with `keys` known not to be none (until a statement in it may change them)."""
        if not keys:
            return check(*args)
        self.narrow_saved.append(self.narrowed)
        self.narrowed = set(self.narrowed) | set(keys)
        try:
            return check(*args)
        finally:
            self.narrowed = self.narrow_saved.pop()

    def unnarrow(self, keys=None, variables=False):
        """From here on, these keys (or, with `variables`, every key but a plain local) may be none again:
        in the blocks around too, which go on after this one."""
        if not self.narrowed and not self.narrow_saved:
            return
        def dead(k):
            if variables and not (len(k) == 1 and self.scope is not None and self.scope.lookup(k[0]) is not None):
                return True
            return any(_changes(a, k) for a in keys or ())
        for s in [self.narrowed] + self.narrow_saved:
            for k in [k for k in s if dead(k)]:
                s.discard(k)

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

    def expr_RangeExpr(self, e):
        self.expect(e.low, self.expr(e.low), T.INT, "the start of a range")
        self.expect(e.high, self.expr(e.high), T.INT, "the end of a range")
        return T.ListT(T.INT)

    def bounds(self, e):
        """(least, greatest) an Int expression can be, from the declared bounds of what it is computed
        from — numbers, range options, variables of a range type, player_count — or None."""
        if isinstance(e, ast.IntLit):
            return (e.value, e.value)
        if isinstance(e, ast.Neg):
            b = self.bounds(e.operand)
            return (-b[1], -b[0]) if b else None
        if isinstance(e, ast.BinOp) and e.op in ("+", "-", "*"):
            a, b = self.bounds(e.left), self.bounds(e.right)
            if a is None or b is None:
                return None
            if e.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if e.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            products = [x * y for x in a for y in b]
            return (min(products), max(products))
        if isinstance(e, ast.Cond):
            a, b = self.bounds(e.then), self.bounds(e.other)
            return (min(a[0], b[0]), max(a[1], b[1])) if a and b else None
        sym = self.refs.get(id(e))
        if isinstance(sym, OptionSym) and sym.kind == "range":
            return tuple(sym.values)
        if isinstance(sym, VarSym) and isinstance(sym.decl.type, ast.RangeType):
            return (sym.decl.type.lo, sym.decl.type.hi)
        if isinstance(sym, BuiltinValue) and e.id == "player_count":
            return (self.min_players, self.max_players)
        if isinstance(sym, DefSym) and sym.decl.const:
            return self.const_bounds(sym)
        return None

    def const_bounds(self, sym):
        """A const's bounds, from the expression that computes it (each const worked out once: a chain
        of consts that double the one before stays linear)."""
        known = self.__dict__.setdefault("_const_bounds", {})
        if id(sym) not in known:
            known[id(sym)] = None             # a const that reaches itself has no bound
            known[id(sym)] = self.bounds(sym.decl.body)
        return known[id(sym)]

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
        if (sym is None or isinstance(sym, EnumValueSym)) and e.id in self.enum_values:
            sym = self.enum_value(e)
        if sym is None:
            self.error(e.span, f"unknown name '{e.id}'", did_you_mean(e.id, self.visible_names()))
            return T.ANY
        self.refs[id(e)] = sym
        if isinstance(sym, LocalSym):
            return sym.type
        if isinstance(sym, OptionSym):
            return sym.type
        if isinstance(sym, EnumValueSym):
            if len(self.enum_values.get(e.id, ())) > 1 and id(e) not in self.enum_hints:
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
        if isinstance(otyp, T.EnumT):
            return self.enum_attr(e, otyp)
        if isinstance(otyp, T.OptionalT):
            self.error(e.obj.span, f"this is {_a(otyp)}: it may be none",
                       f"use `.{e.name}` inside `if {_text_of(e.obj)} != none:`")
            return T.ANY
        if isinstance(otyp, (T.CardT,)) or otyp is T.ANYCARD:
            if e.name == "owner":
                self.refs[id(e)] = "owner"
                return T.PLAYER
            if e.name == "zone":
                self.refs[id(e)] = "zone"
                return T.ZoneT(otyp)
            if e.name == "came_from":
                self.refs[id(e)] = "came_from"
                return T.ZoneT(otyp)
            if otyp is T.ANYCARD:
                self.error(e.name_span, f"cards of any type have no field '{e.name}'", "give the card a type")
                return T.ANY
            card = self.globals[otyp.name]
            if e.name in card.fields:
                self.refs[id(e)] = ("field", otyp.name, e.name)
                return card.fields[e.name][1]
            self.error(e.name_span, f"a {otyp.name} has no '{e.name}'",
                       did_you_mean(e.name, list(card.fields) + list(CARD_ATTRIBUTES)) or f"its fields are {', '.join(card.fields)}")
            return T.ANY
        if isinstance(otyp, T.ZoneT):
            if e.name == "owner":
                self.refs[id(e)] = "zone owner"
                return T.PLAYER
            self.error(e.name_span, f"a zone has no '{e.name}'", "a zone has its `owner` (a player's zone); "
                       "a card has its `zone` and the zone it `came_from`")
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
        self.error(e.name_span, f"{_a(otyp)} has no attributes", "attributes belong to cards, zones, players and teams")
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
        if isinstance(sym, DefSym) and sym.type_params:
            before = self.error_count()
            arg_types = [self.expr(a) for a in e.args]
            inst = self.instance(sym, e, arg_types, self.error_count() > before)
            if inst is None:
                return T.ANY
            self.refs[id(e)] = inst
            self.call_args(e, inst.params, sym.decl.name.split("@")[0], arg_types)
            return self.def_type(inst, e)
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
        if isinstance(sym, RuleSym) and sym.ret is not None:
            return self.take_rule_value(e, sym)
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
        if isinstance(arg, ast.FindWhere) and e.func == "first":
            self.find_allowed.add(id(arg))
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

    def call_args(self, e, params, name, types=None):
        """Check a call's arguments against the parameters (`types`: the arguments' types, already worked out)."""
        if len(e.args) != len(params):
            self.error(e.span, f"'{name}' takes {len(params)} argument(s), not {len(e.args)}",
                       f"{name}({', '.join(f'{n}: {t}' for n, t in params)})")
        for i, (a, (pname, ptyp)) in enumerate(zip(e.args, params)):
            typ = types[i] if types is not None else self.expecting(a, ptyp)
            self.expect(a, typ, ptyp, f"argument '{pname}' of '{name}'")
        if types is None:
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

    def expr_LetIn(self, e: ast.LetIn):
        typ = self.expr(e.value)
        if typ is T.VOID:
            self.error(e.value.span, "this gives no value to keep")
            typ = T.ANY
        if self.scope.lookup(e.name) is not None:
            self.error(e.span, f"'{e.name}' is already a local name here", "choose another name")
        self.scope.push()
        self.slots[id(e)] = self.scope.declare(e.name, typ, e.span).slot
        body = self.expr(e.body)
        self.scope.pop()
        return body

    def expr_Cond(self, e: ast.Cond):
        self.expect(e.test, self.expr(e.test), T.BOOL, "a condition")
        a = self.with_narrowed(self.narrowings(e.test, True), self.expr, e.then)
        b = self.with_narrowed(self.narrowings(e.test, False), self.expr, e.other)
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
        if e.op == "+" and T.STR in (a, b):
            self.error(e.span, "texts cannot be added with '+'",
                       'write one text with the values in braces: "{a}{b}" (or join(list, ", ") for a list)')
            return T.STR
        self.expect(e.left, a, T.INT, f"'{e.op}'")
        self.expect(e.right, b, T.INT, f"'{e.op}'")
        return T.INT

    def enum_attr(self, e, otyp):
        """`r.points`: data an enum value carries; `r.position`: its place in the enum, from 0."""
        if e.name == "position":
            self.refs[id(e)] = ("enum position",)
            return T.INT
        sym = next((s for s in self.enums if s.type is otyp or s.type == otyp), None)
        fields = sym.fields if sym is not None else {}
        if e.name in fields:
            typ, values = fields[e.name]
            self.refs[id(e)] = ("enum data", values)
            return typ
        self.error(e.name_span, f"a {otyp.name} value has no '{e.name}'",
                   did_you_mean(e.name, list(fields) + ["position"])
                   or (f"it carries {', '.join(fields)} and its position" if fields else
                       "an enum value has its `position`; give the enum data with `enum NAME(field: Type): …`"))
        return T.ANY

    @staticmethod
    def ordered(a, b) -> bool:
        """`<` and friends: numbers, or two values of one enum (in the order it lists them)."""
        return isinstance(a, T.EnumT) and (b == a or b is T.ANY) or isinstance(b, T.EnumT) and a is T.ANY

    def expr_Compare(self, e: ast.Compare):
        if isinstance(e.left, ast.Name) and e.left.id in self.enum_values and e.op not in ("in", "not in"):
            b = self.expr(e.right)           # `Spades == c.suit`: the right side says which enum
            a = self.expecting(e.left, b)
        else:
            a = self.expr(e.left)
            b = self.expecting(e.right, T.ListT(a) if e.op in ("in", "not in") else a)
        if e.op in ("in", "not in"):
            elem = T.element_of(b)
            if elem is None:
                self.error(e.right.span, f"'{e.op}' needs a list or a zone on its right, not {_a(b)}")
            elif T.join(a, elem) is None:
                self.error(e.span, f"{_a(a)} is never in {_a(b)}")
            return T.BOOL
        if e.op in ("<", ">", "<=", ">=") and self.ordered(a, b):
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
        # `x != none and x.seat == 1`: the right side runs only when the left holds (fails, for `or`)
        right = self.with_narrowed(self.narrowings(e.left, e.op == "and"), self.expr, e.right)
        self.expect(e.right, right, T.BOOL, f"'{e.op}'")
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

    def expr_FindWhere(self, e: ast.FindWhere):
        if id(e) not in self.find_allowed:
            self.error(e.span, "`x in xs where condition` only works inside first(...)",
                       "for a list of them: [x for x in xs if condition]")
        typ = self.expr(e.iterable)
        elem = self.iter_elem(e.iterable, typ)
        self.scope.push()
        self.slots[id(e)] = self.scope.declare(e.var, elem, e.span).slot
        self.expect(e.cond, self.expr(e.cond), T.BOOL, "the condition after `where`")
        self.scope.pop()
        return T.ListT(elem)

    def expr_BestBy(self, e: ast.BestBy):
        if id(e) not in self.best_allowed:
            self.error(e.span, "`x in xs by key` only works inside max(...), min(...) or sort(...)")
        typ = self.expr(e.iterable)
        elem = self.iter_elem(e.iterable, typ)
        self.scope.push()
        self.slots[id(e)] = self.scope.declare(e.var, elem, e.span).slot
        key = self.expr(e.key)
        if not isinstance(key, T.EnumT):       # a number, or a value of an ordered enum
            self.expect(e.key, key, T.INT, "the key after `by`")
        self.scope.pop()
        return elem



def narrow_key(e):
    """What a `!= none` test can vouch for: a name, or attributes of a name (`p.champion`)."""
    if isinstance(e, ast.Name):
        return (e.id,)
    if isinstance(e, ast.Attr):
        base = narrow_key(e.obj)
        return base + (e.name,) if base is not None else None
    if isinstance(e, ast.Index) and isinstance(e.index, (ast.Name, ast.IntLit)):     # `p.written[b]`
        base = narrow_key(e.obj)
        index = e.index.id if isinstance(e.index, ast.Name) else str(e.index.value)
        return base + (f"[{index}]",) if base is not None else None
    return None


def _changes(assigned, k) -> bool:
    """Does assigning `assigned` (a key) possibly change what key `k` reads? The same place, a part of
    it, the same attribute or table under another name (`q.best` may be `p.best`), or a local used
    as its index."""
    if assigned[0] == "[]":            # a local used as an index was assigned
        return f"[{assigned[1]}]" in k

    def field(key):
        return [x for x in key if not x.startswith("[")][-1]
    if assigned == k[:len(assigned)] or k == assigned[:len(k)]:
        return True
    if len(assigned) > 1 and len(k) > 1 and field(assigned) == field(k):
        return True
    return len(assigned) == 1 and f"[{assigned[0]}]" in k


def _text_of(e) -> str:
    key = narrow_key(e)
    return ".".join(key) if key is not None else "it"
