#!/usr/bin/env python3
"""`rulecraft simulate` against the bare engine loop on the same games, in CPU time.

    python benchmarks/simulate_speed.py [--games 2000] [--rounds 5] [--game blackmore:4 --game examples/tic-tac-toe.rules:2]

A: `rulecraft simulate GAME -n N --players P --agents random --workers 1 --json` run in this
process (output discarded; the rules already cached, as for any warm run), with `--standings`
as a third row. B: a plain loop over the same N games: machine.new_game with each game's seed
(simulate.games.game_seed) and decide with each seat's random.Random seeded as simulate seeds
its agents, so both play the same games, decision for decision. Taken in turns for `--rounds`
rounds; printed: each one's median CPU seconds and the median of the per-round ratios
loop time / simulate time (the aim: >= 0.8).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import machine_line, pin_to_one_core, table  # noqa: E402


def simulate_runner(ref: str, players: int, games: int, extra=()):
    from rulecraft.cli.main import main
    argv = ["simulate", ref, "-n", str(games), "--players", str(players), "--agents", "random", "--workers", "1",
            "--json", *extra]

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 0
    return run


def loop_runner(ref: str, players: int, games: int):
    from rulecraft.agents.registry import agent_seed
    from rulecraft.cli import common
    from rulecraft.engine.machine import decide, new_game
    from rulecraft.simulate.games import game_seed
    program = common.load_program(ref)

    def run() -> None:
        for i in range(games):
            seed = game_seed(0, i)
            draws = [random.Random(agent_seed(seed, p)).randrange for p in range(players)]
            m = new_game(program, players, None, seed)
            while m.result is None:
                _ci, who, ids = m.pending
                decide(m, ids[draws[who](len(ids))])
    return run


def cpu(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--game", action="append", metavar="REF:PLAYERS",
                    help="a game and its player count (default blackmore:4 and the two examples)")
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(argv)
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    print(f"{args.games} games, {args.rounds} rounds of simulate / loop / simulate --standings in turns; medians\n")
    rows = []
    for spec in args.game or ["blackmore:4", "examples/connect-four.rules:2", "examples/tic-tac-toe.rules:2"]:
        ref, _, players = spec.rpartition(":")
        players = int(players)
        runners = {"simulate": simulate_runner(ref, players, args.games),
                   "loop": loop_runner(ref, players, args.games),
                   "standings": simulate_runner(ref, players, args.games, ["--standings"])}
        for run in runners.values():
            run()                                    # warm up: the rules loaded and cached
        times = {name: [] for name in runners}
        for _ in range(args.rounds):
            for name, run in runners.items():
                times[name].append(cpu(run))
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = statistics.median(b / a for a, b in zip(times["simulate"], times["loop"]))
        standings = statistics.median(b / a for a, b in zip(times["standings"], times["loop"]))
        rows.append([f"{ref} {players}p", f"{med['loop']:.3f}", f"{med['simulate']:.3f}", f"{med['standings']:.3f}",
                     f"{ratio:.2f}", f"{standings:.2f}"])
    print(table(rows, ["game", "loop CPU s", "simulate CPU s", "--standings CPU s", "loop/simulate",
                       "loop/--standings"]))
    print("\naim: loop/simulate >= 0.8 (CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
