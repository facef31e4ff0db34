#!/usr/bin/env python3
"""Do the plain hand-written games play the same game as their rules? Outcome distributions compared.

    python benchmarks/yardsticks_agree.py [--games 10000] [--game blackmore --game tic-tac-toe ...]

For each game and player count, N games under random play by the plain version (benchmarks/plain/)
and N by the engine on the `.rules` file, with different random streams (the two draw differently,
so only the distributions can agree): the winners (each seat alone, or a draw/tie by its seats) and
the game lengths are compared by a chi-square test of homogeneity, and each seat's mean score by
Welch's z. Every test must give p >= 0.001 (exit 1 otherwise). tests/test_yardsticks.py runs a
cheaper version (fewer games) and checks that a plain game with one rule changed is caught.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from plain import GAMES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALPHA = 0.001


def load_rules(ref: str):
    from rulecraft.loader import load, load_file
    return load_file(os.path.join(ROOT, ref)) if ref.endswith(".rules") else load(ref)


def engine_games(program, players: int, games: int, seed: int) -> list:
    """(winners, decisions, scores) of `games` engine games under random play."""
    from rulecraft.engine import machine
    rng = random.Random(seed)
    out = []
    for i in range(games):
        m = machine.new_game(program, players, None, rng.getrandbits(63))
        while m.result is None:
            ids = machine.legal_ids(m)
            machine.decide(m, ids[rng.randrange(len(ids))])
        scores, _ties, winners = m.result
        out.append((tuple(winners), m.decisions, tuple(scores)))
    return out


def plain_games(play, players: int, games: int, seed: int) -> list:
    rng = random.Random(seed)
    return [play(players, rng) for _ in range(games)]


def chi_square_p(a: Counter, b: Counter) -> float:
    """p-value of a chi-square test that two samples of categories come from one distribution
    (categories expected fewer than 5 times are pooled; Wilson–Hilferty for the tail)."""
    na, nb = sum(a.values()), sum(b.values())
    keys = sorted(set(a) | set(b), key=lambda k: -(a[k] + b[k]))
    cells, rare = [], [0, 0]
    for k in keys:
        total = a[k] + b[k]
        if min(na, nb) * total / (na + nb) < 5:
            rare[0] += a[k]
            rare[1] += b[k]
        else:
            cells.append((a[k], b[k]))
    if sum(rare):
        cells.append(tuple(rare))
    if len(cells) < 2:
        return 1.0
    x = 0.0
    for ca, cb in cells:
        total = ca + cb
        ea, eb = total * na / (na + nb), total * nb / (na + nb)
        x += (ca - ea) ** 2 / ea + (cb - eb) ** 2 / eb
    k = len(cells) - 1
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def mean_p(xs: list, ys: list) -> float:
    """Two-sided p-value of Welch's z for equal means."""
    def ms(v):
        m = sum(v) / len(v)
        return m, sum((x - m) ** 2 for x in v) / (len(v) - 1)
    (ma, va), (mb, vb) = ms(xs), ms(ys)
    se = math.sqrt(va / len(xs) + vb / len(ys))
    if se == 0:
        return 1.0 if ma == mb else 0.0
    return math.erfc(abs(ma - mb) / se / math.sqrt(2))


def compare(plain: list, engine: list, players: int) -> list:
    """Rows (figure, plain, engine, p) for the winners, the lengths and each seat's mean score."""
    rows = []
    wa, wb = Counter(g[0] for g in plain), Counter(g[0] for g in engine)
    rows.append(("winners", _shares(wa, players), _shares(wb, players), chi_square_p(wa, wb)))
    la, lb = Counter(g[1] for g in plain), Counter(g[1] for g in engine)
    rows.append(("length", f"{_mean(plain, 1):.2f}", f"{_mean(engine, 1):.2f}", chi_square_p(la, lb)))
    for p in range(players):
        xs, ys = [g[2][p] for g in plain], [g[2][p] for g in engine]
        rows.append((f"seat {p + 1} score", f"{sum(xs) / len(xs):.3f}", f"{sum(ys) / len(ys):.3f}", mean_p(xs, ys)))
    return rows


def _mean(games, k):
    return sum(g[k] for g in games) / len(games)


def _shares(counts: Counter, players: int) -> str:
    n = sum(counts.values())
    alone = [counts[(p,)] / n for p in range(players)]
    tied = 1 - sum(alone)
    return " ".join(f"{x:.3f}" for x in alone) + f" tie {tied:.3f}"


def check(name: str, players: int, games: int, seed: int = 1, play=None) -> list:
    """The comparison rows of one game (`play`: a plain game to use instead of the module's own)."""
    ref, _counts, own = GAMES[name]
    program = load_rules(ref)
    plain = plain_games(play or own, players, games, seed)
    engine = engine_games(program, players, games, seed + 1)
    return compare(plain, engine, players)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--game", action="append", choices=sorted(GAMES))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    ok = True
    for name in args.game or list(GAMES):
        for players in GAMES[name][1]:
            print(f"{name} {players}p, {args.games} games each (plain / engine):")
            for figure, a, b, p in check(name, players, args.games, args.seed):
                bad = p < ALPHA
                ok = ok and not bad
                print(f"  {figure:14} {a:>34}  {b:>34}  p = {p:.3f}{'  DIFFERENT' if bad else ''}")
    print("the same distributions" if ok else f"a difference at p < {ALPHA}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
