"""OpenSpiel's own IS-MCTS bot plays The Witches of Blackmore through rulecraft's OpenSpiel adapter.

The bot sits at player 0 against random players. It searches over states drawn from what it may
see (rulecraft.rl.openspiel.resampler: the hidden cards dealt anew, from the rules' `seen by`), and
keys its tree on the information state strings, so it never reads a card hidden from it.

    python examples/rl/ismcts_blackmore.py [games] [simulations]
"""
from __future__ import annotations

import sys

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from rulecraft.rl import openspiel as rcos


def play(games: int = 2, simulations: int = 20, seed: int = 1) -> list[float]:
    """The bot's return in each game (1 for a win, shared in a tie, 0 for a loss)."""
    game = rcos.load_game("blackmore", players=3, options={"hand_size": 3})
    rnd = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rnd)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rnd)
    bot.set_resampler(rcos.resampler(seed))
    results = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rnd.choice(outcomes, p=probs))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
        results.append(state.returns()[0])
    return results


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    simulations = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    results = play(games, simulations)
    print(f"IS-MCTS ({simulations} simulations a move) against two random players, {games} games of Blackmore:")
    print(f"  its returns: {', '.join(f'{r:.2f}' for r in results)}; mean {sum(results) / len(results):.2f} "
          "(a random player's is 0.33)")
