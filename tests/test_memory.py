"""Determinisation with memory: a seat's samples respect everything it has observed, not only what it
sees now (engine/whereabouts.py, engine/determinize.py)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.agents.seat import Seat
from rulecraft.engine import determinize
from rulecraft.engine.observe import Observer
from rulecraft.engine.session import Session
from rulecraft.loader import load_file
from rulecraft.validate import properties

from helpers import card_id, zone_instance

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "memory"


@pytest.fixture(scope="module")
def blackmore():
    return load_file(ROOT / "games" / "blackmore.rules")


@pytest.fixture(scope="module")
def passing():
    return load_file(HERE / "passing.rules")


# ------------------------------------------------------------------ Blackmore: played cards stay played
def test_blackmore_never_samples_a_played_card_into_the_other_hand(blackmore):
    """Issue 26: without memory the opponent's sampled hand held a card already played (face up, then
    won face down) in 10 % of samples after 10 decisions, 33 % after 30, 92 % after 70. Now never."""
    won = [zone_instance(blackmore, "won", p) for p in range(2)]
    hands = [zone_instance(blackmore, "hand", p) for p in range(2)]
    samples = bad = 0
    for seed in range(3):
        s = Session.start(blackmore, "blackmore", 2, seed, narrate=False)
        pick, rng = random.Random(seed), random.Random(100 + seed)
        while not s.over:
            if s.state.decisions >= 10:
                me = s.to_move
                played = {c for z in won for c in s.state.zones[z]}
                for _ in range(3):
                    world = Seat(s, me).sample(rng)
                    samples += 1
                    bad += bool(played & set(world.zones[hands[1 - me]]))
            ids = s.legal_ids()
            s.take(ids[pick.randrange(len(ids))])
    assert samples > 150
    assert bad == 0, f"{bad} of {samples} samples put a played card into the other hand"


# ------------------------------------------------------------------ a card seen going into a hidden pile
def _passing_game(program, seed):
    """The fixture played to player 1's last decision: player 1 gave a card, and saw player 2 show one."""
    s = Session.start(program, "passing", 2, seed, narrate=False)
    pick = random.Random(seed)
    given = shown = None
    while s.state.decisions < 4:
        ids = s.legal_ids()
        choice = ids[pick.randrange(len(ids))]
        label = s.label(choice)
        s.take(choice)
        if label.startswith("give "):
            given = card_id(program, label[5:])
        if label.startswith("show "):
            shown = card_id(program, label[5:])
    return s, given, shown


def test_a_card_seen_going_into_a_hidden_pile_is_sampled_there(passing):
    deck, pile = zone_instance(passing, "deck"), zone_instance(passing, "pile")
    hand2 = zone_instance(passing, "hand", 1)
    for seed in range(6):
        s, given, shown = _passing_game(passing, seed)
        assert s.state.where[shown] == pile and s.to_move == 0
        rng = random.Random(seed)
        given_in = set()
        for _ in range(40):
            world = Seat(s, 0).sample(rng)
            assert world.where[shown] == pile                        # seen going there; nothing left the pile
            assert world.where[given] in (hand2, pile)               # given to player 2, perhaps discarded since
            given_in.add(world.where[given])
            assert sorted(world.zones[deck] + world.zones[hand2] + world.zones[pile]) == \
                sorted(s.state.zones[deck] + s.state.zones[hand2] + s.state.zones[pile])
        assert given_in == {hand2, pile}, "the given card may still be in player 2's hand, or discarded"


def test_samples_with_memory_depend_only_on_what_the_seat_observed(passing, blackmore):
    """Two games the seat cannot tell apart (one sampled from the other, with the same memory) give the
    same samples from the same generator: the deal reads which cards are hidden and what the seat
    remembers of them, never where they truly are."""
    s, _given, _shown = _passing_game(passing, 3)
    games = [s]
    b = Session.start(blackmore, "blackmore", 2, 4, narrate=False)
    for _ in range(25):
        b.take(b.legal_ids()[0])
    games.append(b)
    for s in games:
        viewer = s.to_move
        other = determinize.sample(s.state, viewer, random.Random(5), memory=s.whereabouts)
        assert other.zones != s.state.zones
        a = determinize.sample(s.state, viewer, random.Random(9), memory=s.whereabouts)
        b2 = determinize.sample(other, viewer, random.Random(9), memory=s.whereabouts)
        assert a.zones == b2.zones and a.rng == b2.rng


RULES = sorted([*(ROOT / "games").glob("*.rules"), *(ROOT / "examples").glob("*.rules"), HERE / "passing.rules"])


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_the_truth_is_always_one_of_the_games_a_seat_thinks_possible(path):
    """Memory only rules out what the seat has seen cannot be: every card is where its seat's
    memory allows, for every seat, decision after decision (the first 150 of two games)."""
    program = load_file(path)
    players = max(program.min_players, min(4, program.max_players))
    for seed in range(2):
        s = Session.start(program, "game", players, seed, narrate=False)
        pick = random.Random(seed)
        while not s.over and len(s.history) < 150:
            for viewer in range(players):
                possible = s.whereabouts.of(viewer)
                for c, z in enumerate(s.state.where[:len(program.card_names)]):
                    if z >= 0:
                        assert possible[c] >> z & 1, (seed, viewer, program.card_names[c])
            ids = s.legal_ids()
            s.take(ids[pick.randrange(len(ids))])


def test_the_observation_property_holds_for_the_fixture(passing):
    for program, players in ((passing, 2),):
        for seed in range(4):
            pick = random.Random(seed)
            outcome = properties.play_checked(program, players, {}, seed, lambda n: pick.randrange(n))
            assert outcome.final.result is not None       # a property that fails raises PropertyFailure


def test_a_simulated_game_remembers_as_a_session_does(blackmore):
    """`simulate` plays on a bare table: it follows the seats' memory when an agent samples, so a game
    there is the game a Session plays with the same agents and seeds."""
    from rulecraft.agents.registry import agent_seed, make_agent
    from rulecraft.agents.seat import act
    from rulecraft.simulate.games import Job, game_seed, play

    names = ("ismcts:iterations=8:depth=6", "greedy:samples=2")
    job = Job(str(ROOT / "games" / "blackmore.rules"), 2, (), names, 11, 0, measure=False)
    simulated = play(job)
    seed = game_seed(11, 0)
    s = Session.start(blackmore, "blackmore", 2, seed, narrate=False)
    agents = [make_agent(name, agent_seed(seed, seat)) for seat, name in enumerate(names)]
    while not s.over:
        s.take(act(agents[s.to_move], s))
    assert simulated.scores == tuple(s.state.result[0]) and simulated.decisions == len(s.history)


def test_a_deal_that_the_most_constrained_first_cannot_finish_is_matched():
    """Cards a, b, c may be in zones {0, 1}, {1, 2}, {0, 2}, one place each: drawing a group's places
    at random can leave b none (a in 1, c in 2); the deal is then matched, and both deals that fit
    come out, never one that does not."""
    places = [(0, 0), (1, 0), (2, 0)]
    possible = {10: 0b011, 11: 0b110, 12: 0b101}
    seen = set()
    for seed in range(60):
        rng = random.Random(seed)
        cards = [10, 11, 12]
        dealt = determinize._Deal(places, cards, possible).draw(rng)
        zone_of = {c: z for (z, _i), c in zip(places, dealt)}
        assert all(possible[c] >> zone_of[c] & 1 for c in cards), dealt
        seen.add(tuple(dealt))
    assert seen == {(10, 11, 12), (12, 10, 11)}


def test_the_benchmarks_forgetful_seat_samples_as_before_memory(blackmore):
    """benchmarks/memory.py pits the search against itself without memory: its forgetful seat must
    sample as the package did before (played cards back in the other hand), the real seat must not."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("memory_benchmark", ROOT / "benchmarks" / "memory.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    s = Session.start(blackmore, "blackmore", 2, 0, narrate=False)
    for _ in range(40):
        s.take(s.legal_ids()[0])
    me = s.to_move
    won = {c for p in range(2) for c in s.state.zones[zone_instance(blackmore, "won", p)]}
    other = zone_instance(blackmore, "hand", 1 - me)
    rng = random.Random(1)
    forgetful = sum(bool(won & set(bench.ForgetfulSeat(Seat(s, me)).sample(rng).zones[other])) for _ in range(20))
    remembering = sum(bool(won & set(Seat(s, me).sample(rng).zones[other])) for _ in range(20))
    assert forgetful > 5 and remembering == 0
    assert bench.wilson(30, 60) == pytest.approx((0.3773, 0.6227), abs=1e-3)


def _where_agrees(m) -> bool:
    n = len(m.program.card_names)
    return all(m.where[c] == z for z, cards in enumerate(m.zones) for c in cards) and \
        sum(len(cards) for cards in m.zones) == sum(1 for z in m.where[:n] if z >= 0)


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_a_sample_knows_where_each_card_was_dealt(path):
    """A sample sets `State.where` only for the places a card that may move can be dealt into (a card
    the memory keeps where it is stays there): every card's `where` is still the zone it lies in, with
    memory or without."""
    program = load_file(path)
    players = max(program.min_players, min(4, program.max_players))
    s = Session.start(program, "game", players, 1, narrate=False)
    pick, rng = random.Random(1), random.Random(2)
    while not s.over and len(s.history) < 60:
        me = s.to_move if s.to_move is not None else 0
        for memory in (s.whereabouts, None):
            sample = determinize.Sampler(s.state, me, memory=memory)
            for _ in range(3):
                other = sample(rng)
                if other is not None:
                    assert _where_agrees(other), (path.stem, len(s.history))
        ids = s.legal_ids()
        s.take(ids[pick.randrange(len(ids))])


def test_a_deal_against_a_wrong_memory_still_knows_where_each_card_was_dealt(blackmore):
    """A memory the game contradicts (a game changed by hand) leaves no deal that keeps to it: the cards
    are dealt uniformly, and then every card's `where` is set, a card kept where it was included."""
    s = Session.start(blackmore, "blackmore", 2, 3, narrate=False)
    for _ in range(30):
        s.take(s.legal_ids()[0])
    m = s.state
    me = s.to_move
    possible = list(s.whereabouts.of(me))
    hidden = determinize.hidden_places(m, me)
    zones = {z for z, _i in hidden}
    assert len([z for z in zones if m.zones[z]]) >= 2
    small = min((z for z in zones if m.zones[z]), key=lambda z: len(m.zones[z]))
    for z, i in hidden:                              # every hidden card pinned into the smallest hidden zone
        possible[m.zones[z][i]] = 1 << small
    deal = determinize._Deal(hidden, [m.zones[z][i] for z, i in hidden], possible, [len(z) for z in m.zones],
                             m.where)
    kept = set()
    for seed in range(20):
        other = m.copy()
        deal.into(other, random.Random(seed))
        kept.add(deal._draw(random.Random(seed))[1])
        assert _where_agrees(other)
    assert kept == {False}


def test_a_deal_cut_into_whole_zones_is_uniform_and_keeps_the_remembered_cards(blackmore):
    """Mid-game in Blackmore 2p the deal is three groups that fill whole zones (each won pile, seen won
    face down, and the unseen cards into the deck and the other hand): it is dealt as each group
    shuffled and cut into its zones (`_Deal.plan`). Every unseen card lands in the other hand about
    as often as any other, a won card never leaves its pile, and every card's `where` is its zone."""
    s = Session.start(blackmore, "blackmore", 2, 4, narrate=False)
    while len(s.history) < 30 or len(s.legal_ids()) < 2:
        s.take(s.legal_ids()[0])
    m, me = s.state, s.to_move
    sampler = determinize.Sampler(m, me, memory=s.whereabouts)
    assert [deal.plan is not None for deal in sampler.deals] == [True]
    won = [zone_instance(blackmore, "won", p) for p in range(2)]
    other = zone_instance(blackmore, "hand", 1 - me)
    deck = zone_instance(blackmore, "deck")
    unseen = m.zones[deck] + m.zones[other]
    rng, counts, n = random.Random(5), dict.fromkeys(unseen, 0), 3000
    for _ in range(n):
        sample = sampler(rng)
        assert [sorted(sample.zones[z]) for z in won] == [sorted(m.zones[z]) for z in won]
        assert sorted(sample.zones[deck] + sample.zones[other]) == sorted(unseen)
        assert len(sample.zones[other]) == len(m.zones[other])
        for c in sample.zones[other]:
            counts[c] += 1
    assert _where_agrees(sample)
    expected = n * len(m.zones[other]) / len(unseen)
    assert all(abs(k - expected) < 5 * expected ** 0.5 for k in counts.values()), (expected, counts)
