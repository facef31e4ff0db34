"""Constructs added to the language from real authoring (issue 11): each played, not only checked.

One small rule file per construct, run through the whole pipeline (parse, check, lower,
compile, engine); the misuses are in tests/diagnostics/ and docs/language.md.
"""
from __future__ import annotations

import pytest

from rulecraft.engine import machine, scenarios
from rulecraft.loader import load_file

PICK = '''game "Pick"
players 2
var total: Int
var last: Int
rule play:
    for p in players:
        p chooses k in 1..3 as "take {k}":
            total += k
            last = k
'''


def run(rules_file, text):
    program = load_file(rules_file(text))
    return {r.name: r for r in scenarios.run_all(program)}


def test_expect_deciding_and_checks_joined_by_and(rules_file):
    results = run(rules_file, PICK + '''
scenario good "checks joined by and":
    expect deciding player(1) and legal "take 1" and not legal "take 4"
    take "take 3"
    expect deciding player(2)
    take "take 2"
    expect over

scenario wrong_player "who decides":
    expect deciding player(2)

scenario second_check_fails "a later check of the line fails":
    expect legal "take 1" and legal "take 9"

scenario after_the_end "nobody decides once the game is over":
    take "take 1"
    take "take 1"
    expect deciding player(1)
''')
    assert results["good"].ok
    assert results["wrong_player"].message == "expected Player 2 to be deciding, but Player 1 is"
    assert results["second_check_fails"].message.startswith("'take 9' should be legal")
    assert results["after_the_end"].message == "expected Player 1 to be deciding, but the game is over"


def test_a_failed_and_shows_each_failing_side_with_its_values(rules_file):
    results = run(rules_file, PICK + '''
scenario bad "each failing side shown":
    take "take 3"
    expect total == 4 and last == 3 and size(players) == 3
''')
    message = results["bad"].message
    assert message.startswith("expectation not met: total == 4 does not hold (==): total is 3; 4 is 4; and ")
    assert "size(players) == 3 does not hold (==): size(players) is 2" in message
    assert "last == 3" not in message      # the side that holds is not blamed
