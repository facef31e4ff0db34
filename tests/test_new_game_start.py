"""What every new game starts with is worked out once per program and player count (engine.machine
`_start`): the games must not share anything they change, options are still checked at every game,
and `rulecraft simulate` plays the rules it just loaded, even when a file at the same path changed
in the same process (simulate.games.shared)."""
from __future__ import annotations

import json

import pytest

from rulecraft.cli.main import main
from rulecraft.engine import machine
from rulecraft.loader import load, load_file
from rulecraft.runtime.errors import RulesRuntimeError

COUNTERS = """game "Counters"
players 2..3
option start: 1..5 = 2
option fast: Bool = false
var pot: Int = start * player_count
var points: Int per player
var marks: Int by 0..2
var seen: List[Int]

rule play:
    while pot > 0:
        players[0] chooses k in 1..2 as "take {k}":
            pot -= k
            players[0].points += k
            marks[k] += 1
            seen = seen + [k]

score p: Player = p.points
"""


def test_games_share_nothing_they_change(tmp_path):
    path = tmp_path / "counters.rules"
    path.write_text(COUNTERS)
    program = load_file(path)
    one = machine.new_game(program, 2, None, 1)
    machine.decide(one, one.pending[2][0])
    two = machine.new_game(program, 2, None, 1)
    assert two.vars != one.vars and two.decisions == 0
    for frame in one.stack + two.stack:            # what a game may change is its own
        frame[1:] = [99] * (len(frame) - 1)
    one.where.append(7)
    for zone in one.zones + two.zones:
        zone.append(7)
    three = machine.new_game(program, 2, None, 1)
    assert three.stack == [[0, 1, None]] and 7 not in three.where and not any(three.zones)
    assert machine.new_game(program, 2, None, 1).same_as(three)
    three = machine.new_game(program, 3, {"start": 5}, 1)
    assert len(three.names) == 3 and three.vars[[v.slot for v in program.vars if v.name == "pot"][0]] == 15
    # the default options again, after a game with others: the defaults, not the last game's values
    again = machine.new_game(program, 3, None, 1)
    assert again.vars[[v.slot for v in program.vars if v.name == "pot"][0]] == 6


@pytest.mark.parametrize("players, options, message", [
    (4, None, "is for 2 to 3 players, not 4"),
    (2, {"start": 9}, "option 'start' is 1..5, not 9"),
    (2, {"start": True}, "option 'start' is 1..5, not True"),
    (2, {"fast": 1}, "option 'fast' is true | false, not 1"),
    (2, {"start": 9, "nope": 1}, "option 'start' is 1..5, not 9"),     # the program's order, as before
    (2, {"zz": 1, "aa": 2}, "has no option 'aa'"),
])
def test_bad_games_are_refused_every_time(tmp_path, players, options, message):
    path = tmp_path / "counters.rules"
    path.write_text(COUNTERS)
    program = load_file(path)
    machine.new_game(program, 2, None, 0)          # a start worked out: the checks still run
    for _ in range(2):
        with pytest.raises(ValueError, match=message):
            machine.new_game(program, players, options, 0)


def test_a_finish_finds_the_winners_as_before():
    program = load("examples/tic-tac-toe.rules")
    m = machine.new_game(program, 2, None, 3)
    while m.result is None:
        machine.decide(m, m.pending[2][0])
    scores, ties, winners = m.result
    best = max(scores)
    assert winners == tuple(i for i in range(2) if scores[i] == best) and ties == (0, 0)


def test_simulate_plays_the_rules_it_loaded(tmp_path, capsys):
    """The command and the games it plays in this process share one load; a file changed since an
    earlier run in the same process is read again, for the command and for its games."""
    path = tmp_path / "counters.rules"
    path.write_text(COUNTERS)
    args = ["simulate", str(path), "-n", "4", "--players", "2", "--agents", "first,first", "--workers", "1", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    path.write_text(COUNTERS.replace("option start: 1..5 = 2", "option start: 1..5 = 3"))
    assert main(args) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["lengths"]["mean"] != second["lengths"]["mean"]



def test_simulate_again_keeps_the_program_while_its_files_are_the_same(tmp_path, capsys, monkeypatch):
    """A second run in the same process on unchanged files plays the program kept from the first (no
    load: simulate.games.kept), with the same output; with the check cache's entries damaged or gone, or
    the cache off, it loads again, as after a change."""
    from rulecraft.cachedir import cache_dir
    from rulecraft.cli import common
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))     # a check cache of this test's own
    path = tmp_path / "counters.rules"
    path.write_text(COUNTERS)
    args = ["simulate", str(path), "-n", "4", "--players", "2", "--agents", "random", "--workers", "1", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    loads = []
    load_program = common.load_program
    monkeypatch.setattr(common, "load_program", lambda ref: loads.append(ref) or load_program(ref))
    assert main(args) == 0
    assert capsys.readouterr().out == first and loads == []
    for entry in cache_dir("check").iterdir():
        entry.write_bytes(b"damaged")
    assert main(args) == 0
    assert capsys.readouterr().out == first and loads == [str(path)]
    for entry in cache_dir("check").iterdir():
        entry.unlink()
    assert main(args) == 0
    assert capsys.readouterr().out == first and loads == [str(path)] * 2
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    assert main(args) == 0
    assert capsys.readouterr().out == first and loads == [str(path)] * 3

LATER = """game "Later"
players 2
var a: Int = b + c + 1
var b: Int
var c: Int = 5
var d: Int = a + c

rule play:
    players[0] chooses k in 1..2 as "take {k}":
        b = k

score p: Player = d
"""


def test_a_starting_value_reads_a_later_variable_as_its_default(tmp_path):
    """A starting value that reads a shared variable declared after it reads that variable's default
    (it read None, and the game failed with an internal TypeError); one declared before, its start."""
    path = tmp_path / "later.rules"
    path.write_text(LATER)
    program = load_file(path)
    m = machine.new_game(program, 2, None, 0)
    assert m.vars[-4:] == [1, 0, 5, 6]


CONSTANTS = """game "Constants"
players 2..3
teams Odd, Even
option start: 1..5 = 2
var marks: Int by 0..2 = 4
var points: Int per player = 3
var rows: Int per player by 0..1 = 1
var banner: Int per team = 2
var pot: Int = start * player_count
var late: Int by 0..1 = 5

rule play:
    while pot > 0:
        players[0] chooses k in 1..2 as "take {k}":
            pot -= k
            players[0].points += k
            players[0].rows[k - 1] += 1
            players[0].team.banner += 1
            marks[k] += 1
            late[k - 1] += 1

score p: Player = p.points
"""


@pytest.mark.parametrize("players", [2, 3])
def test_constant_starts_are_worked_out_once_and_each_game_owns_its_lists(tmp_path, players):
    """A start that reads nothing (a table's, a per-player or per-team one's) is computed once
    (machine._constant): every game still gets lists of its own, with the values a computed start
    gives; after a computed start, every later one is computed (it could read their defaults)."""
    path = tmp_path / "constants.rules"
    path.write_text(CONSTANTS)
    program = load_file(path)
    one = machine.new_game(program, players, None, 1)
    start = program.starts[(players, "setup")]
    assert [slot for slot, _copy in start.fresh] == [1, 2, 3, 4]
    assert [v.name for _slot, _init, v in start.started] == ["pot", "late"]
    assert one.vars == [2, [4, 4, 4], [3] * players, [[1, 1]] * players, [2, 2], 2 * players, [5, 5]]
    while one.result is None:
        machine.decide(one, one.pending[2][-1])
    two = machine.new_game(program, players, None, 1)
    assert two.vars == [2, [4, 4, 4], [3] * players, [[1, 1]] * players, [2, 2], 2 * players, [5, 5]]
    assert one.vars != two.vars
    for v in program.vars:      # each game's lists are its own, and none is the start's
        assert two.vars[v.slot] is not start.vars[v.slot] or type(two.vars[v.slot]) is not list
        if v.owner and v.name == "rows":
            assert all(a is not b for a, b in zip(two.vars[v.slot], start.vars[v.slot]))


SCORED = """game "Scored"
players 2..3
option first: 0..2 = 0
option second: 0..2 = 0

rule play:
    players[0] chooses k in 1..2 as "take {k}":
        pass

score p: Player = if p.seat == 1 then first else if p.seat == 2 then second else 1
"""


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("first, second", [(0, 0), (1, 1), (2, 1), (1, 2), (0, 2)])
def test_finish_ranks_two_seats_as_any_number(tmp_path, players, first, second):
    """finish's short way for two seats (no loop) finds the winners the general way finds."""
    path = tmp_path / "scored.rules"
    path.write_text(SCORED)
    program = load_file(path)
    m = machine.new_game(program, players, {"first": first, "second": second}, 0)
    machine.decide(m, m.pending[2][0])
    scores, ties, winners = m.result
    expected = (first, second, 1)[:players]
    best = max(expected)
    assert scores == expected and ties == (0,) * players
    assert winners == tuple(i for i in range(players) if expected[i] == best)


LATE_DRAW = """game "Late draw"
players 2
var drawn: Int per player
var rounds: Int = 0

rule play:
    while rounds < 3:
        for p in players:
            p chooses k in 1..3 as "take {k}":
                p.drawn += random([k, k + 1, k + 2])
        rounds += 1

score p: Player = p.drawn
"""


def test_the_seed_is_mixed_when_first_read_and_is_the_same_number_everywhere(tmp_path):
    """A new game keeps its seed unmixed until the rules draw or its `rng` is read (State.rng): read,
    copied, saved or compared, it is rng.seed_state(seed), as when it was mixed at the start."""
    from rulecraft.engine.records import state_to_data
    from rulecraft.runtime import rng
    path = tmp_path / "late.rules"
    path.write_text(LATE_DRAW)
    program = load_file(path)
    seed = 2**70 + 12345          # any int, mixed to 64 bits
    fresh = machine.new_game(program, 2, None, seed)
    copied = fresh.copy()
    assert state_to_data(fresh)["rng"] == rng.seed_state(seed)
    assert copied.rng == fresh.rng == rng.seed_state(seed) and copied.same_as(fresh)
    assert machine.new_game(program, 2, None, seed).same_as(fresh)       # one mixed by a read, one not
    one, two = machine.new_game(program, 2, None, seed), machine.new_game(program, 2, None, seed)
    three = one.copy()
    assert one._rng == (seed,)    # nothing drawn before the first decision: not mixed yet
    one.rng                       # mixed by a read
    for m in (one, two, three):   # the same games, whether the seed was mixed before or at the first draw
        while m.result is None:
            machine.decide(m, m.pending[2][-1])
    assert one.same_as(two) and three.same_as(one) and one.rng == two.rng == three.rng
    with pytest.raises(TypeError):
        machine.new_game(program, 2, None, None)    # a seed that is no number fails at once, as before


def test_a_failing_starting_value_fails_every_game(tmp_path):
    """A start that fails is said at each new game (it is never worked out once, nor kept)."""
    path = tmp_path / "zero.rules"
    path.write_text('game "Zero"\nplayers 2\nvar x: Int = 1 / 0\nvar y: Int = 3\n\nrule play:\n'
                    '    players[0] chooses k in 1..2 as "take {k}":\n        pass\n')
    program = load_file(path)
    for _ in range(2):
        with pytest.raises(RulesRuntimeError, match="the starting value of 'x': division by zero"):
            machine.new_game(program, 2, None, 0)
