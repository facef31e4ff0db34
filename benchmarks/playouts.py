#!/usr/bin/env python3
"""Random playouts on the two paths, against the hand-written Blackmore, in CPU time, alternated.

    python benchmarks/playouts.py [--game blackmore --players 4] [--pairs 5] [--games 300]

Three ways to play the same random games, each a batch of `--games` games timed in this process's
CPU time (time.process_time), the three batches alternated `--pairs` times; the medians and the
ratios are printed:
  * decide   -- the resumable path: machine.decide at every decision (new_game, legal_ids, decide);
  * playout  -- the fast path: engine.playout with a random `choose`;
  * hand     -- benchmarks/handwritten_blackmore.py's direct version (Blackmore only).
The same games are played each way (the same seeds, a random agent seeded alike).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def decide_batch(program, players, options, games):
    from rulecraft.engine import machine
    new_game, decide = machine.new_game, machine.decide

    def run():
        rng = random.Random(12345)
        randrange = rng.randrange
        for seed in range(games):
            m = new_game(program, players, options, seed)
            while m.result is None:
                ids = m.pending[2]
                decide(m, ids[randrange(len(ids))])
    return run


def playout_batch(program, players, options, games):
    from rulecraft.engine import machine
    from rulecraft.engine.playout import playout
    new_game = machine.new_game

    def run():
        rng = random.Random(12345)
        randrange = rng.randrange

        def choose(m, who, ids):
            return ids[randrange(len(ids))]
        for seed in range(games):
            playout(new_game(program, players, options, seed), choose)
    return run


def hand_batch(players, games):
    import handwritten_blackmore as hb

    def run():
        play = hb.direct_player(players)
        for seed in range(games):
            play(seed)
    return run


def cpu(run) -> float:
    t = time.process_time()
    run()
    return time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args(argv)
    from rulecraft.loader import load
    program = load(args.game)
    program.fast()                     # compiled before timing
    options = None
    ways = {"decide": decide_batch(program, args.players, options, args.games),
            "playout": playout_batch(program, args.players, options, args.games)}
    if args.game == "blackmore":
        ways["hand"] = hand_batch(args.players, args.games)
    times = {k: [] for k in ways}
    for _ in range(args.pairs):
        for k, run in ways.items():
            times[k].append(cpu(run))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{args.game}, {args.players} players, {args.games} games a batch, {args.pairs} batches each, "
          f"CPU seconds (median):")
    for k in ways:
        print(f"  {k:8} {med[k]:.3f} s  ({args.games / med[k]:,.0f} games/s; all: "
              f"{', '.join(f'{t:.3f}' for t in times[k])})")
    print(f"  playout / decide speed: {med['decide'] / med['playout']:.2f}x")
    if "hand" in med:
        print(f"  engine / hand: decide {med['hand'] / med['decide']:.2f}, playout {med['hand'] / med['playout']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
