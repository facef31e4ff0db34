"""rulecraft's Python API: load a game, play it, look at it as one seat, save, clone and pickle it.

A thin layer over the engine (`loader`, `engine.session.Session`, `engine.observe`,
`engine.views`, `engine.records`), stable for programs that use rulecraft as a library
and for the adapters in `rulecraft.rl`. docs/api.md shows every call.

Seats are numbered 1..N here, as in the CLI, rule files and transcripts ("Player 1");
the engine underneath counts from 0, and the adapters translate at their own boundary
(PettingZoo's "player_0", OpenSpiel's player 0).
"""
from __future__ import annotations

from .agents.registry import AGENT_KINDS, make_agent
from .agents.seat import act
from .diagnostics import RulesError, UnknownGame, UserError
from .engine import observe, outcomes, records, views
from .engine.machine import IllegalDecision, Option, seats_text
from .engine.session import Session
from .loader import game_path, load_file
from .runtime.errors import RulesRuntimeError
from .tensors import Encoder, Memory
from .engine.recall import Recall

IllegalAction = IllegalDecision      # an action that is not legal now; the game is unchanged
Action = Option                      # a legal action: its `id` and its `label` ("play Blue 7")

__all__ = ["load", "game_names", "Game", "Match", "Action", "IllegalAction", "RulesError", "RulesRuntimeError",
           "UserError", "agent", "agent_kinds", "load_match", "match_from_yaml"]


def game_names() -> list[str]:
    """The names of the bundled games, for `load`."""
    from .check.modules import bundled_games
    return list(bundled_games())


def load(game: str, players: int | None = None, options: dict | None = None) -> "Game":
    """A game ready to be played: a bundled game's name or a path to a .rules file, the number of
    players (default: the fewest the rules allow) and options by name with their values as the
    rules write them ({"wheel": "ascending", "hand_size": 5}). Bad rules raise RulesError; an
    unknown game, player count or option raises UserError with one sentence."""
    try:
        program = load_file(game_path(str(game)))
    except UnknownGame as e:
        raise UserError(f"no game or file named '{game}' ({e.hint})") from None
    return Game(program, str(game), players, options)


class Game:
    """Rules loaded for a number of players and options: what every match of it shares."""

    def __init__(self, program, ref: str, players: int | None = None, options: dict | None = None):
        self.program = program
        self.ref = ref
        self.players = program.min_players if players is None else players
        if type(self.players) is not int or not program.min_players <= self.players <= program.max_players:
            raise UserError(f"{program.title} is for {seats_text(program)}, not {players}")
        settings = []
        for name, value in (options or {}).items():
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            settings.append(f"{name}={text}")
        self._options = Session.parse_options(program, settings)
        self._encoder = None

    @property
    def title(self) -> str:
        return self.program.title

    @property
    def options(self) -> dict:
        """Every option by name, as the rules write its value (the defaults included)."""
        out = {}
        for o in self.program.options:
            value = self._options.get(o.name, o.default)
            out[o.name] = o.values[value] if o.kind == "choice" else value
        return out

    @property
    def num_actions(self) -> int:
        """The size of the action space: every action id is in range(num_actions)."""
        return self.program.action_count

    @property
    def encoder(self) -> Encoder:
        if self._encoder is None:
            self._encoder = Encoder(self.program, self.players)
        return self._encoder

    @property
    def information_state_shape(self) -> tuple[int]:
        """The shape of `Match.information_state_tensor`: the observation, then the seat's memory."""
        return (self.encoder.information_state_size,)

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of every observation tensor of this game (rulecraft.tensors), known at load."""
        return (self.encoder.size,)

    def observation_layout(self) -> list[tuple[str, int, int]]:
        """The tensor's segments: (name, offset, length), in order."""
        return list(self.encoder.layout)

    def new(self, seed: int = 0) -> "Match":
        """A new match, set up with this seed and run to its first decision."""
        try:
            session = Session.start(self.program, self.ref, self.players, seed, self._options)
        except RulesRuntimeError as e:
            raise UserError(f"the rules failed while setting up: {e}") from None
        return Match(self, session)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_encoder"] = None            # rebuilt on demand: it holds functions
        return state

    def __deepcopy__(self, memo):
        return self                         # nothing in a Game changes once it is made

    def __repr__(self) -> str:
        return f"<rulecraft.Game {self.title!r}, {self.players} players>"


class Match:
    """One game being played. Seats are 1..N. Every method reads or changes this match only."""

    def __init__(self, game: Game, session: Session, memory: Memory | None = None):
        self.game = game
        self.session = session
        self._told: dict = {}               # seat -> (lines told so far, the observer reading on)
        self._texts: dict = {}              # seat -> its observation text, until the next action
        # where each seat last saw each card (information state), made and read from the states after each
        # step only when a tensor asks for it (`_memory_now`); a clone brings a copy of its original's
        self._memory = memory
        self._recalls: dict = {}             # seat -> its Recall (engine.recall), made when first asked

    # ------------------------------------------------------------ whose turn, what is legal
    @property
    def over(self) -> bool:
        return self.session.over

    @property
    def to_move(self) -> int | None:
        """The seat (1..N) to decide now, or None once the game is over."""
        who = self.session.to_move
        return None if who is None else who + 1

    def legal(self) -> list[Action]:
        """The legal actions, each with its `id` and `label`, in the order the rules list them."""
        return self.session.legal()

    def legal_ids(self) -> list[int]:
        return list(self.session.legal_ids())

    def action_mask(self) -> list[int]:
        """1 for each legal action id, 0 for the others, over the game's whole action space."""
        mask = [0] * self.game.num_actions
        for i in self.session.legal_ids():
            mask[i] = 1
        return mask

    def label(self, action_id: int) -> str:
        return self.session.label(action_id)

    def apply(self, action) -> None:
        """Take an action: its id, its exact label, or an Action. One that is not legal now raises
        IllegalAction (and a rule that fails, RulesRuntimeError); either way the match is unchanged."""
        self._texts.clear()
        if isinstance(action, Option):
            action = action.id
        if isinstance(action, str):
            self.session.take_label(action)
        elif type(action) is int or (hasattr(action, "__index__") and not isinstance(action, bool)):
            self.session.take(int(action))
        else:
            raise IllegalAction(f"an action is an id, a label or an Action, not {action!r}")

    # ------------------------------------------------------------ agents
    def ask(self, agent) -> int:
        """The action an agent (rulecraft.agent) chooses for the seat to move, given only that seat's
        observation (agents.seat); nothing is taken."""
        return act(agent, self.session)

    def play(self, agents) -> None:
        """Play on to the end: `agents` is a list with one agent per seat (seat 1 first), or one
        agent for every seat."""
        table = agents if isinstance(agents, (list, tuple)) else [agents] * self.game.players
        if len(table) != self.game.players:
            raise UserError(f"give one agent per seat ({self.game.players}), not {len(table)}")
        while not self.over:
            self.apply(act(table[self.to_move - 1], self.session))

    # ------------------------------------------------------------ what a seat knows
    def _viewer(self, seat: int) -> int:
        if type(seat) is not int or not 1 <= seat <= self.game.players:
            raise UserError(f"seats are numbered 1 to {self.game.players}, not {seat!r}")
        return seat - 1

    def view(self, seat: int) -> dict:
        """What the seat sees now (engine.views): zones as cards or hidden counts, values it may see,
        whose decision it is, and its options when it is theirs."""
        return views.view(self.session.state, self._viewer(seat))

    def observer(self, seat: int) -> observe.Observer:
        """The seat's running observation (engine.observe): `observe()` gives its view and what it
        was told since it last looked."""
        return observe.Observer(self.session, self._viewer(seat))

    def told(self, seat: int) -> list[str]:
        """Everything the seat was told since the game began, in order, as it reads for them."""
        viewer = self._viewer(seat)
        if seat not in self._told:
            self._told[seat] = ([], observe.Observer(self.session, viewer))
        lines, observer = self._told[seat]
        lines.extend(observer.news())      # what was told once reads the same ever after: kept
        return list(lines)

    def observation_tensor(self, seat: int) -> list[float]:
        """The seat's observation as numbers, `game.observation_shape` long (rulecraft.tensors)."""
        return self.game.encoder.encode(self.session.state, self._viewer(seat))

    def observation_text(self, seat: int) -> str:
        """The seat's view now, as text."""
        from .cli.plaintext import view_lines
        viewer = self._viewer(seat)
        if seat in self._texts:
            return self._texts[seat]
        name = self.session.state.names[viewer]
        lines = [f"{self.game.title}, as {name} sees it"]
        shown = self.view(seat)
        lines += view_lines(shown, name)
        if self.over:
            lines.append("the game is over: " + ", ".join(f"{k} {v}" for k, v in shown["scores"].items()))
        else:
            lines.append(f"to decide: {shown['to_decide']}")
        self._texts[seat] = "\n".join(lines)
        return self._texts[seat]

    def recall(self, seat: int) -> list:
        """The seat's observation history (engine.recall): one (Step, view) per step of the game — the
        setup, then each decision — with what it was told (Step.news; Step.chooser and Step.told say whose
        decision began it and its id if the seat was told it in full) and its view after it (None where
        it is unchanged)."""
        r = self._recall(self._viewer(seat))
        return list(zip(r.catch_up(), r.views()))

    def _recall(self, viewer: int):
        if viewer not in self._recalls:
            self._recalls[viewer] = Recall(self.session, viewer)
        return self._recalls[viewer]

    def information_state_tensor(self, seat: int) -> list[float]:
        """The seat's information state as numbers, `game.information_state_shape` long: its observation
        tensor, where it last saw each card (rulecraft.tensors `Memory`), then each decision as it was
        told it (perfect recall: see docs/rl.md)."""
        from .cli.plaintext import view_lines
        viewer = self._viewer(seat)
        recall = self._recall(viewer)
        return self.game.encoder.encode_information_state(self.session.state, viewer,
                                                          self._memory_now().last_seen[viewer],
                                                          recall.catch_up(), recall.digests(view_lines))

    def _memory_now(self) -> Memory:
        """The memory brought up to date: it reads the states after each step it has not seen
        (Session.after), so a match that no tensor is asked of spends nothing on it."""
        if self._memory is None:
            self._memory = Memory(self.game.players)
        memory, after = self._memory, self.session.after
        while memory.read < len(after):
            memory.see(after[memory.read])
            memory.read += 1
        if memory.steps != self.session.state.decisions:      # moved on other than by a decision
            memory.see(self.session.state)
        return memory

    def information_state_text(self, seat: int) -> str:
        """The seat's information state as text: its whole observation history (engine.recall) — each
        step's news, then its view when it changed. Matches a seat cannot tell apart give it the same
        text; matches it can tell apart, different ones."""
        from .cli.plaintext import view_lines
        return self._recall(self._viewer(seat)).text(view_lines)

    # ------------------------------------------------------------ the result
    @property
    def scores(self) -> dict[int, int] | None:
        """Each seat's score once the game is over (else None)."""
        result = self.session.state.result
        return None if result is None else {i + 1: s for i, s in enumerate(result[0])}

    @property
    def winners(self) -> list[int]:
        result = self.session.state.result
        return [] if result is None else [i + 1 for i in result[2]]

    def returns(self, kind: str | None = None) -> dict[int, float]:
        """Each seat's return: with kind "win", the winners share 1 (a sole winner gets 1, two tied
        winners 0.5 each, the others 0) — in a game declared `outcome cooperative`, 1 to every seat
        when they win together and 0 when they lose; with "score", the game's own scores. The default
        is "win" with two or more seats and "score" for one seat. All zero while the game is not over
        (engine/outcomes.py `utility` says what the returns promise)."""
        kind = kind or ("score" if self.game.players == 1 else "win")
        if kind not in ("win", "score"):
            raise UserError(f"returns are 'win' or 'score', not {kind!r}")
        result = self.session.state.result
        seats = range(1, self.game.players + 1)
        if result is None:
            return {k: 0.0 for k in seats}
        if kind == "score":
            return {k: float(result[0][k - 1]) for k in seats}
        if not result[2]:                # a cooperative game lost by all
            return {k: 0.0 for k in seats}
        share = 1.0 if outcomes.one_result(self.game.program) else 1.0 / len(result[2])
        return {k: share if k - 1 in result[2] else 0.0 for k in seats}

    @property
    def decisions(self) -> list[tuple[int, int, str]]:
        """The decisions so far: (seat, action id, label), in order."""
        return [(d.player + 1, d.id, d.label) for d in self.session.history]

    # ------------------------------------------------------------ copies and records
    def clone(self) -> "Match":
        """An independent copy: playing one does not change the other."""
        twin = Match(self.game, self.session.copy(), self._memory.copy() if self._memory is not None else None)
        twin._recalls = {v: r.copy(twin.session) for v, r in self._recalls.items()}
        for seat, (lines, observer) in self._told.items():
            reader = observe.Observer(twin.session, observer.viewer)
            reader.read = observer.read
            twin._told[seat] = (list(lines), reader)
        return twin

    def __deepcopy__(self, memo):
        return self.clone()

    def to_yaml(self) -> str:
        """The match as a save (YAML): rules, options, seed, decisions, chance and the state."""
        return records.dump(records.session_record(self.session, "save"))

    def save(self, path) -> None:
        records.write(path, self.session, "save")

    def __repr__(self) -> str:
        where = "over" if self.over else f"seat {self.to_move} to move"
        return f"<rulecraft.Match of {self.game.title!r}: {len(self.session.history)} decisions, {where}>"


def load_match(path) -> Match:
    """A match saved with `Match.save` (or a transcript), replayed and checked decision by decision;
    a damaged or edited file raises UserError with one sentence."""
    return _restore(records.read(path), str(path))


def match_from_yaml(text: str, name: str = "the save") -> Match:
    return _restore(records.parse(text, name), name)


def _restore(data: dict, name: str) -> Match:
    # replayed decision by decision, so the session holds the state after each step (Session.after), which
    # the match reads where each seat last saw each card from, as it does in a match played on
    session = records.restore(data, lambda ref: load_file(game_path(ref)), name, narrate=True)
    records.verify_state(data, session, name)
    game = Game(session.program, session.game_ref, session.state.n)
    game._options = dict(session.options)
    return Match(game, session)


# ------------------------------------------------------------------ agents
def agent_kinds() -> dict[str, str]:
    """Every registered agent kind (rulecraft.agents.registry) with its one-line description."""
    return {name: kind.about for name, kind in AGENT_KINDS.items()}


def agent(name: str, seed: int = 0):
    """An agent of a registered kind, with its settings after colons ("ismcts:iterations=200"),
    drawing from its own seed; `match.ask(agent)` or `match.play([...])` use it. An unknown name
    or setting raises UserError with one sentence."""
    return make_agent(name, seed)
