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
