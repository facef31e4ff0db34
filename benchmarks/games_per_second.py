#!/usr/bin/env python3
"""Random full games per second on one core, for every bundled game.

    python benchmarks/games_per_second.py [--seconds 3] [--warmup 1] [--game NAME ...] [--record-chance]

A random agent drives the engine API directly (no CLI, no narration):

    m = machine.new_game(program, players, None, seed)
    while m.result is None:
        ids = machine.legal_ids(m)
        machine.decide(m, ids[rng.randrange(len(ids))])

Each measurement runs for a fixed wall time after a warm-up; game k uses seed k. With
--record-chance every chance outcome is recorded, as a session does for its transcript (batch
play and `simulate` leave it off); compare the two runs for what recording costs.
The floors from the issues are printed beside the figures, never asserted.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import add_common_args, FLOORS, fmt_rate, interpreter_player, machine_line, measure, pin_to_one_core, table  # noqa: E402

# Player counts per game; games not listed get 1 (when allowed), 2 and 4.
PLAYER_COUNTS = {
    "blackmore": (2, 4),
    "three-sisters": (2, 4),          # one player is three-sisters-solo
    "weird-sisters": (1, 2, 4, 6),
}


def player_counts(name: str, program) -> list[int]:
    wanted = PLAYER_COUNTS.get(name, (1, 2, 4))
    counts = [n for n in wanted if program.min_players <= n <= program.max_players]
    return counts or [program.min_players]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(ap)
    ap.add_argument("--game", action="append", help="only this bundled game (repeatable)")
    ap.add_argument("--players", type=int, action="append", help="only these player counts (repeatable)")
    ap.add_argument("--record-chance", action="store_true", help="record every chance outcome, as sessions do")
    args = ap.parse_args(argv)

    from rulecraft.check.modules import bundled_games
    from rulecraft.loader import load

    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    print(f"{args.seconds:g} s per measurement in {args.rounds} slices (fastest shown) after {args.warmup:g} s warm-up;"
          " random agent, default options\n")
    rows = []
    names = args.game or list(bundled_games())
    for name in names:
        program = load(name)
        counts = args.players or player_counts(name, program)
        for n in counts:
            if not program.min_players <= n <= program.max_players:
                continue
            r = measure(interpreter_player(program, n, record_chance=args.record_chance), args.seconds, args.warmup,
                        args.rounds)
            floor = FLOORS.get((name, n))
            verdict = ""
            if floor is not None:
                verdict = f"{floor:,}  ({'above' if r['games_per_s'] >= floor else 'BELOW'})"
            row = [name, n, fmt_rate(r["games_per_s"]), fmt_rate(r["median_games_per_s"]), fmt_rate(r["cpu_games_per_s"]),
                   fmt_rate(r["decisions_per_s"]),
                   f"{r['us_per_decision']:.1f}", f"{r['decisions'] / r['games']:.1f}", verdict]
            rows.append(row)
    print(table(rows, ["game", "players", "games/s", "(median)", "games/CPU-s", "decisions/s", "µs/decision", "decisions/game", "floor games/s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
