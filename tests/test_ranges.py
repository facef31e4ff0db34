"""Value ranges known when compiling (compile/ranges.py, issue 25 point 2): the intervals found on small
rules, the guards they make moot left out, and every guard kept where a range is not proven — a rule
that can go out of a table's keys or beyond ±10^15 still says so."""
from __future__ import annotations

from math import inf

import pytest

import rulecraft
from rulecraft.check.checkcache import check_game
from rulecraft.diagnostics import UserError
from rulecraft.compile.ranges import analyse, mul, small, within
from rulecraft.ir import nodes as ir
from rulecraft.loader import generated_python
from rulecraft.runtime.errors import RulesRuntimeError


def program(tmp_path, text: str):
    path = tmp_path / "r.rules"
    path.write_text(text)
    diags: list = []
    loaded = check_game(path, diags)
    assert loaded.program is not None and not [d for d in diags if d.severity == "error"], diags
    return loaded.program


def stored(tmp_path, text: str) -> dict:
    """The interval each `let` stores, by line."""
    prog = program(tmp_path, text)
    facts = analyse(prog)
    return {s.span.line: facts.stored(s) for r in prog.rules.values() for s in ir.walk(r.body)
            if isinstance(s, ir.Let)}


def source(tmp_path, text: str, fast: bool = False) -> str:
    path = tmp_path / "g.rules"
    path.write_text(text)
    return generated_python(str(path), fast=fast)


def test_interval_arithmetic():
    assert mul((-1, 2), (3, 4)) == (-4, 8)
    assert mul((0, 0), (-inf, inf)) == (0, 0)
    assert small((-10 ** 15, 10 ** 15)) and not small((0, inf)) and not small(None)
    assert within((0, 41), 0, 41) and not within((0, 42), 0, 41)


def test_loops_constants_options_and_arithmetic(tmp_path):
    lets = stored(tmp_path, '''game "R"
players 2..4
option stones: 5..30 = 10
var t: Int by 0..99 = 0
rule play:
    for i in 1..9:
        let a = i * 7 + 3
        let b = stones - i
        let c = a mod 4
        let d = -b / 2
        let e = players[0].seat
    let f = player_count * 3
    let g = t[1]
    let h = size([1, 2, 3])
''')
    assert lets[7] == (10, 66)
    assert lets[8] == (-4, 29)
    assert lets[9] == (0, 3)
    assert lets[10] == (-15, 2)
    assert lets[11] == (1, 4)
    assert lets[12] == (6, 12)
    assert lets[13] is None              # a variable: anything (a saved game, a list stored whole)
    assert lets[14] == (0, 3)


def test_conditions_narrow_and_loops_settle(tmp_path):
    lets = stored(tmp_path, '''game "R"
players 2
var t: Int by 0..9 = 0
rule play:
    let i = 0
    let r = t[0]
    while i < 10:
        let a = i
        i += 1
    let after = i
    if r >= 0 and r <= 5:
        let inside = r * 2
    while r > 0:
        let pos = r
        r -= 1
''')
    assert lets[8] == (0, 9)           # under `while i < 10`, i += 1 after: 0..9
    assert lets[10] == (10, 10)        # after it (widened, then narrowed by one more round)
    assert lets[12] == (0, 10)
    assert lets[14] == (1, inf)


def test_a_rule_only_called_gets_its_callers_arguments(tmp_path):
    lets = stored(tmp_path, '''game "R"
players 2
var t: Int by 0..6 = 0
rule play:
    drop(3)
    player(1) chooses c in 0..6 as "{c}":
        drop(c)
rule drop(c: Int):
    let k = c + 1
''')
    assert lets[9] == (1, 7)


def test_guards_made_moot_are_left_out(tmp_path):
    text = '''game "R"
players 2
var cell: Int by 0..41 = 0
var n: Int = 0
rule play:
    player(1) chooses c in 0..6 as "{c}":
        let r = 0
        while r >= 0 and r <= 5 and cell[r * 7 + c] == 0:
            r += 1
        n = r * c
'''
    python = source(tmp_path, text)
    assert "rt_slot" not in python and "rt_too_big" not in python and "rt_mul" not in python
    game = rulecraft.load(str(tmp_path / "g.rules"), players=2)
    match = game.new(seed=1)
    match.apply("3")
    assert match.over and match.view(1)["vars"]["n"] == "18"


OUT_OF_RANGE = '''game "R"
players 2
var cell: Int by 0..8 = 0
var n: Int = 0
rule play:
    player(1) chooses c in 0..9 as "{c}":
        cell[c] = 1
'''


def test_a_key_that_can_leave_the_table_keeps_its_check(tmp_path):
    assert "rt_slot(" in source(tmp_path, OUT_OF_RANGE)
    match = rulecraft.load(str(tmp_path / "g.rules"), players=2).new(seed=1)
    with pytest.raises(RulesRuntimeError) as failure:
        match.apply("9")
    assert "9 is outside the table's keys 0..8" in str(failure.value)


OVERFLOW = '''game "R"
players 2
var n: Int = 0
rule play:
    let x = 2
    let i = 0
    while i < 100:
        x = x * x
        i += 1
    n = x
'''


@pytest.mark.parametrize("fast", [False, True])
def test_a_number_that_can_grow_keeps_its_check(tmp_path, fast):
    assert "rt_mul(" in source(tmp_path, OVERFLOW, fast=fast)
    game = rulecraft.load(str(tmp_path / "g.rules"), players=2)
    with pytest.raises(UserError) as failure:
        game.new(seed=1)
    assert "rules keep numbers within ±10^15" in str(failure.value)


def test_a_counter_that_can_grow_keeps_its_check(tmp_path):
    text = '''game "R"
players 2
var n: Int = 1
rule play:
    let x = n
    while x > 0:
        x = x + x
    n = x
'''
    python = source(tmp_path, text)
    assert "rt_too_big(v0)" in python
    game = rulecraft.load(str(tmp_path / "g.rules"), players=2)
    with pytest.raises(UserError) as failure:
        game.new(seed=1)
    assert "rules keep numbers within ±10^15" in str(failure.value)


def test_a_rule_calling_itself_with_a_growing_number_keeps_its_check(tmp_path):
    text = '''game "R"
players 2
var t: Int by 0..9 = 0
rule play:
    step(0)
rule step(k: Int):
    t[k] = 1
    step(k + 1)
'''
    python = source(tmp_path, text)
    assert "rt_slot(v0, 0, 10)" in python          # k grows with each call: nothing known of it
    game = rulecraft.load(str(tmp_path / "g.rules"), players=2)
    with pytest.raises(UserError) as failure:
        game.new(seed=1)
    assert "10 is outside the table's keys 0..9" in str(failure.value)


def test_or_and_break_narrow_nothing_they_do_not_prove(tmp_path):
    lets = stored(tmp_path, '''game "R"
players 2
var t: Int by 0..9 = 0
rule play:
    let r = t[0]
    if r >= 0 or r <= 5:
        let either = r
    let i = 0
    while true:
        if t[1] > 0:
            break
        i += 1
    let after = i
    for k in 0..9:
        if k == 3:
            break
    if not (r < 2):
        let at_least = r
''')
    assert lets[7] is None                 # one side of `or` holding says nothing of r
    assert lets[13] == (0, inf)            # left by the break: whatever i had grown to
    assert lets[18] == (2, inf)            # `not (r < 2)`: r >= 2


def test_a_handler_parameter_is_anything(tmp_path):
    text = '''game "R"
players 2
event poked(k: Int)
var t: Int by 0..9 = 0
rule play:
    signal poked(3)
when poked(k):
    t[k] = 1
'''
    assert "rt_slot(" in source(tmp_path, text)      # a handler is started by a signal, not called: unknown


def test_a_list_joined_holds_both_lists_elements(tmp_path):
    """`xs + [20]` holds 0 and 20 (the interval of two lists joined is both intervals', not their sum)."""
    text = '''game "R"
players 2
var t: Int by 20..25 = 0
rule play:
    let xs = [0]
    xs = xs + [20]
    t[xs[0]] = 1
'''
    lets = stored(tmp_path, text)
    assert lets[5] == (0, 0)
    assert "rt_slot(" in source(tmp_path, text)
    game = rulecraft.load(str(tmp_path / "g.rules"), players=2)
    with pytest.raises(UserError) as failure:
        game.new(seed=1)
    assert "0 is outside the table's keys 20..25" in str(failure.value)


EDGE_RULES = '''game "R"
players 2
var top: Int by 0..1 = 0
var n: Int = 0
rule play:
    top[0] = START
    drop(0)
rule drop(c: Int):
    let r = top[c]
    for sign in [1, -1]:
        let rr = r + sign
        if rr > 0:
            n += 1
'''


@pytest.mark.parametrize("fast", [False, True])
def test_a_let_shifted_from_one_far_inside_the_bound_is_tested_once(tmp_path, fast):
    """`let rr = r + sign`: r tested once after its `let` for being far inside ±10^15 (StatementGen.near_edge),
    rr then tested only where r is not; at the edge it still fails, one inside it does not."""
    python = source(tmp_path, EDGE_RULES.replace("START", "5"), fast=fast)
    assert " = -999999998951424 <= v" in python and "if not _in" in python
    big = "1000000 * 1000000000"        # 10^15 (a number written out stays below 10^12)
    for start, fails in ((big, True), (f"{big} - 1", False), (f"0 - {big}", True), (f"1 - {big}", False),
                         ("5", False)):
        source(tmp_path, EDGE_RULES.replace("START", start), fast=fast)
        game = rulecraft.load(str(tmp_path / "g.rules"), players=2)
        if fails:
            with pytest.raises(UserError) as failure:
                game.new(seed=1)
            assert "rules keep numbers within ±10^15" in str(failure.value)
        else:
            game.new(seed=1)
