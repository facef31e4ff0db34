"""Three Sisters is for 2–4 players (the rulebook's dice table); its one-player game is Solo Mode.

A refused count names the bundled variants that seat it, found from their `extends` and
`players` lines (no game's name in the code)."""
from __future__ import annotations

from rulecraft.cli.main import main
from rulecraft.loader import load


def test_the_base_game_is_for_two_to_four():
    program = load("three-sisters")
    assert (program.min_players, program.max_players) == (2, 4)
    assert (load("three-sisters-solo").min_players, load("three-sisters-solo").max_players) == (1, 1)


def test_one_player_is_refused_and_pointed_to_solo_mode(capsys):
    assert main(["run", "three-sisters", "--players", "1", "-q"]) == 1
    err = capsys.readouterr().err
    assert "Three Sisters is for 2 to 4 players, not 1; for 1 player: three-sisters-solo" in err
    assert "Traceback" not in err


def test_a_count_no_variant_seats_gets_no_pointer(capsys):
    assert main(["run", "three-sisters", "--players", "5", "-q"]) == 1
    assert capsys.readouterr().err.strip().endswith("is for 2 to 4 players, not 5")
