"""A rulecraft game as a Gymnasium environment for one seat; registry agents play the others.

    from rulecraft.rl import gymnasium as rcgym
    env = rcgym.env("three-sisters-solo")                        # a one-seat game
    env = rcgym.env("blackmore", players=3, seat=2, opponents="random")

The observation is {"observation": the seat's observation tensor (rulecraft.tensors),
"action_mask": int8, 1 for each legal action}; `env.action_masks()` gives the same mask (the
convention of sb3-contrib's MaskablePPO). Actions are the game's action ids. The reward is 0
until the end, then `Match.returns(reward)` for the seat ("score" by default for a one-seat
game, "win" otherwise). An action that is not legal ends the episode with `illegal_reward`
(Gymnasium's checks and unmasked learners do take such actions); a game stopped by its rules'
`limit decisions` (engine.limits: or the default cap) is truncated. Seats are 1..N, as in rulecraft.api.
"""
from __future__ import annotations

from . import require

require("rl", "gymnasium", "numpy")

import gymnasium
import numpy as np

from .. import api
from ..agents.registry import agent_seed
from ..engine.limits import decision_limit
from .common import game_of, mask, observation_box, tensor

MAX_DEALS = 100                   # games reset() may deal before the seat has a decision


ENV_ID = "rulecraft/Game-v0"      # gymnasium.make(ENV_ID, game="three-sisters-solo", ...) works too


def env(game, players=None, options=None, seat: int = 1, opponents="random", render_mode=None, reward=None,
        illegal_reward: float = -1.0) -> "RulecraftEnv":
    return RulecraftEnv(game, players, options, seat, opponents, render_mode, reward, illegal_reward)


class RulecraftEnv(gymnasium.Env):
    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, game, players=None, options=None, seat: int = 1, opponents="random", render_mode=None,
                 reward=None, illegal_reward: float = -1.0):
        self.game = game_of(game, players, options)
        if type(seat) is not int or not 1 <= seat <= self.game.players:
            raise api.UserError(f"seats are numbered 1 to {self.game.players}, not {seat!r}")
        self.seat = seat
        others = self.game.players - 1
        kinds = [opponents] * others if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)) \
            else list(opponents)
        if len(kinds) != others:
            raise api.UserError(f"give one opponent for each of the {others} other seats, not {len(kinds)}")
        for kind in kinds:
            if isinstance(kind, str):
                api.agent(kind)                  # an unknown name is refused now, not at the first step
        self.opponent_kinds = kinds
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Dict({
            "observation": observation_box(self.game),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
        })
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.match = None
        self.opponents = {}

    # ------------------------------------------------------------ the game
    def reset(self, seed=None, options=None):
        """A new game, played by the opponents up to the seat's first decision. A game they end (or the
        decision limit stops) before then is dealt again from the env's generator, up to MAX_DEALS
        times: an episode always starts at a decision (`info["dealt_again"]` counts the deals skipped)."""
        super().reset(seed=seed)
        for dealt_again in range(MAX_DEALS):
            self._new_game(int(self.np_random.integers(2 ** 31)))
            if self.match.to_move == self.seat and not self.match.over and not self._limit_reached():
                break
        else:
            raise api.UserError(f"seat {self.seat} never has a decision in {MAX_DEALS} games of {self.game.title}: "
                                "the other seats end each game before its first turn")
        if self.render_mode == "human":
            self.render()
        return self._observation(), dict(self._info(), dealt_again=dealt_again)

    def _new_game(self, game_seed: int) -> None:
        self.match = self.game.new(seed=game_seed)
        # each other seat's agent draws from its own seed, derived from the game's
        others = [k for k in range(1, self.game.players + 1) if k != self.seat]
        self.opponents = {}
        for k, kind in zip(others, self.opponent_kinds):
            self.opponents[k] = api.agent(kind, agent_seed(game_seed, k - 1)) if isinstance(kind, str) else kind
        self._others_play()

    def step(self, action):
        match = self._started("step")
        action = _action_id(action)
        if match.over or match.to_move != self.seat or action not in match.legal_ids():
            return self._observation(), self.illegal_reward, True, False, dict(self._info(), illegal_action=True)
        match.apply(action)
        self._others_play()
        if self.render_mode == "human":
            self.render()
        terminated = match.over
        truncated = not terminated and self._limit_reached()
        reward = float(match.returns(self.reward_kind)[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _others_play(self) -> None:
        match = self.match
        while not match.over and match.to_move != self.seat and not self._limit_reached():
            match.apply(match.ask(self.opponents[match.to_move]))

    def _limit_reached(self) -> bool:
        return self.match.session.state.decisions >= decision_limit(self.game.program)

    def _observation(self) -> dict:
        return {"observation": tensor(self.match, self.seat), "action_mask": mask(self.match, self.seat)}

    def _info(self) -> dict:
        return {"legal_moves": self.match.legal_ids() if self.match.to_move == self.seat else []}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a boolean mask (for maskable learners)."""
        return mask(self._started("action_masks"), self.seat).astype(bool)

    def _started(self, what: str):
        if self.match is None:
            raise api.UserError(f"call reset() before {what}()")
        return self.match

    # ------------------------------------------------------------ for people
    def render(self):
        """The game as the seat sees it: "ansi" returns the text, "human" prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (give render_mode='ansi' or 'human')")
            return None
        text = self.match.observation_text(self.seat) if self.match is not None else ""
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def _action_id(action):
    """An action as a learner gives it (an int, a numpy integer, an array of one) as a plain int; a
    number that is no action id (a float, out of range) stays as it is and is answered as illegal."""
    if isinstance(action, np.ndarray):
        if action.size != 1:
            raise api.UserError(f"an action is one action id, not an array of shape {action.shape}")
        action = action.reshape(()).item()
    if isinstance(action, np.integer):
        action = int(action)
    return action


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=RulecraftEnv)
