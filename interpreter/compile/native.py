"""Statements that cannot wait for a decision, compiled to plain Python.

Most of a game's rules never wait: refilling hands, finding a trick's winner,
scoring. Only a choice (or a rule that leads to one) must suspend the machine,
so only those need the VM's frames and operations. This pass finds which rules
can suspend (a fixpoint over calls and signals) and compiles everything else
to Python functions: a rule that never waits becomes `def R3(m, v0, v1): ...`
called directly, and a run of non-waiting statements inside a waiting rule
becomes one VM operation.

Generated code is registered with a line → span map, so a rule failing inside
it is still reported with its rule, file and line (see engine.machine).
"""
from __future__ import annotations

from ..check import types as T
from ..syntax import ast

TICK = ["m.ticks -= 1", "if m.ticks < 0: raise StepBudgetSpent()"]


def _children(stmt):
    """The statement lists nested in a statement."""
    if isinstance(stmt, ast.If):
        out = [body for _cond, body in stmt.branches]
        if stmt.otherwise is not None:
            out.append(stmt.otherwise)
        return out
    if isinstance(stmt, (ast.For, ast.While, ast.Repeat)):
        return [stmt.body]
    if isinstance(stmt, ast.Choose):
        return [stmt.body] + ([stmt.otherwise] if stmt.otherwise is not None else [])
    return []


class NativeMixin:
    """Mixed into the Compiler: uses its src(), place(), local(), const(), refs, types, slots."""

    # ------------------------------------------------------------ analysis
    def analyse_suspension(self, rule_syms):
        """Which rules (by key) can suspend: contain a choice, or call/signal something that can."""
        facts = {}
        for key, sym in rule_syms.items():
            body = sym.decl.body if not isinstance(sym.decl, ast.ScenarioDecl) else ()
            facts[key] = self._facts(body)
        handlers_of = {name: [h.name for h in ev.handlers] for name, ev in self.c.events.items()}
        suspends = {key: f[0] for key, f in facts.items()}
        changed = True
        while changed:
            changed = False
            for key, (_choose, calls, signals) in facts.items():
                if suspends[key]:
                    continue
                if any(suspends.get(c, True) for c in calls) or \
                        any(suspends.get(h, True) for e in signals for h in handlers_of.get(e, ())):
                    suspends[key] = True
                    changed = True
        self.suspends = suspends

    def _facts(self, stmts):
        choose = False
        calls, signals = set(), set()
        for s in stmts:
            if isinstance(s, ast.Choose):
                choose = True
            elif isinstance(s, ast.ExprStmt):
                calls.add(self.rule_key(self.refs[id(s.expr)]))
            elif isinstance(s, ast.Signal):
                signals.add(s.event)
            for body in _children(s):
                c2, k2, s2 = self._facts(body)
                choose = choose or c2
                calls |= k2
                signals |= s2
        return choose, calls, signals

    @staticmethod
    def rule_key(sym):
        return sym.name or sym.decl.name

    def needs_vm(self, s) -> bool:
        """Must this statement (inside a rule that can suspend) run on the VM?"""
        if isinstance(s, (ast.Choose, ast.Stop)):
            return True
        if isinstance(s, ast.ExprStmt):
            return self.suspends[self.rule_key(self.refs[id(s.expr)])]
        if isinstance(s, ast.Signal):
            event = self.refs[id(s)]
            return any(self.suspends[h.name] for h in event.handlers)
        return any(self.needs_vm(x) for body in _children(s) for x in body)

    # ------------------------------------------------------------- functions
    def native_function(self, fname, sym, label, where=None):
        """`def R3(m, v0, ...):` for a rule or handler that never suspends."""
        saved = (self.frame_ctx, self.pyslots)
        self.frame_ctx, self.pyslots = False, set()
        lines = []
        if where is not None:
            lines.append((1, f"if not ({self.src(where)}): return", where.span))
        for s in sym.decl.body:
            self.nat(s, lines, 1)
        if not lines:
            lines.append((1, "pass", sym.decl.span))
        self.frame_ctx, self.pyslots = saved
        params = ", ".join(["m"] + [f"v{i}" for i in range(len(sym.params))])
        self.define(fname, f"def {fname}({params}):", lines, label)

    def define(self, fname, head, lines, label):
        """Compile generated source into the shared namespace, keeping a line -> span map for errors."""
        filename = f"<rules {label}>"
        source = head + "\n" + "".join("    " * ind + text + "\n" for ind, text, _span in lines)
        spans = [None, None] + [span for _ind, _text, span in lines]   # line 1 is the `def`
        self.native_lines[filename] = (label, spans)
        exec(self.code_cache.compile(source, filename, "exec"), self.env)  # noqa: S102 - generated from checked AST only
        return self.env[fname]

    # -------------------------------------------------------- VM-side runs
    def native_run(self, stmts):
        """One VM operation running consecutive non-waiting statements of a waiting rule."""
        if not stmts:
            return
        lines = []
        for s in stmts:
            self.nat(s, lines, 1)
        if not lines:
            return
        nxt = self.here() + 1
        self.native_ops += 1
        fname = f"N{self.native_ops}"
        label = f"{self.rule_name}#{self.native_ops}"

        def make():   # at the end of the rule, when the jump after this run is known
            done = lines + [(1, f"return {self.resolve(nxt)}", stmts[-1].span)]
            return self.define(fname, f"def {fname}(m, fr):", done, label)
        self.emit(make, stmts[0].span)

    # ------------------------------------------------------------ statements
    def nat(self, s, out, ind):
        getattr(self, "nat_" + type(s).__name__)(s, out, ind)

    def nat_block(self, stmts, out, ind, span):
        start = len(out)
        for s in stmts:
            self.nat(s, out, ind)
        if len(out) == start:
            out.append((ind, "pass", span))

    def nat_Let(self, s, out, ind):
        out.append((ind, f"{self.local(self.slots[id(s)])} = {self.src(s.value)}", s.span))

    def nat_Assign(self, s, out, ind):
        out.append((ind, f"{self.place(s.target)} {s.op} {self.src(s.value)}", s.span))

    def nat_AddTo(self, s, out, ind):
        place = self.place(s.target)
        out.append((ind, f"{place} = tuple({place}) + ({self.src(s.value)},)", s.span))

    def nat_RemoveFrom(self, s, out, ind):
        place = self.place(s.target)
        out.append((ind, f"{place} = rt_remove({place}, {self.src(s.value)})", s.span))

    def nat_Move(self, s, out, ind):
        what = self.src(s.what)
        to = self.src(s.to)
        wtyp = self.types[id(s.what)]
        bottom = "True" if s.bottom else "False"
        if isinstance(wtyp, T.ZoneT):
            out.append((ind, f"rt_move_zone(m, {what}, {to}, {bottom})", s.span))
        elif isinstance(wtyp, T.ListT):
            out.append((ind, f"rt_move_list(m, {what}, {to}, {bottom})", s.span))
        elif isinstance(s.what, ast.Call) and s.what.func == "top" and self.refs.get(id(s.what)) == ("builtin", "top") \
                and not s.bottom:
            # `move top(Z) to X`: pop the top card instead of searching for it
            zone = self.src(s.what.args[0])
            out.append((ind, f"_z = {zone}; _d = {to}", s.span))
            out.append((ind, "_c = (m.zones[_z] or rt_top(m, _z)).pop(); m.zones[_d].append(_c); m.where[_c] = _d", s.span))
        else:
            put = "m.zones[_d].insert(0, _c)" if s.bottom else "m.zones[_d].append(_c)"
            out.append((ind, f"_c = {what}; _d = {to}; _s = m.where[_c]", s.span))
            out.append((ind, "if _s >= 0: m.zones[_s].remove(_c)", s.span))
            out.append((ind, f"{put}; m.where[_c] = _d", s.span))

    def nat_Shuffle(self, s, out, ind):
        out.append((ind, f"rt_shuffle(m, m.zones[{self.src(s.zone)}])", s.span))

    def nat_Say(self, s, out, ind):
        out.append((ind, f"if m.sink is not None: m.sink.append({self.src(s.text)})", s.span))

    def nat_ExprStmt(self, s, out, ind):
        call = s.expr
        sym = self.refs[id(call)]
        args = ", ".join(["m"] + [self.src(a) for a in call.args])
        out.append((ind, f"{self.native_names[self.rule_key(sym)]}({args})", s.span))

    def nat_Signal(self, s, out, ind):
        event = self.refs[id(s)]
        args = [self.src(a) for a in s.args]
        if not event.handlers:
            return
        self.temp_count += 1
        temp = f"_e{self.temp_count}"
        out.append((ind, f"{temp} = ({', '.join(args)}{',' if args else ''})", s.span))
        for h in event.handlers:
            out.append((ind, f"{self.native_names[h.name]}(m, *{temp})", s.span))

    def nat_Pass(self, s, out, ind):
        out.append((ind, "pass", s.span))

    def nat_Stop(self, s, out, ind):
        out.append((ind, "return", s.span))

    def nat_If(self, s, out, ind):
        for k, (cond, body) in enumerate(s.branches):
            out.append((ind, f"{'if' if k == 0 else 'elif'} {self.src(cond)}:", cond.span))
            self.nat_block(body, out, ind + 1, s.span)
        if s.otherwise is not None:
            out.append((ind, "else:", s.span))
            self.nat_block(s.otherwise, out, ind + 1, s.span)

    def nat_For(self, s, out, ind):
        # A `for` goes through a fixed sequence, so it needs no step budget. A zone is copied
        # first (the body may move its cards); a list is already an immutable tuple.
        typ = self.types[id(s.iterable)]
        seq = self.seq_src(self.src(s.iterable), typ)
        var = self.local(self.slots[id(s)])
        out.append((ind, f"for {var} in {f'tuple({seq})' if isinstance(typ, T.ZoneT) else seq}:", s.span))
        self.nat_block(s.body, out, ind + 1, s.span)

    def nat_While(self, s, out, ind):
        out.append((ind, f"while {self.src(s.cond)}:", s.span))
        for line in TICK:
            out.append((ind + 1, line, s.span))
        self.nat_block(s.body, out, ind + 1, s.span)

    def nat_Repeat(self, s, out, ind):
        out.append((ind, f"for _ in range({self.src(s.count)}):", s.span))   # a fixed count: no budget needed
        self.nat_block(s.body, out, ind + 1, s.span)
