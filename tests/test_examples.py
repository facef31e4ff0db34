"""Every rule file in examples/ loads and plays to the end, and each variant's rule shows in play.

Generic: every examples/*.rules loads, and seeded random games of every allowed
player count finish, with every card in at most one zone at every step.
Specific: the lowest-wins variant's contest winner always holds the weakest
eligible card on the Wheel (and the base game's the strongest, so the variant
really changes outcomes); the seven-colour deck has 63 cards and a Silver coven;
High Card and Nim score what their rules say.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.engine.limits import DEFAULT_DECISION_LIMIT
from rulecraft.engine.scenarios import run_scenario
from rulecraft.engine.session import Session
from rulecraft.loader import load, load_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rules"))
SEEDS = (1, 2, 3)


def zone_cards(state, zone, owner=None):
    """Names of the cards in a zone instance, bottom first."""
    p = state.program
    info = next(z for z in p.zones if z.name == zone)
    inst = info.base + (owner or 0)
    return [p.card_names[c] for c in state.zones[inst]]


def var(state, name):
    slot = next(v.slot for v in state.program.vars if v.name == name)
    return state.vars[slot]


def placement_ok(state):
    seen = set()
    for zi, z in enumerate(state.zones):
        for c in z:
            if c in seen or state.where[c] != zi:
                return False
            seen.add(c)
    return True


def play(program, players, seed, on_decision=None, pick=None):
    """Play one game with seeded random decisions; `on_decision(session)` sees each pending decision."""
    session = Session.start(program, "example", players, seed=seed)
    rnd = random.Random(seed)
    taken = 0
    while not session.over:
        assert placement_ok(session.state)
        if on_decision is not None:
            on_decision(session)
        ids = [o.id for o in session.legal()]
        session.take(pick(session, ids) if pick else ids[rnd.randrange(len(ids))])
        taken += 1
        assert taken < DEFAULT_DECISION_LIMIT, "the game did not end"
    assert placement_ok(session.state)
    return session


def test_there_are_examples():
    names = {p.name for p in EXAMPLES}
    assert {"blackmore-seven-colours.rules", "blackmore-lowest-wins.rules"} <= names
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_player_count_plays_to_the_end(path):
    program = load_file(path)
    for n in range(program.min_players, program.max_players + 1):
        for seed in SEEDS:
            session = play(program, n, seed)
            result = session.scores()
            together = program.outcome is not None and program.outcome.kind == "cooperative"   # may lose as one
            assert result["winners"] or together, f"{path.name}: {n} players, seed {seed}: nobody wins"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_examples_own_scenarios_pass(path):
    """Scenarios written in the example itself (a variant also inherits its base game's)."""
    program = load_file(path)
    for sc in program.scenarios:
        if Path(sc.span.file).name == path.name:
            result = run_scenario(program, sc)
            assert result.ok, f"{path.name}: scenario {result.name}: {result.message}"


# ------------------------------------------------------- Blackmore variants
def split(name):
    colour, number = name.rsplit(" ", 1)
    return colour, int(number)


def wheel_strength(card, trump, ascending=False):
    """The base game's ranking (9 = strongest), computed independently of the rules file."""
    n, t = card[1], trump[1]
    return 9 - ((n - t) % 9 if ascending else (t - n) % 9)


def contest_checker(lowest: bool, seen: list):
    """At each trump-change decision, the chooser must hold the strongest (or weakest) eligible card."""
    def check(session):
        m = session.state
        info = m.program.choices[m.pending[0]]
        if info.rule != "change_trump":
            return
        n = m.n
        first = var(m, "first_player")
        order = [(first + i) % n for i in range(n)]
        table = [(p, split(zone_cards(m, "played", p)[-1])) for p in order if zone_cards(m, "played", p)]
        trump = split(zone_cards(m, "trump_stack")[-1])
        lead = table[0][1][0]
        trumps = [(p, c) for p, c in table if c[0] == trump[0]]
        eligible = trumps or [(p, c) for p, c in table if c[0] == lead]
        pick = min if lowest else max
        winner, best = pick(eligible, key=lambda pc: wheel_strength(pc[1], trump))
        assert session.to_move == winner, f"{best} should win under trump {trump}, lowest={lowest}"
        seen.append((winner, best))
    return check


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_lowest_wins_gives_each_contest_to_the_weakest_eligible_card(players):
    program = load_file(ROOT / "examples" / "blackmore-lowest-wins.rules")
    seen = []
    for seed in SEEDS:
        play(program, players, seed, contest_checker(lowest=True, seen=seen))
    assert len(seen) > 10


def test_the_base_game_gives_each_contest_to_the_strongest_eligible_card():
    seen = []
    for players in (2, 4, 6):
        play(load("blackmore"), players, 7, contest_checker(lowest=False, seen=seen))
    assert len(seen) > 10


def test_lowest_wins_changes_outcomes():
    base = load("blackmore")
    variant = load_file(ROOT / "examples" / "blackmore-lowest-wins.rules")
    first_legal = lambda session, ids: ids[0]
    differ = 0
    for seed in range(5):
        a = play(base, 4, seed, pick=first_legal).scores()["scores"]
        b = play(variant, 4, seed, pick=first_legal).scores()["scores"]
        differ += a != b
    assert differ >= 3


def hands_when_the_deck_runs_out(program, players, seed):
    """Every hand at the first decision of the final stage (first legal option every time)."""
    session = Session.start(program, "example", players, seed=seed)
    while not var(session.state, "final_stage"):
        session.take(session.legal()[0].id)
    return [zone_cards(session.state, "hand", k) for k in range(players)]


@pytest.mark.parametrize("players", [4, 5])
def test_the_trump_sweep_deals_the_trump_stack_otherwise(players):
    """With 4 or 5 players the deck runs out with several players short: served from the back
    (the variant) they get other cards from the trump stack than from the front (the base game)."""
    base = load("blackmore")
    sweep = load_file(ROOT / "examples" / "blackmore-trump-sweep.rules")
    for seed in range(3):
        assert hands_when_the_deck_runs_out(base, players, seed) != hands_when_the_deck_runs_out(sweep, players, seed)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_with_one_player_short_the_sweep_is_the_base_game(players):
    """With 2, 3 or 6 players (six cards each) only one player comes up short: nothing to order."""
    base = load("blackmore")
    sweep = load_file(ROOT / "examples" / "blackmore-trump-sweep.rules")
    assert hands_when_the_deck_runs_out(base, players, 1) == hands_when_the_deck_runs_out(sweep, players, 1)


def test_seven_colours_has_a_63_card_deck_and_seats_seven():
    program = load_file(ROOT / "examples" / "blackmore-seven-colours.rules")
    assert len(program.card_names) == 63
    colours = {split(name)[0] for name in program.card_names}
    assert len(colours) == 7 and "Silver" in colours
    assert program.max_players == 7
    session = play(program, 7, 1)
    # every card ends in someone's won pile or the trump stack
    won = sum(len(zone_cards(session.state, "won", p)) for p in range(7))
    assert won + len(zone_cards(session.state, "trump_stack")) == 63
    silver = sum(split(c)[1] for p in range(7) for c in zone_cards(session.state, "won", p) if c.startswith("Silver"))
    assert silver > 0


# ------------------------------------------------------------ small games
def test_high_card_scores_the_runes_taken():
    program = load_file(ROOT / "examples" / "high-card.rules")
    for players in (2, 3, 4):
        session = play(program, players, 5)
        m = session.state
        totals = [sum(int(n.split(" ")[0]) for n in zone_cards(m, "taken", p)) for p in range(players)]
        assert session.scores()["scores"] == totals
        assert sum(len(zone_cards(m, "taken", p)) for p in range(players)) == 4 * players


def test_nim_is_won_by_whoever_takes_the_last_stone():
    program = load_file(ROOT / "examples" / "nim.rules")
    for players in (2, 3, 4):
        for seed in SEEDS:
            session = play(program, players, seed)
            m = session.state
            assert var(m, "left") == 0
            assert session.scores()["winners"] == [var(m, "turn")]
            assert sum(session.scores()["scores"]) == 1
