"""What a batch of games says about the rules: per-seat results and the field's design metrics.

The metrics are those Ludii's evaluation package computes over trials (after Browne, 2008),
defined in docs/simulating.md. Where Ludii values a position with a search, rulecraft uses the
game's own score, normalised per seat to 0..1 (agents/search.py `estimate`): the *standing*.
Each proportion comes with a Wilson 95 % interval, each mean with its standard deviation and a
normal 95 % interval; a comparison of two rule sets uses a two-proportion z-test for rates and
Welch's t (normal approximation) for means.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The Wilson score 95 % interval of a proportion (ties may count as halves)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_sd(xs) -> tuple[float, float]:
    xs = list(xs)
    if not xs:
        return (0.0, 0.0)
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum([(x - m) ** 2 for x in xs]) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    return (m, sd)


def sides_of(winners, teams: int) -> set:
    """The sides (teams in a team game, else seats) among the winners: one side is a win, more a tie."""
    return {w % teams for w in winners} if teams else set(winners)


def share(r, p: int, teams: int) -> float:
    """Seat p's share of a finished game's win: 1 alone (or with its team), 1/k of a k-sided tie, else 0."""
    return 1.0 / len(sides_of(r.winners, teams)) if p in r.winners else 0.0


def summarise(results, players: int, teams: int = 0) -> dict:
    """The figures of a batch (a list of games.GameResult), as plain data (the JSON of `--json`);
    `teams` is the game's number of teams (0 when seats play for themselves, 1 when all share one
    result: a declared cooperative game, where a game lost by all is a result, not a draw).

    The first player is the seat that took each game's first decision (not always seat 1: a game
    may draw who starts), and its fair share is one side's: 1/players, or 1/teams."""
    n = len(results)
    done = [r for r in results if r.scores]
    winners = [r.winners for r in done]
    # the sides among each game's winners (one winner: one side)
    sided = [len(w) if len(w) < 2 else len(sides_of(w, teams)) for w in winners]
    utilities = [[1.0 / k if p in w else 0.0 for w, k in zip(winners, sided)]    # share(r, p, teams)
                 for p in range(players)]
    wins, ties = [0] * players, [0] * players        # per seat: games won alone (or with its team), tied
    for w, k in zip(winners, sided):
        counts = wins if k == 1 else ties
        for p in w:
            counts[p] += 1
    seats = []
    for p, utility in enumerate(utilities):
        won = sum(utility)
        mean, sd = mean_sd([r.scores[p] for r in done])
        lo, hi = wilson(won, len(done))
        seats.append({"seat": p + 1, "wins": wins[p], "ties": ties[p],
                      "win_rate": won / len(done) if done else 0.0, "ci": [lo, hi],
                      "score_mean": mean, "score_sd": sd})
    lengths = [r.decisions for r in results]
    length_mean, length_sd = mean_sd(lengths)
    rates = [s["win_rate"] for s in seats]
    draws = len(sided) - sided.count(1) - sided.count(0)    # games whose winners are of several sides
    decisive = len(done) - draws
    offered = sum([r.options for r in results])
    asked = sum(lengths)
    measured = [r for r in done if r.standing]
    opened = [r for r in done if r.first >= 0]
    first_won = sum([1.0 / k if r.first in r.winners else 0.0 for r, k in zip(done, sided) if r.first >= 0])
    first_rate = first_won / len(opened) if opened else 0.0
    metrics = {
        "balance": 1 - (max(rates) - min(rates)) if rates else 1.0,
        "advantage": first_rate,
        "completion": decisive / n if n else 0.0,
        "drawishness": draws / n if n else 0.0,
        "timeouts": len([r for r in results if r.timeout]) / n if n else 0.0,
        "errors": len([r for r in results if r.error]) / n if n else 0.0,
        "duration": length_mean,
        "decision_moves": sum([r.choices for r in results]) / asked if asked else 0.0,
        "branching_factor": offered / asked if asked else 0.0,
        "outcome_uniformity": _uniformity(utilities),
    }
    if measured:
        metrics.update({
            "lead_change": mean_sd(r.lead_changes / r.decisions for r in measured if r.decisions)[0],
            "stability": mean_sd(sum(s[3] for s in r.standing) for r in measured)[0],
            "decisiveness_threshold": mean_sd(_threshold(r) for r in measured)[0],
            "drama": mean_sd(r.trail for r in measured if len(sides_of(r.winners, teams)) == 1)[0],
        })
    return {"games": n, "finished": len(done), "players": players, "seats": seats,
            "lengths": {"mean": length_mean, "sd": length_sd, "min": min(lengths, default=0),
                        "max": max(lengths, default=0)},
            "first_player_advantage": {"win_rate": first_rate, "fair_share": 1 / (min(teams, players) or players),
                                       "ci": list(wilson(first_won, len(opened))), "games": len(opened)},
            "metrics": metrics,
            "errors": sorted({r.error for r in results if r.error})[:5]}


def _uniformity(utilities: list[list[float]]) -> float:
    """1 − the per-seat variance of the outcome (win 1, share of a tie, loss 0), averaged over seats
    (`utilities`: per seat, its share of each finished game)."""
    if not utilities or not utilities[0]:
        return 1.0
    total = 0.0
    players = len(utilities)
    for utility in utilities:
        m = sum(utility) / len(utility)
        total += sum([(u - m) ** 2 for u in utility]) / len(utility)
    return 1 - total / players


def _threshold(r) -> float:
    """The highest standing ever reached by a seat that did not win."""
    losers = [s[1] for p, s in enumerate(r.standing) if p not in r.winners]
    return max(losers) if losers else 0.0


# ------------------------------------------------------------------ comparing two rule sets
def compare(a: dict, b: dict) -> list[dict]:
    """Each figure of two summaries side by side, with the difference and whether it is significant
    at 5 % (rates: two-proportion z-test; means: Welch's t with a normal approximation)."""
    rows = []
    for sa, sb in zip(a["seats"], b["seats"]):
        rows.append(_rate_row(f"seat {sa['seat']} win rate", sa["win_rate"], a["finished"], sb["win_rate"],
                              b["finished"]))
        rows.append(_mean_row(f"seat {sa['seat']} score", sa["score_mean"], sa["score_sd"], a["finished"],
                              sb["score_mean"], sb["score_sd"], b["finished"]))
    rows.append(_mean_row("game length", a["lengths"]["mean"], a["lengths"]["sd"], a["games"],
                          b["lengths"]["mean"], b["lengths"]["sd"], b["games"]))
    for key in a["metrics"]:
        if key in b["metrics"]:
            va, vb = a["metrics"][key], b["metrics"][key]
            rows.append({"figure": key, "a": va, "b": vb, "difference": vb - va, "significant": None})
    return rows


def _rate_row(name, pa, na, pb, nb) -> dict:
    significant = None
    if na and nb:
        pooled = (pa * na + pb * nb) / (na + nb)
        se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
        significant = bool(se and abs(pa - pb) / se > Z95) or (not se and pa != pb)
    return {"figure": name, "a": pa, "b": pb, "difference": pb - pa, "significant": significant}


def _mean_row(name, ma, sa, na, mb, sb, nb) -> dict:
    significant = None
    if na > 1 and nb > 1:
        se = math.sqrt(sa * sa / na + sb * sb / nb)
        significant = bool(se and abs(ma - mb) / se > Z95) or (not se and ma != mb)
    return {"figure": name, "a": ma, "b": mb, "difference": mb - ma, "significant": significant}
