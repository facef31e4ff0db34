"""The facts the compiler finds of a program before it writes any of it (compile/analysis.py): which
rules can wait, which locals statements change, and the value ranges the generator reads."""
from __future__ import annotations

import pytest

from rulecraft.check.checkcache import check_game
from rulecraft.compile.analysis import analyse, assigned
from rulecraft.ir import nodes as ir

GAME = '''game "A"
players 2
var t: Int by 0..6 = 0
var n: Int = 0
rule play:
    let k = 0
    while k < 3:
        player(1) chooses c in 0..6 as "{c}":
            mark(c)
        k += 1
    tally()
rule mark(c: Int):
    t[c] += 1
rule tally:
    for i in 0..6:
        n += t[i]
'''


@pytest.fixture
def prog(tmp_path):
    path = tmp_path / "a.rules"
    path.write_text(GAME)
    diags: list = []
    return check_game(path, diags).program


def test_which_rules_wait(prog):
    facts = analyse(prog)
    assert facts.waits == {"play": True, "mark": False, "tally": False}


def test_the_analysis_is_frozen(prog):
    facts = analyse(prog)
    with pytest.raises(AttributeError):
        facts.waits = {}


def test_which_locals_statements_change(prog):
    body = prog.rules["play"].body
    assert assigned(body) == {0, 1}          # k (a let, then +=) and c (the choice's)
    assert assigned(prog.rules["mark"].body) == set()       # a table's entry is no local


def test_the_ranges_the_generator_reads(prog):
    facts = analyse(prog)
    key = next(n for n in ir.walk(prog.rules["mark"].body) if isinstance(n, ir.TableEntry)).key
    assert facts.of(key) == (0, 6)           # mark is only called with a choice of 0..6
    read = next(n for n in ir.walk(prog.rules["tally"].body) if isinstance(n, ir.TableEntry)).key
    assert facts.of(read) == (0, 6)          # a loop's local over 0..6
    bump = next(s for s in ir.walk(prog.rules["play"].body) if isinstance(s, ir.Assign))
    assert facts.stored(bump) == (1, 3)      # k += 1 under `while k < 3`
