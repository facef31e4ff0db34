"""`c.owner` is the player whose zone holds the card; a card in a shared zone has none: the rules'
failure, with the sentence rt_owner gives."""
from __future__ import annotations

import pytest

from rulecraft.engine import machine
from rulecraft.engine.observe import render
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError
from rulecraft.runtime.helpers import CheckedNarration

RULES = '''game "Owners"
players 3
card Coin(value: 1..3) named "coin {value}"
cards coins = [Coin(v) for v in 1..3]
zone pile of Coin
zone purse of Coin per player
rule play:
    move coins to pile
    move Coin("coin 2") to player(3).purse
    let c = Coin("coin 2")
    say "{c.owner}"
    let d = top(pile)
    say "{d.owner}"
'''


def test_the_owner_of_a_card_and_of_none(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    path = tmp_path / "owners.rules"
    path.write_text(RULES)
    sink = CheckedNarration()      # a narration that fails stops the game here (as in rulecraft test)
    with pytest.raises(RulesRuntimeError, match="coin 3 is not in a player's zone, so it has no owner"):
        machine.new_game(load_file(path), 3, None, 0, sink=sink)
    assert [render(line[2], None) for line in sink] == ["Player 3"]
