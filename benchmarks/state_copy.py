#!/usr/bin/env python3
"""How long a copy of a game in progress takes, for every bundled game.

    python benchmarks/state_copy.py [--decisions 20] [--copies 20000] [--rounds 5]

Search agents (MCTS, determinisation) copy the state at every step, so a copy must
stay cheap (issue 8: under 5 µs for Blackmore). Each game is played by a random
agent for `--decisions` decisions from seed 3 (the state then holds a rule waiting
mid-way, with its frame), and `State.copy()` is timed: the best of `--rounds` runs
of `--copies` copies, in µs per copy.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import machine_line, pin_to_one_core, table  # noqa: E402

PLAYERS = {"blackmore": 4, "three-sisters": 4, "weird-sisters": 6}
FLOOR_US = {"blackmore": 5.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--copies", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(argv)
    from rulecraft.check.modules import bundled_games
    from rulecraft.engine import machine
    from rulecraft.loader import load
    print(f"{machine_line()}; {pin_to_one_core(args.cpu)}")
    rows = []
    for name in sorted(bundled_games()):
        program = load(name)
        players = max(program.min_players, min(PLAYERS.get(name, 2), program.max_players))
        m = machine.new_game(program, players, None, 3)
        rng = random.Random(0)
        for _ in range(args.decisions):
            if m.result is not None:
                break
            ids = machine.legal_ids(m)
            machine.decide(m, ids[rng.randrange(len(ids))])
        best = min(timeit.repeat(m.copy, number=args.copies, repeat=args.rounds)) / args.copies
        cpu = min(timeit.repeat(m.copy, number=args.copies, repeat=args.rounds, timer=time.process_time)) / args.copies
        floor = FLOOR_US.get(name)
        verdict = "" if floor is None else f"{floor:g} ({'under' if best * 1e6 < floor else 'OVER'})"
        rows.append((name, str(players), f"{best * 1e6:.2f}", f"{cpu * 1e6:.2f}", str(len(m.stack)), verdict))
    print(table(rows, ["game", "players", "µs/copy", "CPU µs/copy", "frames", "floor µs"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
