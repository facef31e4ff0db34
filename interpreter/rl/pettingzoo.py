"""Every rulecraft game as a PettingZoo AEC environment.

    from rulecraft.rl import pettingzoo as rcpz
    env = rcpz.env("blackmore", players=4)

Agents are "player_0" … "player_{N-1}": seat k of rulecraft (1-based) is "player_{k-1}".
The agent to act is whoever the rules ask next (not always the next seat).
Observations are {"observation": the seat's observation tensor (rulecraft.tensors),
"action_mask": int8, 1 for each legal action} — the mask is all zeros when it is not the
agent's turn. Actions are the game's action ids (`Discrete(game.num_actions)`). Rewards are 0
until the end, then `Match.returns(reward)` ("win" by default with two or more seats, "score"
for one). A game stopped by its rules' `limit decisions` (engine.limits: or the default cap) is
truncated.
"""
from __future__ import annotations

from . import require

require("rl", "pettingzoo", "gymnasium", "numpy")

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.limits import decision_limit
from .common import game_of, mask, observation_box, tensor


def env(game, players=None, options=None, render_mode=None, reward=None):
    """The environment, wrapped as PettingZoo's own environments are (an illegal action ends the
    game for the agent that took it, with a penalty, as `TerminateIllegalWrapper` does)."""
    out = raw_env(game, players, options, render_mode, reward)
    out = wrappers.TerminateIllegalWrapper(out, illegal_reward=-1)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


def agent_name(seat: int) -> str:
    """The PettingZoo agent of rulecraft's seat (1-based)."""
    return f"player_{seat - 1}"


def seat_of(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1]) + 1


class raw_env(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "rulecraft_v0", "is_parallelizable": False}

    def __init__(self, game, players=None, options=None, render_mode=None, reward=None):
        super().__init__()
        self.game = game_of(game, players, options)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [agent_name(k) for k in range(1, self.game.players + 1)]
        space = gymnasium.spaces.Dict({
            "observation": observation_box(self.game),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.match = None
        self._np_random = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the game
    def reset(self, seed=None, options=None):
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.match = self.game.new(seed=int(self._np_random.integers(2 ** 31)) if seed is None else int(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def observe(self, agent):
        seat = seat_of(agent)
        return {"observation": tensor(self.match, seat), "action_mask": mask(self.match, seat)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.match.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """After a reset or an action: the rewards, ends, and the agent to act."""
        match = self.match
        self.rewards = {a: 0.0 for a in self.agents}
        if match.over:
            returns = match.returns(self.reward_kind)
            for a in self.agents:
                self.rewards[a] = float(returns[seat_of(a)])
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
            return
        if match.session.state.decisions >= decision_limit(match.game.program):
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = agent_name(match.to_move)
        for a in self.agents:
            self.infos[a] = {"legal_moves": match.legal_ids()} if a == self.agent_selection else {}

    # ------------------------------------------------------------ for people
    def render(self):
        """The game as the agent to act sees it (nothing it may not see): "ansi" returns the text,
        "human" prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (give render_mode='ansi' or 'human')")
            return None
        if self.match is None:
            return None if self.render_mode == "human" else ""
        text = self.match.observation_text(seat_of(self.agent_selection))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        pass
