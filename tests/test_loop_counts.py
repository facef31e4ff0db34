"""Each loop runs exactly as many times as it says (issue 34): `repeat n` n times (none for 0 or less),
`for` once per element, `while` until its condition fails, `break` leaves the innermost loop at once.

Each count is pinned twice, because the compiler writes a loop two ways: as a Python loop in rules
that never wait, and as a jump table (compile/rules.py `loop`) where a decision inside it makes the
rules wait. Counts are read from the game's variables after the rules ran, and for the waiting
loops from how many decisions were asked."""
from __future__ import annotations

import pytest

from helpers import get_var
from rulecraft.engine.session import Session
from rulecraft.loader import load_file

STRAIGHT = '''game "Counts"
players 3
option n: 0..9 = 4
var reps: Int
var by_option: Int
var zero_reps: Int
var negative: Int
var fors: Int
var total: Int
var seats: Int
var zone_cards: Int
var whiles: Int
var before_break: Int
var inner: Int
var outer: Int
var after_while_break: Int
var any_whiles: Int
card Chip(v: 1..6)
cards chips = [Chip(v) for v in 1..6]
zone pile of Chip
rule setup:
    for c in chips:
        move c to pile
rule play:
    repeat 5:
        reps += 1
    repeat n:
        by_option += 1
    repeat 0:
        zero_reps += 1
    repeat n - 7:
        negative += 1
    for k in 3..7:
        fors += 1
        total += k
    for p in players:
        seats += p.seat
    for c in pile:
        zone_cards += c.v
    let k = 0
    while k < 7:
        k += 1
        whiles += 1
    for j in 1..10:
        if j == 4:
            break
        before_break += 1
    for i in 1..3:
        outer += 1
        for j in 1..5:
            if j == 3:
                break
            inner += 1
    let w = 0
    while true:
        w += 1
        if w == 6:
            break
        after_while_break += 1
    let m = 0
    while any(c.v > m for c in pile):
        m += 1
        any_whiles += 1
'''


def finished(path, players=3, options=()):
    program = load_file(path)
    session = Session.start(program, str(path), players, 0, Session.parse_options(program, list(options)))
    return session


@pytest.mark.parametrize("n", [4, 1, 0])
def test_loops_that_do_not_wait_run_exactly_so_often(rules_file, n):
    s = finished(rules_file(STRAIGHT), options=[f"n={n}"]).state
    counts = {name: get_var(s, name) for name in (
        "reps", "by_option", "zero_reps", "negative", "fors", "total", "seats", "zone_cards", "whiles",
        "before_break", "inner", "outer", "after_while_break", "any_whiles")}
    assert counts == {"reps": 5, "by_option": n, "zero_reps": 0, "negative": 0, "fors": 5, "total": 3 + 4 + 5 + 6 + 7,
                      "seats": 1 + 2 + 3, "zone_cards": 21, "whiles": 7, "before_break": 3, "inner": 3 * 2,
                      "outer": 3, "after_while_break": 5, "any_whiles": 6}


WAITING = '''game "Waiting counts"
players 2
option n: 0..9 = 3
var reps: Int
var fors: Int
var total: Int
var whiles: Int
var before_break: Int
var inner: Int
var outer: Int
var phase: Int
rule play:
    phase = 1
    repeat n:
        player(1) chooses x in 1..2 as "repeat {x}":
            reps += 1
    phase = 2
    for k in 2..4:
        player(2) chooses x in 1..2 as "for {x}":
            fors += 1
            total += k
    phase = 3
    let k = 0
    while k < 2:
        player(1) chooses x in 1..2 as "while {x}":
            k += 1
            whiles += 1
    phase = 4
    for j in 1..10:
        if j == 3:
            break
        player(2) chooses x in 1..2 as "break {x}":
            before_break += 1
    phase = 5
    for i in 1..2:
        outer += 1
        for j in 1..4:
            player(1) chooses x in 1..2 as "inner {x}":
                inner += 1
                if x == 2:
                    break
    phase = 6
'''


@pytest.mark.parametrize("n", [3, 1, 0])
def test_loops_that_wait_ask_exactly_so_often(rules_file, n):
    """The labels asked, in order, tell each loop's count; the first inner loop is left by a break
    after its first decision (the outer loop goes on), the second runs its four."""
    session = finished(rules_file(WAITING), players=2, options=[f"n={n}"])
    asked = []
    while not session.over:
        labels = [o.label for o in session.legal()]
        kind = labels[0].split()[0]
        asked.append(kind)
        # the inner loop: "inner 2" (break) at once in the first pass, then "inner 1" four times
        take = f"{kind} 2" if kind == "inner" and asked.count("inner") == 1 else f"{kind} 1"
        session.take_label(take)
        assert len(asked) < 100
    assert asked == ["repeat"] * n + ["for"] * 3 + ["while"] * 2 + ["break"] * 2 + ["inner"] * 5
    s = session.state
    assert [get_var(s, v) for v in ("reps", "fors", "total", "whiles", "before_break", "inner", "outer", "phase")] \
        == [n, 3, 2 + 3 + 4, 2, 2, 5, 2, 6]
