"""Agents that think ahead: greedy (one decision of lookahead) and Monte Carlo tree search.

Both see a game only through their `Seat` (agents/seat.py): they think on games sampled from
what the seat may see and remembers, never on the game itself. The search is single-observer
information-set MCTS (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS"): each iteration samples
a game the seat cannot tell from the real one (hidden cards dealt again, each only where the
seat's memory allows — a card it saw won face down stays won —, hidden values drawn, the
future's chance new), walks one tree of decisions with UCB1 counted over the times each
option was available, plays out the rest at random (or greedily), and backs the outcome up to
every seat's decisions from that seat's side. `mcts` is the same search for games in which no
other seat knows what this one does not: it resamples only chance.

How far a rollout runs: to the game's end (at most `FULL` decisions) unless the game declares a
`heuristic`, which says how good an unfinished game looks; then it stops after `CUT` decisions and
the heuristic judges. (An agent's `depth` setting, if given, is the bound in every game.) The
rollouts' decisions are most of a search's cost, and a declared heuristic is the game's word that
a cut one is worth judging: a game without one, whose score may say nothing before the end
(Connect Four, tic-tac-toe), would learn nothing from a cut rollout.

An outcome is worth 1 to the seats that won alone (their team, in a team game), 1/k when k
sides share the win, and 0 to the others; in a game declared `outcome cooperative`, 1 to every
seat when they win together and 0 when they lose. A playout cut short is valued by the game's
`heuristic` if it declares one, else by its score: 0.5 + 0.5 × (own − best other side's) /
(|own| + |best other side's| + 1), strictly between a loss and a win (a cooperative game has no
other side: the other's is 0). In a game of one side that declares no cooperative outcome (a solo
game, one team) winning says nothing, so the search maximises the score itself, scaled between
the lowest and the highest score its playouts have reached so far.

Every agent is deterministic given its seed and an `iterations` budget; a `seconds` budget
stops by the clock and so depends on the machine's speed.
"""
from __future__ import annotations

import math
import random
import time

from ..diagnostics import UserError
from ..engine import machine, outcomes
from ..engine.playout import playout, reference_playout
from ..runtime.errors import RuleFailure, RulesRuntimeError


CUT = 12            # a rollout's decisions in a game that declares a heuristic (benchmarks/README.md)
FULL = 200          # in any other game: to the end


# ------------------------------------------------------------------ what an outcome is worth
side_of = outcomes.side_of


def outcome(state) -> list[float]:
    """Each seat's share of the win of a finished game."""
    winners = state.result[2]
    if outcomes.one_result(state.program):
        return [1.0 if winners else 0.0] * state.n
    sides = {side_of(state.program, w) for w in winners}
    return [1.0 / len(sides) if p in winners else 0.0 for p in range(state.n)]


def estimate(state) -> list[float]:
    """Each seat's value of an unfinished game, from the game's `heuristic` if it declares one, else
    its score (see the module's docstring)."""
    program = state.program
    judge = program.heuristic or program.score
    if judge is None:
        return [0.5] * state.n
    scores = [machine._score(state, judge, p) for p in range(state.n)]
    sides = outcomes.sides(program, state.n)
    best: dict[int, int] = {}
    for side, s in zip(sides, scores):
        best[side] = max(best.get(side, s), s)
    out = []
    for p, own in enumerate(scores):
        others = [v for side, v in best.items() if side != sides[p]]
        out.append(_against(own, max(others) if others else 0))
    return out


def _against(own, rival) -> float:
    """A side's value of an unfinished game, its score `own` against the best other side's `rival`:
    strictly between a loss (0) and a win (1), 0.5 when they are level."""
    return 0.5 + 0.5 * (own - rival) / (abs(own) + abs(rival) + 1)


def _judge(program, players: int):
    """`estimate` for one game and number of players (it values every cut rollout): when each seat is
    its own side, the judge and the seats looked up once and the best other side's score found as
    the best and the second best."""
    judge = program.heuristic or program.score
    if judge is None or outcomes.sides(program, players) != list(range(players)) or players < 2:
        return estimate
    seats = range(players)

    def judged(state):
        try:
            scores = [judge(state, p) for p in seats]
        except RuleFailure as e:
            raise RulesRuntimeError(f"scoring: {e}") from None
        top = max(scores)
        first = scores.index(top)
        second = max(scores[:first] + scores[first + 1:])
        return [_against(own, second if p == first else top) for p, own in enumerate(scores)]
    return judged


def value(state) -> list[float]:
    return outcome(state) if state.result is not None else estimate(state)


def one_side(state) -> bool:
    """Do all seats play on one side with nothing to win or lose (a solo game, one team)?"""
    return one_side_of(state.program, state.n)


def one_side_of(program, players: int) -> bool:
    return not outcomes.one_result(program) and outcomes.side_count(program, players) == 1


def _worth(program, players: int):
    """`outcome` for one game and number of players: state -> each seat's share of the win, its sides
    worked out once."""
    if outcomes.one_result(program):
        return lambda state: [1.0 if state.result[2] else 0.0] * players
    sides = outcomes.sides(program, players)
    seats = range(players)
    if sides == list(seats):            # each seat its own side

        def worth(state):
            winners = state.result[2]
            share = 1.0 / len(winners) if winners else 0.0
            return [share if p in winners else 0.0 for p in seats]
        return worth

    def worth(state):
        winners = state.result[2]
        share = 1.0 / len({sides[w] for w in winners}) if winners else 0.0
        return [share if p in winners else 0.0 for p in seats]
    return worth


def raw_scores(state) -> list[float]:
    program = state.program
    if state.result is not None:
        return list(state.result[0])
    judge = program.heuristic or program.score
    return [machine._score(state, judge, p) if judge else 0 for p in range(state.n)]


# ------------------------------------------------------------------ greedy
class GreedyAgent:
    """Takes the option whose position after it (run to the next decision) is worth the most to the
    seat, on `samples` sampled games (one when the seat sees everything but the future)."""
    remembers = True            # its samples need what the seat remembers (engine.whereabouts)

    def __init__(self, seed: int = 0, samples: int = 4):
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, seat) -> int:
        ids = seat.legal_ids()
        if len(ids) == 1:
            return ids[0]
        worlds = [seat.sample(self.rng) for _ in range(self.samples)]
        return best_after(worlds, ids, seat.seat, self.rng)


def best_after(worlds, ids, me: int, rng) -> int:
    """The option worth the most to seat `me` one decision ahead, averaged over `worlds`; ties at random."""
    totals = dict.fromkeys(ids, 0.0)
    for world in worlds:
        for a in ids:
            after = world.copy()
            try:
                machine.decide(after, a)
                totals[a] += value(after)[me]
            except (RulesRuntimeError, machine.IllegalDecision):
                totals[a] -= 1.0            # an option this world does not allow (or whose rules fail)
    best = max(totals.values())
    tied = [a for a in ids if totals[a] == best]
    return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


# ------------------------------------------------------------------ Monte Carlo tree search
class _Node:
    __slots__ = ("children", "visits", "total", "mean", "avail")

    def __init__(self):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0        # the sum of the values backed up, for the seat that took the decision into it
        self.mean = 0.0         # total / visits, kept as they change (UCB1 reads it far more often)
        self.avail = 0          # how often the decision into it was available (ISMCTS's UCB1)


class SearchAgent:
    """SO-ISMCTS (or plain UCT over chance, for `mcts`); see the module's docstring.

    An iteration is one playout of a sampled game (engine.playout: on the fast path for random
    rollouts), its chooser walking the tree while the decisions are in it, then choosing at random
    (or greedily) up to `depth` decisions more (by default `CUT` in a game that declares a heuristic,
    else `FULL`): the game is never stopped between the tree and the rollout. The samples of one
    decision share their work (Seat.sampler)."""
    remembers = True            # its samples need what the seat remembers (engine.whereabouts)

    def __init__(self, seed: int = 0, iterations: int = 400, seconds: float | None = None, depth: int | None = None,
                 rollout: str = "random", c: float = 0.7, private: bool = True):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth              # None: the game's (rollout_depth)
        self.greedy_rollout = rollout == "greedy"
        self.c = c
        self.private = private          # may the seat face what other seats know and it does not?

    def choose(self, seat) -> int:
        ids = seat.legal_ids()
        if len(ids) == 1:
            return ids[0]
        if not self.private and seat.private_to_others():
            raise UserError(f"mcts plays games in which no seat knows what another does not; here other seats "
                            f"know what seat {seat.seat + 1} does not: use ismcts")
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        sample = seat.sampler(chance_only=not self.private)
        iterate = _searcher(self, root, seat.program, seat.players)
        rng = self.rng
        k, budget = 0, self.iterations
        while (k < budget if deadline is None else time.perf_counter() < deadline) or k == 0:
            iterate(sample(rng))
            k += 1
            if deadline is None and 2 * k > budget and _settled(root.children, ids, budget - k):
                break                       # the iterations left cannot change the choice
        legal = [a for a in ids if a in root.children]
        if not legal:
            return ids[rng.randrange(len(ids))]
        most = max(root.children[a].visits for a in legal)
        tied = [a for a in legal if root.children[a].visits == most]
        return tied[0] if len(tied) == 1 else max(tied, key=lambda a: root.children[a].total)


def rollout_depth(agent_depth: int | None, program) -> int:
    """How many decisions a rollout plays after the tree: the agent's `depth` if set, else `CUT` in a
    game that declares a heuristic and `FULL` (to the end) in any other."""
    if agent_depth is not None:
        return agent_depth
    return CUT if program.heuristic is not None else FULL


def _settled(children: dict, ids, left: int) -> bool:
    """Is the most visited option sure to stay so, alone, whatever `left` more iterations do? Each
    iteration visits one option at the root, so it is when it leads the next by more than `left`:
    stopping then takes the choice the whole budget would take (a search stopped early, as in
    most Go programs, spends nothing on a decision already made)."""
    first = second = 0
    for a in ids:
        child = children.get(a)
        v = child.visits if child is not None else 0
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _searcher(agent: SearchAgent, root: _Node, program, players: int):
    """One decision's search: `iterate(state)` plays one iteration on a sampled game and backs its value
    up the tree from `root`. What every iteration shares is read once (the agent's settings, the game's
    sides, how a finished game is worth), and where the walk stands lives in this function's cells,
    which the chooser the rules call at every decision reads quicker than attributes."""
    rng, c, greedy = agent.rng, agent.c, agent.greedy_rollout
    depth = rollout_depth(agent.depth, program)
    bits, sqrt, log, new, inf = rng.getrandbits, math.sqrt, math.log, _Node, math.inf
    by_score = one_side_of(program, players)    # a game of one side: back up scores, not outcomes
    lo, hi = (inf, -inf) if by_score else (0.0, 1.0)    # the range of the values backed up
    worth, judge = _worth(program, players), _judge(program, players)
    node: _Node | None = root           # where the walk stands in the tree, None in the rollout
    stop = 0                            # the rollout stops when the game has taken this many decisions
    path: list = []                     # (node, the seat that took the decision into it)

    def walk(m, who, ids):
        """Down the tree by UCB1 over the options available (each counted available as it is offered),
        one new node added, then `depth` decisions at most at random (or greedily)."""
        nonlocal node, stop
        if node is None:                # the rollout: an option drawn as 30 random bits modulo their number
            if m.decisions >= stop:
                return None
            if greedy:
                return best_after([m], ids, who, rng) if len(ids) > 1 else ids[0]
            return ids[bits(30) % len(ids)]
        children = node.children
        untried = None
        best, choice, took = -inf, None, None
        for a in ids:
            child = children.get(a)
            if child is None:
                if untried is None:
                    untried = [a]
                else:
                    untried.append(a)
            else:
                avail = child.avail = child.avail + 1
                if untried is None:
                    score = child.mean + c * sqrt(log(avail) / child.visits)
                    if score > best:
                        best, choice, took = score, child, a
        if untried is not None:
            a = untried[bits(30) % len(untried)]
            child = children[a] = new()
            child.avail = 1
            path.append((child, who))   # (before deciding: a decision that fails still counts a visit)
            node, stop = None, m.decisions + 1 + depth
            return a
        if by_score:                    # the means scaled between the lowest and highest score seen
            spread = (hi - lo) or 1.0
            best, took = -inf, ids[0]
            for a in ids:
                ch = children[a]
                score = (ch.mean - lo) / spread + c * sqrt(log(ch.avail) / ch.visits)
                if score > best:
                    best, took = score, a
            choice = children[took]
        node = choice
        path.append((choice, who))
        return took

    def iterate(state) -> None:
        nonlocal node, path, lo, hi
        node, path = root, []
        try:
            if greedy:                  # a greedy choice copies the state, which the fast path's does not hold whole
                reference_playout(state, walk)
            else:
                playout(state, walk)
            if by_score:
                values = raw_scores(state)
                lo, hi = min(lo, min(values)), max(hi, max(values))
            else:
                values = worth(state) if state.result is not None else judge(state)
        except RulesRuntimeError:       # a sampled world the rules cannot play on: count the visit, learn nothing
            values = [(lo + hi) / 2 if math.isfinite(lo) else 0.5] * state.n
        for visited, who in path:
            visited.visits += 1
            visited.total += values[who]
            visited.mean = visited.total / visited.visits

    return iterate
