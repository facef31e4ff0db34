"""`match`: a value by cases (issue 11), played through the whole pipeline.

The misuses are in tests/diagnostics/match_cases.rules and syntax_match_*.rules, and in
docs/language.md; here, what a match gives, in each place it may stand and in each of the
two forms it is compiled to (a table made at load, or cases tested in order).
"""
from __future__ import annotations

from rulecraft.engine import machine, scenarios
from rulecraft.format import format_text
from rulecraft.loader import load_file

GAME = '''game "Matches"
players 2
teams North, South
enum Hand: Nothing, Pair, Three, FullHouse "Full House"
enum Colour: Red, Green
enum Light: Red, Amber
card Chip(n: 1..6)
cards chips = [Chip(n) for n in 1..6]
zone pile of Chip
var held: Hand? = none
var said: Str = ""

def points(h: Hand): Int = match h:
    Nothing -> 0
    Pair -> 5
    Three, FullHouse -> 20
def word(n: Int): Str = match n:
    1 -> "one"
    2..4 -> "few"
    -1 -> "minus one"
    else -> "many"
def colour_of(c: Colour): Str = match c:
    Red -> "warm"
    Green -> "cool"
def side(t: Team): Str = match t:
    North -> "left"
    South -> "right"
def yes(b: Bool): Str = match b:
    true -> "yes"
    false -> "no"
def text_code(s: Str): Int = match s:
    "a", "b" -> 1
    else -> 2
def holding: Str = match held:
    none -> "nothing"
    Pair -> "a pair of {held.position}"
    else -> "{held}"
def pile_size(k: Int): Int =
    let twice = k * 2
    match k:
        1 -> size(pile) + twice
        2 -> match twice:
            4 -> 40
            else -> 0
        else -> -1
const lucky = match 7:
    7 -> "seven"
    else -> "not seven"

rule play:
    move chips to pile
    player(1) chooses h in Hand as "call {h}":
        held = h
        let bonus = match h:
            FullHouse -> size(pile)
            else -> 0
        said = match bonus:
            0 -> "no bonus"
            else -> "bonus {bonus}"
score p = match p.seat:
    1 -> points(if held != none then held else Nothing)
    else -> 0
'''


def run(rules_file, text):
    return {r.name: r for r in scenarios.run_all(load_file(rules_file(text)))}


def test_each_kind_of_match_gives_its_case(rules_file):
    results = run(rules_file, GAME + '''
scenario tables "written-out results: tables":
    expect [points(h) for h in Hand] == [0, 5, 20, 20]
    expect [word(k) for k in -1..6] == ["minus one", "many", "one", "few", "few", "few", "many", "many"]
    expect colour_of(Colour.Red) == "warm" and side(teams[1]) == "right" and yes(false) == "no"
    expect text_code("b") == 1 and text_code("c") == 2 and lucky == "seven"

scenario computed "results computed when the rules run: cases in order, none narrowed away":
    expect holding == "nothing" and pile_size(1) == 8 and pile_size(2) == 40 and pile_size(3) == -1
    take "call Pair"
    expect holding == "a pair of 1" and said == "no bonus"

scenario in_a_rule "a let and an assignment in a rule that waits; a score":
    take "call Full House"
    expect holding == "Full House" and said == "bonus 6"
    expect over
    expect score(player(1)) == 20 and score(player(2)) == 0
''')
    for name, r in results.items():
        assert r.ok, (name, r.message)


def test_the_matched_value_is_computed_once(rules_file):
    """Cases tested in order read the matched value once, also through a def called with it: the
    game draws as often as when the value is named first."""
    named = '''game "Once"
players 1
var drawn: Int
def pick(k: Int): Int = match k:
    1 -> player_count
    2, 3 -> player_count + 1
    else -> 0
rule play:
    let r = random(1..6)
    drawn = match r:
        1 -> player_count
        2 -> player_count + 1
        else -> r
    let s = random(1..6)
    drawn += pick(s)
    drawn += random(1..1000)
'''
    direct = named.replace("    let r = random(1..6)\n    drawn = match r:", "    drawn = match random(1..6):") \
        .replace("else -> r\n", "else -> 7\n").replace("    let s = random(1..6)\n    drawn += pick(s)",
                                                      "    drawn += pick(random(1..6))")
    programs = [load_file(rules_file(text, name)) for text, name in ((named, "named.rules"), (direct, "direct.rules"))]
    for seed in range(10):
        ends = [machine.new_game(program, 1, seed=seed).rng for program in programs]
        assert ends[0] == ends[1]        # the same draws, as many


def test_a_table_and_cases_tested_in_order_agree(rules_file):
    """The same table, once with written-out results (a table at load) and once computed (cases in order)."""
    text = '''game "Both"
players 2
enum Deed: Cast, Add, Stir, Rest
var offset: Int = 0
def table(d: Deed): Int = match d:
    Cast -> 1
    Add, Stir -> 2
    else -> 3
def computed(d: Deed): Int = match d:
    Cast -> 1 + offset
    Add, Stir -> 2 + offset
    else -> 3 + offset
rule play:
    pass

scenario same "the same values":
    expect [table(d) for d in Deed] == [computed(d) for d in Deed] and [table(d) for d in Deed] == [1, 2, 2, 3]
'''
    assert run(rules_file, text)["same"].ok


def test_fmt_keeps_a_match_and_lays_it_out(rules_file):
    messy = GAME.replace("    Pair -> 5\n", "    Pair->5\n").replace("    Three, FullHouse -> 20", "    Three ,FullHouse  ->   20")
    assert format_text(messy) == GAME
    assert format_text(GAME) == GAME
