"""Trick-taking in the standard library, and the two general constructs it stands on.

- Type parameters (`def led_suit[C](trick: Zone[C])`): checked at each use, compiled as the
  same def written by hand for the card type of the use.
- `c.came_from`: the zone a card last left (so `c.came_from.owner` is who played it to a
  shared zone); kept only by programs that read it, through copies, saves, pickles and samples.
- stdlib/tricks: the led suit, following suit, the trick's winner with or without trumps.

The misuses are in tests/diagnostics/ (type_parameters, came_from, tricks_module_misuse) and
docs/language.md.
"""
from __future__ import annotations

import pickle
import random

import pytest

from rulecraft.check.checker import check
from rulecraft.check.modules import load_declarations, stdlib_modules
from rulecraft.compile import codegen
from rulecraft.diagnostics import Span
from rulecraft.engine import determinize, machine, records, scenarios
from rulecraft.engine.observe import render
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError
from rulecraft.validate.properties import play_checked

from helpers import ROOT, card_id, zone_instance

COINS = '''game "Coins"
players 2
card Coin(value: 1..3) named "coin {value}"
card Gem(value: 1..5, colour: Str) named "{colour} gem"
cards coins = [Coin(v) for v in 1..3]
cards gems = [Gem(2, "red"), Gem(5, "blue")]
zone purse of Coin
zone casket of Gem
DEFS
rule play:
    move coins to purse
    move gems to casket
    say "{best(purse)} {worth(top(purse))} {worth(bottom(purse))}"
'''

GENERIC = '''def best[C](z: Zone[C]): C = max(c in z by c.value)
def worth[C](c: C): Int = c.value * 2
'''

BY_HAND = '''def best(z: Zone[Coin]): Coin = max(c in z by c.value)
def worth(c: Coin): Int = c.value * 2
'''


def generated(path) -> list[str]:
    """The Python source of every function the compiler writes for these rules, in order."""
    out = []
    original = codegen.Namespace.define

    def define(self, name, head, lines, label, span=None):
        out.append(head + "\n" + "".join("    " * ind + text + "\n" for ind, text, _ in lines))
        return original(self, name, head, lines, label, span)
    codegen.Namespace.define = define
    try:
        load_file(path)
    finally:
        codegen.Namespace.define = original
    return out


def said(m) -> list[str]:
    """What the rules said so far, as the omniscient account tells it."""
    return [render(line[2], None) for line in m.sink]


def lowered(path):
    loaded = load_declarations(path)
    diags = list(loaded.diagnostics)
    prog = check(loaded.decls, loaded.originals, diags, Span(str(path), 1, 1))
    assert prog is not None, diags
    return prog


# ------------------------------------------------------------------ type parameters
def test_a_generic_def_compiles_to_the_code_of_the_same_def_written_by_hand(rules_file):
    generic = generated(rules_file(COINS.replace("DEFS", GENERIC), "generic.rules"))
    by_hand = generated(rules_file(COINS.replace("DEFS", BY_HAND), "by_hand.rules"))
    assert generic == by_hand
    assert any("K" in src and "rt_nothing('max')" in src for src in generic)    # (the defs are really there: max … by, a loop)


def test_each_set_of_types_gets_one_copy_shared_by_its_uses(rules_file):
    prog = lowered(rules_file(COINS.replace("DEFS", GENERIC).replace(
        '{worth(bottom(purse))}"', '{worth(bottom(purse))} {best(casket)} {worth(top(casket))}"')))
    assert sorted(prog.defs) == ["best[Coin]", "best[Gem]", "worth[Coin]", "worth[Gem]"]
    assert str(prog.defs["best[Gem]"].type) == "Gem"


def test_a_generic_rule_with_a_choice_gets_a_choice_per_card_type(rules_file):
    text = COINS.replace("DEFS", '''
rule take_one[C](p: Player, z: Zone[C], to: Zone[C]):
    p chooses c in z as "take {c}":
        move c to to
zone kept of Coin per player
zone jewels of Gem per player
''').replace('    say "{best(purse)} {worth(top(purse))} {worth(bottom(purse))}"\n', '''    take_one(player(1), purse, player(1).kept)
    take_one(player(2), casket, player(2).jewels)
    say "{player(1).kept} {player(2).jewels}"

scenario both "one coin, then one gem":
    take "take coin 2"
    expect legal "take blue gem" and not legal "take coin 3"
    take "take blue gem"
    expect over
''')
    program = load_file(rules_file(text))
    assert [c.rule for c in program.choices] == ["take_one[Coin]", "take_one[Gem]"]
    assert program.action_count == 3 + 2       # the universe of each copy: its card type
    assert all(r.ok for r in scenarios.run_all(program)), [r.message for r in scenarios.run_all(program)]


def test_a_generic_def_may_call_itself_and_other_generic_defs(rules_file):
    text = COINS.replace("DEFS", '''def worth[C](c: C): Int = c.value * 2
def best[C](z: Zone[C]): C = max(c in z by worth(c))
def total[C](xs: List[C]): Int = if empty(xs) then 0 else worth(xs[0]) + total([x for x in xs if x != xs[0]])
''').replace("{worth(bottom(purse))}", "{total(list(purse))} {total(list(casket))}")
    program = load_file(rules_file(text))
    s = machine.new_game(program, 2, seed=1, sink=[])
    assert s.over
    assert said(s) == ["coin 3 6 12 14"]


def test_a_variant_overrides_a_generic_def_and_calls_the_original_for_the_same_types(rules_file):
    rules_file(COINS.replace("DEFS", GENERIC), "base.rules")
    variant = rules_file('extends "base.rules"\noverride def worth[C](c: C): Int = original(c) * 10\n', "variant.rules")
    s = machine.new_game(load_file(variant), 2, seed=1, sink=[])
    assert said(s) == ["coin 3 60 20"]         # worth is value * 2 in the base game


# ------------------------------------------------------------------ came_from
TABLE = '''game "Table"
players 3
card Chip(n: 1..9) named "chip {n}"
cards chips = [Chip(n) for n in 1..9]
zone hand of Chip per player, seen by owner
zone table of Chip
zone box of Chip, seen by nobody
var last: Player
rule setup:
    move chips to box
    for c in chips:
        move c to players[c.n mod 3].hand
rule play:
    for p in players:
        p chooses c in p.hand as "play {c}":
            move c to table
    let best = max(c in table by c.n)
    last = best.came_from.owner
    say "{best.came_from.owner} played {best}, from {best.came_from}"
    p_again()
rule p_again:
    player(1) chooses c in player(1).hand as "again {c}":
        move c to table
'''


def came_from(m, card: int) -> int:
    return m.where[len(m.program.card_names) + card]


def test_came_from_names_the_zone_a_card_left_and_its_owner_who_played_it(rules_file):
    program = load_file(rules_file(TABLE))
    assert program.tracks_came_from
    m = machine.new_game(program, 3, seed=4, sink=[])
    assert len(m.where) == 2 * len(program.card_names)
    hand = {p: zone_instance(program, "hand", p) for p in range(3)}
    assert all(came_from(m, c) == zone_instance(program, "box") for c in range(9))    # dealt from the box
    for seat, label in ((0, "play chip 3"), (1, "play chip 1"), (2, "play chip 2")):
        machine.decide(m, machine.option_labelled(m, label))
        played = card_id(program, label.removeprefix("play "))
        assert came_from(m, played) == hand[seat]
    assert m.vars[[v.slot for v in program.vars if v.name == "last"][0]] == 0     # chip 3, played by seat 1
    assert said(m) == ["Player 1 played chip 3, from chip 6, chip 9"]     # (a zone is shown as its cards)


def test_came_from_survives_copy_save_load_and_pickle(rules_file):
    program = load_file(rules_file(TABLE))
    m = machine.new_game(program, 3, seed=2)
    rnd = random.Random(2)
    while not m.over and m.decisions < 3:
        ids = machine.legal_ids(m)
        machine.decide(m, ids[rnd.randrange(len(ids))])
    tail = m.where[len(program.card_names):]
    assert any(z >= 0 for z in tail)
    copy = m.copy()
    assert copy.same_as(m) and copy.where == m.where and copy.where is not m.where
    data = records.state_to_data(m)
    assert data["came_from"] == tail
    back = records.state_from_data(program, records._yaml().load(records.dump(data)), m.n, m.names)
    assert back.same_as(m) and back.where == m.where
    again = pickle.loads(pickle.dumps(m))
    assert again.where == m.where and again.same_as(m)
    data["came_from"] = data["came_from"][:-1]
    with pytest.raises(Exception, match="the zone each card came from"):
        records.state_from_data(program, data, m.n, m.names)


def test_came_from_is_the_same_in_every_game_of_the_same_decisions(rules_file):
    program = load_file(rules_file(TABLE))
    runs = []
    for _ in range(2):
        m = machine.new_game(program, 3, seed=9)
        rnd = random.Random(9)
        while not m.over:
            ids = machine.legal_ids(m)
            machine.decide(m, ids[rnd.randrange(len(ids))])
        runs.append(m.where)
    assert runs[0] == runs[1]


def test_a_program_that_does_not_read_came_from_pays_nothing_for_it(rules_file):
    text = TABLE.replace("    last = best.came_from.owner\n", "").replace(
        "{best.came_from.owner} played {best}, from {best.came_from}", "{best} wins")
    program = load_file(rules_file(text))
    assert not program.tracks_came_from
    assert len(machine.new_game(program, 3, seed=1).where) == len(program.card_names)
    source = "".join(generated(rules_file(text, "plain.rules")))
    assert "rt_move_list_from(" not in source and " + 9] = " not in source
    assert "came_from" not in records.state_to_data(machine.new_game(program, 3, seed=1))
    tracked = "".join(generated(rules_file(TABLE, "tracked.rules")))
    assert " + 9] = _s" in tracked and "rt_move_list_from(m, 9, " in tracked     # (9 cards: where each left, after their places)


def test_a_card_that_came_from_no_zone_or_a_zone_with_no_owner_stops_the_rules(rules_file):
    fresh = rules_file('''game "Fresh"
players 1
card Chip(n: 1..2)
cards chips = [Chip(n) for n in 1..2]
zone pile of Chip
rule play:
    move chips to pile
    move top(pile) to top(pile).came_from
''', "fresh.rules")
    with pytest.raises(RulesRuntimeError, match="Chip 2 came from no zone"):
        machine.new_game(load_file(fresh), 1, seed=0)
    shared = rules_file('''game "Shared"
players 1
card Chip(n: 1..2)
cards chips = [Chip(n) for n in 1..2]
zone pile of Chip
zone heap of Chip
rule play:
    move chips to pile
    move top(pile) to heap
    let p = top(heap).came_from.owner
''', "shared.rules")
    with pytest.raises(RulesRuntimeError, match="pile is not a player's zone, so it has no owner"):
        machine.new_game(load_file(shared), 1, seed=0)


PASS = '''game "Pass"
players 3
card Chip(n: 1..9) named "chip {n}"
cards chips = [Chip(n) for n in 1..9]
zone hand of Chip per player, seen by owner
zone box of Chip, seen by nobody
rule setup:
    move chips to box
    for c in chips:
        move c to players[c.n mod 3].hand
rule play:
    player(1) chooses c in player(1).hand as "pass {c}":
        move c to player(2).hand
    player(2) chooses c in player(2).hand as "keep {c}":
        say "{c} came from {if c.came_from == player(1).hand then "player 1" else "the box"}"
'''


def test_a_sample_keeps_where_the_cards_of_each_hidden_zone_came_from(rules_file):
    """Player 3 knows that one card of player 2's hand came from player 1's, not which: a sample
    deals the hidden cards again, and each hand still holds cards from where its cards came from."""
    program = load_file(rules_file(PASS))
    m = machine.new_game(program, 3, seed=0)
    machine.decide(m, machine.option_labelled(m, "pass chip 3"))
    n = len(program.card_names)

    def histories(state):
        return [sorted(state.where[n + c] for c in z) for z in state.zones]
    moved = 0
    for k in range(8):
        other = determinize.sample(m, 2, random.Random(k))
        assert histories(other) == histories(m)
        moved += other.where[:n] != m.where[:n]
    assert moved       # (the samples did deal the hidden cards again)


def test_whist_plays_with_every_property_checked():
    """examples/whist.rules, on stdlib/tricks and came_from: saves, copies, views and samples hold."""
    program = load_file(ROOT / "examples" / "whist.rules")
    assert program.tracks_came_from
    for seed in range(3):
        rnd = random.Random(seed)
        outcome = play_checked(program, 4, {}, seed, lambda k: rnd.randrange(k))
        assert outcome.final.over


# ------------------------------------------------------------------ stdlib/tricks
TRICKS = '''game "Little tricks"
players 3
import tricks
enum Suit: Acorns, Bells, Leaves
card Playing(suit: Suit, rank: 1..6) named "{rank} of {suit}"
cards deck_cards = [Playing(s, r) for s in Suit for r in 1..6]
zone hand of Playing per player, seen by owner
zone trick of Playing
var trump: Suit?
var winner: Player?
rule play:
    for p in players:
        p chooses c in p.hand where may_play(c, p.hand, trick) as "play {c}":
            move c to trick
    winner = trick_winner(trick, trump)

scenario follow "following suit if able, and the highest of the led suit wins without trumps":
    arrange:
        move [Playing("2 of Acorns"), Playing("6 of Bells")] to player(1).hand
        move [Playing("5 of Acorns"), Playing("6 of Leaves")] to player(2).hand
        move [Playing("1 of Leaves"), Playing("3 of Leaves")] to player(3).hand
    expect legal "play 2 of Acorns" and legal "play 6 of Bells"
    take "play 2 of Acorns"
    expect legal "play 5 of Acorns" and not legal "play 6 of Leaves"
    take "play 5 of Acorns"
    expect legal "play 1 of Leaves" and legal "play 3 of Leaves"
    expect led_suit(trick) == Acorns and winning_card(trick, trump) == Playing("5 of Acorns")
    take "play 1 of Leaves"
    expect winner == player(2)

scenario trumps "the lowest trump beats the led suit's best":
    arrange:
        trump = Leaves
        move Playing("2 of Acorns") to player(1).hand
        move Playing("6 of Acorns") to player(2).hand
        move Playing("1 of Leaves") to player(3).hand
    take "play 2 of Acorns"
    take "play 6 of Acorns"
    take "play 1 of Leaves"
    expect winner == player(3)
'''


def test_stdlib_tricks_follows_suit_and_finds_the_winner_with_and_without_trumps(rules_file):
    program = load_file(rules_file(TRICKS))
    results = scenarios.run_all(program)
    assert [r.name for r in results] == ["follow", "trumps"]
    assert all(r.ok for r in results), [r.message for r in results if not r.ok]


def test_stdlib_tricks_reads_ranks_of_an_ordered_enum_as_well_as_numbers(rules_file):
    pips = 'enum Pip: One "1", Two "2", Three "3", Four "4", Five "5", Six "6"'
    text = TRICKS.replace("rank: 1..6", "rank: Pip").replace("for r in 1..6", "for r in Pip") \
        .replace("import tricks\n", "import tricks\n" + pips + "\n")
    results = scenarios.run_all(load_file(rules_file(text)))
    assert len(results) == 2 and all(r.ok for r in results), [r.message for r in results if not r.ok]


def test_stdlib_tricks_is_a_module_that_checks_alone():
    assert load_file(stdlib_modules()["tricks"], module=True) is None      # checked, nothing to compile
