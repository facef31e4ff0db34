"""slotclasses.py: the light classes of the IR, its types, spans, diagnostics and the Program."""
from __future__ import annotations

import copy
import pickle

import pytest

from rulecraft import slotclasses
from rulecraft.ir import nodes as ir
from rulecraft.ir import types as T
from rulecraft.compile.program import Program, ScenarioStep
from rulecraft.diagnostics import Diagnostic, Span


@slotclasses.frozen
class Point:
    x: int
    y: int = 0
    note: str = slotclasses.field(default="", eq=False)


@slotclasses.define(eq=False)
class Bag:
    name: str
    items: list = slotclasses.Factory(list)


def test_fields_in_order_with_defaults_and_keywords():
    assert Point(1) == Point(x=1, y=0)
    assert [f.name for f in slotclasses.fields(Point)] == ["x", "y", "note"]
    assert [f.type for f in slotclasses.fields(Point)] == ["int", "int", "str"]
    assert Point.__match_args__ == ("x", "y", "note")
    assert repr(Point(1, 2)) == "Point(x=1, y=2, note='')"
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, 2, "a", 4)


def test_frozen_records_compare_and_hash_by_value_and_refuse_changes():
    assert Point(1, 2, "a") == Point(1, 2, "b")          # a field declared eq=False is not compared
    assert hash(Point(1, 2, "a")) == hash(Point(1, 2, "b"))
    assert Point(1, 2) != Point(2, 1) and Point(1) != (1, 0)
    with pytest.raises(AttributeError):
        Point(1).x = 2
    with pytest.raises(AttributeError):
        del Point(1).x
    with pytest.raises(AttributeError):
        Point(1).z = 2                                  # slots: no other attribute
    assert T.EnumT("Suit", ("a", "b")) == T.EnumT("Suit", ("a", "b"), ("A", "B"))
    assert Span("f", 1, 2) == Span("f", 1, 2, 0, 0) and len({Span("f", 1, 2), Span("f", 1, 2)}) == 1


def test_mutable_records_with_factories_compared_by_identity():
    a, b = Bag("a"), Bag("a")
    assert a != b and a.items is not b.items
    a.items.append(1)
    a.name = "b"
    assert (a.name, a.items, b.items) == ("b", [1], [])
    assert slotclasses.evolve(a, name="c").items == [1]
    assert slotclasses.has(Bag) and slotclasses.has(ir.Const) and not slotclasses.has(int) and not slotclasses.has(Bag("x"))
    with pytest.raises(TypeError):
        slotclasses.fields(int)


def test_records_pickle_and_copy():
    for value in (Point(1, 2, "n"), T.ListT(T.INT), Diagnostic(Span("f", 1, 1), "m", severity="warning"),
                  ir.Const(T.INT, Span("f", 1, 1), 3), ScenarioStep("take", None, name="x")):
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert type(again) is type(value)
            assert all(getattr(again, f.name) == getattr(value, f.name) for f in slotclasses.fields(type(value)))
    assert pickle.loads(pickle.dumps(Point(1, 2, "n"))).note == "n"
    again = Point.__new__(Point)
    again.__setstate__({"x": 1, "y": 2, "note": "n"})     # a state as attrs wrote it
    assert (again.x, again.y, again.note) == (1, 2, "n")


def test_subclasses_inherit_fields():
    node = ir.BinOp(T.INT, None, "+", 1, 2)
    assert [f.name for f in slotclasses.fields(ir.BinOp)] == ["type", "span", "op", "left", "right"]
    assert (node.op, node.left, node.right) == ("+", 1, 2)
    assert node != ir.BinOp(T.INT, None, "+", 1, 2)     # IR nodes compare by identity
    assert ir._child_fields(ir.BinOp) == ("left", "right")


def test_program_is_a_record_that_weak_references_work_with():
    import weakref
    assert "__weakref__" in Program.__slots__ or any("__weakref__" in getattr(b, "__slots__", ())
                                                     for b in Program.__mro__)
    weakref.ref(Bag("x"))


def test_a_record_may_extend_a_plain_class():
    """As engine.session's Session extends Table: the plain base already gives a dict and weak references
    (a second `__weakref__` slot was a TypeError), and its class attributes stay defaults."""
    import weakref

    class Plain:
        where = None

        @property
        def doubled(self):
            return 2 * self.x

    @slotclasses.define(eq=False)
    class Record(Plain):
        x: int
        where: object = None

    record = Record(3)
    assert (record.doubled, record.where) == (6, None)
    weakref.ref(record)
    again = copy.deepcopy(Record(4, where="here"))
    assert (again.x, again.where) == (4, "here")
