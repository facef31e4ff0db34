#!/usr/bin/env python3
"""The engine against plain hand-written Python: CPU-time ratios of random playouts.

    python benchmarks/yardsticks.py [--rounds 5] [--seconds 0.5] [--game blackmore --game tic-tac-toe ...]
    OLD/.venv/bin/python benchmarks/yardsticks.py   # the engine of an older checkout OLD, same yardsticks

For Blackmore 2/4/6 players, Connect Four and tic-tac-toe: games per CPU second of the engine
(a random player choosing by `rng.choice(ids)`, as plain tic-tac-toe and Connect Four choose, through
engine.playout.playout, on the `.rules` file; `loop` is the same with the bare API loop new_game /
legal_ids / decide) and of the plain version (benchmarks/plain/,
written as a person would), measured in turns (plain, playout, loop, plain, ...) for `--rounds`
rounds of about `--seconds` of CPU each. Printed: each rate's median and the medians of the
per-round ratios engine / plain (the aim: >= 0.7). benchmarks/yardsticks_agree.py checks that
each plain version plays the same game.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import machine_line, pin_to_one_core, table  # noqa: E402
from plain import GAMES  # noqa: E402
from yardsticks_agree import load_rules  # noqa: E402


def _has_playout() -> bool:
    """An older checkout (run with its own Python, to compare in the same minutes) has no fast path."""
    try:
        import rulecraft.engine.playout  # noqa: F401
    except ImportError:
        return False
    return True


HAS_PLAYOUT = _has_playout()


def plain_runner(play, players):
    rng = random.Random(12345)

    def run(games: int) -> None:
        for _ in range(games):
            play(players, rng)
    return run


def playout_runner(program, players):
    from rulecraft.engine.machine import new_game
    from rulecraft.engine.playout import playout
    rng = random.Random(12345)
    choice = rng.choice
    getrandbits = rng.getrandbits

    def choose(_m, _who, ids):
        return choice(ids)

    def run(games: int) -> None:
        for _ in range(games):
            playout(new_game(program, players, None, getrandbits(63)), choose)
    return run


def loop_runner(program, players):
    from rulecraft.engine.machine import decide, new_game
    rng = random.Random(12345)
    choice = rng.choice
    getrandbits = rng.getrandbits

    def run(games: int) -> None:
        for _ in range(games):
            m = new_game(program, players, None, getrandbits(63))
            while m.result is None:
                decide(m, choice(m.pending[2]))
    return run


def rate(run, games: int) -> float:
    start = time.process_time()
    run(games)
    return games / (time.process_time() - start)


def measure(runners: dict, rounds: int, seconds: float) -> dict:
    """Rates of each runner, taken in turns; the batch of each sized to about `seconds` of CPU."""
    sizes = {}
    for name, run in runners.items():
        run(3)                                       # warm up (imports, caches)
        sizes[name] = max(1, int(rate(run, 20) * seconds))
    rates = {name: [] for name in runners}
    for _ in range(rounds):
        for name, run in runners.items():
            rates[name].append(rate(run, sizes[name]))
    return rates


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per measurement (default 0.5)")
    ap.add_argument("--game", action="append", choices=sorted(GAMES))
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(argv)
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    print(f"{args.rounds} rounds of plain / playout / loop in turns, about {args.seconds:g} s of CPU each; medians\n")
    rows = []
    for name in args.game or list(GAMES):
        ref, counts, play = GAMES[name]
        program = load_rules(ref)
        for players in counts:
            runners = {"plain": plain_runner(play, players), "loop": loop_runner(program, players)}
            if HAS_PLAYOUT:
                runners["playout"] = playout_runner(program, players)
            rates = measure(runners, args.rounds, args.seconds)
            med = {k: statistics.median(v) for k, v in rates.items()}

            def versus(k):
                if k not in rates:
                    return "-", "-"
                return f"{med[k]:,.0f}", f"{statistics.median(e / p for e, p in zip(rates[k], rates['plain'])):.2f}"
            (playout, ratio), (loop, loop_ratio) = versus("playout"), versus("loop")
            rows.append([f"{name} {players}p", f"{med['plain']:,.0f}", playout, loop, ratio, loop_ratio])
    print()
    print(table(rows, ["game", "plain games/s", "playout games/s", "loop games/s", "playout/plain", "loop/plain"]))
    print("\naim: playout/plain >= 0.7 (CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
