"""IR expressions → Python source.

Every value is plain data (see check.types): an expression becomes Python
source over `m` (the state) and `v0, v1, …` (the locals of the function it is
in), with fixed tables and constants bound by name in the namespace. Defs
whose body binds no locals are inlined at their call sites when their
arguments are free of calls; the others become functions `D3(m, v0, …)`.

Over 500 lines for one reason: one short `ex_*` method per kind of IR expression, and the
generator's state while it writes one (the loops whose invariant parts move before them, the
defs being inlined, the defs computed first) is shared by all of them. What the seats may see
of a shown text is its own module (shown_text.py), tables made at load another (tabulate.py).
"""
from __future__ import annotations

from contextlib import contextmanager

from ..builtins import REGISTRY
from ..check import ir
from ..check import types as T
from ..diagnostics import Diagnostic, did_you_mean
from ..runtime.errors import RuleFailure
from .codegen import TICK
from .invariants import safe, worth_moving
from .options import DEFAULT, CompileOptions
from .shown_text import ShownText
from .tabulate import CANDIDATES, Tabulator
from .written import Argument, Atom, Cheap, Constant, Number, Written, is_name, number_of, own_operations

MAX_INLINED = 8     # defs inlined within each other; deeper, a call (Python limits nested brackets)

# argument nodes cheap and safe to evaluate more than once (no calls, no comprehension)
_SIMPLE = (ir.Local, ir.Var, ir.Const, ir.OwnedVar, ir.Zone, ir.CardField, ir.Special, ir.Index, ir.BinOp,
           ir.Neg, ir.TableEntry, ir.CardNamed, ir.NoneValue)


def _needs_game():
    from .layout import NeedsGame
    raise NeedsGame()


# the kinds of node that may be computed before a loop (invariants.safe says which are)
_MOVABLE = frozenset((ir.OwnedVar, ir.TableEntry, ir.Zone, ir.BuiltinCall, ir.Property, ir.BinOp, ir.Compare,
                      ir.BoolOp, ir.Not, ir.Neg, ir.Cond, ir.Match))


_NONEMPTY = {(">", 0): True, (">=", 1): True, ("!=", 0): True, ("==", 0): False, ("<", 1): False, ("<=", 0): False}


def _size_truth(e):
    """`size(x) > 0` and the like, a size compared so that only emptiness counts: (x, is the test
    "not empty"?), else None."""
    left, right = e.left, e.right
    if isinstance(left, ir.BuiltinCall) and left.name == "size" and len(left.args) == 1 \
            and isinstance(right, ir.Const) and type(right.value) is int and (e.op, right.value) in _NONEMPTY:
        return left.args[0], _NONEMPTY[(e.op, right.value)]
    return None


_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "=="}    # `a op b` is `b FLIPPED[op] a`


def alike(a, b) -> bool:
    """Are two IR nodes the same expression, wherever they are written (their spans aside)?"""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(alike(x, y) for x, y in zip(a, b))
    fields = getattr(type(a), "__record_fields__", None)
    if fields is None:
        return a == b
    return all(f.name == "span" or alike(getattr(a, f.name), getattr(b, f.name)) for f in fields)


class _Loop:
    """A loop being generated: its own locals, and the parts computed once before it (name, source)."""

    def __init__(self, bound: set, statement: bool = False):
        self.bound = bound
        self.statement = statement      # a loop of statements (LoopGen.loop_over): its parts are assignments
        self.parts: list = []
        self.names: dict = {}           # source -> name: the same part written twice is computed once

    def name_of(self, gen, e) -> str:
        loops, gen.loops = gen.loops, []          # the part itself as plain source
        gen.unbound += not self.statement         # (a comprehension's part is bound by its first `for`)
        try:
            with gen.apart():
                source = getattr(gen, "ex_" + type(e).__name__)(e)
        finally:
            gen.loops = loops
            gen.unbound -= not self.statement
        name = self.names.get(source)
        if name is None:
            name = self.names[source] = gen.ns.fresh("_h")
            self.parts.append((name, source))
        return name

    def clause(self) -> str:
        """A `for` binding the parts once, put first in a comprehension."""
        if not self.parts:
            return ""
        return f"for ({''.join(n + ', ' for n, _ in self.parts)}) in (({''.join(v + ', ' for _, v in self.parts)}),) "


class ExprGen:
    def __init__(self, prog: ir.Program, layout, ns, diags, options: CompileOptions = DEFAULT):
        self.prog = prog
        self.options = options          # the optimisations to make (compile.options)
        self.layout = layout
        self.ns = ns
        self.diags = diags
        self.def_names: dict = {}
        self.inlining: set = set()
        self.statements = None       # the StatementGen writing a def's function body, once there is one
        self.named: dict = {}        # id(node) -> the name of its value, computed by the statement's lines first
        self.subst = None            # while a def is inlined: its parameter slots -> argument source (Argument)
        self.param_uses: dict = {}   # def name -> how often its body reads each parameter
        self.const_values: dict = {} # const name -> the source of its value, once computed
        self.loops: list = []        # the loops (comprehensions, `by` keys) being generated, innermost last
        self.arg_facts: dict = {}    # while a def is inlined: its parameters -> (safe, locals read) of the argument
        self.plain_subst = None      # the arguments' sources with no part computed before a loop in them
        self.computed: dict = {}     # def without parameters -> name of its value computed before the statement
        self.pure_defs: dict = {}    # def name -> does computing it change nothing (no random, no step spent)?
        self.movable_nodes: dict = {}  # id(IR node) -> movable() outside inlined defs
        self.def_body_uses: dict = {}  # def name -> the defs without parameters its body computes (def_uses)
        self.match_tables: dict = {}   # id(Match) -> (table name, default name or None), or "" (tested case by case)
        self.walked: dict = {}         # id(IR node) -> (the node, the nodes under it, the slots of the locals under it)
        self.subst_locals: dict = {}   # while a def is inlined: its parameters -> the locals its argument reads (None: state)
        self.local_types: dict = {}    # slot -> the type of that local of the function being generated
        self.tables = Tabulator(self)  # parts that depend on one card or enum value alone: tables made at load
        self.elements: dict = {}       # slot -> the values a comprehension's local goes through, known at load
        self.written_lists: dict = {}  # id(ListLit) -> the name of its value, a list written out known at load (or "")
        self.shown = ShownText(self)   # texts as the seats may see them
        self.listed = 0                # > 0 while a list's elements are written (iterated): no table of truths
        self.written = Written()       # what the source being written does (Tabulator.make asks it of a part)
        self.unbound = 0               # > 0 where no name may be bound (`unbinding`)
        # defs without parameters that are more than a number: those worth computing once a statement
        self.worth_computing_first = {d.name for d in prog.defs.values() if d.params == 0 and not isinstance(d.body, ir.Const)}
        ns.bind("rt_needs_game", _needs_game)
        ns.bind("rt_make_card", layout.make_card)

    def const(self, value) -> str:
        return self.ns.const(value)

    def under(self, n) -> tuple:
        """Every node under `n` (ir.walk), remembered: what a shown text reads is asked of the same defs'
        bodies for every text that calls them (shown_bodies), and walking them each time was most of a load."""
        got = self.walked.get(id(n))
        if got is None:           # the node is kept with its facts, so its id is not reused while they are
            nodes = tuple(ir.walk(n))
            got = self.walked[id(n)] = (n, nodes, frozenset(x.slot for x in nodes if type(x) is ir.Local))
        return got[1]

    def slots_under(self, n) -> frozenset:
        """The slots of the locals read under `n`."""
        self.under(n)
        return self.walked[id(n)][2]

    @contextmanager
    def apart(self):
        """Write what is no part of the source being written — a def's own function, a value computed at
        load or before a loop, a part that may become a table: what it does is added up on its own."""
        written, self.written = self.written, Written()
        try:
            yield self.written
        finally:
            self.written = written

    @contextmanager
    def unbinding(self):
        """Write source where no assignment expression may stand: a comprehension's iterables (Python
        refuses one anywhere in them, however deep), a part computed before a comprehension (it goes in
        its first `for`), a table's formula (a table made at load holds no part that binds a name), an
        inlined def's argument (it may be written into any of those). `extreme` calls min or max there."""
        self.unbound += 1
        try:
            yield
        finally:
            self.unbound -= 1

    def src(self, e) -> str:
        if self.named and id(e) in self.named:
            self.written.elsewhere = True
            return self.named[id(e)]        # computed by lines of the statement before it (LoopGen.value_lines)
        if self.loops and type(e) in _MOVABLE and self.movable(e):
            scope = self.scope_for(e)
            if scope is not None:
                self.written.elsewhere = True
                return scope.name_of(self, e)
        if type(e) in CANDIDATES:
            table = self.tables.table(e, worth=2)
            if table is not None:
                return self.tabled(table, e)
        self.written.ops += own_operations(e)
        return getattr(self, "ex_" + type(e).__name__)(e)

    def test(self, e) -> str:
        """Source of a condition whose truth alone counts (an `if`, a `while`, a filter, a choice's
        `where`, the elements of `any`/`all`): `size(x) > 0` is `x` itself and `size(x) == 0` is
        `not x`, with no call of len; `and`, `or` and `not` pass the same on to their operands."""
        if self.loops and type(e) in _MOVABLE and self.movable(e) and self.scope_for(e) is not None:
            return self.src(e)          # computed once before the loop: its name is cheaper still
        if isinstance(e, ir.Compare):
            sized = _size_truth(e)
            if sized is not None:
                xs = self.seq(sized[0])
                self.written.ops += 0 if sized[1] else 1
                return f"({xs})" if sized[1] else f"(not {xs})"
        elif isinstance(e, ir.BoolOp):
            folded = self.folded(e)
            if folded is not None:
                return self.test(folded)
            self.written.ops += 1
            return self.chained(e) or f"(({self.test(e.left)}) {e.op} ({self.test(e.right)}))"
        elif isinstance(e, ir.Not):
            self.written.ops += 1
            return f"(not ({self.test(e.operand)}))"
        return self.src(e)


    def tabled(self, table, e, formula=None) -> str:
        """A table's look-up, or where it holds only for some values, the look-up there and the formula elsewhere."""
        cell, holds = table
        self.written.ops += len(cell.keys) + (len(holds.keys) if holds is not None else 0)
        if holds is None:
            return cell
        self.tables.off += 1          # the formula runs only where the table does not hold: no tables in it
        try:
            if formula is None:
                self.written.ops += own_operations(e)
            other = formula() if formula else getattr(self, "ex_" + type(e).__name__)(e)
        finally:
            self.tables.off -= 1
        return f"({cell} if {holds} else {other})"


    def movable(self, e) -> bool:
        """Safe and worth computing before a loop (known per node, except inside an inlined def). A match
        that is a table (`reach(witch(p))`) is a look-up: movable when its subject cannot fail."""
        if type(e) is ir.Match:
            return self.options.hoist_tables and self.match_table(e) is not None \
                and safe(e.subject, self.local_safe if self.subst is not None else None, self.prog.defs)
        if self.subst is not None:
            return safe(e, self.local_safe, self.prog.defs) and worth_moving(e)
        known = self.movable_nodes.get(id(e))
        if known is None:
            known = self.movable_nodes[id(e)] = safe(e, defs=self.prog.defs) and worth_moving(e)
        return known

    # ------------------------------------------------------------ parts computed once before a loop
    def local_safe(self, slot: int) -> bool:
        facts = self.arg_facts.get(slot) if self.subst is not None else None
        return facts is None or facts[0]

    def local_reads(self, e) -> set:
        """The rule's locals `e` reads (through the arguments of the defs being inlined)."""
        out = set()
        for n in ir.walk(e):
            if isinstance(n, ir.Local):
                facts = self.arg_facts.get(n.slot) if self.subst is not None else None
                if facts is None:
                    out.add(n.slot)
                else:
                    out |= facts[1]
        return out

    def scope_for(self, e):
        """The outermost of the loops being generated over none of whose locals `e` depends (None: the innermost)."""
        reads = self.local_reads(e)
        chosen = None
        for scope in reversed(self.loops):
            if scope.bound & reads:
                break
            chosen = scope
        return chosen

    def going_through(self, slot: int, seq) -> object:
        """While a comprehension's `for` (or a choice's options) is written: when what it goes through is
        known at load (a Constant tuple), its local can hold those values only, and no statement can change
        it inside an expression; reads of it then need no guard (`known_values`). Returns what to restore."""
        before = self.elements.get(slot)
        known = seq.value if isinstance(seq, Constant) and type(seq.value) is tuple else None
        if known is None:
            self.elements.pop(slot, None)
        else:
            self.elements[slot] = known
        return before

    def gone_through(self, slot: int, before) -> None:
        if before is None:
            self.elements.pop(slot, None)
        else:
            self.elements[slot] = before

    def known_values(self, e):
        """The values `e` can have, when the generator knows them all (a number; a local going through a
        tuple known at load; an item of such a local at a fixed place), else None. Never inside a def
        written in, whose locals are its own."""
        if isinstance(e, ir.Const) and type(e.value) is int:
            return (e.value,)
        if self.subst is not None:
            return None
        if isinstance(e, ir.Local):
            return self.elements.get(e.slot)
        if isinstance(e, ir.Index) and isinstance(e.index, ir.Const) and type(e.index.value) is int:
            rows = self.known_values(e.seq)
            i = e.index.value
            if rows and all(type(r) is tuple and -len(r) <= i < len(r) for r in rows):
                return tuple(r[i] for r in rows)
        return None

    def enter_loop(self, bound: set, statement: bool = False) -> "_Loop":
        scope = _Loop(bound, statement)
        self.loops.append(scope)
        return scope

    def leave_loop(self, scope) -> None:
        popped = self.loops.pop()
        assert popped is scope

    def inlined_args(self, args) -> dict:
        """For a def being inlined: each parameter's argument, can it be computed early, which locals it reads."""
        if not self.loops:
            return {}
        return {i: (safe(a, self.local_safe, self.prog.defs), self.local_reads(a)) for i, a in enumerate(args)}

    def seq(self, e) -> str:
        """Source of something to go through or read once, right here: a zone's card list, a list's tuple,
        or for a comprehension a Python list (no tuple is made of what is not kept)."""
        if self.named and id(e) in self.named:
            self.written.elsewhere = True
            return self.named[id(e)]
        if isinstance(e, ir.ListLit) and len(e.items) == 1 and isinstance(e.items[0], ir.Comprehension):
            e = e.items[0]
        if isinstance(e, ir.Comprehension):
            return f"[{self.comprehension(e)}]"
        source = self.src(e)
        return f"m.zones[{source}]" if isinstance(e.type, T.ZoneT) else source

    def kept(self, e) -> str:
        """Source of a list value that may be kept (in a local, a variable, the frame): always a tuple."""
        source = self.seq(e)
        # seq gives a comprehension as a Python list, a zone as its list: those are made a tuple
        inner = e.items[0] if isinstance(e, ir.ListLit) and len(e.items) == 1 else e
        listed = isinstance(inner, ir.Comprehension) and not (self.named and id(e) in self.named)
        return source if isinstance(e.type, T.ListT) and not listed else f"tuple({source})"

    def local(self, slot: int) -> str:
        if self.subst is not None and slot in self.subst:
            # a part computed before a loop is written with no names of other such parts in it
            argument = self.subst[slot] if self.loops else self.plain_subst[slot]
            self.written.add(argument.written)
            return argument
        return f"v{slot}"

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
        uses = self.param_uses.get(d.name)
        if uses is None:
            uses = [0] * d.params
            for n in ir.walk(d.body):
                if isinstance(n, ir.Local) and n.slot < d.params:
                    uses[n.slot] += 1
            self.param_uses[d.name] = uses
        return all(uses[i] <= 1 or self.cheap(a) for i, a in enumerate(args)) and self.matches_inlinable(d, args)

    def matches_inlinable(self, d, args) -> bool:
        """A match tested case by case reads its subject once per case: inlined, the subject must be cheap
        to compute again (in its own function, it is computed once into a local)."""
        for n in ir.walk(d.body):
            if isinstance(n, ir.Match) and not self.is_table(n):
                if not self.is_simple(n.subject) or not all(self.cheap(args[x.slot]) for x in ir.walk(n.subject)
                                                              if isinstance(x, ir.Local) and x.slot < len(args)):
                    return False
        return True

    # ------------------------------------------------------------ leaves
    def ex_Const(self, e):
        if e.type is T.BOOL:
            return Atom("True" if e.value else "False")
        return Number(int(e.value))

    def ex_Local(self, e):
        if self.subst is not None and e.slot in self.subst:
            return self.local(e.slot)
        self.local_types[e.slot] = e.type      # the type of what a table may be indexed by (tabulate.py)
        return Atom(f"v{e.slot}")

    def ex_Var(self, e):
        return f"m.vars[{e.slot}]"

    def ex_OwnedVar(self, e):
        return f"m.vars[{e.slot}][{self.src(e.owner)}]"

    def ex_TableEntry(self, e):
        table = self.src(e.table)
        if e.key_kind == "card":
            positions = self.layout.card_positions(e.card_type)
            if not isinstance(e.key, (ir.Local, ir.CardNamed)):     # the slot of a card computed from one card alone
                slot = self.tables.table(e.key, positions)
                if slot is not None:
                    return f"{table}[{self.tabled(slot, e.key, lambda: f'{self.const(positions)}[{self.src(e.key)}]')}]"
            key = self.src(e.key)
            card = number_of(key)
            if card is not None and 0 <= card < len(positions) and positions[card] is not None:   # a card named in the rules: its slot now
                return f"{table}[{positions[card]}]"
            return f"{table}[{self.const(positions)}[{key}]]"
        key = self.src(e.key)
        if e.key_kind == "range":
            known = self.known_values(e.key)
            if known and all(type(k) is int and e.lo <= k < e.lo + e.size for k in known):   # every key in range
                return f"{table}[{key}]" if e.lo == 0 else f"{table}[{key} - {e.lo}]"
            return f"{table}[rt_slot({key}, {e.lo}, {e.size})]"
        return f"{table}[{key}]"

    def ex_Zone(self, e):
        base = self.layout.zone_base[e.zone]
        if e.owner is None:
            return Atom(str(base))
        return f"({base} + {self.src(e.owner)})"

    def ex_CardField(self, e):
        table = self.layout.field_tables.get((e.card_type, e.field))
        if table is None:
            return "rt_needs_game()"
        card = self.src(e.card)
        known = number_of(card)
        if known is not None and 0 <= known < len(table):     # a card named in the rules
            value = table[known]
            if value is not None:
                return Atom(repr(value)) if type(value) in (int, bool) else self.const(value)
        return f"{self.const(table)}[{card}]"

    def ex_Property(self, e):
        obj = self.src(e.obj)
        if e.name == "owner":
            return f"rt_owner(m, {obj})"
        if e.name == "zone":
            return f"rt_zone_of(m, {obj})"
        if e.name == "came_from":
            return f"rt_came_from(m, {obj}, {len(self.layout.card_names)})"
        if e.name == "zone owner":
            return f"rt_zone_owner(m, {obj})"
        if e.name == "team":
            return f"(({obj}) % {self.layout.team_count})"
        return f"(({obj}) + 1)"       # seat

    def fixed(self, e):
        """The elements of a collection fixed at load, or None if not known yet (while cards are made)."""
        if e.kind == "range" or e.kind == "enum":
            return tuple(range(e.lo, e.hi + 1))
        if e.kind == "cards":
            return self.layout.cards_by_type.get(e.name, ()) if self.layout.cards_done else None
        return self.layout.card_sets.get(e.name)

    def ex_Fixed(self, e):
        values = self.fixed(e)
        return "rt_needs_game()" if values is None else self.const(values)

    def ex_Special(self, e):
        if e.name == "players":
            return f"{self.const(tuple(tuple(range(n)) for n in range(self.layout.max_players + 1)))}[m.n]"
        if e.name == "player_count":
            return "m.n"
        if e.name == "teams":
            return self.const(tuple(range(self.layout.team_count)))
        return "rt_winners(m)"

    def ex_Text(self, e):
        self.written.binds = True
        pieces = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(self.const(part))
            else:
                fmt = self.const(self.layout.formatter(part.type))
                pieces.append(f"{fmt}(m, {self.src(part)})")
        if not pieces:
            return self.const("")
        if len(pieces) == 1 and all(isinstance(p, str) for p in e.parts):
            return pieces[0]
        return '"".join((' + ", ".join(pieces) + ",))"

    def segments(self, e: ir.Text) -> str:
        """A shown text as segments, each as the seats may see it (shown_text.py)."""
        return self.shown.segments(e)

    def ex_CardNamed(self, e):
        ids = [i for i in self.layout.cards_by_type.get(e.card_type, ()) if self.layout.card_names[i] == e.wanted] \
            if self.layout.card_names else []
        if not ids:
            names = [self.layout.card_names[i] for i in self.layout.cards_by_type.get(e.card_type, ())] \
                if self.layout.card_names else []
            self.diags.append(Diagnostic(e.span, f"there is no {e.card_type} named '{e.wanted}'",
                                         did_you_mean(e.wanted, names)))
            return Atom("None")
        if len({self.layout.card_values[i] for i in ids}) > 1:   # cards that differ: which one would be a guess
            self.diags.append(Diagnostic(e.span, f"{len(ids)} different {e.card_type} cards are named "
                                                 f"'{e.wanted}': `named` cannot tell which one is meant",
                                         "give each card a name of its own (e.g. `named \"{kind} {n}\"`), "
                                         "or find one by its fields: first(c in cards where …)"))
        return Number(ids[0])

    def ex_MakeCard(self, e):
        args = ", ".join(self.src(a) for a in e.args)
        return f"rt_make_card(m, {self.const(e.card_type)}, ({args},))"

    def ex_Cast(self, e):
        inner = self.seq(e.expr) if isinstance(e.expr.type, T.ZoneT) else self.src(e.expr)
        positions, name = self.const(self.layout.card_positions(e.card_type)), self.const(e.card_type)
        if e.many:
            return f"rt_cast_all(m, {inner}, {positions}, {name})"
        if self.cheap(e.expr):      # the common case inline: a card of that type is itself
            # a local that is not optional holds a card (a loop's card, a parameter): no test of none
            some = "" if isinstance(e.expr, ir.Local) and not isinstance(e.expr.type, T.OptionalT) \
                and e.expr.type is not T.NONE else f"{inner} is not None and "
            return f"({inner} if {some}{positions}[{inner}] is not None else rt_cast(m, {inner}, {positions}, {name}))"
        return f"rt_cast(m, {inner}, {positions}, {name})"

    # ------------------------------------------------------------ defs without parameters, once a statement
    def pure(self, name: str) -> bool:
        """Is computing def `name` free of effects: no `random`, no step spent (inner `for`s of a
        comprehension), no card made — through the defs it calls too?"""
        known = self.pure_defs.get(name)
        if known is None:
            self.pure_defs[name] = False          # a def that calls itself: not computed ahead
            known = True
            for n in ir.walk(self.prog.defs[name].body):
                if (isinstance(n, ir.BuiltinCall) and n.name == "random") or isinstance(n, ir.MakeCard) \
                        or (isinstance(n, ir.Comprehension) and len(n.fors) > 1) \
                        or (isinstance(n, ir.DefCall) and not self.pure(n.name)):
                    known = False
                    break
            self.pure_defs[name] = known
        return known

    def def_uses(self, exprs) -> dict:
        """How often each def without parameters is computed by these expressions, directly or in the
        defs they inline (a use in a loop — a comprehension, a `by` key — counts more than once)."""
        uses: dict = {}
        for e in exprs:
            if e is not None:
                for name, count in self.uses_in(e).items():
                    uses[name] = uses.get(name, 0) + count
        return uses

    def uses_in(self, n) -> dict:
        out: dict = {}

        def add(counts):
            for name, count in counts.items():
                out[name] = out.get(name, 0) + count
        for x in ir.walk(n):
            if isinstance(x, ir.DefCall):
                d = self.prog.defs[x.name]
                if d.params == 0:
                    out[x.name] = out.get(x.name, 0) + 1
                elif not d.binds_locals:
                    add(self.body_uses(x.name))
            elif isinstance(x, (ir.Comprehension, ir.BestBy)):
                add(self.uses_in(tuple(getattr(x, f) for f in ir._child_fields(type(x)))))   # once more
        return out

    def body_uses(self, name: str) -> dict:
        """uses_in of a def's body, worked out once per def."""
        known = self.def_body_uses.get(name)
        if known is None:
            self.def_body_uses[name] = {}        # a def that calls itself counts its own body once
            known = self.def_body_uses[name] = self.uses_in(self.prog.defs[name].body)
        return known

    def compute_first(self, exprs, ind: int, span) -> tuple[list, list]:
        """Lines computing, before a statement, each def without parameters that its expressions
        compute more than once: nothing changes the state while a statement's expressions are
        computed, so the def's value is the same at each use. A def that fails is computed again
        where it is used (and fails there, as it would have): `rt_UNSET` marks it."""
        lines, names = [], []
        if not self.worth_computing_first:
            return lines, names
        for name, count in self.def_uses(exprs).items():
            if count < 2 or name in self.computed or name not in self.worth_computing_first or not self.pure(name) \
                    or self.prog.defs[name].const:      # a const is a value already: nothing to compute first
                continue
            body = self.plain_call(name)
            local = self.ns.fresh("_d")
            lines += [(ind, "try:", span), (ind + 1, f"{local} = {body}", span),
                      (ind, "except Exception:", span), (ind + 1, f"{local} = rt_UNSET", span)]
            self.computed[name] = local
            names.append(name)
        return lines, names

    def plain_call(self, name: str) -> str:
        """Source computing def `name` (no parameters) where it stands, as if nothing were computed first."""
        d = self.prog.defs[name]
        saved, self.computed = self.computed, {}
        try:
            return self.ex_DefCall(ir.DefCall(d.type, d.span, name, ()))
        finally:
            self.computed = saved

    def forget(self, names) -> None:
        for name in names:
            del self.computed[name]

    # ------------------------------------------------------------ calls
    def ex_DefCall(self, e):
        local = self.computed.get(e.name)
        if local is not None:
            self.written.elsewhere = True
            return f"({local} if {local} is not rt_UNSET else {self.plain_call(e.name)})"
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
            saved, self.subst = self.subst, None
            computed, self.computed = self.computed, {}
            loops, self.loops = self.loops, []
            local_types, self.local_types = self.local_types, {}
            inlining, self.inlining = self.inlining, set()     # its own function: the defs it calls inline anew
            # its lets and result as statements (LoopGen.def_lines), or one expression
            with self.apart():
                lines = self.statements.def_lines(d.body, d.span) if self.statements is not None \
                    else [(1, f"return {self.src(d.body)}", d.span)]
            self.subst, self.computed, self.loops, self.local_types = saved, computed, loops, local_types
            self.inlining = inlining
            if self.calls_defs(d):       # a step per call: defs calling each other twice cannot run unseen
                lines = [(1, text, d.span) for text in TICK] + lines
            self.ns.define(fname, f"def {fname}({params}):", lines, f"def {e.name}", d.span)
        self.written.elsewhere = True      # a def's own function, not looked into: no table of a part calling it
        return f"{fname}({', '.join(['m'] + [self.src(a) for a in e.args])})"

    def calls_defs(self, d) -> bool:
        """Does def `d` call another (not a const)? Only such a def's calls spend the step budget: one that
        calls none does work bounded by its body (its loops spend steps themselves), and is called often."""
        return any(isinstance(n, ir.DefCall) and not self.prog.defs[n.name].const for n in ir.walk(d.body))

    def substituted(self, body, args) -> str:
        """Source of `body` (a def's, or a rule's condition) with its parameters' slots standing for `args`:
        Cheap when it is, or when it is_simple over Cheap arguments (`cheap`)."""
        saved, saved_plain, saved_facts, saved_locals = self.subst, self.plain_subst, self.arg_facts, self.subst_locals
        facts = self.inlined_args(args)
        subst = {i: self.argument(a) for i, a in enumerate(args)}
        plain = subst
        if self.loops:
            loops, self.loops = self.loops, []
            plain = {i: self.argument(a) for i, a in enumerate(args)}
            self.loops = loops
        arg_locals = {i: self.tables.real_locals(a) for i, a in enumerate(args)}
        self.subst, self.plain_subst, self.arg_facts, self.subst_locals = subst, plain, facts, arg_locals
        try:
            source = self.src(body)
            return source if isinstance(source, Cheap) or not self.cheap(body) else Cheap(source)
        finally:
            self.subst, self.plain_subst, self.arg_facts, self.subst_locals = saved, saved_plain, saved_facts, saved_locals

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
            saved, self.subst = self.subst, None
            try:
                with self.apart():
                    fn = self.ns.function("m", self.src(d.body), f"const {d.name}", d.span)
            finally:
                self.subst = saved
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

    def best_by(self, call, helper) -> str:
        b = call.args[0]
        seq = self.seq(b.iterable)
        scope = self.enter_loop({b.slot})
        try:
            key = self.src(b.key)
        finally:
            self.leave_loop(scope)
        defaults = "".join(f", {n}={v}" for n, v in scope.parts)      # computed once, when the lambda is made
        self.written.binds = True
        return f"{helper}({seq}, lambda v{b.slot}{defaults}: {key})"

    def iterated(self, e, whole: bool = False, truth: bool = False) -> str:
        """Source of something to go through once: a comprehension becomes a generator (any/all stop
        early), or a list — quicker to make — when it is gone through `whole` (sum) or is short and
        nothing in it can fail (so computing the elements after the deciding one changes nothing).
        With `truth`, only each element's truth counts (ExprGen.test)."""
        if isinstance(e, ir.Comprehension):
            if whole or self.short_and_safe(e):
                self.listed += 1      # its elements are kept, not tested at once: no table of truths
                try:
                    return f"[{self.comprehension(e, truth=truth)}]"
                finally:
                    self.listed -= 1
            return f"({self.comprehension(e, truth=truth)})"
        return self.seq(e)

    def ex_Pairs(self, e):
        with self.unbinding():
            return f"tuple([(_pa, _pb) for _pa in {self.seq(e.first)} for _pb in {self.seq(e.second)}])"

    def ex_PairPart(self, e):
        return f"({self.src(e.pair)})[{e.which}]"

    def ex_ComputedRange(self, e):
        within = f", ({e.lo}, {e.hi})" if e.bounded else ""
        return f"rt_range({self.src(e.low)}, {self.src(e.high)}{within})"

    def ex_NoneValue(self, e):
        return Atom("None")

    def ex_EnumData(self, e):
        if e.values is None:
            return self.src(e.obj)          # an enum value is its position
        return f"{self.const(tuple(e.values))}[{self.src(e.obj)}]"

    def ex_FindWhere(self, e):
        """The elements that meet the condition, as a generator: `first` takes one and stops."""
        var = f"v{e.slot}"
        with self.unbinding():
            seq = self.seq(e.iterable)
        return f"({var} for {var} in {seq} if {self.test(e.cond)})"

    SHORT = 12      # a loop over at most this many values is short

    def short_and_safe(self, e) -> bool:
        """A comprehension over players, teams or a small fixed collection whose parts cannot fail."""
        for f in e.fors:
            it = f.iterable
            if isinstance(it, ir.Special) and it.name in ("players", "teams"):
                size = self.layout.max_players if it.name == "players" else self.layout.team_count
            elif isinstance(it, ir.Fixed) and it.kind in ("range", "enum"):
                size = it.hi - it.lo + 1
            else:
                return False
            if size > self.SHORT or (f.cond is not None and not safe(f.cond)):
                return False
        return safe(e.element)

    def ex_BestBy(self, e):  # pragma: no cover - only reached through max/min/sort
        raise AssertionError("BestBy outside a builtin")

    # ------------------------------------------------------------ operators
    def ex_Index(self, e):
        if isinstance(e.index, ir.Const) and type(e.index.value) is int:
            rows = self.known_values(e.seq)      # `l[1]` for l going through rows known at load, all long enough
            i = e.index.value
            if rows and all(type(r) is tuple and -len(r) <= i < len(r) for r in rows):
                return f"{self.src(e.seq)}[{i}]"
        if isinstance(e.index, ir.Const):
            xs = self.seq(e.seq)
            known = xs.value if isinstance(xs, Constant) else None
            if type(known) is tuple and -len(known) <= e.index.value < len(known):    # `teams[1]`: a value now
                value = known[e.index.value]
                return Atom(repr(value)) if value is None or type(value) in (int, bool) else self.const(value)
        if isinstance(e.index, ir.Const) and e.index.value in (0, -1):     # the first or last: no call
            xs = self.seq(e.seq)
            return f"({xs} or rt_index({xs}, {e.index.value}))[{e.index.value}]"
        xs, i = self.seq(e.seq), self.src(e.index)
        if isinstance(xs, Atom) and self.cheap(e.index):     # a name: in range (the common case) inline, else the error
            known = xs.value if isinstance(xs, Constant) else None     # a list known at load: its length too
            size = len(known) if type(known) is tuple else f"len({xs})"
            return f"({xs}[{i}] if 0 <= {i} < {size} else rt_index({xs}, {i}))"
        return f"rt_index({xs}, {i})"

    def ex_ListLit(self, e):
        if len(e.items) == 1 and isinstance(e.items[0], ir.Comprehension):
            return self.src(e.items[0])
        if e.items and self.known_at_load(e):
            known = self.written_lists.get(id(e))
            if known is None:
                known = self.written_lists[id(e)] = self.load_value(e) or ""
            if known:
                return known
        parts = [f"*{self.src(i)}" if isinstance(i, ir.Comprehension) else self.src(i) for i in e.items]
        return "(" + ", ".join(parts) + ",)" if parts else "()"

    def ex_LetIn(self, e):
        """A def's `let`: computed once, by an assignment expression in the def's own function (a def
        with `let`s is never inlined, so the local is its own)."""
        self.written.binds = True
        return f"(({self.local(e.slot)} := {self.src(e.value)}), {self.src(e.body)})[1]"

    def ex_Cond(self, e):
        return f"(({self.src(e.then)}) if ({self.src(e.test)}) else ({self.src(e.other)}))"

    def ex_Match(self, e):
        """A table when every result is known at load (a tuple indexed by the enum value, bool or team; else a
        dict); otherwise the cases tested in order, the subject computed once."""
        table = self.match_table(e)
        if table is not None:
            return table
        subject = self.src(e.subject)
        if not is_name(subject):
            if self.subst is None:        # at the top of a statement's or a def's value: never in a loop's head
                name = self.ns.fresh("_m")
                first, subject = f"({name} := {subject})", name
                self.written.binds = True
            else:                         # inlined (only when the subject is cheap: see match_inlinable)
                first = subject
        else:
            first = subject
        if len(e.keys) == 1 and e.otherwise is None:      # one case for every value: still computed (it may fail)
            return f"(({first}), ({self.src(e.results[0])}))[1]"
        parts = []
        last = len(e.keys) - 1
        for k, (keys, result) in enumerate(zip(e.keys, e.results)):
            if k == last and e.otherwise is None:
                parts.append(f"({self.src(result)})")
                break
            parts.append(f"({self.src(result)}) if {self.case_test(first if k == 0 else subject, keys)} else ")
        if e.otherwise is not None:
            parts.append(f"({self.src(e.otherwise)})")
        return "(" + "".join(parts) + ")"

    def case_test(self, s, keys) -> str:
        """Source of the test of a match's case: is the subject `s` one of the stored values `keys`?"""
        if len(keys) == 1:
            return f"{s} is None" if keys[0] is None else f"{s} == {self.value_src(keys[0])}"
        if len(keys) <= 16 and all(type(v) is not str for v in keys):     # a set written out: a constant
            return f"{s} in {{{', '.join(self.value_src(v) for v in keys)}}}"
        return f"{s} in {self.const(frozenset(keys))}"

    def value_src(self, v) -> str:
        if v is None or type(v) is bool:
            return repr(v)
        return repr(v) if type(v) is int else self.const(v)

    def is_table(self, e) -> bool:
        """Is every result of match `e` a value known at load (so that it is a table)?"""
        return all(self.known_at_load(r) for r in e.results + ((e.otherwise,) if e.otherwise is not None else ()))

    def match_table(self, e):
        """`T[subject]` (or `T.get(subject, other)`) when every result is a value known at load, else None."""
        known = self.match_tables.get(id(e))
        if known is None:
            known = self.match_tables[id(e)] = self.table_of(e) if self.is_table(e) else ""
        if not known:
            return None
        table, other = known
        subject = self.src(e.subject)
        return f"{table}[{subject}]" if other is None else f"{table}.get({subject}, {other})"

    def table_of(self, e):
        """(the table's name, the name of the value for a subject not in it, or None); "" if it cannot be made."""
        results = list(e.results) + ([e.otherwise] if e.otherwise is not None else [])
        from .layout import ConstantState, NeedsGame
        saved, self.subst = self.subst, None
        try:
            with self.apart():
                source = "(" + "".join(f"{self.ex_plain(r)}, " for r in results) + ")"
        finally:
            self.subst = saved
        try:
            values = self.ns.function("m", source, "match", e.span)(ConstantState(self.layout))
        except (NeedsGame, RuleFailure):
            return ""
        base = e.subject.type
        size = len(base.values) if isinstance(base, T.EnumT) else 2 if base is T.BOOL \
            else self.layout.team_count if base is T.TEAM else None
        if size is not None:              # every stored value is a position: a tuple
            row = [values[-1] if e.otherwise is not None else None] * size
            for keys, value in zip(e.keys, values):
                for key in keys:
                    row[int(key)] = value
            return self.const(tuple(row)), None
        mapping = {key: value for keys, value in zip(e.keys, values) for key in keys}
        return self.const(mapping), (self.const(values[-1]) if e.otherwise is not None else None)

    def load_value(self, e):
        """The name of the constant holding the value of `e`, known at load (`known_at_load`), computed now
        against the stand-in state; None if it cannot be (it needs the game, or it fails: then it fails
        where it is used, as written)."""
        from .layout import ConstantState, NeedsGame
        saved, self.subst = self.subst, None
        try:
            with self.apart():
                source = self.ex_plain(e) if not isinstance(e, ir.ListLit) else \
                    "(" + "".join(f"{self.ex_plain(i)}, " for i in e.items) + ")"
        finally:
            self.subst = saved
        try:
            value = self.ns.function("m", source, "list", e.span)(ConstantState(self.layout))
        except (NeedsGame, RuleFailure):
            return None
        return self.const(value)

    def ex_plain(self, e) -> str:
        """Source of `e` with nothing moved before a loop (a value known at load)."""
        loops, self.loops = self.loops, []
        try:
            return self.src(e)
        finally:
            self.loops = loops

    def known_at_load(self, e) -> bool:
        """A value the rules write out: a number, a text without `{…}`, none, a list of such, a fixed
        collection, a shared zone, a const."""
        if isinstance(e, (ir.Const, ir.NoneValue, ir.CardNamed)):
            return True
        if isinstance(e, ir.Text):
            return all(isinstance(p, str) for p in e.parts)
        if isinstance(e, ir.ListLit):
            return all(not isinstance(i, ir.Comprehension) and self.known_at_load(i) for i in e.items)
        if isinstance(e, ir.Neg):
            return isinstance(e.operand, ir.Const)
        if isinstance(e, ir.Fixed):
            return self.fixed(e) is not None
        if isinstance(e, ir.Zone):
            return e.owner is None
        if isinstance(e, ir.DefCall):
            return self.prog.defs[e.name].const
        return False

    def ex_BinOp(self, e):
        op = e.op
        if op == "+" and isinstance(e.type, T.ListT):
            return f"rt_list(tuple({self.seq(e.left)}) + tuple({self.seq(e.right)}))"
        a, b = self.src(e.left), self.src(e.right)
        if op == "*" and not isinstance(e.left, ir.Const) and not isinstance(e.right, ir.Const):
            x, y = self.known_values(e.left), self.known_values(e.right)
            if not (x and y and all(type(v) is int and abs(v) <= 1 << 24 for v in x + y)):    # small: no overflow
                return f"rt_mul({a}, {b})"
        if op in ("+", "-", "*"):
            return f"(({a}) {op} ({b}))"
        constant = isinstance(e.right, ir.Const) and e.right.value != 0
        if op == "/":
            return f"(({a}) // {b})" if constant else f"rt_div({a}, {b})"
        return f"(({a}) % {b})" if constant else f"rt_mod({a}, {b})"

    def ex_Compare(self, e):
        op = e.op
        lt, rt = e.left.type, e.right.type
        if op in ("==", "!=") and isinstance(lt, T.ZoneT) != isinstance(rt, T.ZoneT):
            # a zone compared with a list: compare the cards, bottom first
            return f"(tuple({self.seq(e.left)}) {op} tuple({self.seq(e.right)}))"
        a = self.src(e.left)
        if op in ("in", "not in"):
            if isinstance(rt, T.ZoneT):
                return f"(m.where[{a}] {'==' if op == 'in' else '!='} ({self.src(e.right)}))"
            if isinstance(e.right, ir.Fixed):
                values = self.fixed(e.right)
                if values is not None:      # `c in Spell`, `k in 1..6`: a set made once, not a scan
                    return f"(({a}) {op} {self.const(frozenset(values))})"
        b = self.src(e.right)
        if op in (">=", ">") and self.options.counts_first and (isinstance(b, Cheap) or self.cheap(e.right)) \
                and not self.known_at_load(e.right) and safe(e.right, self.local_safe, self.prog.defs) \
                and self.counted(e.left):
            # a count is never below 0: `count(…) >= n` is true where n <= 0, without counting (n, written
            # twice, cheap: Cheap or simple; not a value known at load, whose test would be decided already)
            return f"(({b}) {'<=' if op == '>=' else '<'} 0 or ({a}) {op} ({b}))"
        return f"(({a}) {op} ({b}))"


    def counted(self, e, body: bool = False, calling=()) -> bool:
        """Is `e` a count or a size — never below 0 — whose computing cannot fail and changes nothing (so
        leaving it out changes nothing either)? Through defs whose body is one, called with such arguments."""
        ok = None if body else self.local_safe
        defs = self.prog.defs
        t = type(e)
        if t is ir.BuiltinCall and len(e.args) == 1:
            arg = e.args[0]
            if e.name == "size":
                return safe(e, ok, defs)
            if e.name == "count" and type(arg) is ir.Comprehension and len(arg.fors) == 1:
                f = arg.fors[0]
                return all(x is None or safe(x, ok, defs) for x in (f.iterable, f.cond, arg.element))
        elif t is ir.DefCall:
            d = defs[e.name]
            return not d.const and e.name not in calling and all(safe(a, ok, defs) for a in e.args) \
                and self.counted(d.body, True, calling + (e.name,))
        return False

    def ex_BoolOp(self, e):
        folded = self.folded(e)
        if folded is not None:
            return self.src(folded)
        return self.chained(e) or f"(({self.src(e.left)}) {e.op} ({self.src(e.right)}))"


    def chained(self, e):
        """`p.grown[c] > 0 and p.grown[c] < c.height` as Python's chained `0 < x < h`, the number
        shared by both comparisons computed once; None when `e` is no such `and`. The shared part
        cannot fail and changes nothing (`safe`), nor can a side turned round to the other side of its
        comparison (it is computed at another moment), and neither comparison is computed before a
        loop or is a table's."""
        if not self.options.chains or e.op != "and":
            return None
        left, right = e.left, e.right
        if type(left) is not ir.Compare or type(right) is not ir.Compare or left.op not in _FLIPPED \
                or right.op not in _FLIPPED or any(x.type is not T.INT for x in (left.left, left.right, right.left, right.right)):
            return None
        ok = self.local_safe if self.subst is not None else None

        def movable(side):          # computed at another moment than written: it must not fail
            return safe(side, ok, self.prog.defs)
        if alike(left.right, right.left):
            first, op1, shared, op2, last = left.left, left.op, left.right, right.op, right.right
        elif alike(left.left, right.left) and movable(left.right):
            first, op1, shared, op2, last = left.right, _FLIPPED[left.op], left.left, right.op, right.right
        elif alike(left.right, right.right) and movable(right.left):
            first, op1, shared, op2, last = left.left, left.op, left.right, _FLIPPED[right.op], right.left
        elif alike(left.left, right.right) and movable(left.right) and movable(right.left):
            first, op1, shared, op2, last = left.right, _FLIPPED[left.op], left.left, _FLIPPED[right.op], right.left
        else:
            return None
        if not safe(shared, ok, self.prog.defs):
            return None
        for c in (left, right):
            if (self.loops and self.movable(c) and self.scope_for(c) is not None) or self.tables.table(c, worth=2):
                return None
        self.written.ops += own_operations(left) + own_operations(right)
        return f"(({self.src(first)}) {op1} ({self.src(shared)}) {op2} ({self.src(last)}))"

    def folded(self, e):
        """`a and b` / `a or b` with a side known (known_truth) as the side it comes to: `true or x` is
        true, `true and x` is x, `x and true` is x, and `x or true` is true where x cannot fail (a hook
        of a variant, `def can_use_apiary(p) = true`, costs nothing where it is used); else None."""
        absorbing = e.op == "or"              # true decides an `or`, false an `and`
        left = self.known_truth(e.left)
        if left is not None:
            return e.left if left == absorbing else e.right
        right = self.known_truth(e.right)
        if right is None:
            return None
        if right != absorbing:
            return e.left
        return e.right if safe(e.left, self.local_safe if self.subst is not None else None, self.prog.defs) else None

    def known_truth(self, e, depth: int = 0):
        """True or False when `e` is a constant: `true`, `false`, `not` of one, or a call of a def whose
        body is one and that is inlined here (its arguments are then not computed at all); else None."""
        if isinstance(e, ir.Const) and e.type is T.BOOL:
            return bool(e.value)
        if isinstance(e, ir.Not):
            known = self.known_truth(e.operand, depth)
            return None if known is None else not known
        if isinstance(e, ir.DefCall) and depth < MAX_INLINED:
            d = self.prog.defs[e.name]
            if not d.const and self.inlinable(d, e.args):
                return self.known_truth(d.body, depth + 1)
        return None

    def ex_Not(self, e):
        return f"(not ({self.src(e.operand)}))"

    def ex_Neg(self, e):
        return f"(-({self.src(e.operand)}))"

    def comprehension(self, e, filtered: bool = False, truth: bool = False) -> str:
        """`element for … if …` (with `filtered`: `0 for … if … if element`, to count the true ones;
        with `truth`, only the element's truth counts); the parts that are the same for every
        element are computed once, first. Every `for` spends the step budget by its length."""
        with self.unbinding():
            first = f"rt_spend(m, {self.seq(e.fors[0].iterable)})"   # a comprehension in a loop spends too
        scope = self.enter_loop({f.slot for f in e.fors})
        restore = []
        try:
            clauses = []
            for k, f in enumerate(e.fors):
                if k:                   # inner ones: a product
                    with self.unbinding():
                        inner = self.seq(f.iterable)
                    seq = f"rt_spend(m, {inner})"
                else:
                    seq = inner = first
                restore.append((f.slot, self.going_through(f.slot, inner)))
                clause = f"for v{f.slot} in {seq}"
                if f.cond is not None:
                    clause += f" if {self.test(f.cond)}"
                clauses.append(clause)
            element = self.test(e.element) if truth or filtered else self.src(e.element)
        finally:
            self.leave_loop(scope)
            for slot, before in reversed(restore):
                self.gone_through(slot, before)
        clauses = scope.clause() + " ".join(clauses)
        return f"0 {clauses} if {element}" if filtered else f"{element} {clauses}"

    def filtered(self, slot: int, seq: str, cond) -> str:
        """`[v for v in seq if cond]` (a choice's options), the parts of `cond` the same for each computed once."""
        scope = self.enter_loop({slot})
        before = self.going_through(slot, seq)
        try:
            test = self.test(cond)
        finally:
            self.leave_loop(scope)
            self.gone_through(slot, before)
        return f"[v{slot} {scope.clause()}for v{slot} in {seq} if {test}]"

    def ex_Comprehension(self, e):
        return f"tuple([{self.comprehension(e)}])"
