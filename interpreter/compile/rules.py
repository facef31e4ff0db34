"""Rules that can wait for a decision → resumable Python functions.

A rule that can wait (it holds a choice, or calls or signals one that can)
becomes one function `def W4(m, fr): …` that starts or resumes at the
position kept in its frame `fr = [rule index, pc, local, …]`. Its body is cut
into numbered blocks at the points where it can wait, and runs in a
`while True:` over `if pc == k:` tests in block order, so falling into the
next block or jumping forward costs one comparison per block skipped and only
loops jump back. Statements with no waiting point inside (most of them) stay
structured Python within their block (statements.py). The locals live in
Python variables; the ones live at a waiting point are stored in the frame
when the rule waits and loaded back when it resumes, so the position is
always plain data in the state — it can be copied, saved and loaded mid-rule —
and no Python generator is involved. Calls between waiting rules are direct
Python calls; a rule returns True when it waits (its callers then record where
they stand and return True too) and False when it is done. Where a rule
resumes it is entered by a function of its own (`entry_function`; an option's
block by `body_function`, which the machine calls with the chosen value as it
takes the decision), and from there the small blocks it jumps to are copied in
place, so a decision runs straight on to the next one (`block_lines`).

Over 500 lines for one reason: cutting a body into blocks, and what each
statement that can wait (a call, a signal, an if, a loop, a choice) puts in
them, share one state — the blocks, the locals live at each point — so they
are one class; the statements that cannot wait are statements.py's.
"""
from __future__ import annotations

import re

from ..ir import nodes as ir
from ..ir import types as T
from ..ir.hidden import reads_hidden, skip_reveals
from ..runtime.errors import STEP_BUDGET
from . import candidates
from .codegen import TICK
from .program import ChoiceInfo
from ..runtime.helpers import rt_seg_card
from .text_for_seats import hidden_as
from .statements import StatementGen, assigned, reads
from .written import Atom


SECRET = "a secret choice"      # what the other seats are told of a `secretly` choice


def _watched(index: int) -> str:
    return f"if m.watch is not None: m.watch(m, fr, {index})"


_JUMP = re.compile(r"\bpc = (\d+)")     # a jump's line (block_lines): the block it names


def _group_size(blocks: int) -> int:
    """Blocks per group in a rule with many (0: none). Reaching block k costs a test per group before
    its own and one per block before it in its group, not one per block before it; the last group
    needs no test of its own."""
    return 0 if blocks <= 8 else max(2, round(blocks ** 0.5))


def _shift(values):
    """c where every value is its position + c (whole numbers in a row, no bools), else None."""
    if not len(values) or type(values[0]) is not int:
        return None
    c = values[0]
    return c if all(type(v) is int and v == k + c for k, v in enumerate(values)) else None


def _choices_in_order(body):
    """The choices of a rule's body in the order they stand (each before those of its option's block)."""
    for s in body:
        if isinstance(s, ir.Choose):
            yield s
            yield from _choices_in_order(s.body)
            yield from _choices_in_order(s.otherwise or ())
        elif isinstance(s, ir.If):
            for _cond, branch in s.branches:
                yield from _choices_in_order(branch)
            yield from _choices_in_order(s.otherwise or ())
        elif isinstance(s, (ir.For, ir.While, ir.Repeat)):
            yield from _choices_in_order(s.body)


class _Label:
    __slots__ = ("block",)

    def __init__(self):
        self.block = -1


class _Store:
    """A local stored in the frame as the rule waits, or its pc (slot `("pc", k)`): left out where the
    frame holds it already."""
    __slots__ = ("slot", "text")

    def __init__(self, slot, text):
        self.slot = slot
        self.text = text


class _Goto:
    """A jump in a resumable rule's code: to a block number, or to a label placed later.
    `always` goes round the dispatch loop even forward (a `break` nested in other code)."""
    __slots__ = ("to", "always")

    def __init__(self, to, always=False):
        self.to = to
        self.always = always

    def block(self) -> int:
        return self.to if isinstance(self.to, int) else self.to.block


class RuleGen(StatementGen):
    """Generates every rule's function into the namespace; choices are numbered as they are met."""

    def __init__(self, prog, layout, ns, exprs, has_anytime: bool, watched: bool = False, inlined=None,
                 fast: bool = False):
        super().__init__(prog, layout, ns, exprs)
        # the fast path's twin (engine.playout): every rule's function takes the playout's `choose`,
        # which a choice calls where it would wait (ask_fast); a game with `anytime` options is not
        # played on it, and waits as it does on the resumable path
        self.fast = fast
        self.choose = ", choose" if fast else ""
        # rules written into their only caller (compile.inline): their choices keep their numbers
        self.origin = inlined.origin if inlined is not None else {}
        self.inline_chain = inlined.chain if inlined is not None else {}
        self.numbers = self.numbering(inlined.original if inlined is not None else prog, has_anytime)
        self.wait_points: dict = {}       # id(statement) -> can it wait? (asked again at every depth)
        self.choices: list[ChoiceInfo] = []
        self.action_count = 0
        self.has_anytime = has_anytime
        self.bodies: list = []            # the choices whose option's block is being generated: (index, loops around)
        self.watched = watched            # write the calls of the state's watch (a scenario's `take "…":`)
        self.tables: dict = {}            # rule key -> pc -> the function entered there (the machine's entries)

    def numbering(self, prog, has_anytime) -> dict:
        """id(choice) -> (its index, its first option id), in the order the rules are written: each
        rule in turn, its choices in the order they stand (an option's block after its choice), the
        `anytime` options after the rules and before scenarios' `arrange:` blocks — so option ids stay
        the same from one version to the next, wherever a choice's code ends up (compile.inline)."""
        numbers = {}
        action = 0
        anytimes_placed = False
        for key, rule in prog.rules.items():
            if key.startswith("arrange ") and not anytimes_placed and has_anytime:
                action += len(prog.anytimes)
                anytimes_placed = True
            for c in _choices_in_order(rule.body):
                size = self.layout.universe(c.elem, c.domain)[0]
                numbers[id(c)] = (len(numbers), action)
                action += size + (1 if c.may else 0)
        return numbers

    # ------------------------------------------------------------ rules that wait
    def waits_at(self, s) -> bool:
        """Can this statement, or one inside it, wait for a decision (so its block must be cut there)?"""
        known = self.wait_points.get(id(s))
        if known is None:
            known = self.wait_points[id(s)] = any(
                isinstance(n, ir.Choose) or (isinstance(n, ir.CallRule) and self.waits[n.rule])
                or (isinstance(n, ir.Signal) and any(self.waits[h] for h in self.prog.events.get(n.event, ())))
                for n in ir.walk(s))
        return known

    def resumable(self, rule: ir.Rule):
        """`def W4(m, fr):` — see the module's docstring."""
        self.rule = rule
        self.blocks: list[list] = [[]]
        self.writes: dict = {}            # block -> the locals its lines may assign
        self.block_spans = [rule.span]
        self.closed = False
        self.at = self.frames[rule.key]     # slot -> index in the frame
        self.kept = set(self.at)
        self.after: list[tuple] = []      # what runs after the statement being compiled, innermost last
        self.scope: list[set] = [set(range(rule.params))]   # locals holding a value here, by block
        self.loops: list[tuple] = []      # slots the heads of the enclosing loops read
        self.resume: dict = {}            # resume pc -> the locals it needs from the frame
        self.bodies: list = []            # the choices whose option's block is being generated: (index, loops around)
        self.chosen: dict = {}            # choice index -> the local its chosen value goes to
        self.asking: dict = {}            # choice index -> the block that asks it
        if rule.where is not None:
            self.line(f"if not ({self.x.test(rule.where)}): return False", rule.where.span)
        self.flat_block(rule.body)
        self.line("return False", rule.span)
        name = self.names[rule.key]
        # on entry, load the locals the resume point needs (its pc was stored with them)
        loads = dict(self.resume)
        loads[0] = loads.get(0, set()) | set(range(rule.params))
        self.cut_rest()
        # where the machine resumes the rule, or a caller starts it, a function entered at that block
        # (an option's block: ChoiceInfo.body); the rule's own function is entered at the others
        mine = [info for info in self.choices if info.index in self.chosen]
        entered = {}
        for info in mine:
            info.body = entered[info.body_pc] = self.body_function(info, self.chosen.pop(info.index))
        asks = {self.asking[info.index] for info in mine}
        for pc in sorted(loads):
            if (pc == 0 or pc not in asks) and pc not in entered:     # (an ask is entered again only after an anytime action)
                entered[pc] = self.entry_function(pc, frozenset(loads[pc]) | {("pc", pc)}, None, self.block_spans[pc])
        loads = {pc: needed for pc, needed in loads.items() if entered.get(pc) is None}
        lines = [(1, "pc = fr[1]", rule.span)]
        entries = sorted((pc, needed) for pc, needed in loads.items() if needed)
        ind = 1
        for pc, needed in entries:
            lines.append((ind, f"{'if' if pc == entries[0][0] else 'elif'} pc == {pc}:", rule.span))
            lines += [(ind + 1, f"v{k} = fr[{self.at[k]}]", rule.span) for k in sorted(needed)]
        lines.append((1, "while True:", rule.span))
        lines += self.rest
        fn = self.ns.define(name, f"def {name}(m, fr{self.choose}):", lines, rule.label, rule.span)
        table = tuple(entered.get(pc) or fn for pc in range(len(self.blocks)))
        self.tables[rule.key] = table
        self.ns.bind(f"S{self.index[rule.key]}", table[0])     # what a caller calls (flat_CallRule)
        return fn, list(self.block_spans)

    def cut_rest(self) -> None:
        """The blocks, in order (each falls into the next), each at indentation 0
        (`rest_blocks`); the dispatch loop of them all (`rest`) and its size."""
        self.rest_blocks = [(k, self.block_lines(k, 0, (k,) if self.fast else None, at=k if self.fast else None))
                            for k in range(len(self.blocks))]
        self.rest = self.rest_lines()
        self.rest_size = len(self.rest) if not self.fast else sum(
            1 + len(self.block_lines(k, 0, None)) for k in range(len(self.blocks)))

    def rest_lines(self, live=None) -> list:
        """The dispatch loop's tests and lines of the blocks (`rest_blocks`; with `live`,
        those of them alone), in order (each falls into the next); with many, in groups skipped with
        one test each."""
        lines = []
        rest = [(k, body) for k, body in self.rest_blocks if live is None or k in live]
        group = _group_size(len(rest))
        last = len(rest) - (len(rest) % group or group) if group else 0    # the last group's first
        for i, (k, body) in enumerate(rest):
            base = 2
            if i < last:
                base = 3        # a group of blocks, skipped with one test when pc is past them
                if i % group == 0:
                    lines.append((2, f"if pc <= {rest[i + group - 1][0]}:", self.block_spans[k]))
            lines.append((base, f"if pc == {k}:", self.block_spans[k]))
            # on the fast path the whole game runs round this loop: a jump to a small block is its
            # lines copied in place there too, and only a jump back goes round the loop
            lines += [(base + 1 + ind, text, span) for ind, text, span in body]
        return lines

    def live_blocks(self, path) -> set:
        """The blocks of `rest_blocks` that a function entered on `path` (its lines) can reach: those
        its jumps name, and those theirs name (pc is set by a jump only: a block not named is dead
        code in a function entered at pc -1)."""
        bodies = dict(self.rest_blocks)
        live, todo = set(), [path]
        while todo:
            for _ind, text, _span in todo.pop():
                for m in _JUMP.finditer(text):
                    k = int(m.group(1))
                    if k not in live and k in bodies:
                        live.add(k)
                        todo.append(bodies[k])
        return live

    BODY_LOOP_LINES = 150       # a body that goes round the dispatch loop has the rule's other blocks, up to this many lines

    def body_function(self, info, slot):
        """`def B12(m, fr, v3):` — the option's block of a choice, run by the machine with the chosen
        value as it takes the decision: no pc stored and read back, no test of it, the value not put in
        the frame first (it is stored there only if a later wait needs it). The block comes first, with
        the small blocks it runs on into copied in (block_lines); where it jumps on to others, they
        follow in a dispatch loop, unless there are more than BODY_LOOP_LINES lines of them: None then
        (the machine resumes the rule at body_pc)."""
        if not self.options.bodies:
            return None
        k = info.body_pc
        # (the frame still stands at the choice's ask: the machine called this instead of resuming it)
        return self.entry_function(k, frozenset(self.resume[k] - {slot}) | {("pc", self.asking[info.index])}, slot, info.span)


    def entry_function(self, k, clean, slot, span):
        """`def B12(m, fr):` entered at block k, loading the locals `clean` (and with `slot`, taking
        the local as its third parameter): the block and the small blocks it runs on into, copied in
        (block_lines); where that path jumps on to others, they follow in a dispatch loop of its own,
        unless there are more than BODY_LOOP_LINES lines of them: None then."""
        if not self.options.entries and slot is None:
            return None
        lines = [(1, f"v{j} = fr[{self.at[j]}]", self.block_spans[k]) for j in sorted(j for j in clean if type(j) is int)]
        path = self.block_lines(k, 1, (k,), clean)
        if any("continue" in text for _ind, text, _span in path):
            # it jumps on to blocks not copied: the rule's blocks that are not entered only on
            # resuming follow (no jump lands on those), those of them a jump can reach (live_blocks),
            # in a loop entered at pc -1, which no jump names: the path, whose stores rely on what
            # was loaded, runs once
            if self.rest_size > self.BODY_LOOP_LINES:
                return None
            head = [(2, "if pc == -1:", span)] + self.block_lines(k, 3, (k,), clean)
            rest = self.rest_lines(self.live_blocks(head))
            # on the fast path the loop goes round for the whole game: the path, run once, is tested last
            lines += [(1, "pc = -1", span), (1, "while True:", span)] + (rest + head if self.fast else head + rest)
        else:
            lines += path
        name = self.ns.fresh("B")
        params = "m, fr" + (f", v{slot}" if slot is not None else "") + self.choose
        return self.ns.define(name, f"def {name}({params}):", lines, self.rule.label, span)

    INLINED_BLOCKS = 4          # blocks copied one into another after a resume point, at most
    INLINED_LINES = 16          # ... each of at most this many lines

    def block_lines(self, k, ind0, path, clean=frozenset(), at=None, nested=False):
        """Block k's lines at indentation `ind0`, its jumps set pc. Along a path that starts at a block
        where the rule is entered (`path`: the blocks copied so far), a jump to a small block is that
        block's lines copied in its place, so that a decision runs on to the next one (the rest of its
        option's block, the loop's head, the next choice) with no comparison in the dispatch loop;
        there every jump not copied goes round the loop. Every block ends by jumping or returning,
        so nothing after a copied block runs. `clean` are the locals that still hold what the frame
        holds (loaded on resuming, not assigned since): waiting, the path does not store them again.
        In the dispatch loop (`at`) a jump forward falls through to the blocks after `at` only from
        where nothing of `at` follows: a block copied in place of a jump that other lines follow (an
        `always` one: a choice's skip when it has no option, a `break`) has its jumps go round
        (`nested`), else the lines after the copy would run."""
        block = self.blocks[k]
        if not block:
            return [(ind0, "pass", self.block_spans[k])]
        clean = clean - self.writes.get(k, frozenset()) if path is not None else frozenset()
        out = []
        for ind, text, span in block:
            if isinstance(text, _Store):
                if text.slot in clean:
                    if not self.options.check_clean:
                        continue
                    # (a test compiles the games so: a store left out must store nothing new)
                    test = text.text.replace(" = ", " != " if type(text.slot) is tuple else " is not ")
                    text = f"if {test}: raise AssertionError('a store left out')"
                else:
                    text = text.text
            elif isinstance(text, _Goto):
                target = text.block()
                if path is not None and self.copied(target, path):
                    out += self.block_lines(target, ind0 + ind, path + (target,), clean, at, nested or text.always)
                    continue
                if at is not None:      # in the dispatch loop, at block `at`: a jump forward falls through
                    back = target <= at or text.always or nested
                else:
                    back = path is not None or target <= k or text.always
                text = f"pc = {target}" + ("; continue" if back else "")
            out.append((ind0 + ind, text, span))
        return out

    def wrote(self, slots) -> None:
        """The lines being added to the current block may assign these locals."""
        self.writes.setdefault(len(self.blocks) - 1, set()).update(slots)

    def copied(self, k, path) -> bool:
        """May block k be copied at the end of `path`? Small, not on the path already (a loop is
        copied once round), and the path not yet at its length."""
        return k not in path and len(path) <= self.INLINED_BLOCKS and 0 < len(self.blocks[k]) <= self.INLINED_LINES

    def line(self, text, span, ind=0):
        self.blocks[-1].append((ind, text, span))

    def new_block(self, span) -> int:
        """Start the next block; the one before falls into it unless it already left (an empty one is reused)."""
        if not self.blocks[-1]:
            self.block_spans[-1] = span
            return len(self.blocks) - 1
        k = len(self.blocks)
        if not self.closed:
            self.line(_Goto(k), span)
        self.blocks.append([])
        self.block_spans.append(span)
        self.closed = False
        return k

    def place(self, label, span):
        label.block = self.new_block(span)

    def goto(self, label, span, ind=0):
        """Set pc to a label's block; a jump back must go round the loop, a jump forward falls through."""
        self.line(_Goto(label), span, ind)
        if ind == 0:
            self.closed = True

    def waiting(self, resume: int, span, ind=0, also=()):
        """Record where this rule stands and the locals it needs when it resumes, and return 'waiting'.

        Those are the locals used by what can run after the resume point (`also`, then the rest of
        each enclosing block, the whole of each enclosing loop); the others are dead there."""
        needed = reads(also)
        for rest in self.after:
            needed |= reads(rest)
        for slots in self.loops:
            needed.update(slots)
        needed &= set().union(*self.scope)      # a local declared later is written before it is read
        self.resume[resume] = self.resume.get(resume, set()) | needed
        self.line(_Store(("pc", resume), f"fr[1] = {resume}"), span, ind)     # left out where the frame holds it
        for k in sorted(needed):
            self.line(_Store(k, f"fr[{self.at[k]}] = v{k}"), span, ind)
        self.line("return True", span, ind)

    def flat_block(self, stmts, declared=()):
        self.scope.append(set(declared))
        run = []
        for i, s in enumerate(stmts):
            if self.waits_at(s):
                if run:
                    self.nat_run(run)
                    run = []
                self.after.append(stmts[i + 1:])
                getattr(self, "flat_" + type(s).__name__)(s)
                self.after.pop()
            else:
                run.append(s)
            if isinstance(s, ir.Let):
                self.scope[-1].add(s.slot)
        if run:
            self.nat_run(run)
        self.scope.pop()

    def nat_run(self, stmts):
        self.wrote(assigned(stmts))
        out = []
        saved, self.stop_text = self.stop_text, "return False"
        self.nat_statements(stmts, out, 0)
        self.stop_text = saved
        self.blocks[-1].extend(out)

    def flat_CallRule(self, s):
        test = self.entry_test(s)
        ind = 0 if test is None else 1    # a rule with nothing to do is not called (StatementGen.entry_test)
        if test is not None:
            self.line(f"if {test}:", s.span)
        frame = ", ".join([str(self.index[s.rule]), "0"] + [self.x.src(a) for a in s.args]
                          + ["None"] * (self.frame_size(s.rule) - len(s.args)))
        self.line(f"_f = [{frame}]", s.span, ind)
        self.line("m.stack.append(_f)", s.span, ind)
        after = len(self.blocks)          # the block after this call
        self.line(f"if S{self.index[s.rule]}(m, _f{self.choose}):", s.span, ind)     # its start (resumable)
        self.waiting(after, s.span, ind + 1)
        self.line("m.stack.pop()", s.span, ind)
        self.new_block(s.span)

    def flat_Signal(self, s):
        """Push a frame for every handler of the event, last first, so they run in declaration order."""
        handlers = self.prog.events.get(s.event, ())
        args = [self.x.src(a) for a in s.args]
        self.line(f"_e = ({', '.join(args)}{',' if args else ''})", s.span)
        self.line("_b = len(m.stack)", s.span)
        for h in reversed(handlers):
            pad = self.frame_size(h) - len(args)
            self.line(f"m.stack.append([{self.index[h]}, 0, *_e{', None' * pad}])", s.span)
        after = len(self.blocks)
        self.line("if rt_drive_fast(m, _b, FAST_ENTRIES, choose):" if self.fast else "if rt_drive(m, _b):", s.span)
        self.waiting(after, s.span, 1)
        self.new_block(s.span)

    def flat_If(self, s):
        end = _Label()
        targets = [_Label() for _ in s.branches]
        other = _Label() if s.otherwise is not None else end
        depth = 0       # a condition computed by lines of its own is tested under the `else:` of the ones before
        opening = True
        for k, (cond, _body) in enumerate(s.branches):
            if k > 0 and self.needs_lines(cond):
                self.line("else:", s.span, depth)
                depth += 1
                opening = True
            test = self.cond_loop(cond, self.blocks[-1], depth, cond.span) if opening else self.x.test(cond)
            self.line(f"{'if' if opening else 'elif'} {test}:", cond.span, depth)
            self.goto(targets[k], cond.span, depth + 1)
            opening = False
        self.line("else:", s.span, depth)
        self.goto(other, s.span, depth + 1)
        self.closed = True
        for label, (_cond, body) in zip(targets, s.branches):
            self.place(label, body[0].span if body else s.span)
            self.flat_block(body)
            self.goto(end, s.span)
        if s.otherwise is not None:
            self.place(other, s.otherwise[0].span if s.otherwise else s.span)
            self.flat_block(s.otherwise)
        self.place(end, s.span)

    def loop(self, s, test, enter, leave, slots, writes=None):
        """A loop that can wait: a head block (if `test`: `enter` lines, into the body; else `leave`
        lines, to the end), the body, back to the head. A `while`'s `test` is its condition (IR):
        the head computes it, with lines of its own if need be (LoopGen.cond_loop)."""
        end = _Label()
        top = self.new_block(s.span)
        body = _Label()
        if isinstance(s, ir.While):
            for text in TICK:
                self.line(text, s.span)
            test = self.cond_loop(test, self.blocks[-1], 0, s.span)
        self.wrote(slots if writes is None else writes)     # what the head assigns
        self.line(f"if {test}:", s.span)
        for text in enter:
            self.line(text, s.span, 1)
        self.goto(body, s.span, 1)
        self.line("else:", s.span)
        for text in leave:
            self.line(text, s.span, 1)
        self.goto(end, s.span, 1)
        self.closed = True
        self.place(body, s.span)
        self.after.append((s,))           # the body runs again: the whole loop is after any point in it
        self.loops.append(slots)
        self.break_to.append(end)
        self.flat_block(s.body, slots)
        self.break_to.pop()
        self.loops.pop()
        self.after.pop()
        self.line(_Goto(top), s.span)
        self.closed = True
        self.place(end, s.span)

    def break_jump(self, target):
        return _Goto(target, always=True)

    def flat_While(self, s):
        self.loop(s, s.cond, (), (), ())

    def flat_For(self, s):
        lst, i = f"v{s.list_slot}", f"v{s.index_slot}"
        self.wrote((s.list_slot, s.index_slot))
        self.line(f"{lst} = {self.x.kept(s.iterable)}", s.span)    # kept in the frame while the loop waits
        self.line(f"m.ticks -= len({lst})", s.span)
        self.line("if m.ticks < 0: raise StepBudgetSpent()", s.span)
        self.line(f"{i} = 0", s.span)
        self.loop(s, f"{i} < len({lst})", (f"v{s.slot} = {lst}[{i}]", f"{i} += 1"), (),
                  (s.list_slot, s.index_slot, s.slot), (s.index_slot, s.slot))

    def flat_Repeat(self, s):
        count = f"v{s.count_slot}"
        self.wrote((s.count_slot,))
        self.line(f"{count} = {self.x.src(s.count)}", s.span)
        self.line(f"m.ticks -= {count} if {count} > 0 else 0", s.span)     # (no call of max: it costs more)
        self.line("if m.ticks < 0: raise StepBudgetSpent()", s.span)
        self.loop(s, f"{count} > 0", (f"{count} -= 1",), (), (s.count_slot,))

    def flat_Choose(self, s):
        """A choice, in named steps: what it is (its labels, its number, its options' universe), the
        options' ids, the question (or the fast path's call of `choose`), then a block for the option
        taken and one for the pass."""
        size, position, values = self.layout.universe(s.elem, s.domain)
        info = self.choice_info(s, size, position, values)
        skip, end = _Label(), _Label()
        ask = self.asking[info.index] = self.new_block(s.span)
        # Being asked is information: a player who may pass, over options some seat may not see, is
        # asked even when only the pass is left, so that whether she could act is not revealed.
        always = s.may and reads_hidden(self.prog, (s.domain, s.where))
        fixed = self.constant_options(s) if s.where is None else None
        reveals = self.skip_lines(s)
        fast = self.fast and not self.has_anytime
        if fixed is not None:
            # the same options every time: their ids are a constant
            fixed = tuple(dict.fromkeys(fixed))
            ids = tuple(info.offset + position(v) for v in fixed) + ((info.offset + size,) if s.may else ())
            ia = self.asked_if('True' if fixed or always else 'False', s.span, fast, reveals, skip)
            self.line(f"_ids = {self.ns.const(ids)}", s.span, ia)
        else:
            ia = self.option_ids(s, info, size, always, fast, reveals, skip)
        self.put_question(s, info, ia, fast, ask, skip, values, reveals)
        self.option_blocks(s, info, ask, skip, end)

    def choice_info(self, s, size, position, values) -> ChoiceInfo:
        """The choice as the machine knows it (ChoiceInfo): its labels, its number and the rule it stands
        in, its options' universe; counted among the game's actions."""
        label, pass_label, shown_label, prompt = self.choice_labels(s)
        index, offset = self.numbers[id(self.origin.get(id(s), s))]
        written_in = self.inline_chain.get(id(s.span))
        # the rule it stands in, by name (an `original(...)`'s key is `pick@original1`: its name is `pick`)
        rule_name = (written_in[-1][1] if written_in else self.rule.key).split("@")[0]
        info = ChoiceInfo(index, rule_name, s.span, s.may, offset, size, position,
                          values, self.at[s.slot], label, pass_label, shown_label, s.secret, prompt=prompt)
        self.action_count += size + (1 if s.may else 0)
        self.choices.append(info)
        self.chosen[info.index] = s.slot
        return info

    def choice_labels(self, s) -> tuple:
        """The functions (m, fr) of an option's label and of the pass's, the label as segments as the
        seats may see it, and the question's function (`prompt`) or None; each reads the locals the
        frame kept."""
        x = self.x
        elem = s.elem
        fmt = self.layout.formatter(elem)
        shown = reads([s.label, s.pass_label, s.chooser, s.prompt]) & self.kept
        load = [(1, f"v{k} = fr[{self.at[k]}]", s.span) for k in sorted(shown)]
        if s.label is not None:
            lname = self.ns.fresh("L")
            label = self.ns.define(lname, f"def {lname}(m, fr):", load + [(1, f"return {x.src(s.label)}", s.span)],
                                   self.rule.label, s.span)
        else:
            k = self.at[s.slot]

            def label(m, fr, fmt=fmt):
                return f"choose {fmt(m, fr[k])}"
        if s.pass_label is not None:
            pname = self.ns.fresh("P")
            pass_label = self.ns.define(pname, f"def {pname}(m, fr):",
                                        load + [(1, f"return {x.src(s.pass_label)}", s.span)], self.rule.label, s.span)
        else:
            def pass_label(m, fr):
                return "pass"
        prompt = None
        if s.prompt is not None:
            qname = self.ns.fresh("Q")
            prompt = self.ns.define(qname, f"def {qname}(m, fr):", load + [(1, f"return {x.src(s.prompt)}", s.span)],
                                    self.rule.label, s.span)
        return label, pass_label, self.shown(s, load, elem, fmt), prompt

    def skip_lines(self, s) -> list:
        """The lines run where a choice without a pass has no option left, when skipping it would tell
        some seat what it may not see (ir.hidden.skip_reveals): the rules stop there, with a sentence."""
        reveals = skip_reveals(self.prog, s)
        if reveals == "domain":
            return [f"rt_no_option(m, {self.x.src(s.chooser)})"]
        if reveals == "where":
            return [f"if {self.x.seq(s.domain)}: rt_no_option(m, {self.x.src(s.chooser)})"]
        return []

    def option_ids(self, s, info, size, always, fast, reveals, skip) -> int:
        """Lines computing `_ids`, the ids of the options offered, where they are not a constant; returns
        the indentation of the lines that run when there are some (asked_if)."""
        # the decision waits on the options' ids alone: the machine finds the value of an id among the
        # universe's values (ChoiceInfo.values), so the values found are not kept apart
        x, elem = self.x, s.elem
        with x.unbinding():          # (without LOOPS, the options are a comprehension over it)
            seq = x.seq(s.domain)
        unique = self.x.facts.distinct(s)      # (analysis: no repeats among them)
        formula = self.id_formula(elem, s.domain, info)       # None: the ids are the values
        options = "_xs"
        found = candidates.plan(self.prog, s) if s.where is not None else None
        if found is not None:            # a pair choice's options found from its `where` (compile.candidates)
            self.wrote((s.slot,))
            for ind, text in candidates.lines(found, s, x, "_xs"):
                self.line(text, s.span, ind)
            self.line("_xs = tuple(_xs)", s.span)
        elif s.where is not None and self.options.loops and unique:
            self.wrote((s.slot,))        # the ids are found by a loop over the choice's own local
            kept = f"v{s.slot}" if formula is None else formula.format(x=f"v{s.slot}")
            self.list_loop(ir.Comprehension(T.ListT(elem), s.span, ir.Local(elem, s.span, s.slot),
                                            (ir.CompFor(s.slot, s.domain, s.where, s.span),)),
                           self.blocks[-1], 0, s.span, into="_ids", kept=kept)
            options, formula = "_ids", None
        elif s.where is not None and not self.options.loops:
            self.line(f"_xs = tuple({x.filtered(s.slot, seq, s.where)})", s.span)
        elif s.where is not None:
            self.wrote((s.slot,))        # the options are found by a loop over the choice's own local
            self.list_loop(ir.Comprehension(T.ListT(elem), s.span, ir.Local(elem, s.span, s.slot),
                                            (ir.CompFor(s.slot, s.domain, s.where, s.span),)),
                           self.blocks[-1], 0, s.span, into="_xs")
            self.line("_xs = tuple(_xs)", s.span)
        elif isinstance(s.domain.type, T.ListT) and isinstance(seq, Atom):
            self.line(f"_xs = {seq}", s.span)       # a list held by a local is a tuple already
        else:
            self.line(f"_xs = tuple({seq})", s.span)
        if not unique:      # a list may repeat a value: offer it once (a set is quicker to make than a dict)
            self.line("if len(set(_xs)) < len(_xs): _xs = tuple(dict.fromkeys(_xs))", s.span)
        ia = self.asked_if("True" if always else options, s.span, fast, reveals, skip)
        passing = f" + ({info.offset + size},)" if s.may else ""
        if formula is None:          # the ids are the values themselves, or were found with them
            self.line(f"_ids = {'tuple(_ids)' if options == '_ids' else '_xs'}{passing}", s.span, ia)
        elif self.options.loops:
            self.line("_ids = []", s.span, ia)
            self.line(f"for x in _xs: _ids.append({formula.format(x='x')})", s.span, ia)
            self.line(f"_ids = tuple(_ids){passing}", s.span, ia)
        else:
            self.line(f"_ids = tuple([{formula.format(x='x')} for x in _xs]){passing}", s.span, ia)
        return ia

    def put_question(self, s, info, ia, fast, ask, skip, values, reveals) -> None:
        """The question: who chooses, the `anytime` options added, then the decision waited on (or, on
        the fast path, `choose` called); no option left goes to `skip`."""
        who = self.x.src(s.chooser)
        if self.has_anytime or not isinstance(who, Atom):
            self.line(f"_who = {who}", s.span, ia)
            who = "_who"
        if self.has_anytime:
            self.line("_ids = _ids + tuple([i for i, offered in ANYTIME if offered(m, _who)])", s.span, 1)
        if fast:
            self.ask_fast(info, s, who, ask, skip, values)
        else:
            self.line(f"m.pending = ({info.index}, {who}, _ids)", s.span, 1)
            self.waiting(ask, s.span, 1, also=(s,))
            for text in reveals:
                self.line(text, s.span)
            self.goto(skip, s.span)

    def option_blocks(self, s, info, ask, skip, end) -> None:
        """The block run with the option chosen, and the pass's (or the way on where none was left);
        where each resumes, what the frame must hold."""
        info.body_pc = self.new_block(s.body[0].span if s.body else s.span)
        first = s.body[0] if s.body else None
        if isinstance(first, ir.Move) and isinstance(first.what, ir.Local) and first.what.slot == s.slot \
                and isinstance(s.domain, ir.Zone) and (s.domain.owner is None or isinstance(s.domain.owner, ir.Local)):
            # the option's block moves the chosen card first: it is where it was chosen, in the domain's zone
            # (named by locals the frame kept: the same instance as when the rules asked)
            self.taken_from[id(first)] = s.domain
        self.option_block(info.index, s.body, (s.slot,), s.span)
        self.goto(end, s.span)
        self.place(skip, s.span)
        if s.may:
            self.option_block(info.index, s.otherwise or (), (), s.span)
        self.place(end, s.span)
        info.else_pc = skip.block if s.may else end.block
        # where a decision resumes it: the body also needs the chosen value, which the machine put in the frame
        self.resume[info.body_pc] = self.resume.get(info.body_pc, set()) | self.resume[ask] | {s.slot}
        if s.may:
            self.resume[info.else_pc] = self.resume.get(info.else_pc, set()) | self.resume[ask]

    def asked_if(self, options: str, span, fast: bool, reveals: list, skip) -> int:
        """The test that a choice has options; returns the indentation of the lines that ask it. On
        the resumable path they stand under `if options:` (the rule waits there; the lines after it
        are the case of none); on the fast path the case of none comes first and jumps past the
        option's block, so that asking runs straight on into it."""
        if not fast:
            self.line(f"if {options}:", span)
            return 1
        if options != "True":
            self.line(f"if not {options}:", span)
            for text in reveals:
                self.line(text, span, 1)
            self.line(_Goto(skip, always=True), span, 1)
        return 0

    def ask_fast(self, info, s, who, ask, skip, values):
        """A choice on the fast path (engine.playout): `choose` is called where the rule would wait,
        and the chosen option's block follows (the rule's locals stay in Python locals); the option's
        value is the universe's at the id's position, as machine.decide finds it. Where `choose` says
        None (the playout's last decision is taken) the rule waits, as on the resumable path."""
        span = s.span
        self.line(f"_a = choose(m, {who}, _ids)", span)
        self.line("if _a is None:", span)
        self.line(f"m.pending = ({info.index}, {who}, _ids)", span, 1)
        self.waiting(ask, span, 1, also=(s,))
        self.line("m.decisions += 1", span)
        self.line(f"m.ticks = {STEP_BUDGET}", span)
        if s.may:
            self.line(f"if _a == {info.offset + info.size}:", span)
            self.line(_Goto(skip, always=True), span, 1)
        self.wrote((s.slot,))
        shift = _shift(values)
        if shift is not None:           # the values are numbers in a row (cards of a type, a range): no look-up
            shift -= info.offset
            self.line(f"v{s.slot} = _a{f' + {shift}' if shift > 0 else f' - {-shift}' if shift < 0 else ''}", span)
        else:
            self.line(f"v{s.slot} = {self.ns.const(values)}[_a - {info.offset}]", span)

    # ------------------------------------------------------------ where an option's block ends
    # A scenario's `take "…":` checks the game as the block of the option it took ends, before the rules
    # go on (engine.scenarios). In the rules compiled for it (`watched`, made only when a scenario needs
    # them: loader), every way out of an option's block — its end, a `stop`, a `break` out of a loop
    # around the choice — calls the state's `watch` when one is set; the rules compiled for play have
    # no such line.
    def option_block(self, index, body, declared, span):
        self.bodies.append((index, len(self.break_to)))
        self.flat_block(body, declared)
        self.bodies.pop()
        if self.watched and not self.closed:
            self.line(_watched(index), span)

    def left_blocks(self, out, ind, span, loops=0):
        """Lines telling the watch that the option blocks around (those inside the innermost `loops`
        loops, or all) are left here."""
        for index, depth in reversed(self.bodies if self.watched else ()):
            if depth >= loops:
                out.append((ind, _watched(index), span))

    def nat_Stop(self, s, out, ind):
        self.left_blocks(out, ind, s.span)
        super().nat_Stop(s, out, ind)

    def nat_Break(self, s, out, ind):
        if self.break_to and self.break_to[-1] is not None:       # out of a loop of this rule that waits
            self.left_blocks(out, ind, s.span, len(self.break_to))
        super().nat_Break(s, out, ind)

    def constant_options(self, s):
        """The options of a choice when they are the same every time (a fixed collection, or a list
        of constants such as `[true, false]`), else None."""
        if isinstance(s.domain, ir.Fixed):
            return self.x.fixed(s.domain)
        if isinstance(s.domain, ir.ListLit) and all(isinstance(i, ir.Const) for i in s.domain.items):
            return tuple(bool(i.value) if i.type is T.BOOL else int(i.value) for i in s.domain.items)
        return None

    def shown(self, s, load, elem, fmt):
        """The label as segments (runtime.helpers), for the seats that do not choose: a card they may
        not see is shown as what it is. Returns (state, frame) -> segments."""
        if s.secret:
            return lambda m, fr: (SECRET,)
        if s.label is not None:
            name = self.ns.fresh("S")
            return self.ns.define(name, f"def {name}(m, fr):", load + [(1, f"return {self.x.segments(s.label)}", s.span)],
                                  self.rule.label, s.span)
        k = self.at[s.slot]
        if T.is_card(elem) and elem is not T.ANY:
            hidden = hidden_as(elem)
            return lambda m, fr: ("choose ", rt_seg_card(m, fr[k], hidden))
        return lambda m, fr: (f"choose {fmt(m, fr[k])}",)

    def id_formula(self, elem, domain, info):
        """The option id of an option `{x}` (offset + its position in the universe), as a format
        string; None when the ids are the values themselves."""
        off = info.offset
        if isinstance(elem, T.PairT):
            position = self.ns.const(self.layout.universe(elem, domain)[1])
            return f"{off} + {position}({{x}})"
        if isinstance(elem, T.CardT):
            ids = self.layout.cards_by_type.get(elem.name, ())
            if ids and list(ids) == list(range(ids[0], ids[0] + len(ids))):
                shift = off - ids[0]        # the cards of the type are numbered in a row
                return None if shift == 0 else f"{shift} + {{x}}"
            return f"{off} + {self.ns.const(self.layout.card_positions(elem.name))}[{{x}}]"
        if elem is T.INT and getattr(domain, "kind", None) == "range":
            return None if off == domain.lo else f"{off - domain.lo} + {{x}}"
        if elem is T.BOOL:
            return f"{off} + int({{x}})"
        return None if off == 0 and elem is T.INT else f"{off} + {{x}}"
