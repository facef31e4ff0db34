"""`expect said "text"` in a scenario: the narration since the last `take` must contain the text.

It checks a moment no decision stops at; here the bonus is said, then spent, before the
next question, so only the narration can show it."""
from __future__ import annotations

from rulecraft.engine.scenarios import run_all
from rulecraft.loader import load_file

BONUS = '''game "Bonus"
players 2
var bank: Int per player
rule play:
    for p in players:
        p chooses k in 1..2 as "take {k}":
            p.bank += k
            say "{p} banks {k}"
            if k == 2:
                say "{p} gets a bonus"
score p = p.bank

'''


def result(rules_file, steps):
    return run_all(load_file(rules_file(BONUS + 'scenario s "s":\n' + steps)))[0]


def test_what_was_said_since_the_last_take_passes(rules_file):
    r = result(rules_file, '    take "take 2"\n    expect said "Player 1 gets a bonus"\n')
    assert r.ok, r.message


def test_what_was_not_said_fails_with_what_was(rules_file):
    r = result(rules_file, '    take "take 1"\n    expect said "Player 1 gets a bonus"\n')
    assert not r.ok
    assert "expected the narration to say 'Player 1 gets a bonus'" in r.message
    assert "it said: Player 1 banks 1" in r.message


def test_only_the_narration_since_the_last_take_counts(rules_file):
    r = result(rules_file, '    take "take 2"\n    take "take 1"\n    expect said "Player 1 gets a bonus"\n')
    assert not r.ok and "it said: Player 2 banks 1" in r.message
