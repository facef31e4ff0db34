"""The public Python API (rulecraft.api): seats 1..N, atomic actions, clones, saves and pickles that
resume identically, and observation tensors of a fixed shape that show nothing a seat may not see."""
from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys

from pathlib import Path

import pytest

import rulecraft
from rulecraft.engine import views
from rulecraft.validate.properties import hidden_otherwise

EX = str(Path(__file__).resolve().parent.parent / "examples") + "/"     # wherever pytest runs from

BUNDLED = rulecraft.game_names()
EXAMPLES = [EX + "nim.rules", EX + "high-card.rules", EX + "rock-paper-scissors.rules"]


def random_steps(match, rnd, count=None):
    """Take random legal actions until the game is over (or `count` of them); the ids taken."""
    taken = []
    while not match.over and (count is None or len(taken) < count):
        ids = match.legal_ids()
        taken.append(ids[rnd.randrange(len(ids))])
        match.apply(taken[-1])
    return taken


def test_version_is_the_installed_one():
    from importlib.metadata import version
    assert rulecraft.__version__ == version("rulecraft")
    done = subprocess.run([sys.executable, "-m", "rulecraft", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"rulecraft {rulecraft.__version__}"


def test_bundled_games_are_listed_and_load():
    assert {"blackmore", "three-sisters", "weird-sisters", "three-sisters-solo"} <= set(BUNDLED)
    game = rulecraft.load("blackmore", players=4, options={"wheel": "ascending", "hand_size": 5})
    assert game.players == 4 and game.options == {"wheel": "ascending", "hand_size": 5}
    assert rulecraft.load("blackmore").players == 2          # the fewest the rules allow


@pytest.mark.parametrize("call, message", [
    (lambda: rulecraft.load("blackmor"), "did you mean 'blackmore'"),
    (lambda: rulecraft.load("blackmore", players=9), "is for 2 to 6 players, not 9"),
    (lambda: rulecraft.load("blackmore", options={"wheel": "sideways"}), "one of descending, ascending"),
    (lambda: rulecraft.load("blackmore", options={"colour": 3}), "has no option 'colour'"),
    (lambda: rulecraft.load("blackmore").new(0).view(3), "seats are numbered 1 to 2"),
    (lambda: rulecraft.load("blackmore").new(0).returns("money"), "'win' or 'score'"),
    (lambda: rulecraft.agent("genius"), "unknown agent 'genius'"),
])
def test_bad_input_is_one_sentence(call, message):
    with pytest.raises(rulecraft.UserError, match=message):
        call()


def test_seats_are_numbered_from_one():
    match = rulecraft.load("blackmore", players=3).new(seed=7)
    assert match.to_move in (1, 2, 3)
    assert match.to_move == match.session.to_move + 1
    assert match.view(match.to_move)["to_decide"] == f"Player {match.to_move}"
    assert "options" in match.view(match.to_move)
    other = match.to_move % 3 + 1
    assert "options" not in match.view(other)


def test_an_illegal_action_raises_and_changes_nothing():
    match = rulecraft.load("blackmore", players=3).new(seed=2)
    before = match.to_yaml()
    illegal = next(i for i in range(match.game.num_actions) if i not in match.legal_ids())
    for bad in (illegal, "play the moon", True, None):
        with pytest.raises(rulecraft.IllegalAction):
            match.apply(bad)
        assert match.to_yaml() == before
    legal = match.legal()[0]
    match.apply(legal)                       # an Action, its id or its label
    assert match.decisions[-1][1:] == (legal.id, legal.label)


@pytest.mark.parametrize("ref", ["blackmore", "weird-sisters", "three-sisters"])
def test_clone_pickle_and_save_resume_identically(ref, tmp_path):
    game = rulecraft.load(ref, players=2 if ref == "three-sisters" else None)
    match = game.new(seed=11)
    random_steps(match, random.Random(3), 15)
    clone = match.clone()
    pickled = pickle.loads(pickle.dumps(match))
    match.save(tmp_path / "save.yaml")
    loaded = rulecraft.load_match(tmp_path / "save.yaml")
    from_text = rulecraft.match_from_yaml(match.to_yaml())
    ids = random_steps(match, random.Random(4))
    for other in (clone, pickled, loaded, from_text):
        assert random_steps(other, random.Random(4)) == ids
        assert other.scores == match.scores and other.told(1) == match.told(1)
        assert other.session.state.same_as(match.session.state)
    assert clone.session.state is not match.session.state


def test_a_clone_played_on_leaves_the_original_alone():
    match = rulecraft.load("blackmore", players=2).new(seed=5)
    before = match.to_yaml()
    clone = match.clone()
    random_steps(clone, random.Random(1))
    assert clone.over and match.to_yaml() == before


def test_a_pickled_program_is_loaded_again_from_its_rules(tmp_path):
    import rulecraft.loader as loader
    path = tmp_path / "nim.rules"
    path.write_text(Path(EX + "nim.rules").read_text())
    match = rulecraft.load(str(path), players=2).new(seed=1)
    data = pickle.dumps(match)
    loader._KNOWN.clear()                    # as in another process
    again = pickle.loads(data)
    assert again.game.program is not match.game.program
    assert again.legal() == match.legal()
    path.write_text(path.read_text() + "\n# changed\n")
    loader._KNOWN.clear()
    with pytest.raises(rulecraft.UserError, match="changed since the game was pickled"):
        pickle.loads(data)


def test_returns_and_scores():
    match = rulecraft.load(EX + "nim.rules", players=3).new(seed=3)
    assert match.returns() == {1: 0.0, 2: 0.0, 3: 0.0} and match.scores is None and match.winners == []
    random_steps(match, random.Random(0))
    assert match.over and match.to_move is None
    assert len(match.winners) == 1
    assert match.returns() == {k: 1.0 if k in match.winners else 0.0 for k in (1, 2, 3)}
    assert match.returns("score") == {k: float(v) for k, v in match.scores.items()}
    solo = rulecraft.load("three-sisters-solo").new(seed=1)
    random_steps(solo, random.Random(2))
    assert solo.returns() == {1: float(solo.scores[1])}       # one seat: its score


def test_agents_come_from_the_registry():
    from rulecraft.agents.registry import AGENT_KINDS
    assert set(rulecraft.agent_kinds()) == set(AGENT_KINDS)
    match = rulecraft.load("blackmore", players=3).new(seed=1)
    assert match.ask(rulecraft.agent("first")) == match.legal_ids()[0]
    match.play([rulecraft.agent("random", seed=k) for k in range(3)])
    assert match.over
    again = rulecraft.load("blackmore", players=3).new(seed=1)
    again.play([rulecraft.agent("random", seed=k) for k in range(3)])
    assert again.decisions == match.decisions


# ------------------------------------------------------------------ observations
@pytest.mark.parametrize("ref", BUNDLED + EXAMPLES)
def test_observation_tensors_keep_their_shape_and_hide_what_is_hidden(ref):
    program = rulecraft.load(ref).program
    for players in sorted({program.min_players, program.max_players}):
        game = rulecraft.load(ref, players=players)
        size = game.observation_shape[0]
        assert sum(length for _name, _at, length in game.observation_layout()) == size
        match = game.new(seed=players)
        rnd = random.Random(players)
        hid = 0
        while True:
            for seat in range(1, players + 1):
                tensor = match.observation_tensor(seat)
                assert len(tensor) == size and tensor[seat - 1] == 1.0
                # a copy that differs only in what the seat may not see (hidden cards reordered,
                # hidden values changed; the rules not run again) gives the seat the same tensor
                state = match.session.state.copy()
                state.pending = None
                other = hidden_otherwise(state, seat - 1, lambda n: list(reversed(range(n))))
                if other is not None:
                    other.pending = match.session.state.pending
                    hid += other.zones != state.zones or other.vars != state.vars
                    assert game.encoder.encode(other, seat - 1) == tensor
            if match.over:
                break
            random_steps(match, rnd, 1 + rnd.randrange(12))
        if ref in ("blackmore", "weird-sisters", EX + "high-card.rules", EX + "rock-paper-scissors.rules"):
            assert hid > 0             # the check above ran on games with something hidden


def test_the_tensor_shows_a_seats_own_hand_and_not_the_others():
    game = rulecraft.load("blackmore", players=3)
    match = game.new(seed=9)
    layout = {name: (at, length) for name, at, length in game.observation_layout()}
    at, length = layout["zone hand of player 1"]
    mine, theirs = match.observation_tensor(1), match.observation_tensor(2)
    hand = match.view(1)["zones"]["hand"]["Player 1"]
    assert sum(1 for x in mine[at:at + length] if x > 0) == len(hand)
    assert not any(theirs[at:at + length])
    count = layout["count hand of player 1"][0]
    assert mine[count] == theirs[count] > 0         # how many cards a hand holds is public


def test_the_tensor_hides_a_private_value():
    game = rulecraft.load(EX + "rock-paper-scissors.rules", players=2)
    match = game.new(seed=1)
    match.apply(match.legal_ids()[0])               # player 1 secretly throws
    layout = {name: (at, length) for name, at, length in game.observation_layout()}
    at, length = layout["var thrown of player 1"]
    assert any(match.observation_tensor(1)[at:at + length])
    assert not any(match.observation_tensor(2)[at:at + length])
    assert views.view(match.session.state, 1)["vars"]["thrown"]["Player 1"] == "hidden"


def test_information_state_text_is_what_the_seat_was_told():
    """Its whole observation history: every line it was told, in order, each step's view after it."""
    match = rulecraft.load("blackmore", players=3).new(seed=4)
    random_steps(match, random.Random(1), 5)
    for seat in (1, 2, 3):
        text = match.information_state_text(seat)
        told = iter(text.splitlines())
        assert all(line in told for line in match.told(seat))       # in order
        own = ", ".join(match.view(seat)["zones"]["hand"][f"Player {seat}"])
        assert re.search(rf"^  (\d+\| )?your hand: {own}$", text, re.M)   # Blackmore's sheet: the own hand
        for other in {1, 2, 3} - {seat}:                          # the others' hands: only how many cards
            assert re.search(rf"^  (\d+\| )?Player {other}: \d+ cards? in hand · \d+ cards? won$", text, re.M)
    assert match.information_state_text(1) != match.information_state_text(2)


def test_the_information_state_tensor_asked_late_is_the_one_asked_at_every_step(tmp_path):
    """Where each seat last saw each card is read from the states after each step only when a tensor is
    asked (Match._memory_now): asked once at the end, of a clone or of a loaded save, it is the tensor of a
    match asked after every decision."""
    game = rulecraft.load("blackmore", players=2)
    eager, lazy = game.new(seed=5), game.new(seed=5)
    rng = random.Random(5)
    for turn in range(24):
        eager.information_state_tensor(1 + turn % 2)
        action = rng.choice(eager.legal_ids())
        eager.apply(action)
        lazy.apply(action)
        if turn == 11:
            twin = lazy.clone()                    # never asked: it reads its own states when it is
    for action in [d[1] for d in eager.decisions[12:]]:
        twin.apply(action)
    eager.save(tmp_path / "m.yaml")
    loaded = rulecraft.load_match(tmp_path / "m.yaml")
    for seat in (1, 2):
        want = eager.information_state_tensor(seat)
        assert lazy.information_state_tensor(seat) == want
        assert twin.information_state_tensor(seat) == want
        assert loaded.information_state_tensor(seat) == want
