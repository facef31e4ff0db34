"""Rules with no end and no `limit decisions` never hang a tool (issue: `rulecraft test never.rules -e 1`
printed nothing for minutes).

Every command that plays a game without a person at every seat — run, replay (and --step), test,
simulate, tournament — and play, with a person, stop such a game at the one default cap
(engine.limits.DEFAULT_DECISION_LIMIT) with the one sentence that says how far it went and what to
do, and exit 1 where it is a failure. Each command runs as the installed one does, in a subprocess
with a timeout: a hang fails the test instead of stalling the suite.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from rulecraft.engine.limits import DEFAULT_DECISION_LIMIT, decision_limit
from rulecraft.loader import load_file
from rulecraft.simulate import games
from rulecraft.validate import explore

NEVER = '''\
game "Never"
players 2
var turn: Player
rule play:
    turn = random(players)
    while true:
        turn chooses k in 1..3 as "say {k}":
            pass
        turn = next_player(turn)
'''

# a run of 11 "pick 1" ends it: random play ends some games within the cap, and not others
SOMETIMES = '''\
game "Sometimes"
players 2
var turn: Player
var streak: Int = 0
rule play:
    turn = random(players)
    while streak < 11:
        turn chooses k in 1..2 as "pick {k}":
            if k == 1:
                streak += 1
            else:
                streak = 0
        turn = next_player(turn)
score p = if p == turn then 1 else 0
'''

CAP = DEFAULT_DECISION_LIMIT
ENDING = (f"not ended after {CAP} decisions, rulecraft's limit for rules that state none: if these rules do end, "
          "add `limit decisions N` to them, N the longest game they allow; if play can go on for ever (a player "
          "who may always draw instead of playing), give the rules an end")
SENTENCE = "the game has " + ENDING
TIMEOUT = 60          # each command takes about a second; a hang is stopped here and fails the test


def rulecraft(cwd, *argv, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "rulecraft", *argv, "--no-color"], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "never.rules").write_text(NEVER)
    (tmp_path / "sometimes.rules").write_text(SOMETIMES)
    return tmp_path


def test_the_cap_is_one_number_used_by_every_tool(folder):
    never = load_file(folder / "never.rules")
    assert never.limit is None and decision_limit(never) == CAP
    played = games.play(games.Job(str(folder / "never.rules"), 2, (), ("random", "random"), 0, 0))
    assert played.timeout and played.decisions == CAP


def test_run_stops_at_the_cap_and_its_log_replays_to_it(folder):
    proc = rulecraft(folder, "run", "never.rules", "-q", "--seed", "1", "--log", "game.yaml")
    assert proc.returncode == 1 and proc.stderr == f"runtime error: {SENTENCE}\n"
    proc = rulecraft(folder, "replay", "game.yaml", "-q")
    assert proc.returncode == 1 and f"The game has {ENDING}." in proc.stdout
    proc = rulecraft(folder, "replay", "game.yaml", "--step")
    assert proc.returncode == 1 and f"The game has {ENDING}." in proc.stdout


def test_test_reports_the_endless_configuration_and_its_replay(folder):
    proc = rulecraft(folder, "test", "never.rules", "-e", "1")
    assert proc.returncode == 1
    assert "FAIL 2 players: 'the game ends' breaks" in proc.stdout and SENTENCE in proc.stdout
    assert f"not shrunk: every game that fails this is {CAP} decisions long" in proc.stdout
    assert proc.stdout.strip().endswith("0 passed, 1 failed")
    proc = rulecraft(folder, "replay", "rulecraft-failures/never.failure.yaml", "-q")
    assert proc.returncode == 1 and f"{CAP} decisions replayed, each legal; then 'the game ends' breaks" in proc.stdout


def test_test_still_tells_how_long_the_games_that_ended_were(folder):
    proc = rulecraft(folder, "test", "sometimes.rules", "--shallow", "--seed", "1")
    assert proc.returncode == 1 and SENTENCE in proc.stdout
    assert re.search(r"^     \d+ games? ended before it, \d+(–\d+ decisions \(median \d+\)| decisions? each)$",
                     proc.stdout, re.M), proc.stdout


def test_simulate_and_tournament_say_so_and_fail_when_no_game_ended(folder):
    proc = rulecraft(folder, "simulate", "never.rules", "-n", "2", "-w", "1")
    assert proc.returncode == 1 and f"rulecraft: error: never.rules: 2 of the 2 games have {ENDING}\n" in proc.stderr
    assert "finished: 0 of 2" in proc.stdout
    proc = rulecraft(folder, "tournament", "never.rules", "-a", "random,first", "-n", "1", "-w", "1", "--json")
    assert proc.returncode == 1 and f"rulecraft: error: 2 of the 2 games have {ENDING}\n" in proc.stderr


def test_simulate_measures_the_games_that_ended_and_warns_of_the_others(folder):
    proc = rulecraft(folder, "simulate", "sometimes.rules", "-n", "6", "-w", "1")
    assert proc.returncode == 0
    assert f"rulecraft: warning: sometimes.rules: 1 of the 6 games has {ENDING}\n" in proc.stderr
    assert "finished: 5 of 6" in proc.stdout


def test_play_stops_at_the_cap_with_the_same_sentence(folder):
    """A person can always quit; typing an answer for ever still ends at the cap, saying why."""
    proc = rulecraft(folder, "play", "never.rules", "--seat", "1", "--seed", "1", stdin="1\n" * CAP)
    assert proc.returncode == 1 and proc.stderr == f"runtime error: {SENTENCE}\n"
    assert proc.stdout.count("Player 1> ") == CAP // 2


def test_explore_plays_past_hypothesis_draws_the_same_games_each_time(folder):
    """Hypothesis draws a game's first choices, a Random seeded by the game's seed the rest: games longer
    than hypothesis could draw end (or reach the cap), the same for the same seed."""
    program = load_file(folder / "sometimes.rules")
    runs = []
    for _ in range(2):
        lengths: list = []
        played, failure = explore.explore_one(program, 2, {}, 20, seed=1, deep=False, lengths=lengths)
        runs.append((played, lengths, failure.seed, failure.decisions))
    assert runs[0] == runs[1]
    played, lengths, _seed, decisions = runs[0]
    assert len(decisions) == CAP and any(n > explore.HYPOTHESIS_PICKS for n in lengths)
