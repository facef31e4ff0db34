"""Outcomes (issue 26 items 5 and 6): the crashes found with their reproducers, what `simulate` calls the
first player, declared cooperative and zero-/constant-sum games, and the adapters that honour them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecraft.cli.main import main

HERE = Path(__file__).resolve().parent / "outcomes"


def simulate_json(capsys, *args) -> dict:
    assert main(["simulate", *args, "--json", "--workers", "1"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


# ------------------------------------------------------------------ crashes
@pytest.mark.parametrize("rules, agents, seeds", [
    ("coop3.rules", "ismcts:iterations=100:depth=4", [0]),      # a hidden Int sampled as 0 leaves no option
    ("trade3.rules", "ismcts:iterations=100", [0, 1]),           # an offer reaches the searching seat
])
def test_a_search_survives_sampled_worlds_the_rules_cannot_play_on(capsys, rules, agents, seeds):
    """A sampled world whose next decision fails left a child node with no visit; UCB1 divided by it."""
    for seed in seeds:
        out = simulate_json(capsys, str(HERE / rules), "-n", "1", "--agents", agents, "--seed", str(seed))
        assert out["finished"] == 1


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["run"]])
def test_too_few_agents_for_a_fixed_table_is_one_sentence(capsys, command):
    assert main(command + ["examples/whist.rules", "--agents", "random,random"]) != 0
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    assert "Whist is for 4 players" in err and "2 agents" in err and len(err.strip().splitlines()) == 1


def test_the_fair_share_of_a_team_game_is_its_teams_share(capsys):
    out = simulate_json(capsys, str(HERE / "pairs.rules"), "-n", "20")
    assert out["first_player_advantage"]["fair_share"] == 0.5


# ------------------------------------------------------------------ Gymnasium's edge cases
def test_gymnasium_deals_again_a_game_its_opponents_end_before_the_seats_first_turn():
    """An opponent that concedes at once (`first` takes "concede") would leave the learner a finished
    game with nothing legal; reset deals again until the seat has a decision, and says how often."""
    from rulecraft.rl import gymnasium as rcgym

    class ConcedesOnce:
        games = 0

        def choose(self, seat):
            self.games += 1
            return seat.legal_ids()[0 if self.games == 1 else -1]      # "concede" once, then "play on"

    env = rcgym.env(str(HERE / "early-end.rules"), seat=2, opponents=[ConcedesOnce()])
    obs, info = env.reset(seed=3)
    assert obs["action_mask"].any() and env.action_masks().any() and info["legal_moves"]
    assert info["dealt_again"] == 1
    # …and with opponents that play on, the seat's step ends the game with its true reward
    env = rcgym.env(str(HERE / "early-end.rules"), seat=2, opponents="random")
    rewards = set()
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        assert obs["action_mask"].any() and info["legal_moves"]
        _obs, reward, terminated, _truncated, info = env.step(info["legal_moves"][-1])     # "name 2"
        assert terminated and not info.get("illegal_action")
        rewards.add(reward)
    assert rewards <= {0.5, 1.0} and 1.0 in rewards


def test_gymnasium_says_so_when_the_seat_never_gets_a_turn():
    from rulecraft.rl import gymnasium as rcgym
    from rulecraft import UserError
    env = rcgym.env(str(HERE / "always-early.rules"), seat=2)
    with pytest.raises(UserError, match="never has a decision"):
        env.reset(seed=0)


def test_gymnasium_action_masks_before_reset_and_array_actions():
    import numpy as np
    from rulecraft.rl import gymnasium as rcgym
    from rulecraft import UserError
    env = rcgym.env("examples/nim.rules", seat=1)
    with pytest.raises(UserError, match="reset"):
        env.action_masks()
    _obs, info = env.reset(seed=0)
    a = info["legal_moves"][0]
    twin = rcgym.env("examples/nim.rules", seat=1)
    twin.reset(seed=0)
    one, two = env.step(np.array([a])), twin.step(np.int64(a))
    assert not one[4].get("illegal_action") and one[1:4] == two[1:4]
    assert (one[0]["observation"] == two[0]["observation"]).all()
    with pytest.raises(UserError, match="one action id"):
        env.step(np.array([a, a]))


def test_gymnasium_env_checker_on_the_early_end():
    import warnings
    from gymnasium.utils.env_checker import check_env
    from rulecraft.rl import gymnasium as rcgym
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(rcgym.env(str(HERE / "early-end.rules"), seat=2, opponents="random"))
    assert not [w for w in caught if "spec" not in str(w.message)]
