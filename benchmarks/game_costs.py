#!/usr/bin/env python3
"""What a game costs outside its rules' own code: new_game, finish, and a whole random playout, in CPU µs.

    python benchmarks/game_costs.py [--rounds 5] [--games 3000] [--base PYTHON] [--game tic-tac-toe:2 ...]

Per game and player count, in one child process per round (this checkout's Python, and with `--base`
another checkout's, in turns): µs of CPU per `machine.new_game` (to the first decision), per
`machine.finish` of a finished game, and per random playout (`new_game` then `engine.playout.playout`
with a seeded random chooser: the yardstick's playout). Printed: medians over the rounds, and with
`--base` the median of the rounds' ratios base / this (> 1: this is faster).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import machine_line, table  # noqa: E402

GAMES = {"tic-tac-toe": "examples/tic-tac-toe.rules", "connect-four": "examples/connect-four.rules",
         "blackmore": "blackmore"}


def measure(ref: str, players: int, games: int) -> tuple[float, float, float]:
    import random
    from rulecraft.cli.common import load_program
    from rulecraft.engine.machine import finish, new_game
    from rulecraft.engine.playout import playout
    program = load_program(ref)
    rng = random.Random(12345)
    randrange, getrandbits = rng.randrange, rng.getrandbits

    def choose(_m, _who, ids):
        return ids[randrange(len(ids))]
    seeds = [getrandbits(63) for _ in range(games)]
    playout(new_game(program, players, None, 0), choose)        # the fast twin compiled
    best = [float("inf")] * 3
    for _ in range(3):
        start = time.process_time()
        for s in seeds:
            new_game(program, players, None, s)
        best[0] = min(best[0], time.process_time() - start)
        start = time.process_time()
        ended = []
        for s in seeds:
            m = new_game(program, players, None, s)
            playout(m, choose)
            ended.append(m)
        best[2] = min(best[2], time.process_time() - start)
        start = time.process_time()
        for m in ended:
            finish(m)
        best[1] = min(best[1], time.process_time() - start)
    return tuple(b / games * 1e6 for b in best)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", metavar="NAME:PLAYERS",
                    help="tic-tac-toe, connect-four or blackmore, and a player count (default all three)")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--base", help="the python of another checkout's virtualenv, run in turns with this one")
    ap.add_argument("--child", metavar="REF:PLAYERS", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        ref, _, players = args.child.rpartition(":")
        print(" ".join(f"{x:.4f}" for x in measure(ref, int(players), args.games)))
        return 0
    print(machine_line())
    pythons = {"this": sys.executable}
    if args.base:
        pythons["base"] = args.base
    rows = []
    for spec in args.game or ["tic-tac-toe:2", "connect-four:2", "blackmore:4"]:
        name, _, players = spec.rpartition(":")
        child = [__file__, "--child", f"{GAMES.get(name, name)}:{players}", "--games", str(args.games)]
        got: dict[str, list[tuple]] = {k: [] for k in pythons}
        for r in range(args.rounds):
            for k, python in (pythons.items() if r % 2 == 0 else reversed(pythons.items())):
                out = subprocess.run([python, *child], capture_output=True, text=True, check=True).stdout
                got[k].append(tuple(map(float, out.split())))
        row = [f"{name} {players}p"]
        for i in range(3):
            this = statistics.median(g[i] for g in got["this"])
            cell = f"{this:.2f}"
            if "base" in got:
                base = statistics.median(g[i] for g in got["base"])
                ratio = statistics.median(b[i] / t[i] for b, t in zip(got["base"], got["this"]))
                cell += f" (base {base:.2f}, {ratio:.2f}x)"
            row.append(cell)
        rows.append(row)
    print(f"{args.rounds} rounds in turns, {args.games} games each; CPU µs, medians\n")
    print(table(rows, ["game", "new_game", "finish", "playout game"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
