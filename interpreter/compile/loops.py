"""Comprehensions a statement computes whole and first, written as loops of the rule's own function.

On CPython 3.11 each comprehension computed makes a function object and calls it (3.12 inlines
them: PEP 709). Where a statement computes one whole and first — a `let`'s value, a choice's
options, an `if`'s or a `while`'s condition that is `any`/`all` of one, a def's body — it is a
loop instead: the same elements in the same order, the same early stop, the parts that are the
same for every element computed once before it, as in the comprehension. StatementGen (and so
RuleGen) is a LoopGen: it writes the statements these loops stand in.
"""
from __future__ import annotations

from ..ir import nodes as ir
from .invariants import safe
from .written import Atom


class LoopGen:
    """The loops; the generator they belong to gives the program, the namespace and the expressions."""

    prog: ir.Program       # set by StatementGen
    ns: object             # codegen.Namespace
    x: object              # expressions.ExprGen

    @staticmethod
    def once(source: str, alias: str, out, ind, span) -> str:
        """`source` itself when it is a name or a number (an Atom, as the generator wrote it), else an
        alias computed here once."""
        if isinstance(source, Atom):
            return source
        out.append((ind, f"{alias} = {source}", span))
        return alias

    # On CPython 3.11 each comprehension computed makes a function object and calls it (3.12 inlines
    # them: PEP 709). Where a statement computes one whole and first — a `let`'s value, a choice's
    # options, an `if`'s or a `while`'s condition that is `any`/`all` of one — it is a loop of the
    # rule's own function instead: the same elements in the same order, the same early stop, the
    # parts that are the same for every element computed once before it, as in the comprehension.

    @staticmethod
    def single_for(e):
        """The comprehension `e` is or wraps (`[x for …]`), when it has one `for`; else None."""
        if isinstance(e, ir.ListLit) and len(e.items) == 1:
            e = e.items[0]
        return e if isinstance(e, ir.Comprehension) and len(e.fors) == 1 else None

    def loop_over(self, f, element, out, ind, span, parts=None) -> None:
        """`for v in seq:` over a comprehension's `for` f, and under it `element(test, lines, ind)`'s
        lines, where test is the filter's source (or None; an `any`/`all` in it is a loop too) —
        the parts computed once written first, the rows of tables the filter and `parts` (the
        element) read too (StatementGen.rows_before)."""
        seq = self.x.seq(f.iterable)
        rows = self.rows_before((f.cond, parts), out, ind, span, {f.slot})
        scope = self.x.enter_loop({f.slot}, statement=True)
        before = self.x.going_through(f.slot, seq)
        body = []
        try:
            test = self.cond_loop(f.cond, body, ind + 1, span) if f.cond is not None else None
            element(test, body, ind + 1)
        finally:
            self.x.leave_loop(scope)
            self.x.gone_through(f.slot, before)
            self.forget_rows(rows)
        out += [(ind, f"{name} = {source}", span) for name, source in scope.parts]
        out.append((ind, f"for v{f.slot} in {seq}:", span))
        out += [(i, text, span) for i, text, *_ in body]


    def list_loop(self, e, out, ind, span, into=None, kept=None):
        """A comprehension that a statement computes whole, as a loop filling a Python list: its name
        (`into`, or a fresh one), the lines in `out`; None when `e` is no comprehension of one `for`
        (or one that gives every element as it is). `kept`: the source kept for each element instead
        of the element (a choice's option ids: RuleGen)."""
        c = self.single_for(e) if self.options.loops else None
        if c is None or (c.fors[0].cond is None and isinstance(c.element, ir.Local) and c.element.slot == c.fors[0].slot):
            return None
        name = into or self.ns.fresh("_t")
        out.append((ind, f"{name} = []", span))

        def element(test, lines, i):
            append = f"{name}.append({self.x.src(c.element) if kept is None else kept})"
            lines.append((i, f"if {test}: {append}") if test is not None else (i, append))
        self.loop_over(c.fors[0], element, out, ind, span, c.element if kept is None else None)
        return name

    def value_lines(self, e, out, ind, span) -> str:
        """The source of a value a statement computes whole and first (a `let`'s, a def's result):
        a comprehension of one `for` (a tuple of a list_loop), `max`/`min … by` (a loop with no key
        function called), a conditional value of such values, lines written to `out` first."""
        if not self.options.loops:
            return self.x.src(e)
        built = self.list_loop(e, out, ind, span)
        if built is not None:
            return f"tuple({built})"
        if isinstance(e, ir.BuiltinCall) and e.name in ("max", "min") and self.x.is_best_by(e):
            return self.best_loop(e, out, ind, span)
        if isinstance(e, ir.BuiltinCall) and e.name in ("any", "all") and len(e.args) == 1 and self.single_for(e.args[0]):
            return self.cond_loop(e, out, ind, span)
        if isinstance(e, ir.BuiltinCall) and e.name in ("sum", "count") and len(e.args) == 1 and self.single_for(e.args[0]):
            return self.total_loop(e, self.single_for(e.args[0]), out, ind, span)
        if self.finds(e):
            return self.first_loop(e.args[0], out, ind, span)
        if isinstance(e, (ir.BinOp, ir.Compare)) and not self.x.loops \
                and (self.loopable(e.left) or self.loopable(e.right)) \
                and (self.loopable(e.left) or safe(e.left, defs=self.prog.defs)):
            # (not inside a loop being written, whose parts computed before it might hold the named ones)
            # the operands computed first, in order (the left one first, as in the expression)
            named = self.x.named
            for part in (e.left, e.right):
                if self.loopable(part):
                    named[id(part)] = self.value_lines(part, out, ind, span)
            try:
                return self.x.src(e)
            finally:
                named.pop(id(e.left), None)
                named.pop(id(e.right), None)
        if self.loopable_match(e):
            return self.match_lines(e, out, ind, span)
        if isinstance(e, ir.BoolOp) and (self.loopable(e.left) or self.loopable(e.right)):
            return self.bool_lines(e, out, ind, span, self.value_lines)
        if isinstance(e, ir.Not) and self.loopable(e.operand):
            return f"(not {self.value_lines(e.operand, out, ind, span)})"
        if isinstance(e, ir.Cond) and any(self.loopable(x) for x in (e.then, e.other)):
            value = self.ns.fresh("_v")
            out.append((ind, f"if {self.cond_loop(e.test, out, ind, span)}:", span))
            for branch, head in ((e.then, None), (e.other, "else:")):
                if head:
                    out.append((ind, head, span))
                lines = []
                source = self.value_lines(branch, lines, ind + 1, span)
                out += lines
                out.append((ind + 1, f"{value} = {source}", span))
            return value
        return self.x.src(e)

    @staticmethod
    def finds(e) -> bool:
        """Is `e` a `first(x in xs where c)`?"""
        return isinstance(e, ir.BuiltinCall) and e.name == "first" and len(e.args) == 1 and isinstance(e.args[0], ir.FindWhere)

    def first_loop(self, find, out, ind, span) -> str:
        """`first(x in xs where c)` as a loop that stops at the first; none is the rules' failure."""
        found = self.ns.fresh("_r")

        def element(test, lines, i):
            lines += [(i, f"if {test}:"), (i + 1, f"{found} = v{find.slot}"), (i + 1, "break")]
        self.loop_over(ir.CompFor(find.slot, find.iterable, find.cond, span), element, out, ind, span)
        out += [(ind, "else:", span), (ind + 1, "rt_first(())", span)]
        return found

    def bool_lines(self, e, out, ind, span, side) -> str:
        """`a and b` (`or`) whose sides are such values: `b` computed only when `a` does not decide,
        each by `side` (value_lines, or cond_loop for a condition's truth)."""
        value = self.ns.fresh("_v")
        out.append((ind, f"{value} = {side(e.left, out, ind, span)}", span))
        out.append((ind, f"if {value}:" if e.op == "and" else f"if not {value}:", span))
        lines = []
        right = side(e.right, lines, ind + 1, span)
        out += lines
        out.append((ind + 1, f"{value} = {right}", span))
        return value

    def loopable_match(self, e) -> bool:
        return isinstance(e, ir.Match) and self.x.match_table(e) is None \
            and any(self.loopable(r) for r in e.results + ((e.otherwise,) if e.otherwise is not None else ()))

    def match_lines(self, e, out, ind, span) -> str:
        """A `match` whose results are such values: its cases as `if`s, tested in order (the last one,
        when every value has a case, untested, as ExprGen.ex_Match does)."""
        subject = self.once(self.x.src(e.subject), self.ns.fresh("_s"), out, ind, span)
        value = self.ns.fresh("_v")
        cases = list(zip(e.keys, e.results))
        if e.otherwise is not None:
            cases.append((None, e.otherwise))
        for k, (keys, result) in enumerate(cases):
            untested = k == len(cases) - 1 and (e.otherwise is not None or k > 0)
            if len(cases) == 1:
                inner = ind             # one case for every value: the subject computed, then the result
            else:
                out.append((ind, "else:" if untested else f"{'if' if k == 0 else 'elif'} {self.x.case_test(subject, keys)}:",
                            span))
                inner = ind + 1
            lines = []
            source = self.value_lines(result, lines, inner, span)
            out += lines
            out.append((inner, f"{value} = {source}", span))
        return value

    def loopable(self, e) -> bool:
        if self.loopable_match(e):
            return True
        if isinstance(e, ir.BoolOp):
            return self.loopable(e.left) or self.loopable(e.right)
        if isinstance(e, ir.Not):
            return self.loopable(e.operand)
        if isinstance(e, (ir.BinOp, ir.Compare)):
            return (self.loopable(e.left) or self.loopable(e.right)) and (self.loopable(e.left) or safe(e.left, defs=self.prog.defs))
        return self.finds(e) or self.single_for(e) is not None or isinstance(e, ir.Cond) and (self.loopable(e.then) or self.loopable(e.other)) \
            or isinstance(e, ir.BuiltinCall) and e.name in ("max", "min") and self.x.is_best_by(e) \
            or isinstance(e, ir.BuiltinCall) and e.name in ("any", "all", "sum", "count") and len(e.args) == 1 \
            and self.single_for(e.args[0]) is not None

    def total_loop(self, call, c, out, ind, span) -> str:
        """`sum` of a comprehension (or `count`: how many of its elements are true) as a loop adding up."""
        total = self.ns.fresh("_n")
        out.append((ind, f"{total} = 0", span))

        def element(test, lines, i):
            if call.name == "sum":
                add, when = f"{total} += {self.x.src(c.element)}", test
            else:
                add, truth = f"{total} += 1", self.x.test(c.element)
                when = f"({truth})" if test is None else f"({test}) and ({truth})"
            lines.append((i, f"if {when}: {add}") if when is not None else (i, add))
        self.loop_over(c.fors[0], element, out, ind, span, c.element)
        return total

    def best_loop(self, call, out, ind, span) -> str:
        """`max(x in xs by key)` (or min) as a loop: the first element whose key is the largest
        (smallest), as Python's max and min give; of nothing, the rules' failure."""
        b = call.args[0]
        xs = self.once(self.x.seq(b.iterable), self.ns.fresh("_q"), out, ind, span)
        best, key, most, first = (self.ns.fresh(n) for n in ("_b", "_k", "_m", "_f"))
        out.append((ind, f"if not {xs}: rt_nothing({call.name!r})", span))
        scope = self.x.enter_loop({b.slot})
        try:
            source = self.x.src(b.key)
        finally:
            self.x.leave_loop(scope)
        out += [(ind, f"{name} = {part}", span) for name, part in scope.parts]
        out.append((ind, f"{first} = True", span))
        out.append((ind, f"for v{b.slot} in {xs}:", span))
        out.append((ind + 1, f"{key} = {source}", span))
        better = ">" if call.name == "max" else "<"
        out.append((ind + 1, f"if {first} or {key} {better} {most}: {first} = False; {most} = {key}; {best} = v{b.slot}",
                    span))
        return best

    def def_lines(self, body, span) -> list:
        """A def's function body: its `let`s as statements (their values by value_lines), then its result."""
        lines = []
        while isinstance(body, ir.LetIn):
            lines.append((1, f"v{body.slot} = {self.value_lines(body.value, lines, 1, body.span)}", body.span))
            body = body.body
        lines.append((1, f"return {self.value_lines(body, lines, 1, span)}", span))
        return lines

    def cond_loop(self, cond, out, ind, span) -> str:
        """The source of a condition to test; `any`/`all` of a comprehension of one `for` is computed
        by lines written to `out` first (a loop that stops at the deciding element), its truth a name.
        The lines carry `span`, the one of the line that tests the condition without them (an `if`'s
        condition, a `while`, a `let`): a failure in them is reported where it was."""
        if self.options.loops and isinstance(cond, ir.BoolOp) and (self.loopable(cond.left) or self.loopable(cond.right)):
            return self.bool_lines(cond, out, ind, span, self.cond_loop)
        call = cond.operand if isinstance(cond, ir.Not) else cond
        c = self.single_for(call.args[0]) if self.options.loops and isinstance(call, ir.BuiltinCall) and call.name in ("any", "all") \
            and len(call.args) == 1 else None
        if c is None:
            if self.options.loops and isinstance(cond, ir.Not) and self.loopable(cond.operand):
                return f"(not {self.cond_loop(cond.operand, out, ind, span)})"
            if self.options.loops and self.loopable(cond) and not isinstance(cond, ir.Not):
                return self.value_lines(cond, out, ind, span)
            return self.x.test(cond)
        found = call.name == "any"          # what an element that decides makes of the whole
        flag = self.ns.fresh("_a")
        out.append((ind, f"{flag} = {not found}", span))

        def element(test, lines, i):
            truth = self.x.test(c.element)
            decides = f"({truth})" if found else f"not ({truth})"
            when = decides if test is None else f"({test}) and {decides}"
            lines += [(i, f"if {when}:"), (i + 1, f"{flag} = {found}"), (i + 1, "break")]
        self.loop_over(c.fors[0], element, out, ind, span, c.element)
        return f"(not {flag})" if cond is not call else flag
