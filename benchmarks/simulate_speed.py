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

A later simulate in the same process plays the program an earlier one kept while its files are the
same (simulate.games.kept); with `--fresh`, what the process kept is dropped (untimed) before each
simulate run, which then loads the rules and compiles the fast twin as a fresh process does
(imports aside). `--parts`: each step of one simulate of each game timed alone (median CPU ms of
`--rounds` × 4 runs; the batch and the loop in turns), and the batch's cost a game beyond the loop's.
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


def simulate_runner(ref: str, players: int, games: int, extra=(), fresh: bool = False):
    from rulecraft.cli.main import main
    from rulecraft.simulate import games as kept
    argv = ["simulate", ref, "-n", str(games), "--players", str(players), "--agents", "random", "--workers", "1",
            "--json", *extra]

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 0
    if not fresh:
        return run

    def forget() -> None:
        kept._PROGRAMS.clear()
        kept._PLANS.clear()
    run.before = forget
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
    before = getattr(run, "before", None)
    if before is not None:
        before()
    start = time.process_time()
    run()
    return time.process_time() - start


def parts(ref: str, players: int, games: int, rounds: int) -> list:
    """[game, then each step's median CPU ms, then the batch minus the loop in µs a game]."""
    import json
    from rulecraft.cli import common
    from rulecraft.cli.main import build_parser
    from rulecraft.simulate import batch, metrics
    from rulecraft.simulate.games import Job, kept, shared
    argv = ["simulate", ref, "-n", str(games), "--players", str(players), "--agents", "random", "--workers", "1",
            "--json"]
    path = str(common.game_path(ref))
    agents = ("random",) * players
    program = shared(path, common.load_program(ref))
    jobs = [Job(path, players, (), agents, 0, i) for i in range(games)]
    results = batch.run(jobs, 1)
    summary = metrics.summarise(results, players, 0)
    loop = loop_runner(ref, players, games)
    steps = {"parser": lambda: build_parser("simulate").parse_args(argv), "load": lambda: common.load_program(ref),
             "kept": lambda: kept(path), "jobs": lambda: [Job(path, players, (), agents, 0, i) for i in range(games)],
             "batch": lambda: batch.run(jobs, 1), "loop": loop,
             "summary": lambda: metrics.summarise(results, players, 0),
             "JSON": lambda: json.dumps(summary, indent=2, sort_keys=True)}
    assert kept(path) is program
    times = {name: [] for name in steps}
    for _ in range(4 * rounds):
        for name, run in steps.items():
            times[name].append(cpu(run))
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    gap = statistics.median(a - b for a, b in zip(times["batch"], times["loop"])) / games * 1e6
    return [f"{ref} {players}p"] + [f"{med[k]:.2f}" for k in steps] + [f"{gap:+.2f}"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--game", action="append", metavar="REF:PLAYERS",
                    help="a game and its player count (default blackmore:4 and the two examples)")
    ap.add_argument("--cpu", type=int, default=None)
    ap.add_argument("--fresh", action="store_true", help="drop the program an earlier simulate kept before each run")
    ap.add_argument("--parts", action="store_true", help="time each step of a simulate alone")
    args = ap.parse_args(argv)
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    specs = args.game or ["blackmore:4", "examples/connect-four.rules:2", "examples/tic-tac-toe.rules:2"]
    if args.parts:
        print(f"{args.games} games; each step of a simulate alone, median CPU ms of {4 * args.rounds} runs\n")
        rows = [parts(ref, int(players), args.games, args.rounds)
                for ref, _, players in (spec.rpartition(":") for spec in specs)]
        print(table(rows, ["game", "parser", "load", "kept", "jobs", "batch", "loop", "summary", "JSON",
                           "batch - loop µs/game"]))
        return 0
    print(f"{args.games} games, {args.rounds} rounds of simulate / loop / simulate --standings in turns; medians"
          + (" (each simulate as in a fresh process)" if args.fresh else "") + "\n")
    rows = []
    for spec in specs:
        ref, _, players = spec.rpartition(":")
        players = int(players)
        runners = {"simulate": simulate_runner(ref, players, args.games, fresh=args.fresh),
                   "loop": loop_runner(ref, players, args.games),
                   "standings": simulate_runner(ref, players, args.games, ["--standings"], args.fresh)}
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
