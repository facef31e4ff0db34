"""`c.came_from`: the zone a card last left, so `c.came_from.owner` is who played it to a shared
zone. Kept only by programs that read it, and then through copies, saves, pickles and samples.

The misuses are in tests/diagnostics/came_from.rules and docs/language.md.
"""
from __future__ import annotations

import pickle
import random

import pytest

from rulecraft.compile import codegen
from rulecraft.engine import determinize, machine, records
from rulecraft.engine.observe import render
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError

from helpers import card_id, zone_instance


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
