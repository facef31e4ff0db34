"""Rules that give a value: `rule settle(p: Player): Bool:` … `return x`.

A rule may wait for a decision (it holds a choice, or calls a rule that does), and a rule
that waits is resumed at a statement (compile/rules.py): it cannot stop in the middle of an
expression. So a rule's value is taken where the call is all there is to compute first —
the whole value of a `let`, an assignment or a `return`, or the whole condition of an `if`
(not an `else if`, which runs only when the conditions before it fail) — and lowering
(lower.py) writes it as two statements: the call, then the statement reading the value.

The value travels in a variable of its own that no seat sees and no rule can name
(declared here with the rule): `return x` sets it and leaves the rule, and the caller reads
it as soon as the call is done, before anything else can run. Every way through a rule with
a value ends in `return` (checked here); `stop`, which would leave it without one, is refused.
"""
from __future__ import annotations

from ..syntax import ast
from ..ir import types as T
from .base import CheckerBase
from .statements import _walk_ast
from .symbols import RuleSym, VarSym

HOW = "`let x = NAME(…)`, `x = NAME(…)`, `return NAME(…)` or `if NAME(…):`"


def value_variable(rule: str) -> str:
    """The name of the variable carrying a rule's value: one no rule can write (it has spaces)."""
    return f"the value of {rule}"


class Returns(CheckerBase):
    def declare_rule_value(self, sym: RuleSym):
        d = sym.decl
        if d.type_params:
            self.error(d.span, "a rule with type parameters cannot give a value",
                       "give the value from a rule without them, or compute it with a `def`")
            sym.ret = T.ANY                    # (its `return`s are not reported again)
            return
        sym.ret = self.resolve_type(d.returns)
        if isinstance(sym.ret, T.ZoneT):
            self.error(d.span, "a rule's value cannot be a zone", "give the cards as a list: `List[…]`")
        holder = ast.VarDecl(d.span, False, value_variable(d.name), d.returns, None, None, None, "nobody")
        sym.value = VarSym(holder, sym.ret, None, self.new_var_slot(), "nobody")
        self.vars.append(sym.value)

    def rule_value_call(self, e):
        """The rule whose value `e` takes, when `e` is a call of a rule that gives one; else None."""
        if isinstance(e, ast.Call):
            name = self.originals.get(id(self.current_decl), "") if e.func == "original" else e.func
            sym = self.globals.get(name)
            if isinstance(sym, RuleSym) and sym.ret is not None and (self.scope is None or self.scope.lookup(e.func) is None):
                return sym
        return None

    def allow_rule_value(self, e):
        """`e` stands where a rule's value may be taken (see the module's docstring)."""
        if self.rule_value_call(e) is not None:
            self.rule_values.add(id(e))

    def take_rule_value(self, e: ast.Call, sym: RuleSym):
        """The type of a call of a rule that gives a value (expr_Call): its value, where it may be taken."""
        if id(e) not in self.rule_values:
            self.error(e.span, f"the value of rule '{e.func}' is taken by a statement of its own",
                       f"a rule may wait for a decision, which cannot happen inside an expression: "
                       f"write {HOW.replace('NAME', e.func)}, then use x")
            for a in e.args:
                self.expr(a)
            return T.ANY
        self.call_args(e, sym.params, sym.decl.name)
        self.refs[id(e)] = sym
        self.unnarrow(variables=True)          # the rule may set any variable to none
        return sym.ret

    def stmt_Return(self, s: ast.Return):
        rule = self.current_rule
        if rule is not None and rule.ret is None and getattr(rule.decl, "returns", None) is not None:
            self.expr(s.value)                 # (a generic rule's copy: its declaration was reported)
            return
        if rule is None or rule.ret is None:
            self.error(s.span, "`return` gives the value of a rule declared with a type, and this one has none",
                       "declare it `rule NAME(…): TYPE:`; to leave a rule, write `stop`")
            self.expr(s.value)
            return
        self.allow_rule_value(s.value)
        self.expect(s.value, self.expecting(s.value, rule.ret), rule.ret, f"the value of rule '{rule.decl.name}'")

    def check_rule_returns(self, sym: RuleSym):
        """Every way through a rule with a value ends in `return`; none leaves it by `stop`."""
        if sym.ret is None:
            return
        for n in _walk_ast(sym.decl.body):
            if isinstance(n, ast.Stop):
                self.error(n.span, f"`stop` would leave rule '{sym.decl.name}' without its value",
                           "write `return …` instead")
        if not _always_returns(sym.decl.body):
            self.error(sym.decl.span, f"rule '{sym.decl.name}' may end without `return`",
                       "end every way through it with `return …` (a `chooses` with no option skips its block, "
                       "and a loop may run no time)")


def _always_returns(body) -> bool:
    """Does every way through this block end in `return`? Its last statement is a `return`, an `if`
    with an `else` whose every branch does, or a `may choose` (`may choose one of`) whose blocks and
    `else` all do (with no option at all it runs the `else`)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return last.otherwise is not None and _always_returns(last.otherwise) \
            and all(_always_returns(branch) for _cond, branch in last.branches)
    if isinstance(last, ast.Choose) and last.may:
        return _always_returns(last.body) and last.otherwise is not None and _always_returns(last.otherwise)
    if isinstance(last, ast.ChooseOneOf) and last.may:
        return all(_always_returns(alt.body) for alt in last.alternatives) \
            and last.otherwise is not None and _always_returns(last.otherwise)
    return False
