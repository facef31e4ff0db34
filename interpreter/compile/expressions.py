"""IR expressions → Python source.

Every value is plain data (see ir.types): an expression becomes Python
source over `m` (the state) and `v0, v1, …` (the locals of the function it is
in), with fixed tables and constants bound by name in the namespace. Defs
whose body binds no locals are inlined at their call sites when their
arguments are free of calls; the others become functions `D3(m, v0, …)`.

ExprGen is one generator whose state while it writes an expression (the loops whose invariant
parts move before them, the defs being inlined) is shared by every kind of
expression; its methods are kept by kind in modules it mixes in: this one holds that state, the
entry points (`src`, `seq`, `kept`) and the leaves (names, fields, zones, texts, casts, indexing);
operators.py the operators and conditions; calls.py def and builtin calls; comprehensions.py the
expressions with a loop of their own; hoisting.py the parts computed once before a loop;
load_values.py the matches and lists known at load. What the seats may see of a shown text is its
own module (text_for_seats.py), tables made at load another (tabulate.py).
"""
from __future__ import annotations

from contextlib import contextmanager

from ..ir import nodes as ir
from ..ir import types as T
from ..diagnostics import Diagnostic, did_you_mean
from .calls import Calls
from .comprehensions import Comprehensions
from .deffacts import def_facts
from .hoisting import MOVABLE, LoopParts
from .load_values import LoadValues
from .operators import Operators
from .ranges import within
from .options import DEFAULT, CompileOptions
from .text_for_seats import ShownText
from .tabulate import CANDIDATES, Tabulator
from .written import Atom, Constant, Number, Written, number_of, own_operations


def _needs_game():
    from .layout import NeedsGame
    raise NeedsGame()


class _Emitting:
    """ExprGen.emitting's context (a class: half a generator-based one's cost, and it is entered
    some 600 times a load of Three Sisters)."""
    __slots__ = ("gen", "fields", "saved")

    def __init__(self, gen, fields: dict):
        self.gen = gen
        self.fields = fields

    def __enter__(self):
        gen = self.gen
        self.saved = [(name, getattr(gen, name)) for name in self.fields]
        for name, value in self.fields.items():
            setattr(gen, name, value)

    def __exit__(self, *exc) -> bool:
        for name, value in self.saved:
            setattr(self.gen, name, value)
        return False


class ExprGen(Operators, Calls, Comprehensions, LoopParts, LoadValues):
    def __init__(self, prog: ir.Program, layout, ns, diags, options: CompileOptions = DEFAULT, defs=None):
        self.prog = prog
        self.defs = defs if defs is not None else def_facts(prog)   # each def's facts, found before writing
        self.options = options          # the optimisations to make (compile.options)
        self.layout = layout
        self.ns = ns
        self.diags = diags
        self.def_names: dict = {}
        self.inlining: set = set()
        self.statements = None       # the StatementGen writing a def's function body, once there is one
        self.named: dict = {}        # id(node) -> the name of its value, computed by the statement's lines first
        self.subst = None            # while a def is inlined: its parameter slots -> argument source (Argument)
        self.const_values: dict = {} # const name -> the source of its value, once computed
        self.loops: list = []        # the loops (comprehensions, `by` keys) being generated, innermost last
        self.arg_facts: dict = {}    # while a def is inlined: its parameters -> (safe, locals read) of the argument
        self.plain_subst = None      # the arguments' sources with no part computed before a loop in them
        self.movable_nodes: dict = {}  # id(IR node) -> movable() outside inlined defs
        self.match_tables: dict = {}   # id(Match) -> (table name, default name or None), or "" (tested case by case)
        self.walked: dict = {}         # id(IR node) -> (the node, the nodes under it, the slots of the locals under it)
        self.subst_locals: dict = {}   # while a def is inlined: its parameters -> the locals its argument reads (None: state)
        self.local_types: dict = {}    # slot -> the type of that local of the function being generated
        self.tables = Tabulator(self)  # parts that depend on one card or enum value alone: tables made at load
        self.elements: dict = {}       # slot -> the values a comprehension's local goes through, known at load
        self.written_lists: dict = {}  # id(ListLit) -> the name of its value, a list written out known at load (or "")
        self.shown = ShownText(self)   # texts as the seats may see them
        self.written = Written()       # what the source being written does (Tabulator.make asks it of a part)
        self.unbound = 0               # > 0 where no name may be bound (`unbinding`)
        self.facts = None              # the Analysis of the rules (compile.analysis), once they are written
        ns.bind("rt_needs_game", _needs_game)
        ns.bind("rt_make_card", layout.make_card)

    def const(self, value) -> str:
        return self.ns.const(value)

    def range_of(self, e):
        """The interval of `e`'s values where it is written (compile.ranges), or None: not known (nothing
        is, of a def's body written in, whose locals are the caller's arguments)."""
        if self.facts is None or self.subst is not None:
            return None
        return self.facts.of(e)

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

    def emitting(self, **fields) -> "_Emitting":
        """Write with some of the generator's state set otherwise — a def's own function (no substitution,
        no loops), a value computed at load (no substitution), plain source (no
        loops) — each field as it was again after, whatever is raised: the one way the state is swapped."""
        return _Emitting(self, fields)

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
        if self.loops and type(e) in MOVABLE and self.movable(e):
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
            if (known and all(type(k) is int and e.lo <= k < e.lo + e.size for k in known)) \
                    or within(self.range_of(e.key), e.lo, e.lo + e.size - 1):      # every key in range
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
        """A shown text as segments, each as the seats may see it (text_for_seats.py)."""
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

    def ex_LetIn(self, e):
        """A def's `let`: computed once, by an assignment expression in the def's own function (a def
        with `let`s is never inlined, so the local is its own)."""
        self.written.binds = True
        return f"(({self.local(e.slot)} := {self.src(e.value)}), {self.src(e.body)})[1]"

