"""Small things a new user reads (issue 29, point 8): each said once and in plain words."""
from __future__ import annotations

import pytest

import rulecraft
from rulecraft.cli.main import build_parser, main


def test_the_help_lists_each_command_once(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    out = capsys.readouterr().out
    for command in ("run", "simulate", "sweep", "doc"):
        assert sum(1 for line in out.splitlines() if line.split()[:1] == [command]) == 1, command


def test_a_game_for_one_player_says_one_player(capsys):
    assert main(["run", "three-sisters-solo", "--players", "3"]) == 1
    err = capsys.readouterr().err
    assert "is for 1 player, not 3" in err and "1 to 1" not in err
    with pytest.raises(rulecraft.UserError, match="is for 1 player, not 2$"):
        rulecraft.load("three-sisters-solo", players=2)


def test_dir_lists_the_api():
    names = dir(rulecraft)
    assert {"load", "Match", "Game", "IllegalAction", "__version__"} <= set(names)
