"""The OpenSpiel adapter passes OpenSpiel's own random simulation test on every bundled game, and its
chance nodes are the engine's draws: fed the engine's own generator, it plays the engine's game."""
from __future__ import annotations

import pickle
import random
from pathlib import Path

import pyspiel                         # the openspiel extra, installed by the test extra: never skipped
import pytest

import rulecraft
from rulecraft.rl import openspiel as rcos
from rulecraft.runtime import rng

EX = str(Path(__file__).resolve().parent.parent / "examples") + "/"     # wherever pytest runs from


def configurations():
    out = []
    for ref in rulecraft.game_names():
        program = rulecraft.load(ref).program
        for n in sorted({program.min_players, program.max_players}):
            out.append(pytest.param(ref, n, id=f"{ref}-{n}"))
    out += [pytest.param(EX + "nim.rules", 3, id="nim-3"),
            pytest.param(EX + "rock-paper-scissors.rules", 2, id="rps-2"),
            pytest.param(EX + "high-card.rules", 2, id="high-card-2")]
    return out


@pytest.mark.parametrize("ref, players", configurations())
def test_openspiel_random_sim_test(ref, players):
    game = rcos.load_game(ref, players=players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


class EngineChance:
    """The engine's own generator, drawing each chance node's outcome as `rng.below` would."""

    def __init__(self, seed):
        self._rng = rng.seed_state(seed)       # where rng.below draws from (a State's raw slot)

    def pick(self, outcomes):
        assert all(abs(p - 1 / len(outcomes)) < 1e-12 for _o, p in outcomes)    # each draw is uniform
        return outcomes[rng.below(self, len(outcomes))][0]


@pytest.mark.parametrize("ref, players", [("blackmore", 4), ("three-sisters", 2), (EX + "nim.rules", 2)],
                         ids=["blackmore", "three-sisters", "nim"])
def test_chance_nodes_are_the_engines_draws(ref, players):
    """Fisher–Yates one swap per node and `random` one node per draw, in the engine's order: the same
    outcomes give the very game `rulecraft.load(...).new(seed)` plays."""
    seed = 12
    match = rulecraft.load(ref, players=players).new(seed=seed)
    state = rcos.load_game(ref, players=players).new_initial_state()
    chance, pick, nodes = EngineChance(seed), random.Random(3), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.pick(state.chance_outcomes()))
            nodes += 1
            continue
        assert state.current_player() == match.to_move - 1
        assert state.legal_actions() == sorted(match.legal_ids())
        assert state.observation_tensor(state.current_player()) == pytest.approx(
            match.observation_tensor(match.to_move))
        action = pick.choice(match.legal_ids())
        match.apply(action)
        state.apply_action(action)
    assert match.over and nodes > 0
    assert state.returns() == [match.returns()[k] for k in range(1, players + 1)]


def test_a_shuffle_is_one_node_per_swap():
    state = rcos.load_game("blackmore", players=2).new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        assert sum(p for _o, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    assert sizes[:53] == list(range(54, 1, -1))       # the deck of 54 witches, then who starts
    assert sizes[53:] == [2]


def test_a_draw_larger_than_the_chance_space_is_split_exactly():
    draws = rcos._Draws([], base=4)
    with pytest.raises(rcos._Stop) as stop:
        draws.below(10)                               # blocks of 4, 4 and 2 values
    assert stop.value.outcomes == [(0, 0.4), (1, 0.4), (2, 0.2)]
    assert rcos._Draws([2, 1], base=4).below(10) == 9
    assert rcos._Draws([1, 3], base=4).below(10) == 7


def test_information_state_and_observation_strings_are_the_seats_own():
    game = rcos.load_game("blackmore", players=3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    texts = [state.information_state_string(p) for p in range(3)]
    assert len(set(texts)) == 3
    for p in range(3):
        assert f"as Player {p + 1} sees it" in state.observation_string(p)
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
    with pytest.raises(Exception):
        state.observation_string(3)


def test_states_serialize_clone_and_pickle():
    game = rcos.load_game("blackmore", players=3, options={"wheel": "ascending"})
    assert str(game) == "rulecraft(game=blackmore,options=wheel:ascending,players=3,reward=)"
    state = game.new_initial_state()
    rnd = random.Random(1)
    for _ in range(80):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    twin = state.clone()
    for s in (again, twin):
        assert str(s) == str(state) and s.history() == state.history()
        assert s.information_state_string(1) == state.information_state_string(1)
    twin.apply_action(twin.legal_actions()[0] if not twin.is_chance_node() else twin.chance_outcomes()[0][0])
    assert twin.history() != state.history()
    assert pickle.loads(pickle.dumps(state._match)).to_yaml() == state._match.to_yaml()


def test_bad_parameters_are_one_sentence():
    with pytest.raises(Exception, match="is for 2 to 6 players, not 9"):
        rcos.load_game("blackmore", players=9)
    with pytest.raises(Exception, match="reward is 'win' or 'score'"):
        rcos.load_game("blackmore", players=2, reward="money")


def test_the_resampler_keeps_what_the_player_sees_and_redraws_the_rest():
    from rulecraft.engine import views
    game = rcos.load_game("blackmore", players=3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    resample = rcos.resampler(seed=4)
    hand = next(z for z in state._match.game.program.zones if z.name == "hand")
    hands = set()
    for _ in range(5):
        other = resample(state, player)
        m, o = state._match.session.state, other._match.session.state
        assert views.view(o, player) == views.view(m, player)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert o.zones[hand.base + player] == m.zones[hand.base + player]
        hands.add(tuple(o.zones[hand.base + (player + 1) % 3]))
    assert len(hands) > 1                              # the others' hands are dealt anew


def test_the_resampler_draws_a_secret_choice_anew():
    game = rcos.load_game(EX + "rock-paper-scissors.rules", players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])       # the first player throws, secretly
    seen = set()
    thrown = next(v for v in state._match.game.program.vars if v.name == "thrown")
    for seed in range(12):
        other = rcos.resampler(seed)(state, 1)
        seen.add(other._match.session.state.vars[thrown.slot][0])
    assert seen == {0, 1, 2}


def test_the_examples_run_a_bot_and_learn():
    import runpy
    root = Path(__file__).resolve().parent.parent / "examples" / "rl"
    ismcts = runpy.run_path(str(root / "ismcts_blackmore.py"))
    results = ismcts["play"](games=1, simulations=5)
    assert len(results) == 1 and 0.0 <= results[0] <= 1.0
    nim = runpy.run_path(str(root / "qlearning_nim.py"))
    rates = nim["train"](episodes=1500, report_every=1500)
    assert rates[0] < 0.7 and rates[-1] > 0.85           # it learns: from about a half to most games
    # and the same seed learns the same (its chance sampler was once seeded from the clock, and the
    # figure above failed one run in a few)
    assert nim["train"](episodes=200, report_every=100) == nim["train"](episodes=200, report_every=100)


def test_the_information_state_tensor_remembers_what_left_sight():
    """Perfect recall: the observation, then where the seat last saw each card. After a contest of
    Blackmore the cards played leave the table face down; the seats still know where they saw them."""
    game = rcos.load_game("blackmore", players=2)
    assert game.information_state_tensor_size() > game.observation_tensor_size()
    state = game.new_initial_state()
    rnd = random.Random(3)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    size = game.observation_tensor_size()
    first = state.information_state_tensor(0)
    assert len(first) == game.information_state_tensor_size()
    assert list(first[:size]) == list(state.observation_tensor(0))
    seen_at_start = sum(first[size:])
    for _ in range(6):
        while state.is_chance_node():
            state.apply_action(rnd.choice(state.chance_outcomes())[0])
        if state.is_terminal():
            break
        state.apply_action(rnd.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    later = state.information_state_tensor(0)
    # every card seen so far is remembered somewhere, more than are in sight now
    assert sum(later[size:]) > seen_at_start
    in_sight = sum(1 for inst, cards in enumerate(state._match.session.state.zones)
                   if state._match.session.state.program.seen_masks[2][inst] & 1 for _ in cards)
    assert sum(later[size:]) > in_sight
    clone = state.clone()
    assert clone.information_state_tensor(0) == later


def test_two_games_a_seat_cannot_tell_apart_give_it_the_same_information_state():
    """The memory comes from the seat's own sightings: a match and its copy with the other hand and the
    deck dealt again give the seat the same information state tensor."""
    from rulecraft.engine import determinize
    match = rulecraft.load("blackmore", players=2).new(seed=5)
    for _ in range(4):
        match.apply(match.legal_ids()[0])
    seat = match.to_move
    twin = match.clone()
    twin.session.state = determinize.sample(match.session.state, seat - 1, random.Random(1))
    assert twin.session.state.zones != match.session.state.zones
    assert twin.information_state_tensor(seat) == match.information_state_tensor(seat)


def test_an_action_is_applied_in_place_without_a_clone(monkeypatch):
    """A random game through the adapter copies no match (OpenSpiel copies a state only by clone), and a
    step stopped at a draw leaves its match as it was, so the next outcome runs on from there."""
    from rulecraft import api
    clones = []
    original = api.Match.clone
    monkeypatch.setattr(api.Match, "clone", lambda self: clones.append(1) or original(self))
    game = rcos.load_game("blackmore", players=3)
    state = game.new_initial_state()            # the game's start: worked out on the first state
    clones.clear()
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    assert clones == []
    twin = state.clone()
    assert clones == [1] and twin.returns() == state.returns()


def test_a_step_stopped_by_an_exception_leaves_the_session_as_it_was(monkeypatch):
    """Session.take is atomic for any exception, a BaseException too (the adapter's stop at a chance node)."""
    from rulecraft.engine import machine
    from rulecraft.engine.session import Session
    from rulecraft.loader import load
    session = Session.start(load("blackmore"), "blackmore", 2, seed=5)
    before = session.state.copy()
    history = list(session.history)

    class Stop(BaseException):
        pass

    def stop_now(m, action_id, budget=None):
        m.zones[0].clear()
        raise Stop
    monkeypatch.setattr(machine, "decide", stop_now)
    with pytest.raises(Stop):
        session.take(session.legal_ids()[0])
    assert session.state.same_as(before) and session.history == history


def test_a_shuffle_runs_its_step_twice_not_once_per_swap(monkeypatch):
    """A shuffle tells the adapter the sizes of all its draws, so the chance nodes of its later swaps
    need no run of the step: Blackmore's setup (a shuffle of 54, then the first player at random) runs
    three times for its 54 chance nodes, where it ran once per node."""
    from rulecraft.engine.session import Session
    runs = []
    original = Session.start.__func__
    monkeypatch.setattr(Session, "start", classmethod(lambda cls, *a, **k: runs.append(1) or original(cls, *a, **k)))
    game = rcos.load_game("blackmore", players=3)
    game.initial = None            # the start is worked out once per game: again here, counted
    state = game.new_initial_state()
    nodes = 0
    while state.is_chance_node():
        assert len(state.chance_outcomes()) == (54 - nodes if nodes < 53 else 3)
        state.apply_action(state.chance_outcomes()[-1][0])
        nodes += 1
    assert nodes == 54 and len(runs) == 3


def _hand_segments(game) -> list[tuple[int, int]]:
    """(offset, length) of each seat's hand in the observation tensor, seat 1 first."""
    return [(offset, length) for name, offset, length in game.observation_layout() if name.startswith("zone hand")]


@pytest.mark.parametrize("players", [2, 3])
def test_every_player_is_given_its_own_view_not_the_movers(players):
    """Issue 34: player p's observation tensor, information state tensor and string, and the observer's
    tensor and string (both kinds) are what the API shows seat p+1 of the same game (played alongside,
    its chance drawn as the engine draws it), at decisions where p is not the one to move as well as
    where it is; and they differ between players, whose hands differ: p's tensor counts p's own cards
    in its own hand and nothing in the others' hands."""
    from open_spiel.python.observation import make_observation
    seed = 9
    game = rcos.load_game("blackmore", players=players)
    observers = {recall: make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
                 for recall in (False, True)}
    match = rulecraft.load("blackmore", players=players).new(seed=seed)
    hands = _hand_segments(match.game)
    assert len(hands) == players
    state, chance, rnd = game.new_initial_state(), EngineChance(seed), random.Random(7)
    checked = not_moving = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            state.apply_action(chance.pick(state.chance_outcomes()))
            continue
        mover = state.current_player()
        assert mover == match.to_move - 1
        tensors = []
        for p in range(players):
            seat = p + 1
            own = match.observation_tensor(seat)
            assert state.observation_tensor(p) == pytest.approx(own)
            assert state.information_state_tensor(p) == pytest.approx(match.information_state_tensor(seat))
            assert state.information_state_string(p) == match.information_state_text(seat)
            assert state.observation_string(p) == match.observation_text(seat)
            observers[False].set_from(state, p)
            assert list(observers[False].tensor) == pytest.approx(own)
            assert observers[False].string_from(state, p) == match.observation_text(seat)
            observers[True].set_from(state, p)
            assert list(observers[True].tensor) == pytest.approx(match.information_state_tensor(seat))
            assert observers[True].string_from(state, p) == match.information_state_text(seat)
            # the seat's own hand as the API's view shows it, and no card of any other hand
            in_hand = match.view(seat)["zones"]["hand"][f"Player {seat}"]
            for k, (offset, length) in enumerate(hands):
                counted = sum(own[offset:offset + length])
                assert counted == (len(in_hand) if k == p else 0), (p, k)
            tensors.append(tuple(own))
            not_moving += p != mover
        assert len(set(tensors)) == players
        assert len({state.information_state_string(p) for p in range(players)}) == players
        checked += 1
        action = rnd.choice(match.legal_ids())
        match.apply(action)
        state.apply_action(action)
    assert checked == 6 and not_moving >= 6


def test_a_draw_of_a_power_of_the_base_is_split_into_equal_blocks():
    """16 values over a chance space of 4: four blocks of 4 (a bound of `<=` made one block of 16)."""
    with pytest.raises(rcos._Stop) as stop:
        rcos._Draws([], base=4).below(16)
    assert stop.value.outcomes == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    assert rcos._Draws([3, 2], base=4).below(16) == 14
    assert sorted(rcos._Draws([b, k], base=4).below(16) for b in range(4) for k in range(4)) == list(range(16))


ENDLESS = '''game "Endless"
players 2
var turns: Int
limit decisions 6
rule play:
    while true:
        for p in players:
            p chooses k in 1..2 as "step {k}":
                turns += 1
score p = turns
'''


def test_a_game_stopped_by_its_decision_limit_is_terminal_and_shared(tmp_path):
    """Stopped by `limit decisions`, the game is terminal; a 'win' game's return is shared equally."""
    path = tmp_path / "endless.rules"
    path.write_text(ENDLESS)
    state = rcos.load_game(str(path), players=2).new_initial_state()
    taken = 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        taken += 1
    assert taken == 6                                 # the rules' `while true` never ends the game
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    assert state.returns() == [0.5, 0.5]


TRICK = '''game "Trick"
players 3
card Chip(n: 1..6) named "chip {n}"
cards chips = [Chip(n) for n in 1..6]
zone hand of Chip per player, seen by owner
zone table of Chip
zone pile of Chip, seen by nobody
var luck: Int, seen by nobody = 0
rule setup:
    for p in players:
        move [c for c in chips if c.n == p.seat or c.n == p.seat + 3] to p.hand
rule play:
    for p in players:
        p chooses c in p.hand as "play {c}":
            move c to table
            luck = random(1..2)
    move table to pile
    shuffle pile
    for p in players:
        p chooses c in p.hand as "play {c}":
            give(c, p)

rule give(c: Chip, p: Player):
    move c to next_player(p).hand
'''


def _told_decisions(state, player):
    return [line for line in state.information_state_string(player).splitlines() if line.startswith("Player ")]


def test_a_card_played_face_up_is_named_through_the_adapter(rules_file):
    from open_spiel.python.algorithms.get_all_states import get_all_states
    """Issue 26: the adapter decides chance outside the engine, and a decision's label was sealed at the
    step's end there: the last card of a trick, face up on the table until the trick was gathered into a
    pile nobody sees, was told to the others as "play a Chip". The step is taken again with the draws
    it drew (engine.session `Drawn`), as a Session seals it, so they read its name; a card given away
    into one hand stays hidden from the third seat."""
    game = rcos.load_game(str(rules_file(TRICK)), players=3)
    states = get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=False)
    ends = [s for s in states.values() if s.is_terminal()]
    assert len(ends) == 2 ** 3 * 2 ** 3 * 6 * 2 ** 2        # the cards played, luck's draws, the shuffle, the gifts
    for state in ends:
        played = [label for _seat, _id, label in state._match.decisions]
        for p in range(3):
            told = _told_decisions(state, p)
            assert told[:3] == [f"Player {k + 1}: {played[k]}" for k in range(3)]    # the trick, all named
            for k in range(3, 6):        # a gift: named to its giver and to the seat it goes to
                named = p == k - 3 or p == (k - 2) % 3
                assert told[k] == f"Player {k - 2}: {played[k] if named else 'play a Chip'}"
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
