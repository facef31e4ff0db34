"""The speed yardstick plays the interpreter's games (issue 8, item 6).

benchmarks/handwritten_blackmore.py is The Witches of Blackmore written by hand in
plain Python; the interpreter/hand-written ratio only means something while both
play the same games. Here a few seeded games are played both ways, with the same
random agent, and must give the same scores, winners and numbers of decisions.
Nothing is timed.
"""
from __future__ import annotations

import ast
import importlib.util
import os
import random
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SEEDS = range(5)


def _load_yardstick():
    path = BENCHMARKS / "handwritten_blackmore.py"
    spec = importlib.util.spec_from_file_location("handwritten_blackmore", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def yardstick():
    return _load_yardstick()


@pytest.mark.parametrize("players, descending, hand_size", [
    (2, True, 6),
    (4, True, 6),
    (6, True, 6),
    (3, False, 6),      # the ascending wheel
    (5, False, 6),
    (2, True, 2),       # other hand sizes: the final stage comes sooner or later
    (4, False, 3),
    (6, True, 8),
])
def test_hand_written_blackmore_plays_the_interpreters_games(yardstick, blackmore, players, descending, hand_size):
    for seed in SEEDS:
        interp, hand = yardstick.both_ways(blackmore, players, seed, descending, hand_size)
        assert hand == interp, f"{players}p seed {seed}: hand-written (scores, winners, decisions) differs"
    assert yardstick.verify(blackmore, players, len(SEEDS), descending, hand_size) is None


def test_the_resumable_version_plays_the_same_games(yardstick):
    """The generator version (also timed) gives what the direct version gives."""
    for players in (2, 4, 6):
        for seed in SEEDS:
            a, b = random.Random(seed), random.Random(seed)
            direct = yardstick.play_direct(players, seed, lambda _p, opts: a.randrange(len(opts)), False, 5)
            g = yardstick.play_resumable(players, seed, False, 5)
            _p, options = next(g)
            try:
                while True:
                    _p, options = g.send(b.randrange(len(options)))
            except StopIteration as stop:
                resumable = stop.value
            assert resumable == direct


def test_the_options_change_the_games(yardstick):
    """The option cases above are not vacuous: the wheel and the hand size change what happens."""
    def play(seed, descending, hand_size):
        agent = random.Random(seed)
        return yardstick.play_direct(4, seed, lambda _p, opts: agent.randrange(len(opts)), descending, hand_size)

    assert any(play(s, True, 6) != play(s, False, 6) for s in SEEDS)
    assert any(play(s, True, 6) != play(s, True, 3) for s in SEEDS)


def test_verify_reports_a_mismatch(yardstick, blackmore, monkeypatch):
    """The comparison can fail: a yardstick with a different wheel no longer agrees."""
    play_direct = yardstick.play_direct
    monkeypatch.setattr(yardstick, "play_direct",
                        lambda n, seed, choose, descending=True, hand_size=6:
                        play_direct(n, seed, choose, not descending, hand_size))
    assert yardstick.verify(blackmore, 4, len(SEEDS)).startswith("MISMATCH at 4p seed ")


def test_the_hand_written_game_does_not_use_rulecraft():
    """Only the drivers (comparing with the interpreter, timing it) import rulecraft."""
    tree = ast.parse((BENCHMARKS / "handwritten_blackmore.py").read_text(encoding="utf-8"))
    drivers = {"both_ways", "main"}
    for top in tree.body:
        for node in ast.walk(top):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(n == "rulecraft" or n.startswith("rulecraft.") for n in names):
                assert isinstance(top, ast.FunctionDef) and top.name in drivers, \
                    f"line {node.lineno}: rulecraft imported outside the drivers"
    # _common's helpers import rulecraft only inside interpreter_player, a driver too.
    common = ast.parse((BENCHMARKS / "_common.py").read_text(encoding="utf-8"))
    for top in common.body:
        if isinstance(top, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in top.names] if isinstance(top, ast.Import) else [top.module or ""]
            assert not any(n.startswith("rulecraft") for n in names)


def test_bytecode_counts_are_the_same_on_every_run(yardstick):
    """benchmarks/bytecodes.py gives a noise-free figure: the same games execute the same bytecodes."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("bench_bytecodes", BENCHMARKS / "bytecodes.py")
        bytecodes = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bytecodes)
    finally:
        sys.path.remove(str(BENCHMARKS))
    from rulecraft.loader import load

    program = load("blackmore")
    first = bytecodes.count(bytecodes.interpreter_player(program, 2), 2)
    again = bytecodes.count(bytecodes.interpreter_player(program, 2), 2)
    assert first == again
    assert any(name.startswith("rule play") for name in first)     # (contest and change_trump are written in)
    hand = bytecodes.count(yardstick.direct_player(2), 2)
    assert "play_direct" in hand and sum(hand.values()) < sum(first.values())


def test_bytecodes_of_the_fast_path_name_their_lines(capsys):
    """`bytecodes.py --plain --lines N`: the fast path against the plain game, and the generated lines
    counted are shown with their source (the fast twin's, as `rulecraft show --fast` prints it)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("bench_bytecodes_plain", BENCHMARKS / "bytecodes.py")
        bytecodes = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bytecodes)
        assert bytecodes.main(["--plain", "--players", "2", "--games", "2", "--top", "3", "--lines", "5"]) == 0
    finally:
        sys.path.remove(str(BENCHMARKS))
    out = capsys.readouterr().out
    assert "playout" in out and "plain" in out
    busiest = out.split("busiest lines")[1].splitlines()[1:]
    assert len(busiest) == 5 and all(" fast " in line or "not the twin" in line for line in busiest)


def test_a_switch_is_timed_off_and_on(capsys, monkeypatch):
    """benchmarks/switches.py compiles a game with a compiler switch off and on, checks that both play
    the same games, and times them; an unknown switch is a plain sentence."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("bench_switches", BENCHMARKS / "switches.py")
        switches = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(switches)
    finally:
        sys.path.remove(str(BENCHMARKS))
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")          # what the script sets, undone after the test
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        assert switches.main(["--switch", "entries", "--game", "blackmore", "--players", "2",
                              "--rounds", "1", "--seconds", "0.05"]) == 0
    finally:
        if cpus is not None:
            os.sched_setaffinity(0, cpus)                     # the script pins itself to one core
    out = capsys.readouterr().out
    assert "on/off" in out and out.count("generated code") == 2
    assert switches.main(["--switch", "no_such", "--game", "blackmore"]) == 2
    assert "no switch no_such" in capsys.readouterr().out


def test_an_analysis_is_timed_off_and_on_and_each_one_named_is_there(capsys, monkeypatch):
    """`switches.py --off NAME` turns an analysis off by replacing the function that decides it: each one
    OFF names must still be in the compiler (an analysis removed leaves OFF too), and turned off and on
    again the game plays the same games on the fast path."""
    import importlib as _importlib
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("bench_switches_off", BENCHMARKS / "switches.py")
        switches = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(switches)
    finally:
        sys.path.remove(str(BENCHMARKS))
    for name, patches in switches.OFF.items():
        for module, cls, attr, _replacement in patches:
            owner = _importlib.import_module("rulecraft.compile." + module)
            assert hasattr(getattr(owner, cls) if cls else owner, attr), (name, module, cls, attr)
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        assert switches.main(["--off", "distinct", "--fast", "--game", "blackmore", "--players", "2",
                              "--rounds", "1", "--seconds", "0.05"]) == 0
    finally:
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
    out = capsys.readouterr().out
    assert "on/off" in out and out.count("generated code") == 2


def test_hand_edited_variants_of_the_fast_twin_are_timed(capsys):
    """benchmarks/fast_variants.py puts hand-edited functions in the fast twin, keeps those that play the
    generated code's games, and times them; one tied to functions the twin no longer has is left out
    with a sentence (the files follow today's generated code), never an error."""
    spec = importlib.util.spec_from_file_location("bench_fast_variants", BENCHMARKS / "fast_variants.py")
    variants = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(variants)
    assert variants.main(["--rounds", "1", "--games", "3", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "generated" in out and "1.000" in out
