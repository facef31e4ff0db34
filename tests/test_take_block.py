"""`take "…":` in a scenario: expectations checked as the taken option's own block ends (issue 11).

A plain `expect` after `take` sees the game where the rules wait next; the block form sees it
at the end of the option's block, before the rules go on — after the 4th card of a trick, the
trick still on the table. Every way out of the block counts (its end, `stop`, `break`, the
pass's `else:`, an `anytime` option's rule); a block that asks another decision first, or
rules that fail before it ends, fail the scenario with a sentence. Misplaced steps are in
tests/diagnostics/scenario_take_block.rules.
"""
from __future__ import annotations

from rulecraft.engine import machine, scenarios
from rulecraft.loader import load_file

TRICKS = '''game "Tricks"
players 4
card Chip(n: 1..8) named "chip {n}"
cards chips = [Chip(n) for n in 1..8]
zone hand of Chip per player
zone trick of Chip
zone won of Chip per player
var winner: Player? = none
var skipped: Int
var shovels: Int

rule setup:
    for c in chips:
        move c to players[(c.n - 1) mod 4].hand

anytime shovel(p) where shovels == 0 as "use the shovel":
    shovels += 1
    say "{p} digs"

rule play:
    while not empty(player(1).hand):
        for p in players:
            p chooses c in p.hand as "play {c}":
                move c to trick
                say "{p} plays {c}"
        let best = max(c in trick by c.n)
        winner = players[(best.n - 1) mod 4]
        if winner != none:
            move trick to winner.won
        say "the trick is won"
    while true:
        player(1) may choose k in 1..2 as "skip {k}" or "done":
            skipped += k
            if k == 2:
                break
        else:
            skipped = 10
            stop
'''


def run(rules_file, text):
    program = load_file(rules_file(text))
    return {r.name: r for r in scenarios.run_all(program)}


def test_a_block_sees_the_trick_before_it_is_won(rules_file):
    results = run(rules_file, TRICKS + '''
scenario plain "a plain expect sees the next decision: the trick is already won":
    take "play chip 1"
    take "play chip 2"
    take "play chip 3"
    take "play chip 4"
    expect size(trick) == 4

scenario block "the block sees the 4th card on the table; after it, the next decision":
    take "play chip 1"
    take "play chip 2"
    take "play chip 3"
    take "play chip 4":
        expect size(trick) == 4 and winner == none
        expect said "Player 4 plays chip 4"
    expect size(trick) == 0 and winner == player(4)
    expect said "the trick is won"
''')
    assert not results["plain"].ok
    assert results["plain"].message.startswith("expectation not met (==): size(trick) is 0")
    assert results["block"].ok, results["block"].message


def test_a_failed_check_in_a_block_says_where_it_was_checked(rules_file):
    results = run(rules_file, TRICKS + '''
scenario wrong "a wrong expectation in a block":
    take "play chip 1":
        expect size(trick) == 1
        expect size(trick) == 2
''')
    r = results["wrong"]
    assert not r.ok and r.span.line == TRICKS.count("\n") + 5
    assert r.message == ("expectation not met (==): size(trick) is 1; 2 is 2 "
                         "(checked as the block of 'play chip 1' ended)")


def test_stop_break_and_the_pass_end_a_block_too(rules_file):
    game = TRICKS + '''
scenario to_the_skips "all chips played":
''' + "".join(f'    take "play chip {n}"\n' for n in range(1, 9))
    results = run(rules_file, game + '''
    take "skip 1":
        expect skipped == 1
    take "skip 2":
        expect skipped == 3
    expect over

scenario passed "the pass's else: ends with a stop":
''' + "".join(f'    take "play chip {n}"\n' for n in range(1, 9)) + '''    take "done":
        expect skipped == 10
    expect over
''')
    for name in ("to_the_skips", "passed"):
        assert results[name].ok, (name, results[name].message)


def test_an_anytime_option_block_ends_with_its_rule(rules_file):
    results = run(rules_file, TRICKS + '''
scenario shovel "the anytime option's rule ends; the choice asks again":
    take "use the shovel":
        expect shovels == 1
        expect said "Player 1 digs"
    expect deciding player(1) and not legal "use the shovel"
''')
    assert results["shovel"].ok, results["shovel"].message


def test_a_block_that_asks_a_decision_before_it_ends(rules_file):
    text = '''game "Nested"
players 2
var total: Int
rule play:
    player(1) chooses k in 1..2 as "first {k}":
        player(2) chooses j in 1..2 as "then {j}":
            total = k + j
    total += 10
score p = total

scenario nested "the outer block asks the inner decision first":
    take "first 1":
        expect total == 0
    take "then 2"

scenario inner "the inner block ends before the outer one":
    take "first 1"
    take "then 2":
        expect total == 3
    expect over
    expect total == 13
'''
    results = run(rules_file, text)
    assert results["nested"].message == (
        "the block of 'first 1' asks another decision before it ends (Player 2 decides), so what is under "
        "`take \"…\":` cannot be checked as it ends: check it after the block, where the rules wait")
    assert results["inner"].ok, results["inner"].message


def test_rules_that_fail_inside_the_block(rules_file):
    text = '''game "Failing"
players 1
zone pile of Chip
card Chip(n: 1..2)
rule play:
    player(1) chooses k in 1..2 as "pick {k}":
        if k == 2:
            say "{top(pile)}"

scenario fails "the block never ends":
    take "pick 2":
        expect true
'''
    r = run(rules_file, text)["fails"]
    assert not r.ok and r.message.startswith("the rules failed before the block of 'pick 2' ended: ")
    assert "top of an empty zone" in r.message


def test_only_the_rules_compiled_for_scenarios_call_the_watch(rules_file):
    """Play pays nothing for `take "…":`: the rules compiled for it never call the state's watch; the
    twin compiled for scenarios (made when one asks) does, and plays the same game."""
    program = load_file(rules_file(TRICKS))
    twin = program.watched()
    assert twin is not program and twin.watched() is twin and program.watched() is twin
    seen = {}
    for p in (program, twin):
        m = machine.new_game(p, 4)
        calls = []
        m.watch = lambda m, frame, index: calls.append(index)
        for n in range(1, 5):
            machine.decide(m, machine.option_labelled(m, f"play chip {n}"))
        seen[p] = (calls, m.zones, m.vars)
        assert m.copy().watch is None
    assert seen[program][0] == [] and seen[twin][0] == [0, 0, 0, 0]
    assert seen[program][1:] == seen[twin][1:]


def test_fmt_lays_out_a_take_block():
    from rulecraft.format import format_text
    scenario = '''
scenario tidy "laid out":
    take "play chip 1":
        expect size(trick) == 1  # the card is down
    expect true
'''
    messy = scenario.replace('take "play chip 1":', 'take "play chip 1"  :').replace("size(trick) == 1", "size( trick )==1")
    assert format_text(TRICKS + messy) == TRICKS + scenario


def test_a_plain_expect_that_holds_as_the_block_ends_says_where_to_write_it(rules_file):
    """Issue 11, item 8: an author who meant "as the 4th card is played" and wrote a plain `expect` after the
    `take` is told that it holds as that option's block ends, and how to check it there; an expectation
    that is simply wrong gets no such hint."""
    results = run(rules_file, TRICKS + '''
scenario plain "a plain expect sees the next decision: the trick is already won":
    take "play chip 1"
    take "play chip 2"
    take "play chip 3"
    take "play chip 4"
    expect size(trick) == 4

scenario wrong "an expectation that does not hold as the block ends either":
    take "play chip 1"
    expect size(trick) == 2
''')
    plain = results["plain"]
    assert not plain.ok and plain.message.startswith("expectation not met (==): size(trick) is 0")
    assert ("it holds as the block of 'play chip 4' ends: to check it there, before the rules go on, "
            "write it under `take \"play chip 4\":`, indented") in plain.message
    wrong = results["wrong"]
    assert not wrong.ok and "holds as the block" not in wrong.message and "take \"" not in wrong.message
