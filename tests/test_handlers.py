"""Every node kind has its handlers (issue 33): a new expression or statement that one phase forgot fails
here by name, not in some game months later. The handlers are found by name (`expr_` + the class name,
and so on); this test is the list of what each phase must have, read from the node modules themselves."""
from __future__ import annotations

import inspect
import re

import pytest

from rulecraft.ir import nodes as ir
from rulecraft.check.checker import Checker
from rulecraft.check.lower import Lowerer
from rulecraft.compile.expressions import ExprGen
from rulecraft.compile.rules import RuleGen
from rulecraft.compile.statements import StatementGen
from rulecraft.syntax import ast

# parts of another node, handled inside it: no handler of their own
PARTS = {"OptionalType",            # a type written in an expression (`none` of a type)
         "MatchCase", "CompFor",    # a case of a match, a `for` of a comprehension
         "Alternative",             # an alternative of a `chooses one of`
         "_Binary"}                 # the base of the IR's binary operations
AST_STATEMENTS_WITH_EVENTS = {"Signal", "AddTo", "RemoveFrom"}   # statements declared beside events and lists
WAITING = {"If", "For", "While", "Repeat", "Choose", "CallRule", "Signal"}   # may hold a decision: rules.RuleGen


def section(module, name: str) -> list[str]:
    """The node classes a module defines under its `# ---- NAME` heading."""
    lines = inspect.getsource(module).splitlines()
    marks = [(no, line.split()[-1]) for no, line in enumerate(lines, 1) if re.match(r"# -+ \w+$", line)]
    out = []
    for cls_name, cls in vars(module).items():
        if inspect.isclass(cls) and cls.__module__ == module.__name__ and cls_name not in PARTS:
            line = inspect.getsourcelines(cls)[1]
            heading = [title for no, title in marks if no < line]
            if heading and heading[-1] == name:
                out.append(cls_name)
    return sorted(out)


AST_EXPRESSIONS = section(ast, "expressions")
AST_STATEMENTS = sorted(set(section(ast, "statements")) | AST_STATEMENTS_WITH_EVENTS)
IR_EXPRESSIONS = section(ir, "expressions")
IR_STATEMENTS = section(ir, "statements")


def test_the_node_lists_are_read():
    assert {"BinOp", "Name", "Comprehension"} <= set(AST_EXPRESSIONS) and {"Choose", "Move"} <= set(AST_STATEMENTS)
    assert {"BinOp", "DefCall", "Cast"} <= set(IR_EXPRESSIONS) and {"Choose", "CallRule"} <= set(IR_STATEMENTS)


@pytest.mark.parametrize("name", AST_EXPRESSIONS)
def test_an_expression_is_checked_and_lowered(name):
    assert hasattr(Checker, f"expr_{name}"), f"check/: no Checker.expr_{name}"
    assert hasattr(Lowerer, f"ex_{name}"), f"check/lower.py: no Lowerer.ex_{name}"


@pytest.mark.parametrize("name", AST_STATEMENTS)
def test_a_statement_is_checked_and_lowered(name):
    assert hasattr(Checker, f"stmt_{name}"), f"check/: no Checker.stmt_{name}"
    assert hasattr(Lowerer, f"st_{name}"), f"check/lower.py: no Lowerer.st_{name}"


@pytest.mark.parametrize("name", IR_EXPRESSIONS)
def test_an_ir_expression_is_compiled(name):
    assert hasattr(ExprGen, f"ex_{name}"), f"compile/: no ExprGen.ex_{name}"


@pytest.mark.parametrize("name", IR_STATEMENTS)
def test_an_ir_statement_is_compiled(name):
    if name != "Choose":          # a choice always waits: it is never in a run of statements that do not
        assert hasattr(StatementGen, f"nat_{name}"), f"compile/statements.py: no StatementGen.nat_{name}"
    if name in WAITING:
        assert "flat_" + name in vars(RuleGen), f"compile/rules.py: no RuleGen.flat_{name}"


# nodes whose `slot` is a variable's (the state's), not a local's
VARIABLE_SLOTS = {"Var", "OwnedVar", "VarDecl", "OptionDecl"}


def test_every_local_slot_is_listed():
    """A node that holds a local's slot is in ir.LOCAL_SLOTS (and one that binds it in ir.BINDERS), with
    each such field: inlining shifts them, lowering, the loops, the tables and what a shown text reads ask
    ir.binders. A new binding form (`first(x in xs where c)` once) listed nowhere fails here."""
    found = {}
    for name, cls in vars(ir).items():
        if inspect.isclass(cls) and cls.__module__ == ir.__name__ and hasattr(cls, "__record_fields__") \
                and name not in VARIABLE_SLOTS:
            slots = tuple(f.name for f in cls.__record_fields__ if f.name.endswith("slot"))
            if slots:
                found[cls] = slots
    assert found == ir.LOCAL_SLOTS
    assert set(ir.BINDERS) == set(found) - {ir.Local}


def test_binders_finds_each_binding_with_its_slots():
    loop = ir.CompFor(3, ir.Local(None, None, 0), None, None)
    body = ir.Comprehension(None, None, ir.Local(None, None, 3), (loop,))
    assert list(ir.binders(body)) == [(loop, (3,))]
    assert list(ir.binders(ir.Local(None, None, 3))) == []


def test_the_emit_context_restores_the_state_whatever_is_raised():
    gen = ExprGen.__new__(ExprGen)
    gen.subst, gen.loops = None, ["outer"]
    with pytest.raises(ZeroDivisionError):
        with gen.emitting(subst={0: "a"}, loops=[]):
            assert gen.subst == {0: "a"} and gen.loops == []
            1 / 0
    assert gen.subst is None and gen.loops == ["outer"]
