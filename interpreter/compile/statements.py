"""IR statements → structured Python, and the rules that never wait.

Most rules never wait for a decision (refilling hands, finding a trick's
winner, scoring): a fixpoint over calls and signals (analysis.analyse_waiting) finds
them, and each becomes `def R3(m, v0, v1): …` with its locals as Python
locals, called directly. The same structured code is what a rule that can wait
runs between its waiting points (rules.py).

Every local is the Python variable `v<slot>`; a frame
`[rule index, pc, local, …]` only starts a rule that never waits (its
parameters) or keeps where a waiting one stands (rules.py).
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir import types as T
from ..runtime.helpers import MAX_INT
from .codegen import TICK
from .invariants import safe
from .analysis import analyse_waiting, assigned
from .loops import LoopGen
from .ranges import small, within
from .written import Constant

OFFSET = 2      # frame = [rule index, pc, local 0, local 1, ...]


def frame_slots(rule: ir.Rule) -> list[int]:
    """The slots a rule keeps in its frame: parameters, `let`s, loop and choice variables (not the
    variables of comprehensions, which live and die inside one expression)."""
    slots = set(range(rule.params))
    for s in ir.walk(rule.body):
        if isinstance(s, (ir.Let, ir.Choose)):
            slots.add(s.slot)
        elif isinstance(s, ir.For):
            slots.update((s.slot, s.list_slot, s.index_slot))
        elif isinstance(s, ir.Repeat):
            slots.add(s.count_slot)
    return sorted(slots)


def reads(nodes) -> set:
    """The local slots these IR nodes read by name."""
    return {n.slot for n in ir.walk(tuple(nodes)) if isinstance(n, ir.Local)}


EDGE = 1 << 20      # how far inside ±10^15 a local is tested to be once (StatementGen.near_edge)


class StatementGen(LoopGen):
    """Generates statements and the rules that never wait; knows every rule's name and frame."""

    def __init__(self, prog, layout, ns, exprs):
        self.prog = prog
        self.layout = layout
        self.ns = ns
        self.x = exprs
        self.options = exprs.options    # the optimisations to make (compile.options)
        exprs.statements = self
        facts = exprs.facts
        self.waits = facts.waits if facts is not None and facts.prog is prog else analyse_waiting(prog)
        self.narrating: dict = {}     # rule key -> narration_only()
        self.break_to: list = []      # the enclosing loops, innermost last: None for a Python loop
        self.edges: dict = {}         # a let's slot -> the name of its test of being far inside ±10^15 (near_edge)
        self.prepaid: list = []       # per enclosing Python `for`: [ids of the loops whose steps it spends, those steps]
        self.taken_from: dict = {}    # id(move) -> the zone its card is known to be in (a choice's domain: rules.py)
        self.index = {key: i for i, key in enumerate(prog.rules)}
        self.names = {key: (f"W{i}" if self.waits[key] else f"R{i}") for key, i in self.index.items()}
        # where each local lives in its rule's frame: a rule that waits keeps its own locals there,
        # one that never waits only its parameters (the frame only starts it)
        self.frames = {key: {slot: OFFSET + k for k, slot in enumerate(frame_slots(rule) if self.waits[key]
                                                                       else range(rule.params))}
                       for key, rule in prog.rules.items()}

    def frame_size(self, key) -> int:
        """How many locals a frame of this rule holds (after its rule index and pc)."""
        return len(self.frames[key])

    # ------------------------------------------------------------ rules that never wait
    def native(self, rule: ir.Rule):
        """`def R3(m, v0, …):` and its frame entry `def F3(m, fr)` (for a rule started from the stack)."""
        lines = []
        if self.narration_only(rule.key):
            lines.append((1, "if m.sink is None: return", rule.span))     # nobody listens: nothing to do
        if rule.where is not None:
            lines.append((1, f"if not ({self.x.test(rule.where)}): return", rule.where.span))
        self.edges = {slot: self.ns.fresh("_in") for slot in sorted(self.shifted_locals(rule.body))}
        try:
            self.nat_block(rule.body, lines, 1, rule.span)
        finally:
            self.edges = {}
        name = self.names[rule.key]
        params = ", ".join(["m"] + [f"v{i}" for i in range(rule.params)])
        self.ns.define(name, f"def {name}({params}):", lines, rule.label, rule.span)
        i = self.index[rule.key]
        args = "".join(f", fr[{self.frames[rule.key][k]}]" for k in range(rule.params))
        entry = self.ns.define(f"F{i}", f"def F{i}(m, fr{', choose' if getattr(self, 'fast', False) else ''}):",
                               [(1, f"{name}(m{args})", rule.span), (1, "return False", rule.span)], rule.label, rule.span)
        return entry, [rule.span]

    def entry_test(self, call: ir.CallRule):
        """Source of a test, where a rule is called, of whether it has anything to do: when its body is
        one `while` or one `if` without `else` whose condition reads only parameters and cannot fail
        (invariants.safe), each argument it reads cheap to compute again (ExprGen.is_simple), the
        condition with the arguments in place. When it is false the rule would do nothing (but spend
        the step of its `while`'s first test): the caller need not make its frame. None otherwise."""
        rule = self.prog.rules[call.rule]
        if rule.where is not None or len(rule.body) != 1:
            return None
        first = rule.body[0]
        if isinstance(first, ir.While):
            cond = first.cond
        elif isinstance(first, ir.If) and len(first.branches) == 1 and first.otherwise is None:
            cond = first.branches[0][0]
        else:
            return None
        used = reads((cond,))
        if any(k >= rule.params or not self.x.is_simple(call.args[k]) for k in used) \
                or not safe(cond, lambda k: safe(call.args[k], defs=self.prog.defs), self.prog.defs):
            return None
        return self.x.substituted(cond, call.args)

    def narration_only(self, key) -> bool:
        """Does a rule that never waits only tell (`say`), with `let`s, `for`s and `if`s computing what
        it says and calls of such rules, nothing in it changing anything (no `random`, no card made)?
        Then, like a `say`, it runs only when someone listens (the state's sink: a session, a
        scenario); batch play, which has none, skips it."""
        known = self.narrating.get(key)
        if known is None:
            self.narrating[key] = False              # a rule that calls itself: run
            rule = self.prog.rules[key]
            known = self.narrating[key] = not self.waits[key] and rule.where is None and self.tells_only(rule.body)
        return known

    def tells_only(self, stmts) -> bool:
        """Statements that only say, whose other values cannot fail (so skipping them hides no error)."""
        for s in stmts:
            if isinstance(s, ir.For):
                ok = self.cannot_fail(s.iterable) and self.tells_only(s.body)
            elif isinstance(s, ir.If):
                ok = all(self.cannot_fail(cond) and self.tells_only(body) for cond, body in s.branches) \
                    and self.tells_only(s.otherwise or ())
            elif isinstance(s, ir.CallRule):
                ok = self.narration_only(s.rule) and all(self.cannot_fail(a) for a in s.args)
            elif isinstance(s, ir.Let):
                ok = self.cannot_fail(s.value)
            else:
                ok = isinstance(s, (ir.Say, ir.Stop, ir.Break))     # (a say's failure never stops the game)
            if not ok:
                return False
        return not any(isinstance(n, ir.MakeCard) or (isinstance(n, ir.BuiltinCall) and n.name == "random")
                       or (isinstance(n, ir.DefCall) and not self.x.pure(n.name)) for n in ir.walk(tuple(stmts)))

    def cannot_fail(self, e) -> bool:
        """invariants.safe, or a list of such parts over one such list, a fixed collection or a range."""
        if isinstance(e, ir.Comprehension):
            return len(e.fors) == 1 and (isinstance(e.fors[0].iterable, ir.Fixed) or self.cannot_fail(e.fors[0].iterable)) \
                and (e.fors[0].cond is None or self.cannot_fail(e.fors[0].cond)) and self.cannot_fail(e.element)
        if isinstance(e, ir.ListLit):
            return all(self.cannot_fail(i) for i in e.items)
        return isinstance(e, ir.Fixed) or safe(e, defs=self.prog.defs)

    # ------------------------------------------------------------ statements, as structured Python
    def nat_block(self, stmts, out, ind, span):
        start = len(out)
        self.nat_statements(stmts, out, ind)
        if len(out) == start:
            out.append((ind, "pass", span))

    def nat_statements(self, stmts, out, ind):
        for s in stmts:
            getattr(self, "nat_" + type(s).__name__)(s, out, ind)

    def nat_Let(self, s, out, ind):
        out.append((ind, f"v{s.slot} = {self.held(s.value, self.value_lines(s.value, out, ind, s.span))}", s.span))
        self.bound(f"v{s.slot}", s, out, ind)
        if s.slot in self.edges:
            out.append((ind, f"{self.edges[s.slot]} = {EDGE - MAX_INT} <= v{s.slot} <= {MAX_INT - EDGE}", s.span))

    def nat_Assign(self, s, out, ind):
        value = self.value_lines(s.value, out, ind, s.span) if s.op == "=" else self.x.src(s.value)
        place = self.x.src(s.place)
        if isinstance(s.place.type, T.TableT):
            # a table assigned whole is written into its row: a row stays the same list all game
            # (so a loop may read it once before it: rows_before)
            out.append((ind, f"{place}[:] = {value}", s.span))
        else:
            out.append((ind, f"{place} {s.op} {value}", s.span))
        self.bound(place, s, out, ind)

    @staticmethod
    def held(e, source: str) -> str:
        """`source` of a value a local will hold: a table's is a copy (its entries are written in place,
        and a table is a value: `let a = b`, then `b[k] = 1`, leaves `a` as it was; a table variable
        assigned whole is written into, nat_Assign; a parameter cannot be a table)."""
        return f"list({source})" if isinstance(e.type, T.TableT) else source

    def bound(self, place, s, out, ind):
        """A number stored from a computation stays within ±10^15 (a loop doubling it would never end):
        checked after `let` or assignment `s`, unless its value cannot leave that (compile.ranges)."""
        value = s.value
        if value.type is T.INT and not isinstance(value, ir.Const) and not small(self.x.facts and self.x.facts.stored(s)):
            edge = self.near_edge(value) if getattr(s, "op", "=") == "=" else None
            out.append((ind, f"if {'' if edge is None else f'not {edge} and '}not -{MAX_INT} <= {place} <= {MAX_INT}: "
                             f"rt_too_big({place})", s.span))

    def shifted_locals(self, body) -> frozenset:
        """The locals a `let` of `body` binds and nothing changes after, to which a `let` or an
        assignment whose value keeps its ±10^15 check adds a number within ±EDGE (`let rr = r + …`):
        each is tested once, after its `let`, for being EDGE inside ±10^15 (near_edge)."""
        lets, changed, shifted = set(), set(), set()
        for n in ir.walk(body):
            if type(n) is ir.Let:
                lets.add(n.slot)
            elif isinstance(n, (ir.Assign, ir.AddTo, ir.RemoveFrom)) and type(n.place) is ir.Local:
                changed.add(n.place.slot)
            if type(n) in (ir.Let, ir.Assign) and getattr(n, "op", "=") == "=" and type(n.value) is ir.BinOp \
                    and n.value.op in ("+", "-") and not small(self.x.facts and self.x.facts.stored(n)):
                for near, far in ((n.value.left, n.value.right), (n.value.right, n.value.left)):
                    if type(near) is ir.Local and within(self.x.range_of(far), -EDGE, EDGE):
                        shifted.add(near.slot)
        return frozenset((lets - changed) & shifted)

    def near_edge(self, value):
        """For `r + d` (or `-`), `r` a `let` of this rule never changed after (`edges`) and `d` within
        ±EDGE: the name of the test, made after r's `let`, that r is EDGE or more inside ±10^15 — where
        it holds, `r + d` is within ±10^15 without testing it (Connect Four's `rr = r + sign * d[0]`)."""
        if type(value) is not ir.BinOp or value.op not in ("+", "-"):
            return None
        for near, far in ((value.left, value.right), (value.right, value.left)):
            if type(near) is ir.Local and near.slot in self.edges and within(self.x.range_of(far), -EDGE, EDGE):
                return self.edges[near.slot]
        return None

    def nat_AddTo(self, s, out, ind):
        place = self.x.src(s.place)
        out.append((ind, f"{place} = tuple({place}) + ({self.x.src(s.value)},)", s.span))

    def nat_RemoveFrom(self, s, out, ind):
        place = self.x.src(s.place)
        out.append((ind, f"{place} = rt_remove({place}, {self.x.src(s.value)})", s.span))

    def nat_Move(self, s, out, ind):
        """`move`: the generated code is the hot path of every card game, so a card moved is two list
        operations and a store in `m.where`, and names or numbers are used as they are (no alias).
        A program that reads `c.came_from` also stores, after each card's place, the place it left
        (State.where); only such a program pays for it: the others' code is as if it did not exist.
        A card leaving a zone some seats see was in their sight, if only in passing: a whole zone moved
        tells the leak property so (`rt_seen_leaving`) in every program, a card or a list only in the
        rules compiled with the watch calls (`watched`), which the property plays."""
        x = self.x
        bottom = "True" if s.bottom else "False"
        wtyp = s.what.type
        came = len(self.layout.card_names) if self.prog.tracks_came_from else 0
        if isinstance(wtyp, T.ZoneT):
            src = self.once(x.src(s.what), "_z", out, ind, s.span)
            to = self.once(x.src(s.to), "_d", out, ind, s.span)
            put = f"m.zones[{to}][0:0] = _m" if s.bottom else f"m.zones[{to}].extend(_m)"
            out.append((ind, f"_m = m.zones[{src}]", s.span))
            # zones of two declarations are never one instance; of one, they may be
            apart = isinstance(s.what, ir.Zone) and isinstance(s.to, ir.Zone) and s.what.zone != s.to.zone
            out.append((ind, "if _m:" if apart else f"if _m and {src} != {to}:", s.span))
            out.append((ind + 1, f"m.zones[{src}] = []", s.span))
            out.append((ind + 1, f"for _c in _m: m.where[_c] = {to}" + (f"; m.where[_c + {came}] = {src}" if came else ""),
                        s.span))
            out.append((ind + 1, f"if m.sink is not None: rt_seen_leaving(m, _m, {src})", s.span))
            out.append((ind + 1, put, s.span))
        elif isinstance(wtyp, T.ListT):
            helper = f"rt_move_list_from(m, {came}, " if came else "rt_move_list(m, "
            cards = x.src(s.what)
            if self.watched:
                cards = self.once(cards, "_l", out, ind, s.span)
                out.append((ind, f"if m.sink is not None: rt_seen_leaving_each(m, {cards})", s.span))
            out.append((ind, f"{helper}{cards}, {x.src(s.to)}, {bottom})", s.span))
        elif isinstance(s.what, ir.BuiltinCall) and s.what.name == "top" and not s.bottom:
            # `move top(Z) to X`: pop the top card instead of searching for it
            zone = self.once(x.src(s.what.args[0]), "_z", out, ind, s.span)
            to = self.once(x.src(s.to), "_d", out, ind, s.span)
            out.append((ind, f"_c = (m.zones[{zone}] or rt_top(m, {zone})).pop(); m.zones[{to}].append(_c); "
                             f"m.where[_c] = {to}" + (f"; m.where[_c + {came}] = {zone}" if came else ""), s.span))
            if self.watched:
                out.append((ind, f"if m.sink is not None: rt_seen_leaving(m, (_c,), {zone})", s.span))
        else:
            card = self.once(x.src(s.what), "_c", out, ind, s.span)
            to = self.once(x.src(s.to), "_d", out, ind, s.span)
            if self.watched:
                out.append((ind, f"if m.sink is not None: rt_seen_leaving_each(m, ({card},))", s.span))
            put = f"m.zones[{to}].insert(0, {card})" if s.bottom else f"m.zones[{to}].append({card})"
            known = self.taken_from.get(id(s))
            if known is not None and not came:
                out.append((ind, f"m.zones[{x.src(known)}].remove({card})", s.span))
                out.append((ind, f"{put}; m.where[{card}] = {to}", s.span))
                return
            out.append((ind, f"_s = m.where[{card}]", s.span))
            # the card is likely a deck's top (drawn): list.remove would look at every card first
            out.append((ind, "if _s >= 0:", s.span))
            out.append((ind + 1, f"_o = m.zones[_s]; _o.pop() if _o[-1] == {card} else _o.remove({card})", s.span))
            out.append((ind, f"{put}; m.where[{card}] = {to}" + (f"; m.where[{card} + {came}] = _s" if came else ""),
                        s.span))

    def nat_Shuffle(self, s, out, ind):
        out.append((ind, f"rt_shuffle(m, {self.x.src(s.zone)})", s.span))

    def nat_Show(self, s, out, ind):
        if isinstance(s.seats, str):
            kind, who = s.seats, "None"
        else:
            kind = "player" if s.seats.type is T.PLAYER else ("team" if s.seats.type is T.TEAM else "list")
            who = self.x.src(s.seats)
        what = s.what
        if isinstance(what, (ir.Var, ir.OwnedVar)):          # a value: State.seen after the zone instances
            base = self.layout.value_base[what.slot]
            if isinstance(what, ir.Var):
                index, owner = str(base), "-1"
            else:
                out.append((ind, f"_k = {self.x.src(what.owner)}", s.span))
                index = f"{base} + _k"
                owner = "_k" if what.owner.type is T.PLAYER else "-2 - _k"
        else:
            out.append((ind, f"_k = {self.x.src(what)}", s.span))
            index, owner = "_k", "m.program.zone_instance_owner[_k]"
        out.append((ind, f"rt_show(m, {index}, rt_seats(m, {owner}, {kind!r}, {who}), {s.shown})", s.span))

    def nat_Say(self, s, out, ind):
        # computed only when shown, so its failure (the step budget too) is told and does not stop the game
        # (runtime.rt_say_failed); caught here, not in a helper given lambdas, which would make cells of
        # the locals they read
        out.append((ind, "if m.sink is not None:", s.span))
        if s.to is None:
            told = "None"
        else:
            told = "_told"
            out.append((ind + 1, "_told = rt_UNSET", s.span))
        out.append((ind + 1, "try:", s.span))
        if s.to is not None:
            out.append((ind + 2, f"_told = rt_told(m, {self.x.src(s.to)}, {s.to.type is T.TEAM})", s.span))
        out.append((ind + 2, f"rt_said(m, {told}, {self.x.segments(s.text)})", s.span))
        out.append((ind + 1, f"except RuleFailure as _e: rt_say_failed(m, {told}, _e)", s.span))

    def nat_CallRule(self, s, out, ind):
        args = ", ".join(["m"] + [self.x.src(a) for a in s.args])
        silent = self.narration_only(s.rule) and all(self.cannot_fail(a) for a in s.args)
        out.append((ind, f"{'if m.sink is not None: ' if silent else ''}{self.names[s.rule]}({args})", s.span))

    def nat_Signal(self, s, out, ind):
        handlers = self.prog.events.get(s.event, ())
        args = [self.x.src(a) for a in s.args]
        if not handlers:
            return
        temp = self.ns.fresh("_e")
        out.append((ind, f"{temp} = ({', '.join(args)}{',' if args else ''})", s.span))
        for h in handlers:
            out.append((ind, f"{self.names[h]}(m, *{temp})", s.span))

    def nat_Pass(self, s, out, ind):
        out.append((ind, "pass", s.span))

    def nat_Stop(self, s, out, ind):
        out.append((ind, self.stop_text, s.span))

    def nat_If(self, s, out, ind):
        for k, (cond, body) in enumerate(s.branches):
            if k > 0 and self.needs_lines(cond):
                # a condition computed by lines of its own: tested under the `else:` of the ones before
                out.append((ind, "else:", s.span))
                self.nat_If(ir.If(s.span, s.branches[k:], s.otherwise), out, ind + 1)
                return
            test = self.cond_loop(cond, out, ind, cond.span) if k == 0 else self.x.test(cond)
            out.append((ind, f"{'if' if k == 0 else 'elif'} {test}:", cond.span))
            self.nat_block(body, out, ind + 1, s.span)
        if s.otherwise is not None:
            out.append((ind, "else:", s.span))
            self.nat_block(s.otherwise, out, ind + 1, s.span)

    def needs_lines(self, cond) -> bool:
        """Is this condition computed by lines of its own before it is tested (cond_loop)?"""
        if not self.options.loops:
            return False
        if isinstance(cond, ir.BoolOp):
            return self.loopable(cond.left) or self.loopable(cond.right)
        return self.loopable(cond.operand if isinstance(cond, ir.Not) else cond)

    def nat_For(self, s, out, ind):
        # A `for` goes through a fixed sequence, so it needs no step budget. A zone is copied
        # first (the body may move its cards); a list is already an immutable tuple.
        seq = self.x.seq(s.iterable)
        # what it goes through, when known at load, is all its local holds in a body that never assigns it
        assigned = any(type(n) is ir.Assign and type(n.place) is ir.Local and n.place.slot == s.slot
                       for n in ir.walk(s.body))
        before = self.x.going_through(s.slot, "" if assigned else seq)
        if isinstance(s.iterable.type, T.ZoneT):
            seq = f"tuple({seq})"
        known = isinstance(seq, Constant) and type(seq.value) is tuple     # a list known at load: its length too
        if known and self.prepaid and id(s) in self.prepaid[-1][0]:
            # run once at each turn of an enclosing `for`, which spends this loop's steps up front
            self.prepaid[-1][1] += len(seq.value) * (1 + self.nat_For_body(s, seq, out, ind, before))
            return
        temp = seq if known else self.ns.fresh("_l")
        at = len(out)
        out.append(None)
        out.append((ind, "if m.ticks < 0: raise StepBudgetSpent()", s.span))
        inner = self.nat_For_body(s, temp, out, ind, before)
        length = len(seq.value) if known else f"len({temp})"
        spent = length if not inner else len(seq.value) * (1 + inner) if known else f"{length} * {1 + inner}"
        # its length spent up front, and the steps of its own loops over lists known at load
        out[at] = (ind, f"m.ticks -= {spent}" if known else f"{temp} = {seq}; m.ticks -= {spent}", s.span)

    def nat_For_body(self, s, temp, out, ind, before) -> int:
        """A `for`'s loop, its steps spent; returns the steps a turn of its body leaves to it to spend
        up front: those of the loops over lists known at load that stand straight in the body (run
        once a turn, whatever the body does before them)."""
        self.prepaid.append([{id(n) for n in s.body if type(n) is ir.For}, 0])
        try:
            rows = self.rows_before(s.body, out, ind, s.span, {s.slot})
            out.append((ind, f"for v{s.slot} in {temp}:", s.span))
            try:
                self.nat_loop_body(s.body, out, ind + 1, s.span)
            finally:
                self.x.gone_through(s.slot, before)
            self.forget_rows(rows)
        finally:
            inner = self.prepaid.pop()[1]
        return inner

    def nat_While(self, s, out, ind):
        rows = self.rows_before((s.cond, s.body), out, ind, s.span)
        before = []
        test = self.cond_loop(s.cond, before, ind + 1, s.span)
        if before:          # the condition computed by lines of its own, at each turn
            out.append((ind, "while True:", s.span))
            out += before
            out.append((ind + 1, f"if not {test}: break", s.span))
        else:
            out.append((ind, f"while {test}:", s.span))
        for line in TICK:
            out.append((ind + 1, line, s.span))
        self.nat_loop_body(s.body, out, ind + 1, s.span)
        self.forget_rows(rows)

    def nat_Repeat(self, s, out, ind):
        temp = self.ns.fresh("_n")
        out.append((ind, f"{temp} = {self.x.src(s.count)}; m.ticks -= {temp} if {temp} > 0 else 0", s.span))   # spent up front
        out.append((ind, "if m.ticks < 0: raise StepBudgetSpent()", s.span))
        rows = self.rows_before(s.body, out, ind, s.span)
        out.append((ind, f"for _ in range({temp}):", s.span))
        self.nat_loop_body(s.body, out, ind + 1, s.span)
        self.forget_rows(rows)


    def rows_before(self, parts, out, ind, span, own=frozenset()) -> list:
        """In a loop of Python statements, a table's row (`p.grown` in `p.grown[c] += 1`) whose owner
        the loop does not change is read once before it. A row is the same list all game long — its
        entries are written in place, a table assigned whole is written into it (nat_Assign), and a
        state's copy has rows of its own — so the row read before the loop stays the row, whatever
        the loop and the rules it calls do. `own`: the locals the loop itself binds (a `for`'s). Returns
        the nodes named (to forget after the loop)."""
        if not self.options.rows:
            return []
        # the locals the loop may change: assigned, or bound by a statement or a comprehension in it
        bound = set(own) | assigned((parts,)) | {slot for _n, slots in ir.binders(parts) for slot in slots}
        names, named = {}, []
        for n in ir.walk(parts):
            if type(n) is not ir.TableEntry or id(n.table) in self.x.named:
                continue
            t = n.table
            if type(t) is ir.Var:
                key = (t.slot, None)
            elif type(t) is ir.OwnedVar and type(t.owner) is ir.Local and t.owner.slot not in bound \
                    and safe(t, defs=self.prog.defs):
                key = (t.slot, t.owner.slot)
            else:
                continue
            if key not in names:
                names[key] = self.ns.fresh("_r")
                out.append((ind, f"{names[key]} = {self.x.src(t)}", span))
            self.x.named[id(t)] = names[key]
            named.append(t)
        return named

    def forget_rows(self, rows) -> None:
        for t in rows:
            del self.x.named[id(t)]

    def nat_loop_body(self, body, out, ind, span):
        """The body of a Python loop: a `break` in it is Python's."""
        self.break_to.append(None)
        self.nat_block(body, out, ind, span)
        self.break_to.pop()

    def nat_Break(self, s, out, ind):
        target = self.break_to[-1] if self.break_to else None
        out.append((ind, "break" if target is None else self.break_jump(target), s.span))

    def break_jump(self, target):
        """Leaving a loop of a rule that waits (rules.py): a jump to the block after it."""
        raise AssertionError("a rule that never waits has only Python loops")

    stop_text = "return"
