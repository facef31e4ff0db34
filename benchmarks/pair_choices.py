#!/usr/bin/env python3
"""Decisions per CPU second of a game whose moves are pair choices, with their options found from the
`where` (compile.candidates) and with every pair tested, as before; alternated in one process.

    python benchmarks/pair_choices.py [--game examples/checkers.rules] [--games 20] [--rounds 5]

Random play through the engine API (new_game, legal_ids, decide), game k with seed k; both
compiled afresh (no code cache), the second with candidates.plan answering None, so its choices
test every pair of the product (1,024 in checkers) at every decision. Both must play the same games.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time


def compiled(path, naive: bool):
    from rulecraft.check.checkcache import check_game
    from rulecraft.compile import candidates
    from rulecraft.compile.compiler import Compiler
    plan = candidates.plan
    if naive:
        candidates.plan = lambda prog, s: None
    try:
        return Compiler(check_game(path, []).program, [], None).compile()
    finally:
        candidates.plan = plan


def play(program, games: int) -> tuple[float, int, list]:
    from rulecraft.engine import machine
    spent, decisions, ends = 0.0, 0, []
    for k in range(games):
        rng = random.Random(k)
        t = time.process_time()
        m = machine.new_game(program, 2, None, k)
        while m.result is None:
            ids = m.pending[2]
            machine.decide(m, ids[rng.randrange(len(ids))])
        spent += time.process_time() - t
        decisions += m.decisions
        ends.append((m.decisions, m.result))
    return spent, decisions, ends


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="examples/checkers.rules")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    from pathlib import Path
    path = Path(args.game).resolve()
    programs = {"where": compiled(path, False), "every pair": compiled(path, True)}
    rates: dict[str, list[float]] = {name: [] for name in programs}
    ends = {}
    for r in range(args.rounds):
        for name in (programs if r % 2 == 0 else reversed(list(programs))):
            spent, decisions, ends[name] = play(programs[name], args.games)
            rates[name].append(decisions / spent)
    same = ends["where"] == ends["every pair"]
    med = {name: statistics.median(v) for name, v in rates.items()}
    ratio = statistics.median(a / b for a, b in zip(rates["where"], rates["every pair"]))
    print(f"{args.game}: {args.games} random games a round, decisions per CPU second (median of {args.rounds}): "
          f"options from the where {med['where']:,.0f}, every pair tested {med['every pair']:,.0f}: "
          f"{ratio:.1f}x; same games: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
