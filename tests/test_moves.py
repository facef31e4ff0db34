"""`move LIST to Z` (runtime.helpers.rt_move_list) is the same as moving its cards one at a time.

It moves a list in one pass, and a run of cards that are in no zone yet (all of a type at
setup) with no loop at all; whatever the list — repeated cards, a run, cards already in
zones, the destination itself among their zones — the zones and places must end as if each
card were moved in turn (to the bottom: each under the last).
"""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulecraft.runtime.helpers import rt_move_list

CARDS = 24
ZONES = 3


class _State:
    def __init__(self, places):
        self.zones = [[] for _ in range(ZONES)]
        self.where = [-1] * CARDS
        for card, zone in enumerate(places):
            if zone >= 0:
                self.zones[zone].append(card)
                self.where[card] = zone


def one_at_a_time(m, cards, dst, bottom):
    for c in cards:
        if m.where[c] >= 0:
            m.zones[m.where[c]].remove(c)
        if bottom:
            m.zones[dst].insert(0, c)
        else:
            m.zones[dst].append(c)
        m.where[c] = dst


few_placed = st.dictionaries(st.integers(0, CARDS - 1), st.integers(0, ZONES - 1), max_size=2).map(
    lambda placed: [placed.get(c, -1) for c in range(CARDS)])     # a setup: most cards in no zone yet
places = st.one_of(few_placed, st.lists(st.integers(-1, ZONES - 1), min_size=CARDS, max_size=CARDS))
runs = st.tuples(st.integers(0, CARDS - 1), st.integers(0, CARDS)).map(lambda t: list(range(t[0], min(CARDS, t[0] + t[1]))))
lists = st.one_of(runs, st.lists(st.integers(0, CARDS - 1), max_size=30))


@given(places, lists, st.integers(0, ZONES - 1), st.booleans())
def test_a_list_moves_as_its_cards_one_at_a_time(where, cards, dst, bottom):
    a, b = _State(where), _State(where)
    rt_move_list(a, cards, dst, bottom)
    one_at_a_time(b, cards, dst, bottom)
    assert a.zones == b.zones and a.where == b.where


def test_a_run_of_cards_in_no_zone_yet_lands_in_order():
    m = _State([-1] * CARDS)
    rt_move_list(m, range(3, 20), 1, False)
    assert m.zones[1] == list(range(3, 20)) and m.where[3:20] == [1] * 17 and m.where[:3] == [-1] * 3


TAKE = '''game "Take"
players 2
card Chip(n: 1..4) named "chip {n}"
cards chips = [Chip(n) for n in 1..4]
zone pool of Chip per player
zone hand of Chip per player
rule play:
    for p in players:
        move chips to p.pool
        p chooses c in p.pool where c.n > 1 as "take {c}":
            move c to next_player(p).hand
'''


def test_a_chosen_card_moved_first_is_taken_from_where_it_was_chosen(tmp_path, monkeypatch):
    """An option's block that moves the chosen card first takes it from the choice's zone without
    looking its place up (compile/rules.py, `taken_from`): the zones and places end as they must."""
    from helpers import cards_in, placement_problems
    from rulecraft.compile import codegen
    from rulecraft.engine import machine
    from rulecraft.loader import load_file

    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = tmp_path / "take.rules"
    path.write_text(TAKE)
    sources = []
    define = codegen.Namespace.define
    monkeypatch.setattr(codegen.Namespace, "define", lambda self, name, head, lines, label, span=None: (
        sources.append("".join(t for _i, t, _s in lines if isinstance(t, str))), define(self, name, head, lines, label, span))[1])
    m = machine.new_game(load_file(path), 2, None, 0)
    assert any(".remove(v" in src and "_s = m.where" not in src for src in sources)
    machine.decide(m, machine.option_labelled(m, "take chip 3"))
    assert placement_problems(m) == [] and cards_in(m, "pool", 1) == ["chip 1", "chip 2", "chip 3", "chip 4"]
    machine.decide(m, machine.option_labelled(m, "take chip 2"))
    assert m.result is not None and placement_problems(m) == []
    # the second `move chips` took every chip back, chip 3 from the second player's hand too
    assert cards_in(m, "hand", 0) == ["chip 2"] and cards_in(m, "hand", 1) == []
    assert cards_in(m, "pool", 0) == [] and cards_in(m, "pool", 1) == ["chip 1", "chip 3", "chip 4"]
