"""Text → AST. Lark parses with the grammar in grammar/rulecraft.lark; a
Transformer builds the frozen AST so positions survive; Lark's exceptions become
diagnostics in errors.py and nowhere else.

Over 500 lines for one reason: the transformer has one short method per grammar
rule, kept in one class so the grammar and the tree it builds read side by side.
"""
from __future__ import annotations

import attrs

import functools
import hashlib
import importlib.resources
import re
import sys
from pathlib import Path

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput, VisitError
from lark.indenter import DedentError, Indenter

from .. import diagnostics, slotclasses
from ..cachedir import cache_dir, read_entry, write_entry
from .errors import diagnostic_from_lark, line_of_dedent
from ..diagnostics import Diagnostic, RulesError, Span
from . import ast, astdata


MAX_NESTING = 100          # brackets within brackets (docs/security.md)
MAX_TEXT_PARTS = 10_000    # `{…}` in the texts of one file: each is parsed on its own
MAX_TOKENS = 100_000       # words, numbers, signs of one file (the bundled games have under 13,000)


class _TooMuch(Exception):
    """Past a limit of what one file may hold, found as it is read (before the parser builds anything)."""

    def __init__(self, token, message: str, hint: str):
        self.token, self.message, self.hint = token, message, hint

    def diagnostic(self, path: str, line_shift: int = 0, col_shift: int = 0) -> Diagnostic:
        line, col = self.token.line + line_shift, self.token.column + col_shift
        return Diagnostic(Span(path, line, col, line, col + 1), self.message, self.hint)


class _RulesIndenter(Indenter):
    """Indentation to _INDENT/_DEDENT tokens, and the limits a file's tokens are held to."""
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def process(self, stream):
        self.text_parts = 0
        return super().process(stream)

    def _process(self, stream):
        for count, token in enumerate(super()._process(stream)):
            if count >= MAX_TOKENS:
                raise _TooMuch(token, f"this file holds more than {MAX_TOKENS:,} words and signs: too many to be rules",
                               "split the rules into files")
            if self.paren_level > MAX_NESTING:
                raise _TooMuch(token, f"brackets are nested more than {MAX_NESTING} deep here",
                               "split deep expressions into `let` steps or `def`s")
            if token.type == "INT" and len(token.lstrip("0")) > 13:    # (Python refuses int() of 4,301 digits)
                raise _TooMuch(token, "this number is too large", "numbers in rules stay below 10^12")
            if token.type == "STRING":
                self.text_parts += token.count("{") - 2 * token.count("{{")
                if self.text_parts > MAX_TEXT_PARTS:
                    raise _TooMuch(token, f"the texts of this file hold more than {MAX_TEXT_PARTS:,} {{…}} parts",
                                   "split the rules into files, or compute long texts with `join`")
            yield token


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    text = importlib.resources.files("rulecraft.grammar").joinpath("rulecraft.lark").read_text(encoding="utf-8")
    return Lark(
        text,
        parser="lalr",
        lexer="contextual",
        postlex=_RulesIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expr"],
    )   # no `cache=True`: Lark would unpickle a file of a predictable name in the shared temp folder


class _ParseFailure(Exception):
    def __init__(self, diagnostic):
        self.diagnostic = diagnostic


_STRING_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _literal_int(node):
    """The number a literal (`3`, `-3`) stands for, else None."""
    if isinstance(node, ast.IntLit):
        return node.value
    if isinstance(node, ast.Neg) and isinstance(node.operand, ast.IntLit):
        return -node.operand.value
    return None


_TAKE_BLOCK_HINTS = {
    "legal": "what a decision offers, who decides, whether the game is over: write it after the block, where "
             "the rules wait for the next decision",
    "failure": "the rules' failure is checked after the `take`: write `expect failure` after the block",
    "take": "the option's block is still running: take the next decision after the block",
    "next random": "fix a chance outcome before the `take` that draws it",
}
for _kind in ("illegal", "deciding", "over"):
    _TAKE_BLOCK_HINTS[_kind] = _TAKE_BLOCK_HINTS["legal"]
_TAKE_BLOCK_HINTS["next shuffle"] = _TAKE_BLOCK_HINTS["next random"]


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _STRING_ESCAPES.get(m.group(1), m.group(1)), body)



def _binder(head, message: str, example: str) -> None:
    """`name in collection` before `by` or `where`; anything else is refused with the form to write."""
    if not (isinstance(head, ast.Compare) and head.op == "in" and isinstance(head.left, ast.Name)):
        raise _ParseFailure(Diagnostic(head.span, message, f"for example `{example}`"))

class _ToAst(Transformer):
    """Builds AST nodes; `line`/`col_offset` shift positions for text inside strings.

    Every callback takes (meta, children). Dispatch is done here rather than with
    Lark's `v_args(meta=True)`, whose wrapper is rebuilt at every node.
    """

    def _call_userfunc(self, tree, new_children=None):
        children = new_children if new_children is not None else tree.children
        try:
            f = getattr(self, tree.data)
        except AttributeError:
            return self.__default__(tree.data, children, tree.meta)
        return f(tree.meta, children)

    def __init__(self, path: str, line_shift: int = 0, col_shift: int = 0):
        super().__init__()
        self.path = path
        self.line_shift = line_shift
        self.col_shift = col_shift

    # ---- positions
    def span(self, meta) -> Span:
        if getattr(meta, "empty", False) or not hasattr(meta, "line"):
            return Span(self.path, 1 + self.line_shift, 1 + self.col_shift)
        return Span(self.path, meta.line + self.line_shift, meta.column + self.col_shift,
                    meta.end_line + self.line_shift, meta.end_column + self.col_shift)

    def tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line + self.line_shift, tok.column + self.col_shift,
                    tok.end_line + self.line_shift, tok.end_column + self.col_shift)

    def template(self, tok: Token) -> ast.Template:
        return parse_template(tok, self.path, self.line_shift, self.col_shift)

    # ---- module
    def start(self, meta, decls):
        return list(decls)

    def game_decl(self, meta, c):
        return ast.GameDecl(self.span(meta), _unescape(c[0][1:-1]))

    def players_decl(self, meta, c):
        self.keyword(c[0], "players", "players 2..6")
        lo = int(c[1])
        hi = int(c[2]) if c[2] is not None else lo
        return ast.PlayersDecl(self.span(meta), lo, hi)

    def teams_decl(self, meta, c):
        self.keyword(c[0], "teams", "teams Heath, Cavern")
        return ast.TeamsDecl(self.span(meta), tuple(str(t) for t in c[1:]))

    def keyword(self, tok, word, example):
        if str(tok) != word:
            raise _ParseFailure(Diagnostic(self.tspan(tok), f"unexpected '{tok}' at the start of a declaration",
                                           f"declarations start with a keyword such as `rule`, `def`, `var`, `zone` or `{word}` (e.g. `{example}`)"))

    def drop_decl(self, meta, c):
        return ast.DropDecl(self.span(meta), str(c[0]))

    def module_ref(self, meta, c):
        tok = c[0]
        if tok.type == "STRING":
            return (_unescape(tok[1:-1]), True)
        return ("".join(str(t) for t in c), False)

    def import_decl(self, meta, c):
        ref, is_path = c[0]
        return ast.ImportDecl(self.span(meta), ref, is_path)

    def extends_decl(self, meta, c):
        ref, is_path = c[0]
        return ast.ExtendsDecl(self.span(meta), ref, is_path)

    def override(self, meta, c):
        return c[0] is not None

    def choice_domain(self, meta, c):
        return ast.ChoiceDomain(self.span(meta), tuple(str(t) for t in c))

    def range_domain(self, meta, c):
        return ast.RangeDomain(self.span(meta), int(c[0]), int(c[1]))

    def bool_domain(self, meta, c):
        return ast.BoolDomain(self.span(meta))

    def option_decl(self, meta, c):
        ov, name, before, domain, _eq, default, after = c
        if before is not None and after is not None:
            raise _ParseFailure(Diagnostic(self.tspan(after), "this option has two help texts",
                                           "keep one, before the `:` or at the end"))
        doc = before if before is not None else after
        return ast.OptionDecl(self.span(meta), ov, str(name), domain, default, _unescape(doc[1:-1]) if doc else "")

    def enum_decl(self, meta, c):
        ov, name, fields, *lines = c
        values = [v for line in lines for v in line]
        return ast.EnumDecl(self.span(meta), ov, str(name), tuple(v[0] for v in values),
                            tuple(v[2] for v in values), tuple(fields or ()), tuple(v[1] for v in values),
                            tuple(v[3] for v in values))

    def enum_fields(self, meta, c):
        return tuple(c)

    def enum_values(self, meta, c):
        return [v for v in c if v is not None]

    def enum_value(self, meta, c):
        name, args, shown = c
        return (str(name), tuple(args) if args is not None else None,
                _unescape(shown[1:-1]) if shown is not None else None, self.span(meta))

    def field(self, meta, c):
        return ast.Field(self.span(meta), str(c[0]), c[1])

    def card_decl(self, meta, c):
        ov, name, *rest = c
        named = rest.pop()
        return ast.CardDecl(self.span(meta), ov, str(name), tuple(rest), self.template(named) if named else None)

    def cards_decl(self, meta, c):
        return ast.CardsDecl(self.span(meta), c[0], str(c[1]), c[3])

    def owner(self, meta, c):
        return str(c[0])

    def seen(self, meta, c):
        return str(c[0])

    def zone_decl(self, meta, c):
        ov, name, typ, owner, seen = c
        return ast.ZoneDecl(self.span(meta), ov, str(name), typ, owner, seen or "all")

    def var_decl(self, meta, c):
        ov, name, typ, owner, index, seen, _eq, init = c
        return ast.VarDecl(self.span(meta), ov, str(name), typ, owner, init, index, seen)

    def by(self, meta, c):
        return c[0]

    def limit_decl(self, meta, c):
        return ast.LimitDecl(self.span(meta), int(c[0]))

    def outcome_decl(self, meta, c):
        kind, total, condition, word, low, high = c
        return ast.OutcomeDecl(self.span(meta), kind, total, condition, str(word) if word is not None else None,
                               low, high)

    def outcome_kind(self, meta, c):
        return "".join(str(t) for t in c)

    def signed_int(self, meta, c):
        return -int(c[1]) if c[0] is not None else int(c[1])

    def event_decl(self, meta, c):
        return ast.EventDecl(self.span(meta), str(c[0]), tuple(c[1] or ()))

    def when_decl(self, meta, c):
        name, binders, where, body = c
        binders = binders or ()
        return ast.WhenDecl(self.span(meta), str(name), tuple(n for n, _ in binders), where, body,
                            tuple(t for _, t in binders))

    def binders(self, meta, c):
        return tuple(c)

    def binder(self, meta, c):
        return (str(c[0]), c[1])

    def sheet_decl(self, meta, c):
        ov, lines = c
        return ast.SheetDecl(self.span(meta), ov, None, lines)

    def sheet_of_player(self, meta, c):
        ov, player, *ptype, lines = c
        return ast.SheetDecl(self.span(meta), ov, str(player), lines, ptype[0] if ptype else None)

    def sheet_lines(self, meta, c):
        return tuple(self.template(t) for t in c)

    def anytime_decl(self, meta, c):
        name, (player, ptype), where, label, body = c
        return ast.AnytimeDecl(self.span(meta), str(name), player, where, self.template(label), body, ptype)

    def names(self, meta, c):
        return tuple(str(t) for t in c)

    def signal_stmt(self, meta, c):
        return ast.Signal(self.span(meta), str(c[0]), tuple(c[1] or ()))

    def add_stmt(self, meta, c):
        return ast.AddTo(self.span(meta), c[0], c[1])

    def remove_stmt(self, meta, c):
        return ast.RemoveFrom(self.span(meta), c[0], c[1])

    def show_stmt(self, meta, c):
        return ast.Show(self.span(meta), c[0], c[1], True)

    def hide_stmt(self, meta, c):
        return ast.Show(self.span(meta), c[0], c[1], False)

    def seats(self, meta, c):
        return str(c[0]) if isinstance(c[0], Token) else c[0]

    def scenario_decl(self, meta, c):
        ov, name, doc, *lines = c
        steps = [s for line in lines for s in (line if isinstance(line, tuple) else (line,))]
        return ast.ScenarioDecl(self.span(meta), str(name), ov, _unescape(doc[1:-1]) if doc else "", tuple(steps))

    def sc_number(self, meta, c):
        word = str(c[0])
        if word not in ("players", "seed"):
            raise _ParseFailure(Diagnostic(self.tspan(c[0]), f"unexpected '{word}' in a scenario",
                                           "a scenario has lines `players N`, `seed N`, `option x = v`, `arrange:`, `take \"…\"`, `expect …` and `next random is …` / `next shuffle is […]`"))
        return ast.ScenarioStep(self.span(meta), word, int(c[1]))

    def sc_option(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "option", c[2], str(c[0]))

    def sc_arrange(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "arrange", c[0])

    def sc_take(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "take", self.template(c[0]))

    def sc_take_block(self, meta, c):
        """`take "label":` and the checks made as the option's own block ends: conditions and narration
        only (what a pending decision offers is not there yet)."""
        label, *lines = c
        checks = tuple(s for line in lines for s in (line if isinstance(line, tuple) else (line,)))
        for step in checks:
            if step.kind not in ("expect", "said"):
                raise _ParseFailure(Diagnostic(step.span, "inside `take \"…\":` only `expect CONDITION` and "
                                               "`expect said \"…\"` are checked, as the option's block ends",
                                               _TAKE_BLOCK_HINTS.get(step.kind, "write it after the block")))
        head = Span(self.path, meta.line + self.line_shift, meta.column + self.col_shift,
                    label.end_line + self.line_shift, label.end_column + self.col_shift)
        return ast.ScenarioStep(head, "take", self.template(label), checks=checks)

    def sc_expect(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "expect", c[0])

    def sc_expect_checks(self, meta, c):
        """`expect legal "a" and deciding player(2)`: one step per check, checked in order (one alone
        is placed at its `expect`, the others at themselves)."""
        if len(c) == 1:
            return (attrs.evolve(c[0], span=self.span(meta)),)
        return tuple(c)

    def sc_expect_legal(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "legal", self.template(c[1]))

    def sc_expect_illegal(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "illegal", self.template(c[1]))

    def sc_expect_deciding(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "deciding", c[0])

    def sc_expect_over(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "over")

    def sc_expect_failure(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "failure", _unescape(c[0][1:-1]))

    def sc_expect_said(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "said", _unescape(c[0][1:-1]))

    def sc_next_random(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "next random", c[0])

    def sc_next_shuffle(self, meta, c):
        return ast.ScenarioStep(self.span(meta), "next shuffle", c[0])

    def def_body(self, meta, c):
        *lets, body = c
        for name, value, span in reversed(lets):
            body = ast.LetIn(span, name, value, body)
        return body

    def def_let(self, meta, c):
        return (str(c[0]), c[2], self.span(meta))

    def const_decl(self, meta, c):
        ov, name, ret, _eq, body = c
        return ast.DefDecl(self.span(meta), ov, str(name), (), ret, body, True)

    def def_decl(self, meta, c):
        ov, name, tparams, params, ret, _eq, body = c
        return ast.DefDecl(self.span(meta), ov, str(name), tuple(params or ()), ret, body,
                           type_params=tuple(tparams or ()))

    def rule_decl(self, meta, c):
        ov, name, tparams, params, returns, body = c
        return ast.RuleDecl(self.span(meta), ov, str(name), tuple(params or ()), body, tuple(tparams or ()), returns)

    def score_decl(self, meta, c):
        ov, kind, var, vtype, _eq, value = c
        return ast.ScoreDecl(self.span(meta), ov, str(kind), str(var), value, vtype)

    def invariant_decl(self, meta, c):
        return ast.InvariantDecl(self.span(meta), c[0], str(c[1]), c[2])

    def params(self, meta, c):
        return tuple(p for p in c if p is not None)

    def type_params(self, meta, c):
        return tuple(ast.TypeParam(self.tspan(tok), str(tok)) for tok in c)

    def param(self, meta, c):
        return ast.Param(self.span(meta), str(c[0]), c[1])

    def named_type(self, meta, c):
        return ast.NamedType(self.span(meta), str(c[0]))

    def optional_type(self, meta, c):
        return ast.OptionalType(self.span(meta), c[0])

    def generic_type(self, meta, c):
        return ast.GenericType(self.span(meta), str(c[0]), c[1])

    def range_type(self, meta, c):
        return ast.RangeType(self.span(meta), int(c[0]), int(c[1]))

    # ---- statements
    def block(self, meta, c):
        return tuple(c)

    def let_stmt(self, meta, c):
        return ast.Let(self.span(meta), str(c[0]), c[2])

    def assign_stmt(self, meta, c):
        target, op, value = c
        if not isinstance(target, (ast.Name, ast.Attr, ast.Index)):
            raise _ParseFailure(Diagnostic(target.span, "this cannot be assigned to",
                                           "assign to a variable (`first = p`) or a player's variable (`p.points += 1`)"))
        return ast.Assign(self.span(meta), target, str(op), value)

    def move_stmt(self, meta, c):
        return ast.Move(self.span(meta), c[0], c[1], c[2] is not None)

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(self.span(meta), c[0])

    def say_stmt(self, meta, c):
        to, text = c
        return ast.Say(self.span(meta), self.template(text), to)

    def expr_stmt(self, meta, c):
        e = c[0]
        if not isinstance(e, ast.Call):
            raise _ParseFailure(Diagnostic(e.span, "this expression does nothing on its own",
                                           "a statement is a call of a rule, `let`, an assignment, `move`, `shuffle`, "
                                           "`show`, `hide`, `say`, `add`, `remove`, `signal`, `if`, `for`, `while`, "
                                           "`repeat`, `stop`, `break`, `pass` or a choice"))
        return ast.ExprStmt(self.span(meta), e)

    def pass_stmt(self, meta, c):
        return ast.Pass(self.span(meta))

    def stop_stmt(self, meta, c):
        return ast.Stop(self.span(meta))

    def return_stmt(self, meta, c):
        return ast.Return(self.span(meta), c[0])

    def break_stmt(self, meta, c):
        return ast.Break(self.span(meta))

    def if_stmt(self, meta, c):
        cond, body, *rest = c
        branches = [(cond, body)]
        otherwise = None
        for r in rest:
            if r is None:
                continue
            if r[0] == "elif":
                branches.append((r[1], r[2]))
            else:
                otherwise = r[1]
        return ast.If(self.span(meta), tuple(branches), otherwise)

    def elif_clause(self, meta, c):
        return ("elif", c[-2], c[-1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(self.span(meta), str(c[0]), c[2], c[3])

    def while_stmt(self, meta, c):
        return ast.While(self.span(meta), c[0], c[1])

    def repeat_stmt(self, meta, c):
        return ast.Repeat(self.span(meta), c[0], c[1])

    def where(self, meta, c):
        return c[0]

    def label(self, meta, c):
        return (self.template(c[0]), self.template(c[1]) if c[1] is not None else None)

    def up_to(self, meta, c):
        return (c[0], False)

    def exactly(self, meta, c):
        return (c[0], True)

    def choose_stmt(self, meta, c):
        chooser, may, secretly, _kw, some, var, _in, domain, paired, where, how_many, prompt, label, body, otherwise = c
        if some is not None and prompt is not None:
            raise _ParseFailure(Diagnostic(prompt.span, "`prompt` asks one decision: `chooses some` asks several",
                                           "write the question in the options' labels"))
        if paired is not None and some is not None:
            raise _ParseFailure(Diagnostic(paired[1].span, "`chooses some` picks single options, not pairs"))
        label_t, pass_t = label if label else (None, None)
        if some is not None or how_many is not None:
            if some is None:
                raise _ParseFailure(Diagnostic(how_many[0].span, "`up to` and `exactly` count the options of "
                                               "`chooses some`", f"write `chooses some {var} in …`"))
            if may is not None or otherwise is not None:
                raise _ParseFailure(Diagnostic(self.tspan(may) if may is not None else self.span(meta),
                                               "`chooses some` is never declined: the player may stop at any "
                                               "point its count allows", "write `p chooses some …`, with `or \"…\"` "
                                               "naming the option to stop"))
            if _kw == "choose":
                raise _ParseFailure(Diagnostic(self.tspan(_kw), "write `chooses some`"))
            most, exact = how_many if how_many is not None else (None, False)
            return ast.ChooseSome(self.span(meta), chooser, str(var), domain, where, most, exact, label_t, pass_t,
                                  body, True if secretly is not None else None)
        if may is None and _kw == "choose":
            raise _ParseFailure(Diagnostic(self.tspan(_kw), "write `chooses`, or `may choose` for a choice that can be declined"))
        if may is not None and _kw == "chooses":
            raise _ParseFailure(Diagnostic(self.tspan(_kw), "write `may choose`, not `may chooses`"))
        if may is None and (pass_t is not None or otherwise is not None):
            span = pass_t.span if pass_t is not None else self.span(meta)
            raise _ParseFailure(Diagnostic(span, "only a choice with `may` can be declined",
                                           "write `may choose` to let the player decline"))
        return ast.Choose(self.span(meta), chooser, may is not None, str(var), domain, where, label_t, pass_t, body,
                          otherwise[1] if otherwise else None, True if secretly is not None else None,
                          paired[0] if paired else None, paired[1] if paired else None, prompt)

    def prompt(self, meta, c):
        return self.template(c[0])

    def paired(self, meta, c):
        return (str(c[0]), c[2])

    def choose_one_of(self, meta, c):
        chooser, may, secretly, _kw, one, *alternatives, otherwise = c
        if str(one) != "one":
            raise _ParseFailure(Diagnostic(self.tspan(one), f"unexpected '{one}'", "write `chooses one of:`"))
        if may is None and _kw == "choose":
            raise _ParseFailure(Diagnostic(self.tspan(_kw), "write `chooses one of`, or `may choose one of` for a choice that can be declined"))
        if may is not None and _kw == "chooses":
            raise _ParseFailure(Diagnostic(self.tspan(_kw), "write `may choose`, not `may chooses`"))
        if may is None and otherwise is not None:
            raise _ParseFailure(Diagnostic(self.span(meta), "only a choice with `may` can be declined",
                                           "write `may choose one of` to let the player decline"))
        return ast.ChooseOneOf(self.span(meta), chooser, may is not None, secretly is not None, tuple(alternatives),
                               otherwise[1] if otherwise else None)

    def alternative(self, meta, c):
        var, _in, domain, paired, where, label, body = c
        return ast.Alternative(self.span(meta), str(var), domain, paired[0] if paired else None,
                               paired[1] if paired else None, where, self.template(label), body)

    # ---- expressions
    def match_expr(self, meta, c):
        subject, *cases = c
        otherwise = else_span = None
        for case in cases:
            if otherwise is not None:
                raise _ParseFailure(Diagnostic(case.span if isinstance(case, ast.MatchCase) else case[0],
                                               "the `else` case of a match comes last, once",
                                               "put the other cases before `else -> …`"))
            if not isinstance(case, ast.MatchCase):
                else_span, otherwise = case
        return ast.Match(self.span(meta), subject, tuple(c for c in cases if isinstance(c, ast.MatchCase)),
                         otherwise, else_span)

    def match_case(self, meta, c):
        *keys, _arrow, value = c
        return ast.MatchCase(self.span(meta), tuple(keys), value)

    def match_else(self, meta, c):
        return (self.span(meta), c[1])

    def cond_expr(self, meta, c):
        return ast.Cond(self.span(meta), *c)

    def or_(self, meta, c):
        return ast.BoolOp(self.span(meta), "or", c[0], c[1])

    def and_(self, meta, c):
        return ast.BoolOp(self.span(meta), "and", c[0], c[1])

    def not_(self, meta, c):
        return ast.Not(self.span(meta), c[0])

    def compare(self, meta, c):
        op = " ".join(str(c[1]).split())
        return ast.Compare(self.span(meta), op, c[0], c[2])

    def binop(self, meta, c):
        op = str(c[1])
        if op == "mod":
            op = "%"
        return ast.BinOp(self.span(meta), op, c[0], c[2])

    def neg(self, meta, c):
        return ast.Neg(self.span(meta), c[1])

    def attr(self, meta, c):
        return ast.Attr(self.span(meta), c[0], str(c[1]), self.tspan(c[1]))

    def call(self, meta, c):
        func, args = c
        if not isinstance(func, ast.Name):
            raise _ParseFailure(Diagnostic(func.span, "only rules and functions can be called by name",
                                           "write `name(arguments)`"))
        return ast.Call(self.span(meta), func.id, func.span, tuple(args or ()))

    def index(self, meta, c):
        return ast.Index(self.span(meta), c[0], c[1])

    def int_lit(self, meta, c):
        value = int(c[0])
        if value > 10**12:
            raise _ParseFailure(Diagnostic(self.tspan(c[0]), "this number is too large", "numbers in rules stay below 10^12"))
        return ast.IntLit(self.span(meta), value)

    def str_lit(self, meta, c):
        return self.template(c[0])

    def name(self, meta, c):
        return ast.Name(self.span(meta), str(c[0]))

    def card_named(self, meta, c):
        return ast.CardLookup(self.span(meta), str(c[0]), _unescape(str(c[1])[1:-1]))

    def none_lit(self, meta, c):
        return ast.NoneLit(self.span(meta))

    def true_lit(self, meta, c):
        return ast.BoolLit(self.span(meta), True)

    def false_lit(self, meta, c):
        return ast.BoolLit(self.span(meta), False)

    def list_lit(self, meta, c):
        return ast.ListLit(self.span(meta), tuple(c[0] or ()))

    def range_lit(self, meta, c):
        low, high = _literal_int(c[0]), _literal_int(c[1])
        if low is not None and high is not None:
            return ast.RangeLit(self.span(meta), low, high)
        return ast.RangeExpr(self.span(meta), c[0], c[1])

    def args(self, meta, c):
        return tuple(c)

    def comp_for(self, meta, c):
        return ast.CompFor(self.span(meta), str(c[0]), c[2], c[3])

    def comprehension(self, meta, c):
        return ast.Comprehension(self.span(meta), c[0], tuple(c[1:]))

    def best_by(self, meta, c):
        head, key = c
        _binder(head, "`by` needs the form `name in collection by key`", "max(c in cards by strength(c))")
        return ast.BestBy(self.span(meta), head.left.id, head.right, key)

    def find_where(self, meta, c):
        head, cond = c
        _binder(head, "`where` here needs the form `name in collection where condition`",
                "first(c in p.hand where c.value > 3)")
        return ast.FindWhere(self.span(meta), head.left.id, head.right, cond)


def parse_template(tok: Token, path: str, line_shift: int = 0, col_shift: int = 0) -> ast.Template:
    """Split a string literal into text and `{expression}` parts (`{{` is a brace)."""
    raw = str(tok)
    body = raw[1:-1]
    line = tok.line + line_shift
    base_col = tok.column + col_shift + 1  # column of the first character inside the quotes
    span = Span(path, line, tok.column + col_shift, tok.end_line + line_shift, tok.end_column + col_shift)
    parts: list = []
    text = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            text.append(_STRING_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        elif body.startswith("{{", i) or body.startswith("}}", i):
            text.append(ch)
            i += 2
        elif ch == "{":
            end = _closing_brace(body, i)
            if end < 0:
                raise _ParseFailure(Diagnostic(Span(path, line, base_col + i, line, base_col + i + 1),
                                               "unclosed '{' in a text", "close it with '}', or write '{{' for a brace"))
            if text:
                parts.append("".join(text))
                text = []
            inner = body[i + 1:end]
            if not inner.strip():
                raise _ParseFailure(Diagnostic(Span(path, line, base_col + i, line, base_col + end + 1),
                                               "empty '{}' in a text", "put an expression inside, like {p}"))
            parts.append(_parse_expr_text(inner, path, tok.line + line_shift - 1, base_col + i))
            i = end + 1
        else:
            text.append(ch)
            i += 1
    if text:
        parts.append("".join(text))
    return ast.Template(span, tuple(parts))


def _closing_brace(body: str, i: int) -> int:
    """The index of the '}' that closes the '{' at i (-1 if none): texts inside, with their own
    `{…}`, are skipped whole, so `{join(["{p}!" for p in players], ", ")}` is one expression."""
    j = i + 1
    while j < len(body):
        ch = body[j]
        if ch == "}":
            return j
        if ch == '"':
            j = _closing_quote(body, j)
            if j < 0:
                return -1
        j += 1
    return -1


def _closing_quote(body: str, j: int) -> int:
    """The index of the '"' that closes the text opened at j (-1 if none)."""
    k = j + 1
    while k < len(body):
        ch = body[k]
        if ch == "\\":
            k += 2
            continue
        if ch == '"':
            return k
        if body.startswith("{{", k):
            k += 2
            continue
        if ch == "{":
            end = _closing_brace(body, k)
            k = k + 1 if end < 0 else end + 1
            continue
        k += 1
    return -1


def _parse_expr_text(text: str, path: str, line_shift: int, col_shift: int):
    try:
        tree = _lark().parse(text, start="expr")
    except _TooMuch as e:
        raise _ParseFailure(e.diagnostic(path, line_shift, col_shift)) from None
    except UnexpectedInput as e:
        d = diagnostic_from_lark(e, path, text)
        s = d.span
        raise _ParseFailure(Diagnostic(Span(path, s.line + line_shift, s.col + col_shift, s.line + line_shift,
                                            s.col + col_shift + 1), d.message, d.hint)) from None
    return _transform(tree, _ToAst(path, line_shift, col_shift))


def _transform(tree, transformer):
    try:
        return transformer.transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, _ParseFailure):
            raise e.orig_exc from None
        raise


def parse_module(text: str, path: str) -> ast.Module:
    """Parse a whole file; raise RulesError with a diagnostic on a syntax error.

    Parsed modules are kept, in memory and in a cache folder, under the SHA-256
    of the grammar, this file's path and its text: loading a game twice parses it once.
    """
    if not text.endswith("\n"):
        text += "\n"
    key = _cache_key(text, path)
    module = _MEMORY.get(key) or _read_cache(key)
    if module is not None:
        _MEMORY[key] = module
        return module
    module = _parse_uncached(text, path)
    if len(_MEMORY) >= 64:          # a long run (tests, exploration of variants) keeps only the recent ones
        _MEMORY.pop(next(iter(_MEMORY)))
    _MEMORY[key] = module
    _write_cache(key, module)
    return module


_MEMORY: dict = {}


@functools.lru_cache(maxsize=1)
def _grammar_digest() -> str:
    """Everything a parsed module depends on: the grammar, this parser, the AST classes and their data format
    (Span a record: slotclasses.py)."""
    grammar = importlib.resources.files("rulecraft.grammar").joinpath("rulecraft.lark").read_bytes()
    sources = b"".join(Path(m.__file__).read_bytes() for m in (sys.modules[__name__], ast, astdata, diagnostics,
                                                                  slotclasses))
    return hashlib.sha256(grammar + sources + lark.__version__.encode()).hexdigest()


def _cache_key(text: str, path: str) -> str:
    return hashlib.sha256(f"{_grammar_digest()}\0{path}\0{text}".encode()).hexdigest()


def _read_cache(key: str):
    folder = cache_dir("ast")
    if folder is None:
        return None
    payload = read_entry(folder / f"{key}.json")
    if payload is None:
        return None
    try:
        return astdata.loads(payload)
    except astdata.BadData:        # not what this version writes: parse again
        return None


def _write_cache(key: str, module) -> None:
    folder = cache_dir("ast")
    if folder is None:
        return
    try:
        payload = astdata.dumps(module)
    except RecursionError:         # rules nested deeper than the writer goes: parse them each time
        return
    write_entry(folder / f"{key}.json", payload)


def _parse_uncached(text: str, path: str) -> ast.Module:
    try:
        tree = _lark().parse(text, start="start")
        decls = _transform(tree, _ToAst(path))
    except _ParseFailure as f:
        raise RulesError([f.diagnostic], {path: text}) from None
    except _TooMuch as e:
        raise RulesError([e.diagnostic(path)], {path: text}) from None
    except DedentError as e:
        line = line_of_dedent(str(e), text)
        raise RulesError([Diagnostic(Span(path, line, 1), "this line's indentation matches no enclosing block",
                                     "indent it like the block it belongs to")], {path: text}) from None
    except UnexpectedInput as e:
        raise RulesError([diagnostic_from_lark(e, path, text)], {path: text}) from None
    except RecursionError:
        raise RulesError([Diagnostic(Span(path, 1, 1), "the rules are nested too deeply to read",
                                     "split deep expressions into `let` steps or `def`s")], {path: text}) from None
    except LarkError as e:
        raise RulesError([Diagnostic(Span(path, 1, 1), f"cannot read the rules: {e}")], {path: text}) from None
    return ast.Module(Span(path, 1, 1), path, tuple(decls))
