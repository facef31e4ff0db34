"""A round robin of agents: every group of them at every order of seats, on the same deals.

Each group of P different agents plays N games at each of the P! orders of seats, and every order
plays the same N game seeds (a "duplicate" tournament: luck of the deal cancels out). From each
game every pair of agents at the table gets a result — the one with the larger share of the win
takes the point, equal shares split it — and the agents are rated by Bradley–Terry (the model
behind Elo), fitted by the MM iteration of Hunter (2004), on Elo's scale (mean 1500, 400 points
= 10:1 odds), with half a win and half a loss for each pair as a prior so that a clean sweep still
has a finite rating.
"""
from __future__ import annotations

import itertools
import math

from .games import Job
from .metrics import share, wilson


def jobs(path: str, agents: list[str], players: int, settings, games: int, seed: int) -> list[Job]:
    out = []
    for group in itertools.combinations(range(len(agents)), players):
        for order in itertools.permutations(group):
            out += [Job(path, players, tuple(settings), tuple(agents[k] for k in order), seed, i, measure=False)
                    for i in range(games)]
    return out


def standings(agents: list[str], played: list[Job], results, teams: int = 0) -> dict:
    """Per agent: games, win share with its interval, rating; and the head-to-head table."""
    n = len(agents)
    index = {name: k for k, name in enumerate(agents)}
    games, won = [0] * n, [0.0] * n
    points = [[0.0] * n for _ in range(n)]          # points[i][j]: i's points against j
    meetings = [[0] * n for _ in range(n)]
    for job, r in zip(played, results):
        if not r.scores:
            continue
        seats = [index[name] for name in job.agents]
        shares = [share(r, p, teams) for p in range(len(seats))]
        for p, k in enumerate(seats):
            games[k] += 1
            won[k] += shares[p]
        for p, q in itertools.combinations(range(len(seats)), 2):
            i, j = seats[p], seats[q]
            point = 1.0 if shares[p] > shares[q] else (0.0 if shares[p] < shares[q] else 0.5)
            points[i][j] += point
            points[j][i] += 1 - point
            meetings[i][j] += 1
            meetings[j][i] += 1
    ratings = _bradley_terry(points, meetings)
    rows = []
    for k, name in enumerate(agents):
        lo, hi = wilson(won[k], games[k])
        rows.append({"agent": name, "games": games[k], "win_rate": won[k] / games[k] if games[k] else 0.0,
                     "ci": [lo, hi], "rating": ratings[k],
                     "against": {agents[j]: points[k][j] / meetings[k][j] for j in range(n) if meetings[k][j]}})
    rows.sort(key=lambda row: -row["rating"])
    return {"agents": rows}


def _bradley_terry(points, meetings, rounds: int = 200) -> list[float]:
    n = len(points)
    wins = [sum(points[i][j] + 0.5 for j in range(n) if meetings[i][j]) for i in range(n)]
    strength = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            denom = sum((meetings[i][j] + 1) / (strength[i] + strength[j]) for j in range(n) if meetings[i][j])
            new.append(wins[i] / denom if denom else strength[i])
        mean = math.exp(sum(math.log(s) for s in new) / n)
        strength = [s / mean for s in new]
    return [1500 + 400 * math.log10(s) for s in strength]
