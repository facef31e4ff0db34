"""The rulebook of The Witches of Blackmore, example by example, through the real engine.

Each test starts a real game, lays out a position (hands, trump stack, deck,
First Player) with tests/helpers.py, restarts the rules at `rule play`, and
plays the decisions by their labels, as a player would.
"""
from __future__ import annotations

import itertools
import random

import pytest

from helpers import arrange, card_number, cards_in, get_var, placement_problems, restart, set_var
from rulecraft.diagnostics import UserError
from rulecraft.engine.machine import IllegalDecision
from rulecraft.engine.session import Session

FIVE = ["Anna", "Brian", "Charlie", "David", "Emma"]


def start(program, players, *, names=None, settings=(), seed=1):
    options = Session.parse_options(program, list(settings))
    s = Session.start(program, "blackmore", players, seed=seed, options=options, names=names)
    s.drain_narration()
    return s


def ranking(text: str) -> list[int]:
    return [int(x) for x in text.split("-")]


# ------------------------------------------------------------------ the wheel
WHEELS = [
    # (wheel side, trump number, strongest → weakest)    source
    ("descending", 7, "7-6-5-4-3-2-1-9-8"),  # rulebook, Card Ranking example
    ("ascending", 7, "7-8-9-1-2-3-4-5-6"),   # NOTES.md, by symmetry
    ("descending", 5, "5-4-3-2-1-9-8-7-6"),  # NOTES.md, public sources
    ("ascending", 2, "2-3-4-5-6-7-8-9-1"),
    ("descending", 1, "1-9-8-7-6-5-4-3-2"),
]


def contest_winner(program, wheel, trump, plays, first=0):
    """Play one final-stage contest (no refills) with one card per player; return the narration."""
    s = start(program, len(plays), settings=[f"wheel={wheel}"])
    m = s.state
    arrange(m, hands={i: [c] for i, c in enumerate(plays)}, trump=[trump], first=first)
    set_var(m, "final_stage", True)
    restart(m)
    for i in range(len(plays)):
        seat = (first + i) % len(plays)
        assert s.to_move == seat
        s.take_label(f"play {plays[seat]}")
    said = s.drain_narration()
    s.take_label(f"keep the trump {trump}")
    assert s.over, "every hand is empty after the only contest"
    return said, s


@pytest.mark.parametrize("wheel,trump_number,order", WHEELS)
def test_wheel_ranks_the_lead_colour(blackmore, wheel, trump_number, order):
    """No trump is played: of two Yellow cards the one higher on the wheel wins, for every pair."""
    ranks = ranking(order)
    assert sorted(ranks) == list(range(1, 10))
    trump = f"Blue {trump_number}"
    for a, b in itertools.combinations(range(1, 10), 2):
        said, s = contest_winner(blackmore, wheel, trump, [f"Yellow {a}", f"Yellow {b}"])
        best = a if ranks.index(a) < ranks.index(b) else b
        winner = 1 if best == a else 2
        assert said == [f"Player {winner} wins the contest with Yellow {best}."], (a, b)
        assert s.scores()["scores"][winner - 1] == a + b
        assert s.scores()["winners"] == [winner - 1]


@pytest.mark.parametrize("wheel,trump_number,order", WHEELS)
def test_wheel_ranks_the_trump_colour(blackmore, wheel, trump_number, order):
    """Two trumps after an off-colour lead: the one higher on the wheel wins (the trump card itself is on the stack)."""
    ranks = ranking(order)
    trump = f"Blue {trump_number}"
    numbers = [n for n in range(1, 10) if n != trump_number]
    for a, b in itertools.combinations(numbers, 2):
        # Player 1 leads Green 9, which cannot win against any trump
        said, _ = contest_winner(blackmore, wheel, trump, ["Green 9", f"Blue {a}", f"Blue {b}"])
        best = a if ranks.index(a) < ranks.index(b) else b
        winner = 2 if best == a else 3
        assert said == [f"Player {winner} wins the contest with Blue {best}."], (a, b)


# ---------------------------------------------------------- the five players
def five_player_contest(program, trump):
    s = start(program, 5, names=FIVE, seed=5)
    m = s.state
    arrange(m, trump=[trump], first=0, hands={
        0: ["Yellow 2", "Black 1"],
        1: ["Yellow 5", "Black 2"],
        2: ["Red 7", "Black 3"],
        3: ["Blue 4", "Black 4"],
        4: ["Blue 9", "Black 5"],
    })
    restart(m)
    assert s.to_move == 0, "Anna is the First Player"
    assert [o.label for o in s.legal()] == ["play Yellow 2", "play Black 1"]
    for seat, card in enumerate(["Yellow 2", "Yellow 5", "Red 7", "Blue 4", "Blue 9"]):
        assert s.to_move == seat, "the others follow clockwise"
        s.take_label(f"play {card}")
    return s


def test_five_player_example_blue_trump(blackmore):
    """Rulebook: trump Blue 7 → David's Blue 4 beats Emma's Blue 9; the Red 7 cannot win."""
    s = five_player_contest(blackmore, "Blue 7")
    assert s.drain_narration() == ["David wins the contest with Blue 4."]
    assert s.to_move == 3, "the winner decides about the trump"
    labels = [o.label for o in s.legal()]
    assert labels == [f"put {c} on the trump stack" for c in ["Yellow 2", "Yellow 5", "Red 7", "Blue 4", "Blue 9"]] \
        + ["keep the trump Blue 7"]
    s.take_label("keep the trump Blue 7")
    m = s.state
    assert sorted(cards_in(m, "won", 3)) == sorted(["Yellow 2", "Yellow 5", "Red 7", "Blue 4", "Blue 9"])
    assert all(cards_in(m, "won", p) == [] for p in (0, 1, 2, 4))
    assert all(cards_in(m, "played", p) == [] for p in range(5))
    assert cards_in(m, "trump_stack") == ["Blue 7"]
    assert get_var(m, "first_player") == 3
    assert s.to_move == 3, "David, the winner, leads the next contest"
    assert placement_problems(m) == []


def test_five_player_example_green_trump(blackmore):
    """Rulebook: with a green trump nobody played a trump; Brian wins on the lead colour."""
    s = five_player_contest(blackmore, "Green 7")
    assert s.drain_narration() == ["Brian wins the contest with Yellow 5."]
    s.take_label("keep the trump Green 7")
    assert sorted(cards_in(s.state, "won", 1)) == sorted(["Yellow 2", "Yellow 5", "Red 7", "Blue 4", "Blue 9"])
    assert get_var(s.state, "first_player") == 1
    assert s.to_move == 1


def test_following_the_lead_colour_is_not_required(blackmore):
    s = start(blackmore, 2)
    arrange(s.state, trump=["Blue 7"], first=0, hands={0: ["Yellow 2"], 1: ["Yellow 3", "Red 3", "Blue 3"]})
    restart(s.state)
    s.take_label("play Yellow 2")
    assert sorted(o.label for o in s.legal()) == ["play Blue 3", "play Red 3", "play Yellow 3"]
    s.take_label("play Red 3")
    assert s.drain_narration() == ["Player 1 wins the contest with Yellow 2."]


# --------------------------------------------------------- changing the trump
def test_winner_may_put_a_contest_card_on_the_trump_stack(blackmore):
    s = five_player_contest(blackmore, "Blue 7")
    s.drain_narration()
    s.take_label("put Yellow 5 on the trump stack")
    m = s.state
    assert s.drain_narration()[0] == "David makes Yellow 5 the trump."
    assert cards_in(m, "trump_stack") == ["Blue 7", "Yellow 5"]
    assert sorted(cards_in(m, "won", 3)) == sorted(["Yellow 2", "Red 7", "Blue 4", "Blue 9"])
    assert placement_problems(m) == []


def test_the_new_trump_sets_colour_and_wheel(blackmore):
    """After Yellow 5 becomes the trump, yellow is trump and 5 is the strongest number."""
    s = start(blackmore, 2)
    arrange(s.state, trump=["Blue 7"], first=0, hands={0: ["Yellow 5", "Red 4", "Red 9"],
                                                         1: ["Yellow 4", "Yellow 6", "Red 8"]})
    set_var(s.state, "final_stage", True)
    restart(s.state)
    s.take_label("play Yellow 5")
    s.take_label("play Yellow 4")          # Blue 7, descending: 5 beats 4
    assert s.drain_narration() == ["Player 1 wins the contest with Yellow 5."]
    s.take_label("put Yellow 5 on the trump stack")
    assert s.drain_narration() == ["Player 1 makes Yellow 5 the trump."]
    # Player 1 leads Red 9; Player 2's Yellow 6 is now a trump, so it wins although 9 is stronger
    s.take_label("play Red 9")
    s.take_label("play Yellow 6")
    assert s.drain_narration() == ["Player 2 wins the contest with Yellow 6."]
    s.take_label("keep the trump Yellow 5")
    # Player 2 leads Red 8 against Red 4: on the wheel turned to 5, 4 is above 8
    s.take_label("play Red 8")
    s.take_label("play Red 4")
    assert s.drain_narration() == ["Player 1 wins the contest with Red 4."]


def test_a_label_that_is_not_an_option_is_refused(blackmore):
    s = five_player_contest(blackmore, "Blue 7")
    before = s.state.copy()
    with pytest.raises(IllegalDecision):
        s.take_label("put Green 1 on the trump stack")
    assert s.state.same_as(before)


# -------------------------------------------------------------- end of round
def test_refill_starts_with_the_winner_and_goes_clockwise(blackmore):
    s = start(blackmore, 4, settings=["hand_size=2"])
    m = s.state
    arrange(m, trump=["Blue 7"], first=0,
            hands={0: ["Yellow 1", "Red 1"], 1: ["Yellow 2", "Red 2"], 2: ["Yellow 3", "Red 3"], 3: ["Yellow 9", "Red 4"]},
            deck=["Black 4", "Black 3", "Black 2", "Black 1"])  # Black 1 on top
    restart(m)
    for card in ["Yellow 1", "Yellow 2", "Yellow 3", "Yellow 9"]:
        s.take_label(f"play {card}")
    assert s.drain_narration() == ["Player 3 wins the contest with Yellow 3."]
    s.take_label("keep the trump Blue 7")
    assert cards_in(m := s.state, "hand", 2) == ["Red 3", "Black 1"]
    assert cards_in(m, "hand", 3) == ["Red 4", "Black 2"]
    assert cards_in(m, "hand", 0) == ["Red 1", "Black 3"]
    assert cards_in(m, "hand", 1) == ["Red 2", "Black 4"]
    assert s.to_move == 2


def test_final_stage_short_players_take_from_the_trump_stack(blackmore):
    s = start(blackmore, 3, settings=["hand_size=2"])
    m = s.state
    arrange(m, trump=["Green 8", "Purple 3", "Blue 7"], first=0,
            hands={0: ["Yellow 2", "Red 1"], 1: ["Yellow 5", "Red 2"], 2: ["Yellow 4", "Red 3"]},
            deck=["Black 9"], rest=[("won", 0), ("won", 1), ("won", 2)])
    restart(m)
    for card in ["Yellow 2", "Yellow 5", "Yellow 4"]:
        s.take_label(f"play {card}")
    s.take_label("keep the trump Blue 7")
    m = s.state
    assert s.drain_narration() == [
        "Player 2 wins the contest with Yellow 5.",
        "The deck is empty: the final stage begins.",
        "Player 3 takes a card from the trump stack; the trump is now Purple 3.",
        "Player 1 takes a card from the trump stack; the trump is now Green 8.",
    ]
    assert cards_in(m, "deck") == []
    assert cards_in(m, "hand", 1) == ["Red 2", "Black 9"]     # the winner refilled from the deck
    assert cards_in(m, "hand", 2) == ["Red 3", "Blue 7"]
    assert cards_in(m, "hand", 0) == ["Red 1", "Purple 3"]
    assert cards_in(m, "trump_stack") == ["Green 8"]
    assert get_var(m, "final_stage") is True
    # the final stage: no more refills; the game ends when every hand is empty
    sizes = [2, 2, 2]
    while not s.over:
        s.take(s.legal()[0].id)
        now = [len(cards_in(s.state, "hand", p)) for p in range(3)]
        assert all(a <= b for a, b in zip(now, sizes)), "no refills in the final stage"
        sizes = now
        assert len(cards_in(s.state, "trump_stack")) >= 1
    assert sizes == [0, 0, 0]
    assert all(cards_in(s.state, "played", p) == [] for p in range(3))


def test_last_trump_card_stays_and_uneven_hands_play_on(blackmore):
    """Completions 4 and 5: the stack's last card is never taken; empty hands sit out; an empty-handed winner passes the lead."""
    s = start(blackmore, 3, settings=["hand_size=2"])
    m = s.state
    arrange(m, trump=["Blue 7"], first=0,
            hands={0: ["Yellow 2", "Red 1"], 1: ["Yellow 5", "Red 2"], 2: ["Yellow 4", "Blue 1"]},
            deck=["Black 9"], rest=[("won", 0), ("won", 1), ("won", 2)])
    restart(m)
    for card in ["Yellow 2", "Yellow 5", "Yellow 4"]:
        s.take_label(f"play {card}")
    s.take_label("keep the trump Blue 7")
    assert "takes a card from the trump stack" not in " ".join(s.drain_narration())
    assert cards_in(s.state, "trump_stack") == ["Blue 7"]
    assert [len(cards_in(s.state, "hand", p)) for p in range(3)] == [1, 2, 1]
    # contest 2: Player 2 leads; Player 3's Blue 1 (trump) wins with their last card
    s.take_label("play Red 2")
    s.take_label("play Blue 1")
    s.take_label("play Red 1")
    assert s.drain_narration() == ["Player 3 wins the contest with Blue 1."]
    s.take_label("keep the trump Blue 7")
    # Player 3's hand is empty: the next player clockwise who holds cards (Player 2) leads alone
    assert get_var(s.state, "first_player") == 2
    assert s.to_move == 1
    assert [o.label for o in s.legal()] == ["play Black 9"]
    s.take_label("play Black 9")
    assert s.drain_narration() == ["Player 2 wins the contest with Black 9."]
    s.take_label("keep the trump Blue 7")
    assert s.over


def test_ties_share_the_victory(blackmore):
    s = start(blackmore, 2)
    m = s.state
    # numbers 3..7 appear twice among the named cards, so the rest splits into equal sums
    arrange(m, trump=["Green 5", "Green 4", "Green 3", "Green 6", "Green 7", "Blue 7"], first=0,
            hands={0: ["Yellow 5", "Red 3"], 1: ["Yellow 4", "Red 6"]},
            deck=[], rest=[("won", 0), ("won", 1)])
    set_var(m, "final_stage", True)
    before = [sum(card_number(c) for c in cards_in(m, "won", p)) for p in range(2)]
    assert before[0] == before[1]
    restart(m)
    s.take_label("play Yellow 5")
    s.take_label("play Yellow 4")
    s.take_label("keep the trump Blue 7")
    s.take_label("play Red 3")
    s.take_label("play Red 6")
    assert s.drain_narration() == ["Player 1 wins the contest with Yellow 5.", "Player 2 wins the contest with Red 6."]
    s.take_label("keep the trump Blue 7")
    assert s.over
    result = s.scores()
    assert result["scores"] == [before[0] + 9, before[1] + 9]
    assert result["winners"] == [0, 1]


def test_most_points_wins(blackmore):
    s = start(blackmore, 2)
    m = s.state
    arrange(m, trump=["Green 5", "Green 4", "Green 3", "Green 6", "Green 7", "Blue 7"], first=0,
            hands={0: ["Yellow 5", "Red 6"], 1: ["Yellow 4", "Red 3"]},
            deck=[], rest=[("won", 0), ("won", 1)])
    set_var(m, "final_stage", True)
    before = [sum(card_number(c) for c in cards_in(m, "won", p)) for p in range(2)]
    restart(m)
    s.take_label("play Yellow 5")
    s.take_label("play Yellow 4")
    s.take_label("keep the trump Blue 7")
    s.take_label("play Red 6")               # Player 1 wins both contests
    s.take_label("play Red 3")
    s.take_label("keep the trump Blue 7")
    assert s.scores()["scores"] == [before[0] + 18, before[1]]
    assert s.scores()["winners"] == [0]


# ------------------------------------------------------------------ options
def test_wheel_option_from_the_command_line(blackmore):
    assert Session.parse_options(blackmore, ["wheel=ascending"]) == {"wheel": 1}
    assert Session.parse_options(blackmore, ["wheel=descending"]) == {"wheel": 0}
    assert Session.parse_options(blackmore, ["hand_size=3", "wheel = ascending"]) == {"hand_size": 3, "wheel": 1}
    with pytest.raises(UserError, match="descending, ascending"):
        Session.parse_options(blackmore, ["wheel=sideways"])
    with pytest.raises(UserError, match="no option 'whel'"):
        Session.parse_options(blackmore, ["whel=ascending"])
    with pytest.raises(UserError, match="NAME=VALUE"):
        Session.parse_options(blackmore, ["ascending"])
    with pytest.raises(UserError, match="hand_size"):
        Session.parse_options(blackmore, ["hand_size=10"])
    with pytest.raises(UserError, match="hand_size"):
        Session.parse_options(blackmore, ["hand_size=six"])


def test_ascending_wheel_changes_the_winner(blackmore):
    """Blue 7 trump, Yellow 8 vs Yellow 6: descending ranks 6 higher, ascending ranks 8 higher."""
    said, _ = contest_winner(blackmore, "descending", "Blue 7", ["Yellow 8", "Yellow 6"])
    assert said == ["Player 2 wins the contest with Yellow 6."]
    said, _ = contest_winner(blackmore, "ascending", "Blue 7", ["Yellow 8", "Yellow 6"])
    assert said == ["Player 1 wins the contest with Yellow 8."]


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("hand_size", [1, 6, 8])
def test_deal(blackmore, players, hand_size):
    """Setup: everyone gets hand_size cards, one card turned for trump, the rest in the deck."""
    s = Session.start(blackmore, "blackmore", players, seed=players, options={"hand_size": hand_size})
    m = s.state
    hands = [cards_in(m, "hand", p) for p in range(players)]
    assert all(len(h) == hand_size for h in hands)
    assert len(cards_in(m, "trump_stack")) == 1
    assert len(cards_in(m, "deck")) == 54 - 1 - players * hand_size
    assert s.drain_narration()[0] == f"The trump is {cards_in(m, 'trump_stack')[0]}."
    assert placement_problems(m) == []
    assert 0 <= get_var(m, "first_player") < players
    assert s.to_move == get_var(m, "first_player")


def test_every_allowed_hand_size_can_be_dealt(blackmore):
    """The largest hand size the option allows still leaves a trump card with six players."""
    lo, hi = blackmore.option("hand_size").values
    for size in (lo, hi):
        s = Session.start(blackmore, "blackmore", 6, seed=1,
                          options=Session.parse_options(blackmore, [f"hand_size={size}"]))
        assert all(len(cards_in(s.state, "hand", p)) == size for p in range(6))
        assert len(cards_in(s.state, "trump_stack")) == 1


@pytest.mark.parametrize("options", [{"hand_size": 9}, {"hand_size": "x"}, {"wheel": 5}])
def test_option_values_outside_their_domain_are_refused(blackmore, options):
    with pytest.raises(UserError):
        Session.start(blackmore, "blackmore", 6, seed=1, options=options)


def test_deck_has_54_distinct_witches(blackmore):
    names = blackmore.card_names
    assert len(names) == 54 == len(set(names))
    colours = {n.split()[0] for n in names}
    assert colours == {"Yellow", "Blue", "Red", "Green", "Purple", "Black"}
    assert sorted(card_number(n) for n in names) == sorted(list(range(1, 10)) * 6)


def test_player_counts(blackmore):
    assert (blackmore.min_players, blackmore.max_players) == (2, 6)
    for n in (1, 7):
        with pytest.raises(UserError):
            Session.start(blackmore, "blackmore", n)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_won_piles_stay_face_down_until_every_hand_is_empty(blackmore, players):
    """Completion 8 turns the won piles over at the end only: through the final stage they stay hidden
    (a reproducer: the piles were once shown at every contest of the final stage)."""
    from helpers import zone_instance
    from rulecraft.engine import views
    rnd = random.Random(players)
    for seed in range(5):
        s = start(blackmore, players, seed=seed)
        while not s.over:
            for owner in range(players):
                pile = zone_instance(blackmore, "won", owner)
                assert not any(views.can_see(s.state, pile, viewer) for viewer in range(players) if viewer != owner)
            s.take(rnd.choice(s.legal()).id)
        assert all(views.can_see(s.state, zone_instance(blackmore, "won", o), v)
                   for o in range(players) for v in range(players))
