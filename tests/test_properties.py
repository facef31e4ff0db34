"""Properties of random games of Blackmore, for every player count.

Hypothesis draws the seed and every decision (as an index into the legal
options), so a failure shrinks to a short game that shows it.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import card_number, cards_in, placement_problems
from rulecraft.engine import machine, records, views
from rulecraft.engine.machine import IllegalDecision
from rulecraft.engine.session import Session
from rulecraft.loader import load

PLAYER_COUNTS = pytest.mark.parametrize("n", range(2, 7))
SEEDS = st.integers(0, 2**32 - 1)
ALL_NUMBERS = 6 * sum(range(1, 10))
MAX_DECISIONS = 54 + 54      # every card is played once; at most one trump decision per contest
# writing and reading YAML costs tens of milliseconds: fewer examples for the tests that do it
YAML_BOUND = settings(max_examples=max(5, settings.default.max_examples // 3))


@pytest.fixture(scope="module")
def blackmore_again():
    """A second, separately loaded program: two loads must behave the same."""
    return load("blackmore")


def start(program, n, seed, **kw):
    return Session.start(program, "blackmore", n, seed=seed, **kw)


def pick(data, session) -> int:
    ids = machine.legal_ids(session.state)
    assert ids, "a pending decision without options"
    return ids[data.draw(st.integers(0, len(ids) - 1), label="decision")]


def play_out(data, session, each=None) -> list[int]:
    taken = []
    while not session.over:
        if each is not None:
            each(session)
        option = pick(data, session)
        session.take(option)
        taken.append(option)
        assert len(taken) <= MAX_DECISIONS, "the game does not end"
    return taken


def replay(program, n, seed, ids, **kw) -> Session:
    s = start(program, n, seed, **kw)
    for option in ids:
        s.take(option)
    return s


def transcript(s: Session) -> str:
    return records.dump(records.session_record(s, "transcript"))


# ---------------------------------------------------------------- the game
@PLAYER_COUNTS
@given(seed=SEEDS, data=st.data())
def test_every_card_is_in_one_place_and_the_game_ends(blackmore, n, seed, data):
    s = start(blackmore, n, seed, options={"wheel": data.draw(st.sampled_from([0, 1]), label="wheel")})

    def check(session):
        m = session.state
        assert placement_problems(m) == []
        assert sum(len(z) for z in m.zones) == 54
        assert all(len(cards_in(m, "hand", p)) <= 6 for p in range(n))
        assert len(cards_in(m, "trump_stack")) >= 1
        assert all(m.zones[z] == [] for z in range(len(m.zones)) if blackmore.zone_instance_owner[z] >= n)

    taken = play_out(data, s, check)
    check(s)
    assert s.over and machine.legal_ids(s.state) == ()
    assert 54 // n <= len(taken) <= MAX_DECISIONS
    m = s.state
    assert all(cards_in(m, "hand", p) == [] and cards_in(m, "played", p) == [] for p in range(n))
    assert cards_in(m, "deck") == []


@PLAYER_COUNTS
@given(seed=SEEDS, data=st.data())
def test_scores_are_the_sums_of_the_won_cards(blackmore, n, seed, data):
    s = start(blackmore, n, seed)
    play_out(data, s)
    m = s.state
    won = [sum(card_number(c) for c in cards_in(m, "won", p)) for p in range(n)]
    result = s.scores()
    assert result["scores"] == won
    assert sum(won) + sum(card_number(c) for c in cards_in(m, "trump_stack")) == ALL_NUMBERS
    assert result["winners"] == [p for p in range(n) if won[p] == max(won)]


@PLAYER_COUNTS
@YAML_BOUND
@given(seed=SEEDS, data=st.data())
def test_same_seed_and_decisions_give_the_same_transcript(blackmore, blackmore_again, n, seed, data):
    a = start(blackmore, n, seed)
    ids = play_out(data, a)
    b = replay(blackmore_again, n, seed, ids)
    text = transcript(a)
    assert text == transcript(b)
    assert a.narration == b.narration
    assert a.state.same_as(b.state)
    # and the transcript replays to the same game through the records module
    data_ = records.parse(text)
    again = records.restore(data_, lambda ref: blackmore, narrate=False)
    records.verify_result(data_, again)
    assert records.session_record(again, "transcript") == records.session_record(a, "transcript")


def test_a_different_seed_gives_a_different_deal(blackmore):
    deals = {tuple(map(tuple, start(blackmore, 4, seed).state.zones)) for seed in range(20)}
    assert len(deals) == 20


@PLAYER_COUNTS
@YAML_BOUND
@given(seed=SEEDS, data=st.data())
def test_save_and_load_mid_game_give_the_same_ending(blackmore, n, seed, data):
    s = start(blackmore, n, seed)
    stop = data.draw(st.integers(0, 60), label="save after")
    while not s.over and len(s.history) < stop:
        s.take(pick(data, s))
    saved = records.dump(records.session_record(s, "save"))
    loaded_data = records.parse(saved, "save.yaml")
    resumed = records.restore(loaded_data, lambda ref: blackmore, "save.yaml")
    records.verify_state(loaded_data, resumed, "save.yaml")
    assert resumed.state.same_as(s.state)
    assert records.session_record(resumed, "save") == records.session_record(s, "save")
    rest = play_out(data, s)
    for option in rest:
        resumed.take(option)
    assert resumed.over
    assert resumed.scores() == s.scores()
    assert records.session_record(resumed, "transcript") == records.session_record(s, "transcript")


def test_a_damaged_save_is_refused(blackmore):
    from rulecraft.diagnostics import UserError
    s = start(blackmore, 3, 7)
    for _ in range(5):
        s.take(machine.legal_ids(s.state)[0])
    data = records.parse(records.dump(records.session_record(s, "save")))
    m = data["state"]["zones"]
    hand = next(z for z in m if z)
    other = next(z for z in m if z and z is not hand)
    other.append(hand[0])                   # one card in two places
    with pytest.raises(UserError, match="in two places"):
        records.verify_state(data, records.restore(data, lambda ref: blackmore))
    data = records.parse(records.dump(records.session_record(s, "transcript")))
    data["decisions"][2]["id"] = 10**6
    with pytest.raises(UserError, match="decision 3"):
        records.restore(data, lambda ref: blackmore)


@PLAYER_COUNTS
@given(seed=SEEDS, data=st.data())
def test_a_copy_played_on_leaves_the_original_alone(blackmore, n, seed, data):
    s = start(blackmore, n, seed)
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        if s.over:
            break
        s.take(pick(data, s))
    m = s.state
    before = records.state_to_data(m)
    twin = m.copy()
    assert twin.same_as(m)
    copy = m.copy()
    while not copy.over:
        ids = machine.legal_ids(copy)
        machine.decide(copy, ids[data.draw(st.integers(0, len(ids) - 1), label="copy decision")])
    assert records.state_to_data(m) == before
    assert m.same_as(twin)
    assert not m.over or copy.same_as(m)


# ------------------------------------------------------------------ views
def hidden_instances(m, viewer):
    """Zone instances whose cards the viewer may not see now: by each zone's `seen by`, and by any `show`/`hide` since."""
    return [i for i in range(len(m.zones)) if not views.can_see(m, i, viewer)]


def reshuffle(m, instances, order):
    """Deal the cards of `instances` back out in the given permutation, keeping each instance's size."""
    pool = [c for i in instances for c in m.zones[i]]
    pool = [pool[k] for k in order]
    for i in instances:
        size = len(m.zones[i])
        m.zones[i], pool = pool[:size], pool[size:]
        for c in m.zones[i]:
            m.where[c] = i


@PLAYER_COUNTS
@given(seed=SEEDS, data=st.data())
def test_a_view_does_not_change_when_hidden_cards_are_reshuffled(blackmore, n, seed, data):
    s = start(blackmore, n, seed)
    for _ in range(data.draw(st.integers(0, 50), label="steps")):
        if s.over:
            break
        s.take(pick(data, s))
    m = s.state
    for viewer in range(n):
        seen = views.view(m, viewer)
        instances = hidden_instances(m, viewer)
        count = sum(len(m.zones[i]) for i in instances)
        order = data.draw(st.permutations(range(count)), label="reshuffle")
        other = m.copy()
        reshuffle(other, instances, order)
        assert placement_problems(other) == []
        assert views.view(other, viewer) == seen
        # the viewer's own hand is shown card by card, so the test can see a difference when there is one
        mine = cards_in(m, "hand", viewer)
        assert views.view(m, viewer)["zones"]["hand"][m.names[viewer]] == mine
        hidden_hands = [p for p in range(n) if p != viewer and cards_in(m, "hand", p)]
        if mine and hidden_hands:
            swapped = m.copy()
            theirs = swapped.zones[blackmore.zones[[z.name for z in blackmore.zones].index("hand")].base + hidden_hands[0]]
            own = swapped.zones[blackmore.zones[[z.name for z in blackmore.zones].index("hand")].base + viewer]
            own[0], theirs[0] = theirs[0], own[0]
            assert views.view(swapped, viewer) != seen


def test_views_show_counts_not_cards_of_hidden_zones(blackmore):
    s = start(blackmore, 3, 11)
    v = views.view(s.state, 0)
    assert v["zones"]["deck"] == {"hidden": 54 - 1 - 18}
    assert v["zones"]["hand"]["Player 2"] == {"hidden": 6}
    assert v["zones"]["hand"]["Player 1"] == cards_in(s.state, "hand", 0)
    assert v["zones"]["trump_stack"] == cards_in(s.state, "trump_stack")
    everything = views.view(s.state, None)
    assert everything["zones"]["deck"] == cards_in(s.state, "deck")
    if s.to_move == 0:
        assert v["options"] == [o.label for o in s.legal()]
    else:
        assert "options" not in v
        assert views.view(s.state, s.to_move)["options"] == [o.label for o in s.legal()]


# ---------------------------------------------------------- illegal moves
@PLAYER_COUNTS
@given(seed=SEEDS, data=st.data())
def test_an_illegal_decision_is_refused_and_changes_nothing(blackmore, n, seed, data):
    s = start(blackmore, n, seed)
    for _ in range(data.draw(st.integers(0, 60), label="steps")):
        if s.over:
            break
        s.take(pick(data, s))
    m = s.state
    before = m.copy()
    legal = set(machine.legal_ids(m))
    universe = [i for i in range(-2, blackmore.action_count + 3) if i not in legal]
    bad = data.draw(st.sampled_from(universe + [10**9, -(10**9)]), label="illegal id")
    with pytest.raises(IllegalDecision):
        machine.decide(m, bad)
    assert m.same_as(before)
    history = list(s.history)
    with pytest.raises(IllegalDecision):
        s.take(bad)
    assert s.state.same_as(before) and s.history == history


def test_deciding_after_the_end_is_refused(blackmore):
    s = start(blackmore, 2, 3)
    while not s.over:
        s.take(machine.legal_ids(s.state)[-1])
    before = s.state.copy()
    with pytest.raises(IllegalDecision, match="over"):
        machine.decide(s.state, 0)
    assert s.state.same_as(before)
