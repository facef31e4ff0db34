"""One simulated game, as a worker plays it: what `rulecraft simulate` measures of each.

A job names its rules by file path and everything else by plain values, so it pickles to any
worker process (or Ray task); the worker loads the rules once and keeps them. Each game's seed
comes from the run's seed and the game's index (`game_seed`), and each agent's from the game's
seed and its seat, so a result does not depend on which worker played it, or on how many there
were.
"""
from __future__ import annotations

import hashlib
import time

import attrs

from ..agents.registry import agent_seed, make_agent
from ..agents.search import estimate, side_of
from ..agents.seat import act
from ..engine import machine
from ..engine.limits import decision_limit, past_limit
from ..engine.session import Session, Table
from ..engine.whereabouts import Whereabouts
from ..runtime.errors import RulesRuntimeError

@attrs.frozen
class Job:
    path: str                 # the rules file
    players: int
    settings: tuple           # ("name=value", ...) as on the command line
    agents: tuple             # one agent name (with its settings) per seat
    seed: int                 # the run's seed
    index: int                # which game of the run
    measure: bool = True      # follow each seat's standing decision by decision (lead changes, drama…)


@attrs.frozen
class GameResult:
    index: int
    seed: int
    scores: tuple             # per seat, or () when the game did not finish
    winners: tuple            # seats (0-based)
    decisions: int
    choices: int              # decisions with more than one option
    options: int              # options offered, summed over decisions
    timeout: bool = False
    error: str = ""
    lead_changes: int = 0     # times the set of leading seats changed
    standing: tuple = ()      # per seat: (lowest, highest, mean, variance) of its evaluation over the game
    trail: float = 0.0        # the eventual winner's mean deficit where it trailed (drama), or 0
    asked: tuple = ()         # per seat: the decisions it took
    seconds: tuple = ()       # per seat: the time its agent spent choosing


def timeouts(program, results) -> str:
    """One sentence for the games of a batch stopped at the decision limit, or "" when none was."""
    k, n = sum(1 for r in results if r.timeout), len(results)
    if not k:
        return ""
    return past_limit(program, "the game has" if n == 1 else f"{k} of the {n} games {'has' if k == 1 else 'have'}")


def game_seed(run_seed: int, index: int) -> int:
    digest = hashlib.sha256(f"rulecraft-simulate:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (1 << 63)


class BareTable(Table):
    """A game as light as a batch needs: no labels, narration or chance log; what agents read through
    their Seat (state, program, whose decision, the legal options), and where each seat may think each
    card is only when an agent samples from it (`remember`)."""

    def __init__(self, program, state, remember: bool = False):
        self.program = program
        self.state = state
        self.events: list = []
        self.whereabouts = Whereabouts(state) if remember else None

    def take(self, option_id: int) -> None:
        machine.decide(self.state, option_id)
        if self.whereabouts is not None:
            self.whereabouts.note(self.state)


_PROGRAMS: dict = {}


def _program(path: str):
    """The rules, loaded once per worker process."""
    program = _PROGRAMS.get(path)
    if program is None:
        from ..loader import load_file
        program = _PROGRAMS[path] = load_file(path)
    return program


def play(job: Job) -> GameResult:
    program = _program(job.path)
    seed = game_seed(job.seed, job.index)
    options = Session.parse_options(program, list(job.settings))
    values = {o.name: o.default for o in program.options}
    values.update(options)
    agents = [make_agent(name, agent_seed(seed, seat)) for seat, name in enumerate(job.agents)]
    limit = decision_limit(program)      # a game still going then is stopped and counted as a timeout
    decisions = choices = offered = changes = 0
    tracks: list[list[float]] = [[] for _ in range(job.players)]
    asked, thought = [0] * job.players, [0.0] * job.players
    leaders = None
    try:
        state = machine.new_game(program, job.players, values, seed)
        table = BareTable(program, state, remember=any(getattr(a, "remembers", False) for a in agents))
        while state.result is None:
            if decisions >= limit:
                return GameResult(job.index, seed, (), (), decisions, choices, offered, timeout=True)
            n = len(machine.legal_ids(state))
            offered += n
            choices += n > 1
            who = machine.chooser(state)
            start = time.perf_counter()
            choice = act(agents[who], table)
            thought[who] += time.perf_counter() - start
            asked[who] += 1
            table.take(choice)
            decisions += 1
            if job.measure and state.result is None:
                standing = estimate(state)
                for p, v in enumerate(standing):
                    tracks[p].append(v)
                best = max(standing)
                now = frozenset(p for p, v in enumerate(standing) if v == best)
                if leaders is not None and now != leaders:
                    changes += 1
                leaders = now
    except RulesRuntimeError as e:
        return GameResult(job.index, seed, (), (), decisions, choices, offered, error=str(e).splitlines()[0])
    scores, _ties, winners = state.result
    standing, trail = (), 0.0
    if job.measure:
        standing = tuple(_summary(t) for t in tracks)
        if len({side_of(program, w) for w in winners}) == 1 and tracks[winners[0]]:
            w = winners[0]
            deficits = [max(tracks[p][k] for p in range(job.players)) - tracks[w][k] for k in range(len(tracks[w]))]
            behind = [d for d in deficits if d > 0]
            trail = sum(behind) / len(behind) if behind else 0.0
    return GameResult(job.index, seed, tuple(scores), tuple(winners), decisions, choices, offered,
                      lead_changes=changes, standing=standing, trail=trail, asked=tuple(asked), seconds=tuple(thought))


def _summary(track: list[float]) -> tuple:
    if not track:
        return (0.5, 0.5, 0.5, 0.0)
    mean = sum(track) / len(track)
    return (min(track), max(track), mean, sum((x - mean) ** 2 for x in track) / len(track))
