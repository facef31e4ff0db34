"""A learning loop end to end: tabular Q-learning on Nim, through OpenSpiel, in a few seconds.

Two Q-learners play each other (OpenSpiel's rl_environment draws the chance nodes: who starts);
every so often the first learner plays random players without exploring, and its win rate is
printed. It climbs well above the random player's 50%: Nim's winning rule (leave a multiple of
four stones) is learnt from the observation tensors alone.

    python examples/rl/qlearning_nim.py [episodes]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent, tabular_qlearner

from rulecraft.rl import openspiel as rcos


def win_rate(env, learner, opponent, games: int) -> float:
    """How often `learner` (player 0, not exploring) beats `opponent` (player 1)."""
    wins = 0.0
    for _ in range(games):
        step = env.reset()
        while not step.last():
            agent = learner if step.observations["current_player"] == 0 else opponent
            step = env.step([agent.step(step, is_evaluation=True).action])
        wins += step.rewards[0]
    return wins / games


def train(episodes: int = 3000, seed: int = 1, report_every: int = 1000) -> list[float]:
    """The learner's win rate against a random player before training and after each report period."""
    nim = Path(__file__).resolve().parent.parent / "nim.rules"           # examples/nim.rules
    game = rcos.load_game(str(nim), players=2, options={"stones": 9})
    # the chance nodes (who starts) drawn by a seeded sampler: Environment's own `seed=` is not one
    # (its extra keywords go to the game), and its default sampler is seeded from the clock
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    actions = env.action_spec()["num_actions"]
    np.random.seed(seed)
    learners = [tabular_qlearner.QLearner(player_id=k, num_actions=actions, step_size=0.5)
                for k in range(2)]
    opponent = random_agent.RandomAgent(player_id=1, num_actions=actions)
    rates = [win_rate(env, learners[0], opponent, 200)]
    for episode in range(1, episodes + 1):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([learners[player].step(step).action])
        for learner in learners:                      # each learns from the end of the game
            learner.step(step)
        if episode % report_every == 0:
            rates.append(win_rate(env, learners[0], opponent, 200))
    return rates


if __name__ == "__main__":
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    rates = train(episodes)
    print("Q-learning on Nim (9 stones), win rate of the first learner against a random player:")
    print("  " + " -> ".join(f"{r:.0%}" for r in rates))
