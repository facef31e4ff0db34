"""Perfect recall (issue 26): a seat's information state — its text and its tensor — determines its whole
observation history (engine.recall), so equal tensors mean equal histories. Kuhn and Leduc poker written
in rules have exactly OpenSpiel's information states, and CFR through the adapter finds their values."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import rulecraft
from rulecraft.rl import openspiel as rcos

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def _poker():
    spec = importlib.util.spec_from_file_location("poker_cfr", ROOT / "benchmarks" / "poker_cfr.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUMS = '''game "Sums"
players 2
var x: Int = 0
rule play:
    repeat 2:
        player(1) chooses k in 1..2 as "add {k}":
            x += k
    player(2) chooses k in 1..2 as "stop {k}":
        pass
score p: Player = x
'''


def test_a_public_sum_reached_two_ways_is_two_information_states(rules_file):
    """1+2 and 2+1 both make x = 3: player 2 saw x after each step, so they are two information states."""
    game = rulecraft.load(str(rules_file(SUMS)))
    texts, tensors = set(), set()
    for first in ("add 1", "add 2"):
        for second in ("add 1", "add 2"):
            m = game.new(seed=0)
            m.apply(first)
            m.apply(second)
            texts.add(m.information_state_text(2))
            tensors.add(tuple(m.information_state_tensor(2)))
    assert len(texts) == 4 and len(tensors) == 4


def _games():
    out = [pytest.param(name, None, id=name) for name in rulecraft.game_names()]
    for path in sorted(EX.glob("*.rules")):
        out.append(pytest.param(str(path), None, id=path.stem))
    return out


@pytest.mark.parametrize("ref, players", _games())
@given(seed=st.integers(0, 2**31 - 1))
def test_equal_tensors_mean_equal_histories(ref, players, seed):
    """Random games (a few, each cut after 20 decisions): wherever two information-state tensors of a
    seat are equal, its observation histories (the information-state texts) are equal too."""
    game = rulecraft.load(ref, players=players)
    rnd = random.Random(seed)
    history_of: dict = {}
    for g in range(3):
        m = game.new(seed=rnd.randrange(2**31) if g else seed % 4)
        for _ in range(20):
            for seat in range(1, game.players + 1):
                tensor = tuple(m.information_state_tensor(seat))
                text = m.information_state_text(seat)
                assert history_of.setdefault((seat, tensor), text) == text
            if m.over:
                break
            m.apply(rnd.choice(m.legal_ids()))


def _count(name, deal):
    """Each player's information states (strings and tensors), walking the whole tree through the adapter;
    each tensor must stand for one string."""
    counts = [(set(), set()), (set(), set())]
    root = _poker().tree(rcos.load_game(str(EX / f"{name}.rules"), options={"deal": deal}, reward="score")
                         .new_initial_state(), counts)
    return [len(c[0]) for c in counts], [len(c[1]) for c in counts], root


@pytest.mark.parametrize("deal", ["shuffle", "draw"])
def test_kuhn_has_openspiels_information_states_and_value(deal):
    strings, tensors, root = _count("kuhn-poker", deal)
    assert strings == tensors == [6, 6]
    assert abs(_poker().cfr(root, 600) - (-1 / 18)) < 2e-3


def test_leduc_has_openspiels_information_states_and_cfr_values():
    """Dealt with random(...): 468 per player, as OpenSpiel's leduc_poker; CFR on it gives, iteration for
    iteration, the values it gives on OpenSpiel's own game (the full run, to about -0.0856, and the
    shuffled deal: benchmarks/poker_cfr.py)."""
    import pyspiel
    strings, tensors, root = _count("leduc-poker", "draw")
    assert strings == tensors == [468, 468]
    poker = _poker()
    native = poker.tree(pyspiel.load_game("leduc_poker").new_initial_state())
    ours, theirs = poker.cfr(root, 12), poker.cfr(native, 12)
    assert ours == pytest.approx(theirs, abs=1e-9)
