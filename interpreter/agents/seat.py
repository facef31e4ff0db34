"""What an agent is given: one seat's observation of a game, never the game itself.

An agent's `choose(seat) -> option id` receives a `Seat`. It offers what the player at the
table would know — the options it may take, its view (engine.views: counts of hidden zones,
`hidden` for values it may not see), what it has been told (engine.observe) — and games
*sampled* from that observation (engine.determinize), on which a search may play ahead as it
likes: a sample is dealt again wherever the seat cannot see — each card only where the seat's
memory allows (engine.whereabouts, kept by the table when it follows one) — and has a fresh
random generator, so reading it reveals nothing. The true game stays out of reach (kept under
a private name): an agent cannot read hidden state by accident. Only an agent registered as omniscient (`cheat`,
for comparison) is given an `OmniscientSeat`, whose samples are the true game.
"""
from __future__ import annotations

from ..engine import machine, observe


class Seat:
    __slots__ = ("__session", "seat", "_observer")

    def __init__(self, session, seat: int):
        self.__session = session
        self.seat = seat
        self._observer = None

    # -------------------------------------------------------------- what the player knows
    @property
    def program(self):
        """The game's compiled rules (public: every player knows the rules)."""
        return self.__session.program

    @property
    def players(self) -> int:
        return self.__session.state.n

    @property
    def over(self) -> bool:
        return self.__session.over

    @property
    def to_move(self):
        return self.__session.to_move

    def legal(self) -> list:
        """The options (id and label) of the seat's pending decision."""
        self._own_turn()
        return self.__session.legal()

    def legal_ids(self) -> list[int]:
        self._own_turn()
        return self.__session.legal_ids()

    def view(self) -> dict:
        """The seat's view (engine.views.view)."""
        from ..engine import views       # imported when an agent looks: `rulecraft run` of random agents never does
        return views.view(self.__session.state, self.seat)

    def news(self) -> list[str]:
        """What the seat has been told since it last asked (engine.observe.Observer)."""
        if self._observer is None:
            self._observer = observe.Observer(self.__session, self.seat)
        return self._observer.news()

    def private_to_others(self) -> bool:
        """Does another seat know something this one does not (a hand, a private value)?"""
        from ..engine import determinize
        return determinize.private_to_others(self.__session.state, self.seat)

    def sample(self, rng, chance_only: bool = False):
        """A whole game the seat cannot tell from this one, to think ahead on (see engine.determinize);
        `rng` is the agent's own random.Random."""
        return self.sampler(chance_only)(rng)

    def sampler(self, chance_only: bool = False):
        """`sample` for the position as it is now, made once for many samples (a search's iterations):
        a function rng -> a sampled game."""
        from ..engine import determinize
        state = self.__session.state
        draw = determinize.Sampler(state, self.seat, chance_only, self.__session.whereabouts)

        def sample(rng):
            got = draw(rng)
            if got is None:                 # the rules could not run from a resampled position
                got = state.copy()
                got.rng = rng.getrandbits(64)
            return got
        return sample

    def _own_turn(self):
        if self.__session.to_move != self.seat:
            raise RuntimeError(f"it is not seat {self.seat + 1}'s decision")


class OmniscientSeat(Seat):
    """For the `cheat` agent only: its samples are the true game (its random generator too)."""
    __slots__ = ()

    def sampler(self, chance_only: bool = False):
        return lambda rng: self._Seat__session.state.copy()


def act(agent, session, omniscient: bool = False) -> int:
    """The id of the option `agent` takes for the seat whose decision it is, given only that seat's
    observation (or everything, for an agent registered as omniscient)."""
    seat = (OmniscientSeat if omniscient or getattr(agent, "omniscient", False) else Seat)(session, session.to_move)
    choice = agent.choose(seat)
    return choice


def score_of(state, seat: int):
    """The game's score for a seat now (0 for a game without a score)."""
    score = state.program.score
    return machine._score(state, score, seat) if score is not None else 0
