"""A table (`var … by K`) is a value: holding it elsewhere and then writing one of its entries
leaves the other holder as it was. Its entries are written in place, so a table assigned whole, bound
or bound by a `let` is copied (StatementGen.held); before, `a = b` then `a[k] = 5` changed
`b[k]` too."""
from __future__ import annotations

import pytest

from rulecraft.engine import machine
from rulecraft.loader import load_file

RULES = '''game "Tables"
players 2
enum K: A, B
var got: Int per player by K
var other: Int per player by K
var flat: Int by K
var flat2: Int by K
rule play:
    player(1).got = player(2).other
    flat = flat2
    player(1).got[A] = 5
    flat[A] = 7
    say "assigned: {player(2).other[A]} {flat2[A]}"
    let kept = flat
    flat[B] = 3
    say "let: {kept[B]} {flat[B]}"
    player(1) chooses k in K as "{k}":
        flat[A] = 9
        say "after a decision: {kept[A]} {flat[A]}"
'''


def test_a_table_held_elsewhere_is_not_changed_by_a_write(rules_file):
    said = []
    m = machine.new_game(load_file(rules_file(RULES)), 2, None, 0, sink=said)
    machine.decide(m, machine.legal_ids(m)[0])
    lines = ["".join(part if isinstance(part, str) else str(part) for part in segments) for _k, _a, segments in said]
    assert lines == ["assigned: 0 0", "let: 0 3", "after a decision: 7 9"], lines


LOOPS = '''game "Rows"
players 2
enum K: A, B, C
var got: Int per player by K
var spare: Int per player by K = 4
var shared: Int by K
rule play:
    for p in players:
        for k in K:
            p.got[k] += 1
            if k == B:
                p.got = p.spare          # the whole row, in the loop that reads it
                refill(p)
            shared[k] = p.got[k] + shared[k]
        say "{p}: {p.got} / {shared}"
    let n = 0
    while player(1).got[C] < 9:
        player(1).got[C] += 2
        n = n + 1
    say "while: {player(1).got} after {n}"
    repeat 2:
        shared = player(2).got
        shared[A] += 10
    say "repeat: {shared} / {player(2).got}"
rule refill(p: Player):
    for k in K:
        p.spare[k] = p.spare[k] + p.got[k]
    p.got[C] = 100
'''


def test_a_row_read_before_a_loop_is_the_row_all_loop_long(rules_file, monkeypatch):
    """A loop reads a table's row once before it (StatementGen.rows_before): assigning the table whole
    in the loop, or in a rule it calls, writes into that row, so the loop sees it, as without."""
    from rulecraft.compile.options import DEFAULT

    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = rules_file(LOOPS)
    runs = []
    for rows in (True, False):
        said = []
        machine.new_game(load_file(path, options=DEFAULT.with_(rows=rows)), 2, None, 0, sink=said)
        runs.append(["".join(x if isinstance(x, str) else str(x) for x in seg) for _k, _a, seg in said])
    assert runs[0] == runs[1]
    assert runs[0] == ["Player 1: A: 4, B: 4, C: 101 / A: 1, B: 4, C: 101",
                       "Player 2: A: 4, B: 4, C: 101 / A: 2, B: 8, C: 202",
                       "while: A: 4, B: 4, C: 101 after 0",
                       "repeat: A: 14, B: 4, C: 101 / A: 4, B: 4, C: 101"], runs[0]



def _games():
    from pathlib import Path

    import rulecraft
    root = Path(__file__).resolve().parent.parent
    return rulecraft.game_names() + sorted(str(p) for p in (root / "examples").glob("*.rules"))


@pytest.mark.parametrize("ref", _games(), ids=lambda g: g.rsplit("/", 1)[-1])
def test_rows_read_before_loops_play_the_games_as_without(ref, monkeypatch):
    import random

    from rulecraft.compile.options import DEFAULT
    from rulecraft.loader import load

    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    programs = []
    for rows in (True, False):
        programs.append(load(ref, options=DEFAULT.with_(rows=rows)))
    for players in sorted({programs[0].min_players, programs[0].max_players}):
        for seed in range(3):
            courses = []
            for program in programs:
                said = []
                m = machine.new_game(program, players, None, seed, sink=said)
                agent = random.Random(seed)
                course = []
                while m.result is None:
                    ids = machine.legal_ids(m)
                    course.append((m.pending[1], ids, len(said)))
                    machine.decide(m, ids[agent.randrange(len(ids))])
                courses.append(course + [said, m.result, m.vars])
            assert courses[0] == courses[1], (players, seed)
