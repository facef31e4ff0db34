"""A pair choice's options found from its `where` (compile.candidates) are those of every pair tested.

The naive enumeration is the rules compiled with `candidates.plan` answering None (the choice then
tests each pair of the product in order, as before). Random games are played with both, in lockstep,
and the options offered (ids and order) compared at every decision; a rule that fails must fail the
same way. The fixtures below are the shapes the plan must get right: a conjunct of the first part
after one of the second (it may fail, so it must not move), a membership list with repeats and
numbers outside the second domain, a def looked into, a `where` that draws chance (not touched).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.check.checkcache import check_game
from rulecraft.compile import candidates
from rulecraft.compile.compiler import Compiler
from rulecraft.engine import machine
from rulecraft.runtime.errors import RulesRuntimeError

ROOT = Path(__file__).resolve().parent.parent


def compiled(path: Path, naive: bool, monkeypatch):
    with monkeypatch.context() as patch:
        if naive:
            patch.setattr(candidates, "plan", lambda prog, s: None)
        return Compiler(check_game(path, []).program, [], None).compile()


def planned_choices(path: Path) -> int:
    """How many choices of the rules get a plan (so that a test of none would say so)."""
    from rulecraft.ir import nodes as ir
    prog = check_game(path, []).program
    return sum(candidates.plan(prog, s) is not None
               for rule in prog.rules.values() for s in ir.walk(rule.body) if isinstance(s, ir.Choose))


def same_games(path: Path, players: int, seeds, monkeypatch) -> int:
    """Play both compilations in lockstep; the number of decisions compared."""
    found, naive = compiled(path, False, monkeypatch), compiled(path, True, monkeypatch)
    compared = 0
    for seed in seeds:
        outcomes = []
        for program in (found, naive):
            rng, offered = random.Random(seed), []
            try:
                m = machine.new_game(program, players, None, seed)
                while m.result is None and len(offered) < 400:
                    offered.append(m.pending)
                    ids = m.pending[2]
                    machine.decide(m, ids[rng.randrange(len(ids))])
                outcomes.append((offered, m.result, None))
            except RulesRuntimeError as e:
                outcomes.append((offered, None, str(e)))
        assert outcomes[0] == outcomes[1], seed
        compared += len(outcomes[0][0])
    return compared


# (Hanabi's turn is one `chooses one of` now, lowered to a choice over numbers: no pair left to plan.)
@pytest.mark.parametrize("name,players", [("checkers", 2)])
def test_the_options_found_from_the_where_are_every_pairs(name, players, monkeypatch):
    path = ROOT / "examples" / f"{name}.rules"
    assert planned_choices(path) >= 1
    assert same_games(path, players, range(6), monkeypatch) > 50


FIXTURE = '''game "Pairs"
players 2
var board: Int by 1..9 = 0
var turn_count: Int = 0
def reach(a: Int): List[Int] = [a + 1, a + 1, a - 1, a + 3, 0, 12, a * 2]
def open(p: Player, a: Int, b: Int): Bool = board[a] == 0 and b in reach(a) and board[b] != p.seat
rule play:
    for k in 1..9:
        board[k] = (k * 7) mod 3
    repeat 30:
        for p in players:
            p may choose a in 1..9, b in 1..9 where open(p, a, b) and a != b as "{a}>{b}" or "pass":
                board[a] = p.seat
                board[b] = 0
            p may choose a in 1..9, b in 1..9 where board[b] == p.seat and board[a mod 9 + 1] >= 0 and a < 6 as "{a}/{b}" or "pass":
                board[b] = (board[b] + a) mod 3
            p may choose a in 1..9, c in 0..2 where c != board[a] and random(1..2) == 1 as "{a}:{c}" or "pass":
                board[a] = c
score p: Player = count(board[k] == p.seat for k in 1..9)
'''


def test_the_shapes_that_must_not_move_and_those_that_may(rules_file, monkeypatch):
    """The first choice: a def looked into, then a membership list with repeats and numbers outside
    1..9 (and 0, where reading board[0] would fail). The second: first-part conjuncts after one of the
    second part, the first of which could fail (a table read at a computed key): they stay where they
    are. The third draws chance: not touched."""
    path = rules_file(FIXTURE)
    from rulecraft.ir import nodes as ir
    prog = check_game(path, []).program
    choices = sorted((s for s in ir.walk(prog.rules["play"].body) if isinstance(s, ir.Choose)), key=lambda s: s.span.line)
    plans = [candidates.plan(prog, s) for s in choices]
    assert plans[0] is not None and plans[0].members is not None and len(plans[0].first) == 1
    assert plans[1] is None
    assert plans[2] is None
    assert same_games(path, 2, range(8), monkeypatch) > 50


def test_a_failing_conjunct_fails_the_same_way(rules_file, monkeypatch):
    """`board[a + 8] == 0` fails for a > 1 (no entry 10): written first it fails at the first pair; written
    after a test of the second part that no pair passes, it never runs."""
    for where, fails in (("board[a + 8] == 0 and b == 1", True), ("b == 10 and board[a + 8] == 0", False)):
        path = rules_file(f'''game "Fails"
players 2
var board: Int by 1..9 = 0
rule play:
    player(1) may choose a in 1..9, b in 1..9 where {where} as "{{a}} {{b}}" or "pass":
        pass
''')
        for naive in (False, True):
            program = compiled(path, naive, monkeypatch)
            if fails:
                with pytest.raises(RulesRuntimeError, match="outside the table.s keys"):
                    machine.new_game(program, 2, None, 0)
            else:
                assert machine.new_game(program, 2, None, 0).result is not None     # no option: nobody asked


def test_the_benchmark_plays_the_same_games_both_ways(capsys):
    """benchmarks/pair_choices.py times the two compilations; its figure means something only while both
    play the same games (it exits 1 otherwise)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("pair_choices", ROOT / "benchmarks" / "pair_choices.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--game", str(ROOT / "examples" / "checkers.rules"), "--games", "2", "--rounds", "1"]) == 0
    assert "same games: True" in capsys.readouterr().out
