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


# ------------------------------------------------------------------ `outcome`: the declaration
def rules(tmp_path, text: str) -> str:
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    return str(path)


BASE = '''game "G"
players 2
var points: Int per player
rule play:
    for p in players:
        p chooses k in 0..2 as "take {k}":
            p.points = k
'''


@pytest.mark.parametrize("lines, message", [
    ("outcome zero-some\nscore p = p.points", "an outcome is cooperative, zero-sum or constant-sum, not 'zero-some'"),
    ("outcome cooperative\nscore p = 0", "a cooperative game says when its players win together"),
    ("outcome zero-sum when true\nscore p = p.points", "only a cooperative outcome takes `when`"),
    ("outcome constant-sum\nscore p = p.points", "a constant-sum outcome gives the sum of the scores"),
    ("outcome zero-sum 3\nscore p = p.points", "only a constant-sum outcome takes a number"),
    ("outcome zero-sum, points -2..2\nscore p = p.points", "an outcome's bounds are written `, scores LO..HI`"),
    ("outcome zero-sum, scores 2..-2\nscore p = p.points", "the scores' bounds 2..-2 are empty"),
    ("outcome zero-sum", "a zero-sum game needs a `score`"),
    ("outcome cooperative when 3\nscore p = 0", "a cooperative game's `when`"),
    ("outcome zero-sum\noutcome zero-sum\nscore p = p.points", "a second 'outcome' declaration"),
])
def test_a_bad_outcome_is_a_clear_error(tmp_path, lines, message):
    import rulecraft
    from rulecraft.diagnostics import RulesError
    with pytest.raises(RulesError) as info:
        rulecraft.load(rules(tmp_path, BASE + lines + "\n"))
    assert message in str(info.value)


def test_a_cooperative_game_is_won_or_lost_by_all_together():
    import rulecraft
    game = rulecraft.load(str(HERE / "crew.rules"))
    results = set()
    for seed in range(12):
        match = game.new(seed=seed)
        while not match.over:
            match.apply(match.legal_ids()[seed % 2 * -1])          # all "add 0", or all "add 5"
        results.add((tuple(match.winners), tuple(match.returns("win").values())))
    assert results == {((), (0.0, 0.0, 0.0)), ((1, 2, 3), (1.0, 1.0, 1.0))}


@pytest.mark.parametrize("score, message", [
    ("p.points", "sum to"),                                      # 0 + 2 breaks zero-sum
    ("if p.seat == 1 then 5 else -5", "Player 1's score is 5, outside the declared `scores -2..2`"),
])
def test_a_declared_sum_or_bound_the_rules_break_is_their_error(tmp_path, score, message):
    import rulecraft
    from rulecraft.runtime.errors import RulesRuntimeError
    game = rulecraft.load(rules(tmp_path, BASE + f"outcome zero-sum, scores -2..2\nscore p = {score}\n"))
    match = game.new(seed=0)
    with pytest.raises(RulesRuntimeError, match=message):
        while not match.over:
            match.apply(match.legal_ids()[-1 if match.to_move == 2 else 0])


def test_a_cooperative_game_has_one_score(tmp_path):
    import rulecraft
    from rulecraft.runtime.errors import RulesRuntimeError
    game = rulecraft.load(rules(tmp_path, BASE + "outcome cooperative when true\nscore p = p.points\n"))
    match = game.new(seed=0)
    with pytest.raises(RulesRuntimeError, match="share one result, but their scores differ"):
        while not match.over:
            match.apply(match.legal_ids()[-1 if match.to_move == 2 else 0])


# ------------------------------------------------------------------ simulate and tournament honour it
def test_simulate_reports_a_cooperative_game_lost_at_score_0(capsys):
    """A crew of one team that scores 0 used to win every game (one side: every seat a winner)."""
    out = simulate_json(capsys, str(HERE / "crew.rules"), "-n", "10", "--agents", "first")
    assert out["outcome"] == "cooperative"
    assert [s["win_rate"] for s in out["seats"]] == [0.0, 0.0, 0.0]
    assert [s["score_mean"] for s in out["seats"]] == [0.0, 0.0, 0.0]
    assert out["metrics"]["drawishness"] == 0.0
    out = simulate_json(capsys, str(HERE / "crew.rules"), "-n", "30")
    rate = out["seats"][0]["win_rate"]
    assert 0 < rate < 1 and [s["win_rate"] for s in out["seats"]] == [rate] * 3
    assert out["first_player_advantage"]["win_rate"] == rate and out["metrics"]["balance"] == 1.0
    assert main(["simulate", str(HERE / "crew.rules"), "-n", "4", "--workers", "1"]) == 0
    assert "together: the players win" in capsys.readouterr().out


def test_simulate_says_a_game_of_one_side_has_nothing_to_win(capsys):
    assert main(["simulate", str(HERE / "coop3.rules"), "-n", "2", "--workers", "1"]) == 0
    assert "one side: every seat wins every game" in capsys.readouterr().out


def test_the_first_player_is_the_seat_that_moved_first(capsys):
    """The starter is drawn at random and always wins: seat 1 wins about half, the first mover all."""
    out = simulate_json(capsys, str(HERE / "random-start.rules"), "-n", "40")
    assert out["first_player_advantage"]["win_rate"] == 1.0 == out["metrics"]["advantage"]
    assert out["first_player_advantage"]["games"] == 40
    assert 0.2 < out["seats"][0]["win_rate"] < 0.8


def test_a_tournament_of_a_cooperative_game_splits_every_pair(capsys):
    assert main(["tournament", str(HERE / "crew.rules"), "--agents", "random,first,greedy", "-n", "2",
                 "--json", "--workers", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    for row in out["agents"]:
        assert set(row["against"].values()) == {0.5}          # seats that win or lose together never beat each other


# ------------------------------------------------------------------ the adapters
def test_openspiel_knows_a_zero_sum_poker_and_its_bounds():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import cfr, exploitability, expected_game_score
    from rulecraft.rl import openspiel as rcos
    game = rcos.load_game(str(HERE / "kuhn.rules"), reward="score")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-2.0, 2.0, 0.0)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.exploitability(game, policy) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
    assert value == pytest.approx(-1 / 18, abs=0.01)                 # Kuhn poker's value for the first player


@pytest.mark.parametrize("ref, reward, utility, bounds", [
    ("split.rules", "score", "CONSTANT_SUM", (0.0, 10.0, 10.0)),
    ("crew.rules", "win", "IDENTICAL", (0.0, 1.0, None)),
    ("crew.rules", "score", "IDENTICAL", None),
    ("pairs.rules", "win", "CONSTANT_SUM", (0.0, 1.0, 1.0)),
    ("pairs.rules", "score", "GENERAL_SUM", None),
])
def test_openspiel_utility_follows_the_declared_outcome(ref, reward, utility, bounds):
    pyspiel = pytest.importorskip("pyspiel")
    from rulecraft.rl import openspiel as rcos
    game = rcos.load_game(str(HERE / ref), reward=reward)
    assert game.get_type().utility == getattr(pyspiel.GameType.Utility, utility)
    if bounds is not None:
        total = game.utility_sum() if bounds[2] is not None else None
        assert (game.min_utility(), game.max_utility(), total) == bounds
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_pettingzoo_rewards_a_cooperative_game_together():
    from rulecraft.rl import pettingzoo as rcpz
    seen = set()
    for seed in range(20):
        env = rcpz.env(str(HERE / "crew.rules"))
        env.reset(seed=seed)
        for agent in env.possible_agents:       # the agents' random actions seeded too: the same games each run
            env.action_space(agent).seed(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            env.step(None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"]))
        seen.add(tuple(totals.values()))
    assert seen == {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0)}


# ------------------------------------------------------------------ what a save holds, said where one saves
def test_play_says_a_save_holds_what_the_seat_may_not_see(capsys, monkeypatch, tmp_path):
    """A save needs every seat's hidden cards and choices and the random generator's state to resume;
    the player who saves is told so in the prompt's help and in the confirmation."""
    from helpers import Keyboard
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", Keyboard(["help", "save mid.yaml", "quit"]))
    assert main(["play", "blackmore", "--seat", "1", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    help_text = " ".join(out[out.index("Answer with an option's number"):].split())
    assert "a save is the whole game: every seat's hidden cards and choices and the random generator" in help_text
    confirmation = out[out.index("saved to mid.yaml"):].splitlines()[0:2]
    assert "holds what your seat may not see" in " ".join(confirmation)
    assert (tmp_path / "mid.yaml").exists()


def test_the_search_values_a_cooperative_game_as_one_result(tmp_path):
    """Three seats without teams that win together: each gets the whole win (not a third of it), and the
    search backs up outcomes (not raw scores, as in a game of one side with nothing to win)."""
    import rulecraft
    from rulecraft.agents import search
    game = rulecraft.load(rules(tmp_path, '''game "Pull together"
players 3
var total: Int = 0
rule play:
    for p in players:
        p chooses k in 0..5 as "add {k}":
            total += k
outcome cooperative when total >= 10
score p: Player = total
'''))
    for pick, expected in ((-1, [1.0] * 3), (0, [0.0] * 3)):
        match = game.new(seed=0)
        while not match.over:
            match.apply(match.legal_ids()[pick])
        state = match.session.state
        assert search.outcome(state) == expected and not search.one_side(state)


def test_one_team_without_an_outcome_is_warned(tmp_path):
    import rulecraft
    game = rulecraft.load(rules(tmp_path, BASE.replace('players 2\n', 'players 2\nteams Crew\n') + "score p = 0\n"))
    assert [w.message for w in game.program.warnings] == ["with one team, every player wins every game"]
    crew = rulecraft.load(str(HERE / "crew.rules"))
    assert not crew.program.warnings


def test_winners_in_the_rules_follow_a_cooperative_outcome(tmp_path):
    import rulecraft
    from helpers import var_slot
    game = rulecraft.load(rules(tmp_path, '''game "Count the winners"
players 3
var total: Int = 0
var counted: Int = -1
rule play:
    for p in players:
        p chooses k in 0..5 as "add {k}":
            total += k
    counted = size(winners)
outcome cooperative when total >= 10
score p: Player = total
'''))
    for pick, expected in ((-1, 3), (0, 0)):
        match = game.new(seed=0)
        while not match.over:
            match.apply(match.legal_ids()[pick])
        state = match.session.state
        assert state.vars[var_slot(game.program, "counted")] == expected == len(match.winners)


def test_gymnasium_deals_again_a_game_the_limit_stops_before_the_seats_turn(tmp_path):
    """`limit decisions 2`: the opponent plays on and names its number, the last decision allowed, so
    seat 2 could never act."""
    from rulecraft import UserError
    from rulecraft.rl import gymnasium as rcgym
    path = tmp_path / "short.rules"
    path.write_text((HERE / "early-end.rules").read_text(encoding="utf-8") + "limit decisions 2\n", encoding="utf-8")
    env = rcgym.env(str(path), seat=2, opponents="random")
    with pytest.raises(UserError, match="never has a decision"):
        env.reset(seed=0)
