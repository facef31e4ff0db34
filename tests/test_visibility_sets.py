"""Who sees a zone or a value, as a set of seats that changes during play (issue 28): `seen by others`,
and `show X to …` / `hide X from …` (State.seen). Views, news, samples, memory and saves all read the one
set; the observation property catches a leak through it (the planted leaks below pass if the set
is ignored: checked by making `hide` do nothing and reading `others` as `all`)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.engine import determinize, records
from rulecraft.engine.observe import Observer
from rulecraft.engine.session import Session
from rulecraft.engine.views import view
from rulecraft.engine.whereabouts import Whereabouts
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError
from rulecraft.validate import explore

from helpers import zone_instance

HERE = Path(__file__).resolve().parent / "visibility"
TOLD = "a seat is told only what it may know"


@pytest.fixture(scope="module")
def peek():
    return load_file(HERE / "peek.rules")


@pytest.mark.parametrize("name", ["leak_after_hide", "leak_facing_out", "leak_value_hidden", "leak_offer_unrevealed"])
def test_a_planted_leak_through_the_set_is_found(name):
    report = explore.explore(load_file(HERE / f"{name}.rules"), 60)
    assert [f.prop for f in report.failures] == [TOLD]


@pytest.mark.parametrize("name", ["peek", "sealed_bids", "open_offer"])
def test_games_that_show_and_hide_pass(name):
    """(open_offer: an offer made from a hidden hand, with `reveal` in its label: the docs' example)"""
    assert explore.explore(load_file(HERE / f"{name}.rules"), 60).failures == []


def test_a_value_shown_to_all_is_told_to_all():
    program = load_file(HERE / "sealed_bids.rules")
    s = Session.start(program, "bids", 3, 1)
    observers = [Observer(s, seat) for seat in range(3)]
    for k in (2, 4, 5):
        assert view(s.state, 1)["vars"]["bid"]["Player 1"] == "hidden"      # until all have bid
        s.take_label(f"bid {k}")
    for seat in range(3):
        assert view(s.state, seat)["vars"]["bid"] == {"Player 1": "2", "Player 2": "4", "Player 3": "5"}
        assert "bids: 2, 4, 5" in observers[seat].news()
    again = records.state_from_data(program, records.state_to_data(s.state), 3, s.state.names)
    assert again.same_as(s.state)


def test_facing_out_and_a_peek_in_views(peek):
    s = Session.start(peek, "peek", 3, 1)
    first = [view(s.state, seat) for seat in range(3)]
    for seat in range(3):
        for other in range(3):
            faces = first[seat]["zones"]["faces"][f"Player {other + 1}"]
            assert (faces == {"hidden": 1}) == (seat == other)        # seen by all but its owner
            hand = first[seat]["zones"]["hand"][f"Player {other + 1}"]
            assert (hand == {"hidden": 1}) == (seat != other)
    news = Observer(s, 0), Observer(s, 1)
    s.take_label("peek at Player 3")
    hand3 = s.state.zones[zone_instance(peek, "hand", 2)]
    assert view(s.state, 0)["zones"]["hand"]["Player 3"] == [peek.card_names[hand3[0]]]
    assert view(s.state, 1)["zones"]["hand"]["Player 3"] == {"hidden": 1}
    told = news[0].news()
    assert f"Player 3 holds {peek.card_names[hand3[0]]}" in told
    assert news[1].news()[-1:] == ["Player 1: peek at Player 3"]
    # the set is part of the game: it is saved and read back
    again = records.state_from_data(peek, records.state_to_data(s.state), 3, s.state.names)
    assert again.same_as(s.state) and again.seen != peek.seen_masks[3]
    # a sample keeps what the seat was shown, and deals again what it was not
    rng = random.Random(0)
    for _ in range(10):
        world = determinize.sample(s.state, 0, rng)
        assert world.zones[zone_instance(peek, "hand", 2)] == hand3
    assert any(determinize.sample(s.state, 1, rng).zones[zone_instance(peek, "hand", 2)] != hand3 for _ in range(20))
    s.take_label("pick 1")                  # player 1's hand is hidden from all, its owner too
    assert all(view(s.state, seat)["zones"]["hand"]["Player 1"] == {"hidden": 1} for seat in range(3))


def test_memory_keeps_a_card_seen_in_a_zone_shown_then_hidden():
    program = load_file(HERE / "peek.rules")
    s = Session.start(program, "peek", 3, 1)
    memory = Whereabouts(s.state)
    s.take_label("peek at Player 3")
    memory.note(s.state)
    inst = zone_instance(program, "hand", 2)
    (card,) = s.state.zones[inst]
    assert memory.of(0)[card] == 1 << inst
    assert memory.of(1)[card] != 1 << inst        # player 2 never saw it


def test_a_shuffle_is_told_without_its_order_where_sets_change(tmp_path):
    path = tmp_path / "shown.rules"
    path.write_text((HERE / "peek.rules").read_text().replace("zone deck of Gem, seen by nobody", "zone deck of Gem"))
    program = load_file(path)
    s = Session.start(program, "shown", 3, 1)
    assert "deck is shuffled" in Observer(s, 0).news()


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_hanabi_hands_are_seen_by_everyone_but_their_owner():
    program = load_file(EXAMPLES / "hanabi.rules")
    s = Session.start(program, "hanabi", 3, 5)
    rng = random.Random(1)
    hands = [zone_instance(program, "hand", k) for k in range(3)]
    for seat in range(3):
        zones = view(s.state, seat)["zones"]["hand"]
        for k in range(3):
            assert (zones[f"Player {k + 1}"] == {"hidden": 5}) == (k == seat)
        worlds = [determinize.sample(s.state, seat, rng) for _ in range(10)]
        for k in range(3):
            if k != seat:       # the hands a seat sees are the same in every game it imagines
                assert all(w.zones[hands[k]] == s.state.zones[hands[k]] for w in worlds)
        assert any(w.zones[hands[seat]] != s.state.zones[hands[seat]] for w in worlds)


def test_a_baron_compares_hands_seen_by_exactly_the_two():
    program = load_file(EXAMPLES / "love-letter.rules")
    for seed in range(200):
        s = Session.start(program, "love", 4, seed)
        if "play Baron" not in [s.label(i) for i in s.legal_ids()]:
            continue
        s.take_label("play Baron")
        targets = [label for label in [s.label(i) for i in s.legal_ids()] if label.startswith("compare with")]
        if not targets:
            continue
        observers = [Observer(s, seat) for seat in range(4)]
        for o in observers:
            o.news()
        s.take_label(targets[0])
        p, q = 0, int(targets[0].split()[-1]) - 1
        if s.state.zones[zone_instance(program, "hand", p)] and s.state.zones[zone_instance(program, "hand", q)]:
            continue        # a tie: both stay in; look for a comparison with a loser
        line = next(text for text in observers[2 if q != 2 else 3].news() if "compare hands" in text)
        assert line.endswith("compare hands: a Letter against a Letter.")
        for seat in (p, q):
            told = next(text for text in observers[seat].news() if "compare hands" in text)
            assert "a Letter" not in told
        winner = p if s.state.zones[zone_instance(program, "hand", p)] else q
        for seat in range(4):
            hand = view(s.state, seat)["zones"]["hand"][f"Player {winner + 1}"]
            assert (hand == {"hidden": 1}) == (seat not in (p, q)), (seat, hand)
        return
    pytest.fail("no Baron's comparison with a loser in 200 games")


def test_others_of_a_table_zone_reached_through_a_def_is_a_runtime_error(tmp_path):
    path = tmp_path / "table.rules"
    path.write_text('game "Table"\nplayers 2\ncard Gem(n: 1..3)\nzone pile of Gem\n'
                    'def where: Zone[Gem] = pile\nrule play:\n    hide where from others\n')
    program = load_file(path)
    with pytest.raises(RulesRuntimeError, match="`others` leaves out an owner, and this belongs to the table"):
        Session.start(program, "table", 2, 0)


def test_an_observation_tensor_follows_the_set(peek):
    """What an RL agent is given (tensors.Encoder) shows a hand once it is shown to its seat, not before."""
    from rulecraft.tensors import Encoder
    encoder = Encoder(peek, 3)
    s = Session.start(peek, "peek", 3, 1)
    before = [encoder.encode(s.state, seat) for seat in range(3)]
    s.take_label("peek at Player 3")
    after = [encoder.encode(s.state, seat) for seat in range(3)]
    assert sum(after[0]) > sum(before[0])              # player 1 now sees player 3's card
    hidden = s.state.copy()
    hidden.seen = peek.seen_masks[3]                   # the same game, had the look not happened
    assert encoder.encode(hidden, 0) != after[0] and encoder.encode(hidden, 1) == after[1]
