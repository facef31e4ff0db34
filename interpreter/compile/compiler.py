"""Typed IR → a runnable Program: the fixed layout, then every rule as Python.

The steps, in order: make the cards (layout.py), lay out zones and variables,
generate each rule (rules.py, over expressions.py) and the small functions the
engine calls (scores, invariants, sheets, labels, scenario steps). The result
is immutable and shared by every game played; all that changes is in the
engine's State.
"""
from __future__ import annotations

from .. import slotclasses
from ..ir import nodes as ir
from ..ir import types as T
from ..diagnostics import Diagnostic, RulesError
from ..runtime.errors import InternalError, RuleFailure
from .codegen import Namespace
from .expressions import ExprGen
from .inline import inline
from .layout import ConstantState, Layout, NeedsGame, default_of, domain_of
from .options import DEFAULT, CompileOptions
from .program import AnytimeInfo, Code, OptionInfo, Outcome, Program, Scenario, ScenarioStep, VarInfo, ZoneInfo
from .rules import RuleGen
from . import scoreparts
from .analysis import analyse, analyse_waiting
from .deffacts import def_facts


class Compiler:
    def __init__(self, prog: ir.Program, diags, cache_key: str | None = None, watched: bool = False,
                 fast: bool = False, options: CompileOptions = DEFAULT, keep_source: bool = False):
        self.prog = prog
        self.diags = diags
        self.watched = watched      # with the calls a scenario's `take "…":` needs (rules.RuleGen.option_block)
        self.fast = fast            # the fast path's twin: a choice calls `choose` (rules.RuleGen.ask_fast)
        self.ns = Namespace(cache_key, " fast" if fast else "")
        if keep_source:               # `rulecraft show --python`: each function's source, in the order made
            self.ns.sources = []
        self.layout = Layout(prog)
        self.options = options      # the optimisations to make (compile.options)
        # each def's facts, found before anything is written (the consts are computed first of all)
        self.x = ExprGen(prog, self.layout, self.ns, diags, options, def_facts(prog))

    def fn(self, params: str, node, label: str = "expression"):
        return self.ns.function(params, self.x.src(node), label, node.span)

    def scoring(self, node, label: str):
        """A score, tiebreak or heuristic `(m, v0) -> value`: computed at every game's end (and by agents
        at every step), so written as a def's body is (LoopGen.def_lines)."""
        if node is None:
            return None
        name = self.ns.fresh("E")
        return self.ns.define(name, f"def {name}(m, v0):", self.x.statements.def_lines(node, node.span), label, node.span)

    # ------------------------------------------------------------ the whole game
    def compile(self) -> Program:
        prog, layout = self.prog, self.layout
        self.make_cards()
        for d in prog.defs.values():
            if d.const:
                self.x.const_value(d)          # every const computed now, used or not
        zone_rows, inst_names, inst_owner = layout.zone_instances()
        value_rows, value_owner = layout.value_instances(len(inst_names))
        zones = [ZoneInfo(z.name, z.owner, z.seen, base, count, getattr(z.type.elem, "name", "Card"))
                 for z, base, count in zone_rows]
        options = [OptionInfo(o.name, o.kind, o.values, o.default, o.doc, o.slot) for o in prog.options]
        var_infos = []
        for v in prog.vars:
            vtype, size = v.type, 0
            if isinstance(vtype, T.TableT):
                size = layout.key_count(vtype.key)
                vtype = vtype.value
            init = self.fn("m", v.init, f"var {v.name}") if v.init is not None else None
            var_infos.append(VarInfo(v.name, v.owner, v.slot, init, default_of(vtype), layout.formatter(v.type), size,
                                     v.seen, domain_of(vtype, len(prog.teams)), vtype,
                                     layout.value_base[v.slot], v.slot in prog.shown_vars))
        codes, entries, choices, action_count, anytimes = self.rules()
        program = Program(
            title=prog.title, min_players=prog.min_players, max_players=prog.max_players, teams=prog.teams,
            options=options, card_names=layout.card_names, card_types=tuple(layout.card_types),
            cards_by_type=layout.cards_by_type, zones=zones, zone_instance_names=inst_names,
            zone_instance_owner=inst_owner, seen_masks=layout.seen_masks(zone_rows + value_rows, inst_owner + value_owner),
            vars=var_infos, var_count=prog.var_count,
            codes=codes, entries=entries, rule_index={key: i for i, key in enumerate(prog.rules)},
            choices=choices, action_count=action_count,
            score=self.scoring(prog.score, "score"), tiebreak=self.scoring(prog.tiebreak, "tiebreak"),
            heuristic=self.scoring(prog.heuristic, "heuristic"),
            invariants=[(name, self.fn("m", value, f"invariant {name}"), 0, span) for name, value, span in prog.invariants],
            limit=prog.limit, outcome=self.outcome(), anytimes=anytimes, later=self.later(),
            lines=self.ns.lines, tracks_came_from=prog.tracks_came_from, changes_seen=prog.changes_seen,
            where_size=len(layout.card_names) * (2 if prog.tracks_came_from else 1))
        program.score_parts = scoreparts.score_parts(self)     # last: the names generated before stay as they were
        return program

    def outcome(self):
        if self.prog.outcome is None:
            return None
        kind, total, low, high, condition, span = self.prog.outcome
        won = self.fn("m", condition, "outcome cooperative") if condition is not None else None
        return Outcome(kind, total, low, high, won, span)

    def later(self):
        """The scenarios and the sheets, compiled when first read (Program.scenarios, .table_sheet,
        .player_sheet): only `rulecraft test` and views read them, and they are most of what a load
        compiles after the rules. They are the last things compiled, and compiled together in the same
        order whenever that is, so every generated name is what an eager compile gives. What compiling
        them could report is found now: a card named that does not exist (ExprGen.ex_CardNamed)."""
        prog = self.prog
        for node in ir.walk((prog.scenarios, prog.sheet_table, prog.sheet_player)):
            if type(node) is ir.CardNamed:
                self.x.ex_CardNamed(node)
        if not (prog.scenarios or prog.sheet_table or prog.sheet_player):
            return None
        self.ns.cache.partial = True          # the code cache keeps their code meanwhile

        def compile_later():
            span = None
            try:
                scenarios, table, player = [], [], []
                for sc in prog.scenarios:
                    span = sc.span
                    scenarios.append(self.scenario(sc))
                for params, texts, out in (("m", prog.sheet_table, table), ("m, v0", prog.sheet_player, player)):
                    for line in texts:
                        span = line.span
                        out.append(self.shown(params, line))
                return scenarios, table, player
            except (RecursionError, SyntaxError, MemoryError) as e:     # as the loader says it of the rest
                raise RulesError([Diagnostic(span, "these rules are too large or too deeply nested to compile "
                                             f"({type(e).__name__})", "split long expressions with `let` steps or `def`s")]) from None
            finally:
                self.ns.cache.partial = False
                self.ns.cache.save()
        return compile_later

    def shown(self, params: str, text: ir.Text):
        """A sheet's line as segments (engine.observe renders it for each seat)."""
        return self.ns.function(params, self.x.segments(text), "sheet", text.span)

    def make_cards(self):
        """Evaluate the `cards` declarations once; then the field tables and each card's display name."""
        layout = self.layout
        for cs in self.prog.card_sets:
            ids = self.constant(cs.value)
            layout.card_sets[cs.name] = tuple(ids) if ids is not None else ()
        layout.finish_cards()
        types = {ct.name: ct for ct in self.prog.cards}
        namers = {ct.name: self.ns.function(", ".join(["m"] + [f"v{k}" for k in range(len(ct.fields))]),
                                            self.x.src(ct.named), f"card {ct.name}", ct.span)
                  for ct in self.prog.cards if ct.named is not None}
        names = []
        for tname, values in zip(layout.card_types, layout.card_values):
            name = None
            if tname in namers:
                try:
                    name = namers[tname](ConstantState(layout), *values)
                except (NeedsGame, RuleFailure):
                    pass
            if name is None:
                shown = [layout.formatter(t)(ConstantState(layout), v) for (_, t), v in zip(types[tname].fields, values)]
                name = f"{tname} " + " ".join(shown)
            names.append(name)
        layout.card_names = tuple(names)
        self.warn_of_cards_named_alike(types)

    def warn_of_cards_named_alike(self, types):
        """Cards of one type shown by one name that differ in a field the rules read: no seat can tell them
        apart, nor `named` pick one. Copies told apart by a field nothing reads (`copy: 1..15`) are alike."""
        layout, seen = self.layout, {}
        read = self.fields_read_in_play()
        for i, (tname, values) in enumerate(zip(layout.card_types, layout.card_values)):
            seen.setdefault((tname, layout.card_names[i]), set()).add(values)
        for (tname, name), kinds in seen.items():
            ct = types[tname]
            differing = [f for k, (f, _) in enumerate(ct.fields) if len({v[k] for v in kinds}) > 1]
            if any((tname, f) in read for f in differing):
                self.diags.append(Diagnostic(
                    ct.named.span if ct.named is not None else ct.span,
                    f"{len(kinds)} different {tname} cards are shown as '{name}'",
                    "a player cannot tell them apart; name each by what sets it apart (e.g. `named \"{kind} {n}\"`)",
                    "warning"))

    def fields_read_in_play(self) -> set:
        """(card type, field) read by the game as played: its rules and what they call, not a scenario's setup."""
        prog = self.prog
        todo = [slotclasses.evolve(prog, scenarios=(), rules={}, defs={})] + \
               [r for key, r in prog.rules.items() if not key.startswith("arrange ")]
        read, called = set(), set()
        while todo:
            for n in ir.walk(todo.pop()):
                if type(n) is ir.CardField:
                    read.add((n.card_type, n.field))
                elif type(n) is ir.DefCall and n.name not in called and n.name in prog.defs:
                    called.add(n.name)
                    todo.append(prog.defs[n.name])
        return read

    def constant(self, node):
        """Evaluate a load-time expression (card sets); report if it needs the game."""
        fn = self.fn("m", node, "cards")
        try:
            return fn(ConstantState(self.layout))
        except NeedsGame:
            self.diags.append(Diagnostic(node.span, "cards are fixed when the game loads: this cannot use options, players or the game's state",
                                         "make all the cards here, then move only some of them into play in `rule setup`"))
        except RuleFailure as e:
            self.diags.append(Diagnostic(node.span, str(e)))
        return None

    # ------------------------------------------------------------ rules
    def rules(self):
        """Every rule as a function, choices numbered in rule order; `anytime` options after the rules
        they interrupt and before scenarios' `arrange:` blocks (so option ids stay what they were)."""
        inlined = inline(self.prog, analyse_waiting(self.prog), self.options.inline)
        prog = inlined.prog
        self.x.facts = analyse(prog, self.x.fixed, self.x.defs)      # what the generator reads, known before any rule is written
        self.ns.chains = inlined.chain
        anytime_offers: list = []
        self.ns.bind("ANYTIME", anytime_offers)
        gen = RuleGen(prog, self.layout, self.ns, self.x, bool(prog.anytimes), self.watched, inlined, self.fast)
        codes = []
        anytimes = {}

        def add_anytimes():
            for a in prog.anytimes:
                offer = self.fn("m, v0", a.where, f"anytime {a.name}") if a.where is not None else (lambda m, who: True)
                anytime_offers.append((gen.action_count, offer))
                anytimes[gen.action_count] = AnytimeInfo(a.name, gen.index[a.rule], self.fn("m, v0", a.label),
                                                         gen.frame_size(a.rule))
                gen.action_count += 1

        for key, rule in prog.rules.items():
            if key.startswith("arrange ") and not anytimes and prog.anytimes:
                add_anytimes()
            if key in inlined.dead:       # written into its only caller: never started
                entry, spans = _written_in(rule.label), [rule.span]
            else:
                entry, spans = gen.resumable(rule) if gen.waits[key] else gen.native(rule)
            codes.append(Code(key, rule.span, entry, [self.ns.placed(s) for s in spans], gen.frame_size(key), rule.params))
        if not anytimes and prog.anytimes:
            add_anytimes()
        entries = tuple(gen.tables.get(c.name, (c.entry,)) for c in codes)
        if self.fast:
            self.ns.bind("FAST_ENTRIES", entries)       # what a signal's handlers are driven by (rules.flat_Signal)
        choices = sorted(gen.choices, key=lambda c: c.index)
        assert [c.index for c in choices] == list(range(len(choices))), "choices numbered twice or not at all"
        return codes, entries, choices, gen.action_count, anytimes


    # ------------------------------------------------------------ scenarios
    def scenario(self, sc: ir.Scenario) -> Scenario:
        return Scenario(sc.name, sc.span, sc.doc, [self.step(sc, step) for step in sc.steps])

    def step(self, sc: ir.Scenario, step: ir.Step) -> ScenarioStep:
        if step.kind not in ("expect", "take", "legal", "illegal", "deciding", "next random", "next shuffle"):
            return ScenarioStep(step.kind, step.span, step.value, step.name)
        sides = parts = None
        if step.kind == "expect":
            sides = self._sides(step.value)
            conjuncts = _conjuncts(step.value)
            if len(conjuncts) > 1:    # `expect a == 1 and b == 3`: each that fails, explained —
                # compiled only when one fails (most never do, and loading stays as fast)
                parts = (lambda conjuncts=conjuncts: [(part.span, self.fn("m", part), self._sides(part))
                                                      for part in conjuncts])
        return ScenarioStep(step.kind, step.span, self.fn("m", step.value, f"scenario {sc.name}"), step.name, sides,
                            parts, [self.step(sc, check) for check in step.checks])

    def _sides(self, e):
        """Both sides of a comparison, shown for people, to explain it when it fails."""
        if not isinstance(e, ir.Compare):
            return None
        return (e.op, [(side.span, self.fn("m", side), self.layout.formatter(side.type)) for side in (e.left, e.right)])


def _written_in(label):
    """The entry of a rule written into its only caller (compile.inline): nothing ever starts it."""
    def entry(m, fr):
        raise InternalError(f"{label} was written into its caller and cannot be started on its own")
    return entry


def _conjuncts(e) -> list:
    """`a and b and c` as [a, b, c]."""
    if isinstance(e, ir.BoolOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]
