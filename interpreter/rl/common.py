"""What the adapters share: a game from a name or a Game, and the numpy forms of an observation."""
from __future__ import annotations

from . import require

require("rl", "gymnasium", "numpy")

import numpy as np

from .. import api


def game_of(game, players=None, options=None) -> api.Game:
    """A rulecraft.Game as given, or loaded from a bundled game's name or a path."""
    if isinstance(game, api.Game):
        if players is not None and players != game.players or options:
            raise api.UserError("give players and options to rulecraft.load, or a game's name here, not both")
        return game
    return api.load(game, players=players, options=options)


def observation_box(game: api.Game):
    """The Box every observation tensor of `game` lies in (rulecraft.tensors gives its bounds)."""
    from gymnasium import spaces
    enc = game.encoder
    return spaces.Box(np.array(enc.low, dtype=np.float32), np.array(enc.high, dtype=np.float32),
                      dtype=np.float32)


def tensor(match: api.Match, seat: int) -> np.ndarray:
    return np.asarray(match.observation_tensor(seat), dtype=np.float32)


def mask(match: api.Match, seat: int) -> np.ndarray:
    """1 for each legal action of `seat` (1-based) now, 0 elsewhere; all 0 when it is not its turn."""
    out = np.zeros(match.game.num_actions, dtype=np.int8)
    if match.to_move == seat:
        out[match.legal_ids()] = 1
    return out
