"""A batch game equals the same game taken decision by decision, whatever the agents: random agents run
on the fast path (engine.playout), agents that think copy the game while they choose, so they are asked
on the resumable path (the fast path's frames are not the game's while it runs)."""
from __future__ import annotations

import pytest

from rulecraft.agents.registry import agent_seed, make_agent
from rulecraft.agents.seat import act
from rulecraft.engine import machine
from rulecraft.loader import game_path
from rulecraft.simulate import games


def by_hand(job: games.Job):
    """The job's game with machine.decide at every decision, each agent handed its seat."""
    program, values, _makers, _pool, _limit = games._plan(job)
    seed = games.game_seed(job.seed, job.index)
    agents = [make_agent(name, agent_seed(seed, seat)) for seat, name in enumerate(job.agents)]
    state = machine.new_game(program, job.players, values, seed)
    table = games.BareTable(program, state, remember=any(getattr(a, "remembers", False) for a in agents))
    while state.result is None:
        table.take(act(agents[machine.chooser(state)], table))
    return state


@pytest.mark.parametrize("agents", [("random", "random"), ("greedy", "random"), ("ismcts:iterations=8", "first")])
def test_a_batch_game_is_the_game_decision_by_decision(agents):
    path = str(game_path("blackmore"))
    for index in range(2):
        job = games.Job(path, 2, (), agents, 5, index)
        result, state = games.play(job), by_hand(job)
        assert (result.scores, result.winners, result.decisions) == (state.result[0], state.result[2], state.decisions)
