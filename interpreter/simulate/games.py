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

from ..agents.registry import agent_maker, agent_seed
from ..agents.search import side_of
from ..agents.seat import act
from ..engine import machine
from ..engine.limits import decision_limit, past_limit
from ..engine.playout import playout, reference_playout
from ..engine.session import Session, Table
from ..engine.whereabouts import Whereabouts
from ..runtime.errors import RulesRuntimeError

# Read-only, though not frozen (as GameResult below): a command makes one a game
@attrs.define
class Job:
    path: str                 # the rules file
    players: int
    settings: tuple           # ("name=value", ...) as on the command line
    agents: tuple             # one agent name (with its settings) per seat
    seed: int                 # the run's seed
    index: int                # which game of the run
    measure: bool = False     # follow each seat's standing decision by decision (lead changes, drama…): --standings


# Read-only, though not frozen: a frozen attrs record sets each of its 15 fields through object.__setattr__,
# and a batch makes one a game (1.6 µs of a tic-tac-toe game's 30, kwargs and all).
@attrs.define
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
    first: int = 0            # the seat (0-based) that took the game's first decision, -1 when none was taken


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
_PLANS: dict = {}


def _program(path: str):
    """The rules, loaded once per worker process."""
    program = _PROGRAMS.get(path)
    if program is None:
        from ..loader import load_file
        program = _PROGRAMS[path] = load_file(path)
    return program


def kept(path: str):
    """The program kept in this process for `path` (`shared`) when its files are still those it was loaded
    from (the check cache's list of them, each read and hashed again: check.checkcache.current_digest),
    else None: a command played here again spares the load (mostly generating the Python: 3.7 ms for
    tic-tac-toe) and gets the program `shared` would have given it."""
    program = _PROGRAMS.get(path)
    if program is None:
        return None
    from ..check.checkcache import current_digest
    from pathlib import Path
    return program if current_digest(Path(path)) == program.digest else None


def shared(path: str, program):
    """The program the games of `path` are played with in this process, given the one a command just
    loaded: the one already kept when it has the same rules (its fast twin already compiled), else
    this one, kept from now on. So the command and the games it plays here load the rules once, and
    never play rules older than the command's."""
    kept = _PROGRAMS.get(path)
    if kept is not None and kept.digest == program.digest:
        return kept
    _PROGRAMS[path] = program
    for key in [k for k in _PLANS if k[0] == path]:
        del _PLANS[key]
    return program


def _plan(job: Job) -> tuple:
    """What every game of a job's run shares, worked out once per worker process: the rules, every
    option's stored value for its `--set`s, per seat `seed -> a new agent` (each name parsed once),
    and the decision limit; for agents that decide from the number of options alone (random, first:
    their makers' `reseedable`), a pool of per-seat `(reseed, index)` lists instead of the makers."""
    key = (job.path, job.settings, job.agents)
    plan = _PLANS.get(key)
    if plan is None:
        program = _program(job.path)
        # the options' values for new_game; None when none is set: every game then starts from the
        # program's defaults with no option to check (engine.machine._Start)
        values = None
        if job.settings:
            values = {o.name: o.default for o in program.options}
            values.update(Session.parse_options(program, list(job.settings)))
        makers = [agent_maker(name) for name in job.agents]
        seedable = [getattr(make, "reseedable", None) for make in makers]
        # a game takes a list from the pool and gives it back when over: reseeded, never shared by two games
        pool = _Pool(seedable) if all(seedable) else None
        plan = _PLANS[key] = (program, values, makers, pool, decision_limit(program))
    return plan


class _Pool(list):
    """Lists of each seat's `(reseed, index)`, one per game being played in this process (one but for a
    thread's or a nested batch's): each game's agents are then seeded, not made."""

    def __init__(self, seedable: list):
        super().__init__()
        self.seedable = seedable

    def take(self) -> tuple:
        """(per seat `reseed`, per seat `index`)."""
        try:
            return self.pop()
        except IndexError:                 # (not `if self`: another thread may take the last one between)
            pass
        pairs = [reseedable() for reseedable in self.seedable]
        return [reseed for reseed, _ in pairs], [index for _, index in pairs]


class Standings:
    """Each seat's standing (agents.search.estimate: the game's heuristic or score, per side) after
    every decision, and how often the set of leaders changed. Asked for with `--standings`: it scores
    the game at every decision, which costs more than playing it. The seats' sides are worked out once."""

    def __init__(self, program, players: int):
        self.judge = program.heuristic or program.score
        self.seats = range(players)
        self.sides = [side_of(program, p) for p in self.seats]
        self.tracks: list[list[float]] = [[] for _ in self.seats]
        self.leaders = None
        self.changes = 0

    def add(self, state) -> None:
        """The standings now (the same figures as agents.search.estimate, in the same order of operations)."""
        judge, sides = self.judge, self.sides
        if judge is None:
            standing = [0.5] * len(sides)
        else:
            scores = [machine._score(state, judge, p) for p in self.seats]
            best: dict[int, int] = {}
            for side, s in zip(sides, scores):
                best[side] = max(best.get(side, s), s)
            standing = []
            for own_side, own in zip(sides, scores):
                others = [v for side, v in best.items() if side != own_side]
                rival = max(others) if others else 0
                standing.append(0.5 + 0.5 * (own - rival) / (abs(own) + abs(rival) + 1))
        for track, v in zip(self.tracks, standing):
            track.append(v)
        top = max(standing)
        now = frozenset(p for p, v in enumerate(standing) if v == top)
        if self.leaders is not None and now != self.leaders:
            self.changes += 1
        self.leaders = now

    def trail(self, winners) -> float:
        """The drama of a game won by one side: the winner's mean deficit to the leader where it trailed."""
        tracks = self.tracks
        if len({self.sides[w] for w in winners}) != 1 or not tracks[winners[0]]:
            return 0.0
        w = winners[0]
        deficits = [max(t[k] for t in tracks) - tracks[w][k] for k in range(len(tracks[w]))]
        behind = [d for d in deficits if d > 0]
        return sum(behind) / len(behind) if behind else 0.0


def play(job: Job) -> GameResult:
    """One game of a batch: agents that decide from the number of options alone (random, first: their `index`) are
    called directly on the fast path (engine.playout); any other is handed its seat (agents.seat.act),
    on the resumable path, since it copies the game to think."""
    program, values, makers, pool, stop = _plan(job)   # stop: a game still going then is a timeout
    seed = game_seed(job.seed, job.index)
    if pool is None:
        agents = [make(agent_seed(seed, seat)) for seat, make in enumerate(makers)]
        return _play(job, program, values, agents, [getattr(agent, "index", None) for agent in agents], stop, seed)
    drawn = pool.take()                # no agent made: each seat's `index`, seeded as its agent's would be
    try:
        for seat, reseed in enumerate(drawn[0]):
            reseed(agent_seed(seed, seat))
        return _play(job, program, values, None, drawn[1], stop, seed)
    finally:
        pool.append(drawn)


def _play(job: Job, program, values, agents, indexes, stop: int, seed: int) -> GameResult:
    """The game of `play`, its agents made (`agents`) or only their `indexes` (then `agents` is None)."""
    direct = all(indexes)
    offered = [[] for _ in indexes]    # per seat: the number of options at each of its decisions
    thought = [0.0] * job.players
    # each chooser stops the game at the decision limit itself: no wrapper called per decision
    if direct:
        def choose(m, who, ids):
            if m.decisions >= stop:
                return None
            n = len(ids)
            offered[who].append(n)
            return ids[indexes[who](n)]
    else:
        table = None

        remember = any(getattr(agent, "remembers", False) for agent in agents)

        def choose(m, who, ids):
            nonlocal table
            if m.decisions >= stop:
                return None
            if table is None:                    # at the game's first decision, as new_game left it
                table = BareTable(program, m, remember)
            elif table.whereabouts is not None:  # what the decision before this one moved
                table.whereabouts.note(m)
            offered[who].append(len(ids))
            start = time.perf_counter()
            choice = act(agents[who], table)
            thought[who] += time.perf_counter() - start
            return choice
    follow = Standings(program, job.players) if job.measure else None
    if follow is not None:
        decide_for = choose

        def choose(m, who, ids):
            if m.decisions >= stop:
                return None
            if m.decisions:
                follow.add(m)            # the standing after the decision before this one
            return decide_for(m, who, ids)
    state = None
    first = -1                           # the seat asked the game's first decision
    try:
        state = machine.new_game(program, job.players, values, seed)
        first = -1 if state.pending is None else state.pending[1]
        # agents that think copy the state while they choose: the fast path's frames are not the game's
        # then (engine/playout.py), so they are asked on the resumable path
        (playout if direct else reference_playout)(state, choose)
    except RulesRuntimeError as e:
        # decide fails with no decision pending: the decision that failed is not counted as taken
        taken = 0 if state is None else state.decisions - (state.pending is None)
        return GameResult(job.index, seed, (), (), taken, *_tally(offered),
                          error=str(e).splitlines()[0], first=first)
    choices, options = _tally(offered)
    if state.result is None:
        return GameResult(job.index, seed, (), (), state.decisions, choices, options, timeout=True, first=first)
    scores, _ties, winners = state.result
    standing, trail, changes = (), 0.0, 0
    if follow is not None:
        standing = tuple(_summary(t) for t in follow.tracks)
        trail = follow.trail(winners)
        changes = follow.changes
    return GameResult(job.index, seed, tuple(scores), tuple(winners), state.decisions, choices, options,
                      False, "", changes, standing, trail, tuple(map(len, offered)), tuple(thought), first)


def _tally(offered: list[list[int]]) -> tuple[int, int]:
    """(decisions with more than one option, options offered in all), from each seat's options per decision."""
    choices = options = 0
    for seat in offered:
        choices += len(seat) - seat.count(1)
        options += sum(seat)
    return choices, options


def _summary(track: list[float]) -> tuple:
    if not track:
        return (0.5, 0.5, 0.5, 0.0)
    mean = sum(track) / len(track)
    return (min(track), max(track), mean, sum((x - mean) ** 2 for x in track) / len(track))
