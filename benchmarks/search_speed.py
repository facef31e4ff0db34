#!/usr/bin/env python3
"""ISMCTS's CPU time a decision over whole games, against another checkout in the same minutes.

    python benchmarks/search_speed.py [--game blackmore --players 2] [--agent ismcts:iterations=100]
                                      [--games 4] [--rounds 5] [--base PYTHON] [--parts]

A round plays `--games` whole games (game k with seed k) with `--agent` at every seat, agent k's
seed fixed, and reports the agents' CPU time (time.process_time) divided by every decision they
were asked: the figure issue 25 quotes (14 ms in Blackmore 2p). With `--base`, the Python of
another checkout's virtualenv (the commit before a change, say), each round runs once in a child
process of each, alternated, and the medians and their ratio are printed; the games differ only
where the agents' random draws differ. With `--parts`, one round in this process, the CPU time of
the samples (determinize.Sampler) and of the playouts (engine.playout: the rules' code, the tree's
walk and the rollouts' chooser) timed apart, a decision's share of each (the timing itself adds
about a microsecond a sample and a playout, counted in "the rest").
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def measure(game: str, players: int, agent: str, games: int) -> tuple[float, int]:
    """(CPU seconds the agents spent, decisions asked of them) over `games` whole games."""
    from rulecraft.agents.registry import make_agent
    from rulecraft.agents.seat import act
    from rulecraft.engine.session import Session
    from rulecraft.loader import load

    program = load(game)
    spent, asked = 0.0, 0
    for k in range(games):
        session = Session.start(program, game, players, seed=k, narrate=False)
        agents = [make_agent(agent, 1000 * k + p) for p in range(players)]
        while not session.over:
            t = time.process_time()
            a = act(agents[session.to_move], session)
            spent += time.process_time() - t
            asked += 1
            session.take(a)
    return spent, asked


def parts(game: str, players: int, agent: str, games: int) -> str:
    """Where a decision's CPU time goes: the samples, the playouts, the rest."""
    from rulecraft.agents import search
    from rulecraft.engine import determinize

    clock = time.process_time
    spent = {"samples": 0.0, "playouts": 0.0}
    count = {"samples": 0, "playouts": 0, "decisions": 0}
    sample, play = determinize.Sampler.__call__, search.playout

    def timed_sample(self, rng):
        t = clock()
        got = sample(self, rng)
        spent["samples"] += clock() - t
        count["samples"] += 1
        return got

    def timed_playout(state, choose):
        d, t = state.decisions, clock()
        play(state, choose)
        spent["playouts"] += clock() - t
        count["playouts"] += 1
        count["decisions"] += state.decisions - d

    determinize.Sampler.__call__, search.playout = timed_sample, timed_playout
    try:
        total, asked = measure(game, players, agent, games)
    finally:
        determinize.Sampler.__call__, search.playout = sample, play
    per = {k: v / asked * 1e3 for k, v in spent.items()}
    return (f"CPU ms a decision {total / asked * 1e3:.2f}: samples {per['samples']:.2f} "
            f"({spent['samples'] / max(1, count['samples']) * 1e6:.1f} us each), playouts {per['playouts']:.2f} "
            f"({spent['playouts'] / max(1, count['playouts']) * 1e6:.1f} us each, "
            f"{count['decisions'] / max(1, count['playouts']):.1f} decisions each), "
            f"the rest {total / asked * 1e3 - per['samples'] - per['playouts']:.2f}; "
            f"{count['playouts'] / asked:.1f} iterations a decision")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agent", default="ismcts:iterations=100")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--base", help="the python of another checkout's virtualenv, run in turns with this one")
    ap.add_argument("--parts", action="store_true", help="one round here, the samples and playouts timed apart")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.parts:
        print(f"{args.game} {args.players}p, {args.agent}, {args.games} games: "
              f"{parts(args.game, args.players, args.agent, args.games)}")
        return 0
    if args.child:
        spent, asked = measure(args.game, args.players, args.agent, args.games)
        print(f"{spent} {asked}")
        return 0
    pythons = {"this": sys.executable}
    if args.base:
        pythons["base"] = args.base
    ms: dict[str, list[float]] = {name: [] for name in pythons}
    common = [__file__, "--child", "--game", args.game, "--players", str(args.players), "--agent", args.agent,
              "--games", str(args.games)]
    for r in range(args.rounds):
        for name, python in (pythons.items() if r % 2 == 0 else reversed(pythons.items())):
            out = subprocess.run([python, *common], capture_output=True, text=True, check=True).stdout.split()
            ms[name].append(float(out[0]) / int(out[1]) * 1e3)
    med = {name: statistics.median(v) for name, v in ms.items()}
    line = (f"{args.game} {args.players}p, {args.agent} at every seat, {args.games} games a round, "
            f"CPU ms a decision (median of {args.rounds}): this {med['this']:.2f}")
    if "base" in med:
        ratios = [b / t for b, t in zip(ms["base"], ms["this"])]
        line += f", base {med['base']:.2f}: {statistics.median(ratios):.2f}x faster (median of the rounds' ratios)"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
