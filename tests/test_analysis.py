"""The facts the compiler finds of a program before it writes any of it (compile/analysis.py): which
rules can wait, which locals statements change, the value ranges the generator reads, which
choices' options cannot repeat, and each def's facts."""
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


LISTS = '''game "L"
players 3
card Chip(n: 1..9) named "chip {n}"
cards chips = [Chip(n) for n in 1..9]
zone heap of Chip
zone shown of Chip per player
var n: Int = 0
rule setup:
    move chips to heap
    for p in players:
        move top(heap) to p.shown
rule play:
    let mine = [top(p.shown) for p in players]
    player(1) chooses c in mine as "{c}":
        n += 1
    let grown = [top(p.shown) for p in players]
    add top(heap) to grown
    player(1) chooses c in grown as "{c}":
        n += 1
    player(1) chooses c in [top(heap) for p in players] as "{c}":
        n += 1
    player(1) chooses c in [c2 for c2 in heap if c2.n > 1] as "{c}":
        n += 1
    player(1) chooses k in 1..3 as "{k}":
        n += k
'''


def test_which_choices_cannot_repeat_an_option(tmp_path):
    path = tmp_path / "l.rules"
    path.write_text(LISTS)
    prog = check_game(path, []).program
    facts = analyse(prog)
    chooses = sorted((n for n in ir.walk(prog.rules["play"].body) if isinstance(n, ir.Choose)), key=lambda n: n.span.line)
    # a `let` bound once of each seat's own top card; a local changed after its `let`; a comprehension
    # whose element is not its own local (the heap's top card each time); a filter of a zone; a range
    assert [facts.distinct(s) for s in chooses] == [True, False, False, True, True]


DEFS = '''game "D"
players 2
var n: Int = 0
def base: Int = n + 1
def ten: Int = 10
def twice(x: Int): Int = x + x + base
def roll: Int = random(1..6)
def countdown(x: Int): Int = if x <= 0 then 0 else countdown(x - 1)
def spread(x: Int): List[Int] = [base + k for k in 0..x]
rule play:
    n += twice(base) + roll + countdown(2) + size(spread(ten))
'''


def test_the_facts_of_each_def(tmp_path):
    path = tmp_path / "d.rules"
    path.write_text(DEFS)
    prog = check_game(path, []).program
    defs = analyse(prog).defs
    assert defs.param_uses["twice"] == (2,)          # x read twice: inlined only with a cheap argument
    assert defs.param_uses["base"] == ()
    # random is an effect; a def that calls itself is not pure either; the others change nothing
    assert {name: defs.pure[name] for name in ("base", "ten", "twice", "roll", "countdown", "spread")} \
        == {"base": True, "ten": True, "twice": True, "roll": False, "countdown": False, "spread": True}
    assert defs.calls_defs == {"base": False, "ten": False, "twice": True, "roll": False, "countdown": True,
                               "spread": True}


def test_the_matches_of_each_def(tmp_path):
    path = tmp_path / "m.rules"
    path.write_text('''game "M"
players 2
var n: Int = 0
def sign(x: Int): Int = match x:
    0 -> 0
    1 -> 1
    else -> -1
def twice(x: Int): Int = sign(x) + sign(x)
rule play:
    n += twice(n)
''')
    defs = analyse(check_game(path, []).program).defs
    assert [type(m).__name__ for m in defs.matches["sign"]] == ["Match"]
    assert defs.matches["twice"] == ()       # a match in a def it calls is that def's


def test_the_generator_reads_the_analysis_it_was_given(prog):
    from rulecraft.compile.compiler import Compiler
    compiler = Compiler(prog, [], None)
    compiler.compile()
    facts = compiler.x.facts
    assert facts.defs is compiler.x.defs        # the defs' facts found once, when the compiler started
    play = compiler.x.facts.prog.rules["play"]
    choose = next(n for n in ir.walk(play.body) if isinstance(n, ir.Choose))
    assert facts.distinct(choose)               # a range: no set made of its options
