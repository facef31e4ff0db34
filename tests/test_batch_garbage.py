"""A batch played in this process runs with the cycle collector off (simulate/batch.py `_here`): that
holds only while its games leave no cyclic garbage. Here a batch of each kind of agent, and one of
games that fail, is played with the collector off, and a collection then finds nothing."""
from __future__ import annotations

import gc

import pytest

from rulecraft.simulate import batch, games

FAILS = """game "Fail"
players 2
var x: Int

rule play:
    players[0] chooses k in 1..2 as "take {k}":
        x = 10 / (k - k)

score p: Player = x
"""


@pytest.mark.parametrize("rules, agents, n", [
    ("examples/tic-tac-toe.rules", ("random", "first"), 40),
    ("games/blackmore.rules", ("ismcts:iterations=8:depth=6", "greedy:samples=2"), 2),
    ("examples/whist.rules", ("random",) * 4, 4),
    (None, ("random", "random"), 20),
])
def test_a_batch_leaves_no_cyclic_garbage(tmp_path, rules, agents, n):
    failing = rules is None
    if failing:
        rules = tmp_path / "fail.rules"
        rules.write_text(FAILS)
    jobs = [games.Job(str(rules), len(agents), (), agents, 0, i, measure=True) for i in range(n)]
    batch.run(jobs[:1])
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        results = batch.run(jobs)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
    assert len(results) == n and all(bool(r.error) == failing for r in results)


def test_the_collector_is_on_again_after_a_batch():
    assert gc.isenabled()
    batch.run([games.Job("examples/tic-tac-toe.rules", 2, (), ("random", "random"), 0, 0)])
    assert gc.isenabled()
