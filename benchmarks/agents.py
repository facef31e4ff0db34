"""How strong the agents are: the yardsticks of issue 13, each printed with its figure.

    python benchmarks/agents.py                 every yardstick at the issue's sizes (long: most of an hour on 2 cores)
    python benchmarks/agents.py --quick         the same at a tenth of the games
    python benchmarks/agents.py blackmore       one yardstick (blackmore, three-sisters, weird-sisters, workers)
    python benchmarks/agents.py blackmore --search ismcts:iterations=100:depth=24   Blackmore's with another search

Each line says the command-line equivalent, so a figure can be checked with `rulecraft simulate`.
Agents and budgets are the ones named; games are split evenly between seat orders.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_line  # noqa: E402

from rulecraft.loader import game_path  # noqa: E402
from rulecraft.simulate import batch, metrics  # noqa: E402
from rulecraft.simulate.games import Job  # noqa: E402

SEARCH = "ismcts:iterations=100"                          # Blackmore
SEARCH_LONG = "ismcts:iterations=30:depth=40"             # Weird Sisters: games of about 2,000 decisions
SOLO = "ismcts:iterations=100"                            # Three Sisters solo


def play(game, players, agents, n, workers, seed=0, settings=()):
    jobs = [Job(str(game_path(game)), players, tuple(settings), tuple(agents), seed, i) for i in range(n)]
    start = time.perf_counter()
    results = batch.run(jobs, workers)
    return results, time.perf_counter() - start


def per_decision(results, seats) -> float:
    asked = sum(r.asked[p] for r in results for p in seats if r.asked)
    spent = sum(r.seconds[p] for r in results for p in seats if r.seconds)
    return spent / asked if asked else 0.0


def head_to_head(game, players, mine, theirs, n, workers, mine_seats_first):
    """`mine` at `mine_seats_first` in half of the games, at the other seats in the other half."""
    other = [p for p in range(players) if p not in mine_seats_first]
    rate_num, seconds, games = 0.0, [], 0
    for seats, seed in ((mine_seats_first, 0), (other, 1)):
        agents = [mine if p in seats else theirs for p in range(players)]
        results, _ = play(game, players, agents, n // 2, workers, seed)
        teams = 2 if game == "weird-sisters" else 0
        s = metrics.summarise(results, players, teams)
        rate_num += sum(s["seats"][p]["win_rate"] for p in seats[:1]) * s["finished"]
        games += s["finished"]
        seconds.append(per_decision(results, seats))
    return rate_num / games, max(seconds), games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("which", nargs="*", default=["blackmore", "three-sisters", "weird-sisters", "workers"])
    ap.add_argument("--quick", action="store_true", help="a tenth of the games")
    ap.add_argument("--workers", type=int, default=batch.default_workers())
    ap.add_argument("--search", default=SEARCH, help=f"the search agent Blackmore's yardsticks pit (default {SEARCH})")
    args = ap.parse_args()
    scale = 10 if args.quick else 1
    w = args.workers
    print(machine_line(), f"· {w} workers")
    if "blackmore" in args.which:
        n = 200 // scale
        for rival in ("random", "greedy"):
            rate, sec, games = head_to_head("blackmore", 2, args.search, rival, n, w, [0])
            print(f"blackmore 2p: {args.search} beats {rival} in {rate:.1%} of {games} games, "
                  f"{sec * 1e3:.1f} ms a decision  (rulecraft simulate blackmore -n {n // 2} --players 2 "
                  f"--agents {args.search},{rival}, and seats swapped with --seed 1)")
    if "three-sisters" in args.which:
        n = max(2, 20 // scale)
        for agent in ("greedy", SOLO):
            results, _ = play("three-sisters-solo", 1, [agent], n, w)
            mean, sd = metrics.mean_sd(r.scores[0] for r in results if r.scores)
            print(f"three-sisters-solo: {agent} scores {mean:.1f} on average (sd {sd:.1f}) over {n} games, "
                  f"{per_decision(results, [0]):.2f} s a decision  "
                  f"(rulecraft simulate three-sisters-solo -n {n} --agents {agent})")
    if "weird-sisters" in args.which:
        n = 100 // scale
        rate, sec, games = head_to_head("weird-sisters", 6, SEARCH_LONG, "random", n, w, [0, 2, 4])
        print(f"weird-sisters: an {SEARCH_LONG} team beats a random team in {rate:.1%} of {games} games, "
              f"{sec:.2f} s a decision  (rulecraft simulate weird-sisters -n {n // 2} "
              f"--agents {SEARCH_LONG},random,{SEARCH_LONG},random,{SEARCH_LONG},random, and swapped)")
    if "workers" in args.which:
        n = 20000 // scale
        _, one = play("blackmore", 2, ["random", "random"], n, 1)
        _, two = play("blackmore", 2, ["random", "random"], n, 2)
        print(f"simulate blackmore -n {n} --players 2: {n / one:.0f} games/s with 1 worker, {n / two:.0f} with 2 "
              f"({one / two:.2f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
