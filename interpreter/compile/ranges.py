"""Value ranges known when compiling: an interval analysis of the Int values of the rules.

Before any source is written, every rule's body is gone through once in the order it runs, each
local holding an interval of the values it can have there (`(lo, hi)`, an end may be ±inf; a
local not in the map can hold anything): a number written out is itself, a loop's or a choice's
local goes through its list or range (`for i in 1..9`, `c in 0..6`), an option its declared range
(`option stones: 5..30`), a seat 1..the most players, `count(…)`/`size` of a bounded collection
0..its size, and arithmetic gives the interval of its operands'. A condition narrows its locals
where it holds: the body of `while 0 <= r and r <= 5` knows `r` in 0..5, the right side of an
`and` what its left says. A loop is gone through until its locals' intervals stay the same (an
end that moves again goes to infinity: `i += 1` under `while i < 10` stays 0..10). A rule that is
only called (`drop(turn, c)`) has for parameters the intervals its calls give (rules.py, events
and `anytime` bodies start others, whose parameters can be anything).

A variable's value is never known (a saved game, a whole list stored, a number written out may put
anything there): only locals and what is computed from them are. The generator asks the result
(ExprGen.range_of) where a guard could go: a table's key within its keys needs no `rt_slot`, a
number stored that cannot leave ±10^15 no check after it, a product that cannot no `rt_mul`. The
interval of a node is the union over every place it is met (an IR node may stand in two places),
so a fact holds wherever the node is written. Nothing is known of a def's body written in
(ExprGen.range_of answers None there).
"""
from __future__ import annotations

from math import inf

from ..ir import nodes as ir
from ..ir import types as T
from ..runtime.helpers import MAX_INT

_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_NOT = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
_ROUNDS = 6         # passes over a loop before its changing locals are taken as anything


def join(a, b):
    """The interval holding both (None: anything)."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    return (min(a[0], b[0]), max(a[1], b[1]))


def _times(x, y):
    return 0 if x == 0 or y == 0 else x * y


def add(a, b):
    return None if a is None or b is None else (a[0] + b[0], a[1] + b[1])


def sub(a, b):
    return None if a is None or b is None else (a[0] - b[1], a[1] - b[0])


def mul(a, b):
    if a is None or b is None:
        return None
    ends = (_times(a[0], b[0]), _times(a[0], b[1]), _times(a[1], b[0]), _times(a[1], b[1]))
    return (min(ends), max(ends))


def within(iv, lo, hi) -> bool:
    """Is every value of interval `iv` in lo..hi?"""
    return iv is not None and lo <= iv[0] and iv[1] <= hi


def small(iv) -> bool:
    """Does interval `iv` stay within ±10^15, the bound of the numbers the rules keep?"""
    return within(iv, -MAX_INT, MAX_INT)


def _join_envs(envs):
    envs = [e for e in envs if e is not None]
    if not envs:
        return None          # no way here (every path broke out or stopped)
    first = envs[0]
    out = {}
    for slot, iv in first.items():
        for other in envs[1:]:
            iv = join(iv, other.get(slot))
            if iv is None:
                break
        if iv is not None:
            out[slot] = iv
    return out


def _widen(old, new):
    """`new` with each end that moved since `old` taken to infinity (a loop's locals then settle)."""
    out = {}
    for slot, iv in new.items():
        was = old.get(slot)
        if was is None:
            continue
        lo = iv[0] if iv[0] >= was[0] else -inf
        hi = iv[1] if iv[1] <= was[1] else inf
        if lo != -inf or hi != inf:
            out[slot] = (lo, hi)
    return out


class Ranges:
    """The intervals of a program's rules (`analyse`): `of(node)` for a table's key or a product,
    `stored(stmt)` for the value a `let` or an assignment stores."""

    def __init__(self, prog: ir.Program):
        self.prog = prog
        self.values: dict = {}      # id(table key or product) -> its interval wherever met (None: anything)
        self.stores: dict = {}      # id(Let or Assign) -> the interval of the value it stores
        self.nodes: list = []       # the nodes met, kept so their ids stay theirs
        self.recording = True
        self.breaks: list = []      # per loop being gone through, the envs at its breaks
        self.params: dict = {}      # rule key -> the intervals of its parameters over the calls met so far
        self.touched: dict = {}     # while a rule is gone through: the rules it calls -> their parameters before
        self.players = (0, prog.max_players - 1)
        self.teams = (0, len(prog.teams) - 1) if prog.teams else None
        self.options = {o.slot: (o.values[0], o.values[1]) for o in prog.options
                        if o.kind == "range" and len(o.values) == 2}

    # ------------------------------------------------------------ what the generator asks
    def of(self, e):
        return self.values.get(id(e))

    def stored(self, s):
        return self.stores.get(id(s))

    # ------------------------------------------------------------ the rules
    def analyse(self):
        """Every rule, those that are only called after their callers (again when a call widens
        what their parameters can be)."""
        prog = self.prog
        called = set()
        for r in prog.rules.values():
            _calls(r.body, called)
        started = {h for hs in prog.events.values() for h in hs} | {a.rule for a in prog.anytimes}
        only_called = [key for key in prog.rules if key in called and key not in started]
        self.params = dict.fromkeys(only_called)         # rule key -> its parameters' intervals (None: no call met)
        changes = dict.fromkeys(only_called, 0)
        todo = [key for key in prog.rules if key not in self.params]
        done = set()
        while todo:
            key = todo.pop(0)
            done.add(key)
            self.touched = {}                # callee -> its parameters before this rule's calls
            self.rule(prog.rules[key], self.params.get(key) or ())
            for callee, before in self.touched.items():
                now = self.params[callee]
                if now != before:
                    changes[callee] += 1
                    if changes[callee] > _ROUNDS:        # a rule calling itself with a growing number
                        self.params[callee] = (None,) * len(now)
                elif callee in done:
                    continue
                if callee not in todo:
                    todo.append(callee)
        return self

    def rule(self, rule, params):
        env = {k: iv for k, iv in enumerate(params) if iv is not None}
        if rule.where is not None:
            self.expr(rule.where, env)
            env = self.narrow(rule.where, env, True)
        self.block(rule.body, env)

    # ------------------------------------------------------------ statements
    def block(self, stmts, env):
        """Go through statements from `env` (a dict the block may change); the env after them, or None
        when no path reaches their end."""
        for s in stmts:
            if env is None:
                env = {}          # after a break or a stop: not reached, but its nodes are still met
            env = getattr(self, "st_" + type(s).__name__, self.st_other)(s, env)
        return env

    def st_other(self, s, env):
        for name in _fields(type(s)):
            self.any_expr(getattr(s, name), env)
        return env

    def any_expr(self, x, env):
        t = type(x)
        if t is tuple:
            for item in x:
                self.any_expr(item, env)
        elif t in _EXPRESSIONS or (t not in _NOT_EXPRESSIONS and _is_expression(t)):
            self.expr(x, env)

    def st_Let(self, s, env):
        iv = self.expr(s.value, env)
        self.store(s, iv)
        return self.set(env, s.slot, iv)

    def st_Assign(self, s, env):
        place = self.expr(s.place, env)
        value = self.expr(s.value, env)
        iv = value if s.op == "=" else add(place, value) if s.op == "+=" else sub(place, value) if s.op == "-=" \
            else mul(place, value) if s.op == "*=" else None
        self.store(s, iv)
        if isinstance(s.place, ir.Local):
            return self.set(env, s.place.slot, iv)
        return env

    def st_AddTo(self, s, env):
        value = self.expr(s.value, env)
        self.expr(s.place, env)
        if isinstance(s.place, ir.Local):
            return self.set(env, s.place.slot, join(env.get(s.place.slot), value))
        return env

    def st_Break(self, s, env):
        if self.breaks:
            self.breaks[-1].append(dict(env))
        return None

    def st_Stop(self, s, env):
        return None

    def st_CallRule(self, s, env):
        args = [self.expr(a, env) for a in s.args]
        if s.rule in self.params:
            was = self.params[s.rule]
            self.touched.setdefault(s.rule, was)
            self.params[s.rule] = tuple(args) if was is None else tuple(join(a, b) for a, b in zip(was, args))
        return env

    def st_If(self, s, env):
        outs = []
        for cond, body in s.branches:
            self.expr(cond, env)
            outs.append(self.block(body, self.narrow(cond, env, True)))
            env = self.narrow(cond, env, False)
        outs.append(self.block(s.otherwise, dict(env)) if s.otherwise is not None else env)
        return _join_envs(outs)

    def st_Choose(self, s, env):
        self.expr(s.chooser, env)
        inner = self.set(dict(env), s.slot, self.expr(s.domain, env))
        if s.where is not None:
            self.expr(s.where, inner)
            inner = self.narrow(s.where, inner, True)
        for part in (s.label, s.prompt):
            if part is not None:
                self.expr(part, inner)
        if s.pass_label is not None:
            self.expr(s.pass_label, env)
        outs = [env, self.block(s.body, inner)]
        if s.otherwise is not None:
            outs.append(self.block(s.otherwise, dict(env)))
        out = _join_envs(outs)
        if out is not None:
            out.pop(s.slot, None)
        return out

    def st_While(self, s, env):
        def once(head):
            self.expr(s.cond, head)
            return self.block(s.body, self.narrow(s.cond, head, True)), self.narrow(s.cond, head, False)
        return self.loop(env, s.body, once)

    def st_For(self, s, env):
        elements = self.expr(s.iterable, env)
        bound = (s.slot, s.list_slot, s.index_slot)

        def once(head):
            inner = self.set(dict(head), s.slot, elements)
            end = self.block(s.body, inner)
            after = dict(head)
            for slot in bound:
                after.pop(slot, None)
            return end, after
        return self.loop(env, s.body, once, bound)

    def st_Repeat(self, s, env):
        self.expr(s.count, env)

        def once(head):
            return self.block(s.body, dict(head)), dict(head)
        return self.loop(env, s.body, once, (s.count_slot,))

    def loop(self, env, body, once, bound=()):
        """A loop from `env`: `once(head)` goes through it once from `head` (the env where each round
        starts) and gives (the env at the body's end, the env where it stops). The head grows from
        `env` until a round ends within it (an end that moves a second time goes to infinity), is
        narrowed by one more round (`i` after `while i < 10: i += 1` is 10 again), and a last round
        records what is met. The env after the loop."""
        entry = {k: v for k, v in env.items() if k not in bound}
        head = entry
        recording, self.recording = self.recording, False
        try:
            for rounds in range(_ROUNDS + 1):
                if rounds == _ROUNDS:          # never settled: what the body changes can be anything
                    changed = _assigned(body)
                    head = {k: v for k, v in entry.items() if k not in changed}
                    break
                grown = _join_envs([head, self.round(once, head)[0]])
                if grown is None or grown == head:
                    break
                head = _widen(head, grown) if rounds else grown
            if head != entry:
                narrower = _join_envs([entry, self.round(once, head)[0]])
                if narrower is not None:
                    head = narrower
        finally:
            self.recording = recording
        end, after = self.round(once, head)
        return after

    def round(self, once, head):
        """One round of a loop from `head`: (the env at the body's end, the env after the loop, its
        breaks' too)."""
        self.breaks.append([])
        try:
            end, after = once(dict(head))
        finally:
            breaks = self.breaks.pop()
        return end, _join_envs([after] + breaks)

    # ------------------------------------------------------------ conditions
    def narrow(self, cond, env, truth: bool):
        """`env` where `cond` is `truth` (a new dict; `env` as it is where nothing is learnt)."""
        t = type(cond)
        if t is ir.BoolOp:
            if (cond.op == "and") == truth:       # both sides hold (and), or both fail (or)
                return self.narrow(cond.right, self.narrow(cond.left, env, truth), truth)
            return dict(env)
        if t is ir.Not:
            return self.narrow(cond.operand, env, not truth)
        if t is ir.Compare and cond.op in _NOT and cond.left.type is T.INT and cond.right.type is T.INT:
            op = cond.op if truth else _NOT[cond.op]
            env = dict(env)
            if isinstance(cond.left, ir.Local):
                self.learn(env, cond.left.slot, op, self.peek(cond.right, env))
            if isinstance(cond.right, ir.Local):
                self.learn(env, cond.right.slot, _FLIP[op], self.peek(cond.left, env))
            return env
        return dict(env)

    @staticmethod
    def learn(env, slot, op, other):
        """What `local op other` (other in interval `other`) says of the local."""
        lo, hi = env.get(slot, (-inf, inf))
        olo, ohi = other if other is not None else (-inf, inf)
        if op == "<":
            hi = min(hi, ohi - 1)
        elif op == "<=":
            hi = min(hi, ohi)
        elif op == ">":
            lo = max(lo, olo + 1)
        elif op == ">=":
            lo = max(lo, olo)
        elif op == "==":
            lo, hi = max(lo, olo), min(hi, ohi)
        if lo != -inf or hi != inf:
            env[slot] = (lo, hi)

    def peek(self, e, env):
        """The interval of `e`, nothing recorded (its nodes were met already)."""
        was, self.recording = self.recording, False
        try:
            return self.expr(e, env)
        finally:
            self.recording = was

    # ------------------------------------------------------------ expressions
    def store(self, s, iv):
        if self.recording:
            key = id(s)
            if key in self.stores:
                iv = join(self.stores[key], iv)
            else:
                self.nodes.append(s)
            self.stores[key] = iv

    @staticmethod
    def set(env, slot, iv):
        if iv is None:
            env.pop(slot, None)
        else:
            env[slot] = iv
        return env

    def expr(self, e, env):
        """The interval of `e`'s values in `env` (for a list, of its elements')."""
        t = type(e)
        method = _METHODS.get(t)
        if method is None:
            method = _METHODS[t] = getattr(Ranges, "ex_" + t.__name__, Ranges.ex_other)
        iv = method(self, e, env)
        return self.by_type(e.type) if iv is None else iv

    def record(self, e, iv):
        """Keep `e`'s interval for the generator (one the generator asks of: a table's key, a product),
        joined with any it had where it was met before."""
        if self.recording:
            key = id(e)
            if key in self.values:
                iv = join(self.values[key], iv)
            else:
                self.nodes.append(e)
            self.values[key] = iv

    def by_type(self, t):
        """What any value of type `t` is (a player is a seat's index; a list, its elements')."""
        if t is T.PLAYER:
            return self.players
        if t is T.TEAM:
            return self.teams
        if isinstance(t, T.ListT):
            return self.by_type(t.elem)
        return None

    def ex_other(self, e, env):
        t = type(e)
        if t in ir.BINDERS:
            slots = ir.bound_by(e)
            env = {k: v for k, v in env.items() if k not in slots}
        for name in _fields(t):
            self.any_expr(getattr(e, name), env)
        return None

    def ex_TableEntry(self, e, env):
        self.expr(e.table, env)
        key = self.expr(e.key, env)
        if e.key_kind == "range":
            self.record(e.key, key)
        return None

    def ex_Const(self, e, env):
        return (e.value, e.value) if type(e.value) is int else None

    def ex_Local(self, e, env):
        return env.get(e.slot)

    def ex_Var(self, e, env):
        return self.options.get(e.slot)

    def ex_Property(self, e, env):
        self.expr(e.obj, env)
        if e.name == "seat":
            return (1, self.players[1] + 1)
        return None

    def ex_Fixed(self, e, env):
        return (e.lo, e.hi) if e.kind in ("range", "enum") and e.lo <= e.hi else None

    def ex_Special(self, e, env):
        if e.name == "player_count":
            return (self.prog.min_players, self.prog.max_players)
        return None

    def ex_ComputedRange(self, e, env):
        low, high = self.expr(e.low, env), self.expr(e.high, env)
        if e.bounded:
            return (e.lo, e.hi)
        return None if low is None or high is None else (low[0], high[1])

    def ex_Neg(self, e, env):
        iv = self.expr(e.operand, env)
        return None if iv is None else (-iv[1], -iv[0])

    def ex_BinOp(self, e, env):
        a, b = self.expr(e.left, env), self.expr(e.right, env)
        op = e.op
        if op in ("+", "-") and e.type is T.INT:     # each side: a shift StatementGen.near_edge may test once
            self.record(e.left, a)
            self.record(e.right, b)
        if op == "+":
            return join(a, b) if isinstance(e.type, T.ListT) else add(a, b)
        if op == "-":
            return sub(a, b)
        if op == "*":
            product = mul(a, b)
            self.record(e, product)
            return product
        if isinstance(e.right, ir.Const) and type(e.right.value) is int and e.right.value > 0:
            c = e.right.value
            if op == "/":
                return None if a is None else (a[0] // c if a[0] != -inf else -inf, a[1] // c if a[1] != inf else inf)
            return (0, c - 1)          # mod
        return None

    def ex_BoolOp(self, e, env):
        self.expr(e.left, env)
        self.expr(e.right, self.narrow(e.left, env, e.op == "and"))
        return None

    def ex_Cond(self, e, env):
        self.expr(e.test, env)
        return join(self.expr(e.then, self.narrow(e.test, env, True)),
                    self.expr(e.other, self.narrow(e.test, env, False)))

    def ex_Index(self, e, env):
        self.expr(e.index, env)
        return self.expr(e.seq, env)       # an element of the list (of a list of lists, its elements')

    def ex_ListLit(self, e, env):
        ivs = [self.expr(item, env) for item in e.items]
        if not ivs:
            return None
        out = ivs[0]
        for iv in ivs[1:]:
            out = join(out, iv)
        return out

    def ex_Comprehension(self, e, env):
        env = dict(env)
        for f in e.fors:
            self.set(env, f.slot, self.expr(f.iterable, env))
            if f.cond is not None:
                self.expr(f.cond, env)
                env = self.narrow(f.cond, env, True)
        return self.expr(e.element, env)

    def ex_LetIn(self, e, env):
        inner = self.set(dict(env), e.slot, self.expr(e.value, env))
        return self.expr(e.body, inner)

    def ex_BuiltinCall(self, e, env):
        args = [self.expr(a, env) for a in e.args]
        if e.name in ("size", "count") and len(e.args) == 1:
            most = self.most(e.args[0])
            return (0, most) if most is not None else (0, inf)
        if e.name in ("min", "max") and len(args) == 2 and e.type is T.INT:
            a, b = args
            if a is None or b is None:
                return None
            pick = min if e.name == "min" else max
            return (pick(a[0], b[0]), pick(a[1], b[1]))
        if e.name == "abs" and len(args) == 1 and args[0] is not None:
            lo, hi = args[0]
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
        return None

    def most(self, e):
        """The most elements the list or zone `e` can hold, when known (a range, a list written out,
        a comprehension over one, a zone: the cards), else None."""
        if isinstance(e, ir.Comprehension) and len(e.fors) == 1:
            return self.most(e.fors[0].iterable)
        if isinstance(e, ir.Fixed) and e.kind in ("range", "enum"):
            return max(0, e.hi - e.lo + 1)
        if isinstance(e, ir.ListLit) and not any(isinstance(i, ir.Comprehension) for i in e.items):
            return len(e.items)
        if isinstance(e.type, T.ZoneT):
            return self.prog_cards()
        return None

    def prog_cards(self):
        return None          # (how many cards there are is known only once they are made)


_METHODS: dict = {}       # node class -> Ranges.ex_… that finds its interval
_EXPRESSIONS: set = set()       # the node classes met that are expressions (have a type), and those not
_NOT_EXPRESSIONS: set = set()
_FIELDS: dict = {}


def _is_expression(t) -> bool:
    if hasattr(t, "__record_fields__") and any(f.name == "type" for f in t.__record_fields__):
        _EXPRESSIONS.add(t)
        return True
    _NOT_EXPRESSIONS.add(t)
    return False


def _fields(t) -> tuple:
    """The fields of node class `t` that may hold nodes (ir's), kept."""
    got = _FIELDS.get(t)
    if got is None:
        got = _FIELDS[t] = ir._child_fields(t)
    return got


def _calls(stmts, into: set) -> None:
    """The keys of the rules these statements call (statements alone: a call is never in an expression)."""
    for s in stmts:
        t = type(s)
        if t is ir.CallRule:
            into.add(s.rule)
        elif t is ir.If:
            for _cond, body in s.branches:
                _calls(body, into)
            _calls(s.otherwise or (), into)
        elif t in (ir.For, ir.While, ir.Repeat):
            _calls(s.body, into)
        elif t is ir.Choose:
            _calls(s.body, into)
            _calls(s.otherwise or (), into)


def _assigned(stmts) -> set:
    from .analysis import assigned
    return assigned(stmts)


def analyse(prog: ir.Program) -> Ranges:
    """The intervals of `prog`'s rules (compile.analysis gathers them with the other facts)."""
    return Ranges(prog).analyse()
