"""Every rulecraft game as an OpenSpiel game, with the rules' chance as chance nodes.

    from rulecraft.rl import openspiel as rcos
    game = rcos.load_game("blackmore", players=3)        # a pyspiel.Game
    # or: pyspiel.load_game("rulecraft(game=blackmore,players=3)") once this module is imported

Players are OpenSpiel's 0..N-1: rulecraft's seat k is player k-1. Actions are the game's
action ids. **Chance**: every draw of the rules is a chance node — `random(xs)` one node with
len(xs) equally likely outcomes, `shuffle z` one node per Fisher–Yates swap (outcome j of
i+1 for the i-th card from the top) — so OpenSpiel's algorithms see the true chance structure
(a draw from more than `max_chance_outcomes` values is split into nodes over blocks of values,
each with its exact probability). The engine's RNG is never read: the draws come from the
chance actions (the runtime's `("draws", source)` hook). Observations are the seat's
observation tensor and text (rulecraft.api); the information state string is everything the
seat was told plus its view. Returns are `Match.returns(reward)`; a game its rules' `limit
decisions` (or engine.limits's default cap) stops is terminal, its return shared equally ("win") or its scores so far ("score").
States serialize as their history (OpenSpiel's default) and games as their parameters.
"""
from __future__ import annotations

from . import require

require("openspiel", "pyspiel", "numpy")

import random

import numpy as np
import pyspiel

from .. import api
from ..engine import outcomes
from ..engine.limits import decision_limit
from ..engine.session import Session
from ..engine.whereabouts import Whereabouts
from ..check.modules import bundled_games

SHORT_NAME = "rulecraft"
# OpenSpiel wants a default for every parameter: the first bundled game, by name
PARAMETERS = {"game": sorted(bundled_games())[0], "players": 0, "options": "", "reward": ""}
MAX_PLAYERS = 64
UTILITY = {"zero-sum": pyspiel.GameType.Utility.ZERO_SUM, "constant-sum": pyspiel.GameType.Utility.CONSTANT_SUM,
           "identical": pyspiel.GameType.Utility.IDENTICAL, "general-sum": pyspiel.GameType.Utility.GENERAL_SUM}


def load_game(game: str, players: int | None = None, options: dict | None = None, reward: str | None = None):
    """A pyspiel.Game of a bundled game's name or a .rules path; options by name as rulecraft.load
    takes them (written into the game's parameters as `name:value;…`)."""
    text = ";".join(f"{k}:{_option_text(v)}" for k, v in (options or {}).items())
    params = {"game": str(game), "players": int(players or 0), "options": text, "reward": reward or ""}
    return pyspiel.load_game(SHORT_NAME, params)


def _option_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _game_type(utility, min_players=1, max_players=MAX_PLAYERS):
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="A rulecraft game (rules as text)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players, min_num_players=min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=PARAMETERS)


class _Stop(BaseException):
    """Raised by a draw with no outcome yet: the rules stop there, at a chance node. A BaseException,
    so that no `except Exception` of the engine (which would call it a failure) catches it. `ahead`:
    the sizes of the draws that follow it, when known (the rest of a shuffle)."""

    def __init__(self, outcomes, ahead=()):
        self.outcomes = outcomes
        self.ahead = ahead


_UNIFORM: dict = {}


def uniform(n: int) -> list:
    """The chance outcomes of a draw of one of n, made once per n (never changed)."""
    got = _UNIFORM.get(n)
    if got is None:
        got = _UNIFORM[n] = [(k, 1.0 / n) for k in range(n)]
    return got


class _Draws:
    """The outcomes of the chance nodes passed so far in one step of the game, read draw by draw."""

    def __init__(self, positions, base: int):
        self.positions = positions
        self.base = base
        self.read = 0
        self.plan = None             # (where a shuffle's draws start, their sizes), told by the shuffle

    def expect(self, sizes) -> None:
        """A shuffle's draws are next, of these sizes: one chance node each when none is split."""
        sizes = tuple(sizes)
        self.plan = (self.read, sizes) if sizes and max(sizes) <= self.base else None

    def _take(self, outcomes):
        """The next outcome drawn; with none left, stop here with `outcomes()`, the chance node's."""
        if self.read == len(self.positions):
            raise _Stop(outcomes(), self._ahead())
        k = self.positions[self.read]
        self.read += 1
        return k

    def below(self, n: int) -> int:
        """A number in 0..n-1: one chance node if n <= base, else a node over blocks of values first.
        (A step runs again for each chance outcome, reading the outcomes so far: the lists of outcomes
        are made only where it stops.)"""
        if n <= self.base and self.read < len(self.positions):     # the common case, read again
            k = self.positions[self.read]
            self.read += 1
            return k
        offset = 0
        while n > self.base:
            block = self.base
            while block * self.base < n:
                block *= self.base
            count = -(-n // block)
            k = self._take(lambda: [(b, min(block, n - b * block) / n) for b in range(count)])
            offset += k * block
            n = min(block, n - k * block)
        return offset + self._take(lambda: uniform(n))

    def _ahead(self) -> tuple:
        """The sizes of the draws after this one, when a shuffle told them."""
        if self.plan is None:
            return ()
        start, sizes = self.plan
        k = self.read - start
        return sizes[k + 1:] if 0 <= k < len(sizes) else ()


CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_LOADED: dict = {}     # (game, players, options) -> rulecraft.Game: OpenSpiel makes a game again for every
                       # deserialized state; the rules are read once per process


def _rulecraft_game(ref: str, players: int, options: str) -> api.Game:
    key = (ref, players, options)
    if key not in _LOADED:
        values = {}
        for item in filter(None, options.split(";")):
            name, _, value = item.partition(":")
            values[name.strip()] = value.strip()
        _LOADED[key] = api.load(ref, players=players or None, options=values)
    return _LOADED[key]


class RulecraftGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(PARAMETERS, **(params or {}))
        self.rc = _rulecraft_game(str(params["game"]), int(params["players"]), str(params["options"]))
        n = self.rc.players
        self.reward_kind = params["reward"] or ("score" if n == 1 else "win")
        if self.reward_kind not in ("win", "score"):
            raise api.UserError(f"reward is 'win' or 'score', not {self.reward_kind!r}")
        program = self.rc.program
        kind, low, high, total = outcomes.utility(program, self.reward_kind)        # the game's `outcome`
        utility = UTILITY[kind]
        self.chance_base = max(16, len(program.card_names), program.max_players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rc.num_actions, max_chance_outcomes=self.chance_base, num_players=n,
            min_utility=low, max_utility=high, utility_sum=total,
            max_game_length=decision_limit(program))
        params["players"] = n
        self.initial = None              # RulecraftState's start (an _At), worked out by the first state
        self.fixed = _Fixed(self.rc, self.reward_kind, self.chance_base, decision_limit(program))
        super().__init__(_game_type(utility), info, params)

    def new_initial_state(self):
        return RulecraftState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RulecraftObserver(self, iig_obs_type, params)


class _Fixed:
    """What every state of a game shares, held once: OpenSpiel deep-copies each of a state's fields at
    every clone, and this one is copied as itself. `known`: the information states worked out so far."""
    __slots__ = ("rc", "reward_kind", "base", "limit", "known")

    def __init__(self, rc, reward_kind: str, base: int, limit: int):
        self.rc, self.reward_kind, self.base, self.limit = rc, reward_kind, base, limit
        self.known = _Known()

    def __deepcopy__(self, memo):
        return self


class _Known:
    """Each information state (text or tensor) already worked out, by what a player asked and the
    state's history. A state is a function of its history (every chance outcome is in it; the engine's
    RNG is never read), so a solver that walks the same tree again (CFR, once per iteration) is answered
    without running the recall again; a resampled state is not (`_At.resampled`). Emptied when it holds
    more than LIMIT characters and numbers, so a long search cannot fill the memory with it."""
    LIMIT = 1 << 24

    def __init__(self):
        self.table: dict = {}
        self.size = 0

    def get(self, key, make):
        got = self.table.get(key)
        if got is None:
            got = make()
            if self.size > self.LIMIT:
                self.table.clear()
                self.size = 0
            self.table[key] = got
            self.size += len(got) + len(key[2])
        return got


class _At:
    """Where a state is, in one object, so that OpenSpiel's clone (a deepcopy of each of the state's
    fields) copies one thing: the match (None during the setup), the step under way (None, or ("start" or
    an action id, the chance outcomes so far)), the chance node's outcomes (never changed in place) and the
    sizes of the draws known to follow it, and OpenSpiel's current player."""
    __slots__ = ("match", "step", "outcomes", "ahead", "player", "resampled")

    def __init__(self, match, step, outcomes, ahead, player):
        self.match, self.step, self.outcomes, self.ahead, self.player = match, step, outcomes, ahead, player
        self.resampled = False           # drawn anew (RulecraftState.resampled): not a function of its history

    def __deepcopy__(self, memo):
        twin = _At(None if self.match is None else self.match.clone(),
                   None if self.step is None else (self.step[0], list(self.step[1])),
                   self.outcomes, self.ahead, self.player)
        twin.resampled = self.resampled
        return twin


class RulecraftState(pyspiel.State):
    """A rulecraft match at its last decision (or end), and the chance outcomes drawn since.

    An action is applied to the match in place: OpenSpiel copies a state only when it asks
    (`clone`, `child`), by deepcopy (`_At.__deepcopy__`, Match.clone).
    A step that draws stops at its first draw with no outcome yet (`_Stop`); Session.take then leaves
    the match as it was before the step, so each chance outcome runs the step again on the match from
    there, with the outcomes drawn so far (the engine cannot pause inside a rule's code). The setup's
    steps build no match until the setup is over. Nothing a player knows is worked out in a step: the
    information state and the observation are made when OpenSpiel asks for them (`_Known`)."""

    def __init__(self, game: RulecraftGame):
        super().__init__(game)
        self._fixed = game.fixed
        start = game.initial                # OpenSpiel makes a new state for every clone, then copies the
        if start is None:                   # clone's fields into it: the start is worked out once per game
            self._at = _At(None, ("start", []), None, (), CHANCE)
            self._advance()
            at = self._at
            game.initial = _At(at.match, None if at.step is None else ("start", list(at.step[1])), at.outcomes,
                               at.ahead, at.player)
        self._at = game.initial.__deepcopy__(None)

    _match = property(lambda self: self._at.match)
    _rc_game = property(lambda self: self._fixed.rc)
    _reward_kind = property(lambda self: self._fixed.reward_kind)
    _base = property(lambda self: self._fixed.base)
    _limit = property(lambda self: self._fixed.limit)

    # ------------------------------------------------------------ stepping through chance
    def _advance(self) -> None:
        """Run the step under way with the chance outcomes drawn so far: to its next chance node, or
        to the end of the step (the next decision, or the end of the game)."""
        at = self._at
        what, positions = at.step
        draws = _Draws(positions, self._base)
        if what == "start":
            g = self._rc_game
            try:
                session = Session.start(g.program, g.ref, g.players, 0, g._options, forced=[("draws", draws)])
            except _Stop as stop:
                self._stopped(stop)
                return
            session.state.forced = None
            at.match = api.Match(g, session)
        else:
            match = at.match
            match.session.state.forced = [("draws", draws)]
            try:
                match.apply(what)        # in place; stopped at a draw, the match is as it was before
            except _Stop as stop:
                self._stopped(stop)
                return
            finally:
                match.session.state.forced = None
        at.step, at.outcomes, at.ahead = None, None, ()
        m = at.match
        at.player = TERMINAL if m.over or self._truncated else m.to_move - 1

    def _stopped(self, stop: _Stop) -> None:
        """At a chance node; the sizes of the draws known to follow it are kept, so that their chance
        nodes need no run of the step (a shuffle of n cards runs its step twice, not n times)."""
        at = self._at
        at.outcomes, at.player, at.ahead = stop.outcomes, CHANCE, tuple(stop.ahead)

    @property
    def _truncated(self) -> bool:
        m = self._at.match
        return m is not None and not m.over and m.session.state.decisions >= self._limit

    def current_player(self):
        return self._at.player          # worked out once per step (_advance): OpenSpiel asks it many times

    def is_terminal(self):
        return self._at.player == TERMINAL

    def _legal_actions(self, player):
        if player != self._at.player or player < 0:
            return []
        return sorted(self._at.match.legal_ids())

    def chance_outcomes(self):
        return list(self._at.outcomes)

    def _apply_action(self, action):
        at = self._at
        if at.outcomes is not None:
            at.step[1].append(int(action))        # a clone's step is its own (_At.__deepcopy__)
            if at.ahead:                          # the next draw's chance node is known: nothing to run
                at.outcomes, at.ahead = uniform(at.ahead[0]), at.ahead[1:]
                return
        else:
            at.step = (int(action), [])
        at.outcomes = None
        self._advance()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        if self._match is not None and action in self._match.legal_ids():
            label = self._match.label(action)
            same = sum(1 for i in self._match.legal_ids() if self._match.label(i) == label)
            return label if same == 1 else f"{label} (action {action})"
        return f"action {action}"

    def returns(self):
        n = self._rc_game.players
        if not self.is_terminal():
            return [0.0] * n
        if self._match.over:
            got = self._match.returns(self._reward_kind)
            return [got[k] for k in range(1, n + 1)]
        return outcomes.unfinished_returns(self._rc_game.program, n, self._reward_kind)   # stopped by the limit

    # ------------------------------------------------------------ what a player knows
    def _seat(self, player) -> int:
        if not 0 <= player < self._rc_game.players:
            raise ValueError(f"players are 0 to {self._rc_game.players - 1}, not {player}")
        return player + 1

    def observation_tensor_of(self, player) -> list[float]:
        seat = self._seat(player)
        if self._match is None:                        # chance nodes of the setup: nothing seen yet
            return [0.0] * self._rc_game.observation_shape[0]
        return self._match.observation_tensor(seat)

    def information_state_tensor_of(self, player) -> list[float]:
        seat = self._seat(player)
        if self._match is None:
            return [0.0] * self._rc_game.information_state_shape[0]
        return list(self._known("tensor", player, lambda: self._match.information_state_tensor(seat)))

    def observation_text_of(self, player) -> str:
        seat = self._seat(player)
        return self._match.observation_text(seat) if self._match is not None else "the game is being set up"

    def information_state_text_of(self, player) -> str:
        seat = self._seat(player)
        if self._match is None:
            return "the game is being set up"
        return self._known("text", player, lambda: self._match.information_state_text(seat))

    def _known(self, kind: str, player: int, make):
        """`make()`, the player's information state of this kind, worked out once per history (_Known)."""
        if self._at.resampled:
            return make()
        return self._fixed.known.get((kind, player, tuple(self.history())), make)

    def resampled(self, player, rnd, tries: int = 20):
        """A clone in which what `player` may not see is drawn anew (see `resampler`)."""
        from ..engine import determinize
        twin = self.clone()
        if self._match is None or self._at.outcomes is not None:
            return twin
        for _ in range(tries):
            other = determinize.sample(self._match.session.state, player, rnd, memory=self._match.session.whereabouts)
            if other is not None:
                break
        else:
            raise api.UserError(f"no game player {player + 1} cannot tell from this one could be drawn "
                                f"in {tries} tries (the rules failed from each)")
        session = twin._match.session
        other.sink, other.chance, other.forced = session.narration, session.chance, None
        session.state = other
        session.whereabouts = Whereabouts(other)        # a new game: its seats remember only what they see in it
        twin._match._texts.clear()
        twin._at.resampled = True          # no longer a function of its history: its own information states
        return twin

    def __str__(self):
        lines = [f"{d[0]}: {d[2]}" for d in self._match.decisions] if self._match is not None else []
        if self._at.outcomes is not None:
            what, positions = self._at.step
            lines.append(f"chance after {what}: {positions}")
        return "\n".join(lines) or "start"


def resampler(seed: int = 0):
    """For OpenSpiel's IS-MCTS (`ISMCTSBot.set_resampler`): a state the player cannot tell from the
    real one, drawn from what it may not see (engine.determinize.sample: the hidden cards dealt again
    among the places hidden from it, each where its memory allows, the hidden values drawn from their
    declared values). Derived from the rules' `seen by`, never written per game."""
    rnd = random.Random(seed)

    def resample(state, player):
        return state.resampled(player, rnd)
    return resample


class RulecraftObserver:
    """OpenSpiel's PyObserver: the seat's observation tensor and text, or (perfect recall) its
    information state tensor (the observation and where it last saw each card) and text. Only
    what the seat itself may know is offered."""

    def __init__(self, game: RulecraftGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"rulecraft observers take no parameters, not {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not obs_type.public_info:
            raise ValueError("rulecraft observes one player's own view (private_info=SINGLE_PLAYER, public_info=True)")
        self.perfect_recall = obs_type.perfect_recall
        size = (game.rc.information_state_shape if self.perfect_recall else game.rc.observation_shape)[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.perfect_recall:
            self.tensor[:] = state.information_state_tensor_of(player)
        else:
            self.tensor[:] = state.observation_tensor_of(player)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_text_of(player)
        return state.observation_text_of(player)


pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM), RulecraftGame)
