"""Agents that think ahead: greedy (one decision of lookahead) and Monte Carlo tree search.

Both see a game only through their `Seat` (agents/seat.py): they think on games sampled from
what the seat may see and remembers, never on the game itself. The search is single-observer
information-set MCTS (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS"): each iteration samples
a game the seat cannot tell from the real one (hidden cards dealt again, each only where the
seat's memory allows — a card it saw won face down stays won —, hidden values drawn, the
future's chance new), walks one tree of decisions with UCB1 counted over the times each
option was available, plays out the rest at random (or greedily) up to a depth, and backs the
outcome up to every seat's decisions from that seat's side. `mcts` is the same search for
games in which no other seat knows what this one does not: it resamples only chance.

An outcome is worth 1 to the seats that won alone (their team, in a team game), 1/k when k
sides share the win, and 0 to the others; in a game declared `outcome cooperative`, 1 to every
seat when they win together and 0 when they lose. A playout cut short by its depth is valued by
the game's `heuristic` (if it declares one) or score: 0.5 + 0.5 × (own − best other side's) /
(|own| + |best other side's| + 1),
strictly between a loss and a win (a cooperative game has no other side: the other's is 0). In a
game of one side that declares no cooperative outcome (a solo game, one team) winning says
nothing, so the search maximises the score itself, scaled between the lowest and the highest
score its playouts have reached so far.

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
from ..runtime.errors import RulesRuntimeError


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
        rival = max(others) if others else 0
        out.append(0.5 + 0.5 * (own - rival) / (abs(own) + abs(rival) + 1))
    return out


def value(state) -> list[float]:
    return outcome(state) if state.result is not None else estimate(state)


def one_side(state) -> bool:
    """Do all seats play on one side with nothing to win or lose (a solo game, one team)?"""
    program = state.program
    return not outcomes.one_result(program) and len({side_of(program, p) for p in range(state.n)}) == 1


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
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0        # the sum of the values backed up, for the seat that took the decision into it
        self.avail = 0          # how often the decision into it was available (ISMCTS's UCB1)


class SearchAgent:
    """SO-ISMCTS (or plain UCT over chance, for `mcts`); see the module's docstring.

    An iteration is one playout of a sampled game (engine.playout: on the fast path for random
    rollouts), its chooser walking the tree while the decisions are in it, then choosing at random
    (or greedily) up to `depth` decisions more: the game is never stopped between the tree and the
    rollout. The samples of one decision share their work (Seat.sampler)."""
    remembers = True            # its samples need what the seat remembers (engine.whereabouts)

    def __init__(self, seed: int = 0, iterations: int = 400, seconds: float | None = None, depth: int = 200,
                 rollout: str = "random", c: float = 0.7, private: bool = True):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
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
        self.by_score = None                # a game of one side: back up scores, not outcomes
        self.lo, self.hi = 0.0, 1.0         # the range of the values backed up
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        sample = seat.sampler(chance_only=not self.private)
        rng = self.rng
        k = 0
        while (k < self.iterations if deadline is None else time.perf_counter() < deadline) or k == 0:
            self._iterate(root, sample(rng))
            k += 1
        legal = [a for a in ids if a in root.children]
        if not legal:
            return ids[rng.randrange(len(ids))]
        most = max(root.children[a].visits for a in legal)
        tied = [a for a in legal if root.children[a].visits == most]
        return tied[0] if len(tied) == 1 else max(tied, key=lambda a: root.children[a].total)

    def _iterate(self, root: _Node, state) -> None:
        path = []                           # (node, the seat that took the decision into it)
        try:
            self._play(state, root, path)
            if self.by_score is None:
                self.by_score = one_side(state)
                if self.by_score:
                    self.lo, self.hi = math.inf, -math.inf
            if self.by_score:
                values = raw_scores(state)
                self.lo, self.hi = min(self.lo, min(values)), max(self.hi, max(values))
            else:
                values = value(state)
        except RulesRuntimeError:
            values = None               # a sampled world the rules cannot play on: count the visit, learn nothing
        for node, who in path:
            node.visits += 1
            node.total += values[who] if values is not None else \
                ((self.lo + self.hi) / 2 if math.isfinite(self.lo) else 0.5)

    def _play(self, state, root: _Node, path: list) -> None:
        """Play `state` on: down the tree by UCB1 over the options available (each counted available
        as it is offered), one new node added, then `depth` decisions at most at random (or greedily)."""
        rng, c, depth = self.rng, self.c, self.depth
        rnd = rng.random
        lo, spread = self.lo, (self.hi - self.lo) or 1.0
        node, stop = root, 0               # node: where the walk stands in the tree, None in the rollout
        greedy = self.greedy_rollout

        def walk(m, who, ids):
            nonlocal node, stop
            if node is None:                # the rollout
                if m.decisions >= stop:
                    return None
                if greedy:
                    return best_after([m], ids, who, rng) if len(ids) > 1 else ids[0]
                return ids[int(rnd() * len(ids))]
            children = node.children
            untried = None
            for a in ids:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
                elif untried is None:
                    untried = [a]
                else:
                    untried.append(a)
            if untried is not None:
                a = untried[int(rnd() * len(untried))]
                child = children[a] = _Node()
                child.avail = 1
                path.append((child, who))   # (before deciding: a decision that fails still counts a visit)
                node, stop = None, m.decisions + 1 + depth
                return a
            best, choice = -math.inf, ids[0]
            for a in ids:
                ch = children[a]
                score = (ch.total / ch.visits - lo) / spread + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best:
                    best, choice = score, a
            node = children[choice]
            path.append((node, who))
            return choice

        if greedy:                          # a greedy choice copies the state, which the fast path's does not hold whole
            reference_playout(state, walk)
        else:
            playout(state, walk)
