#!/usr/bin/env python3
"""Weird Sisters: who wins random games, and who completes the brews.

    python benchmarks/weird_sisters_balance.py [--games 400] [--first-seed 1000] [--game weird-sisters]

Uniformly random players, game k with seed first-seed + k (its agent seeded alike). Printed:
win rates of Heath and of the starting team, how often the team that completed the first brew
wins, brews per game, which witch (First, Second, Third) completed them, and decisions per game.
The figures in docs/games/weird-sisters.md ("Measured in the engine") come from this script.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from collections import Counter

from rulecraft.engine import machine, observe
from rulecraft.loader import load

COMPLETES = re.compile(r"^(First|Second|Third) Witch of (\w+) completes ")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--game", default="weird-sisters")
    args = ap.parse_args(argv)
    program = load(args.game)
    starter_slot = next(v.slot for v in program.vars if v.name == "starter")
    teams = list(program.teams)
    heath = starter = first_brewer = brews = 0
    by_witch = Counter()
    lengths = []
    for k in range(args.games):
        seed = args.first_seed + k
        sink = []
        m = machine.new_game(program, 6, None, seed, sink=sink)
        started = m.vars[starter_slot]
        rnd = random.Random(seed)
        while m.result is None:
            ids = machine.legal_ids(m)
            machine.decide(m, ids[rnd.randrange(len(ids))])
        lengths.append(m.decisions)
        winner = m.result[2][0] % 2
        heath += winner == 0
        starter += winner == started
        done = [COMPLETES.match(line) for line in observe.narration(sink, None)]
        done = [d for d in done if d]
        brews += len(done)
        by_witch.update(d[1] for d in done)
        first_brewer += bool(done) and teams.index(done[0][2]) == winner
    n = args.games
    print(f"{args.game}: {n} random games, seeds {args.first_seed}–{args.first_seed + n - 1}")
    print(f"  {teams[0]} wins {heath / n:.1%}; the starting team wins {starter / n:.1%}; "
          f"the team that completed the first brew wins {first_brewer / n:.1%}")
    print(f"  brews per game {brews / n:.1f}; completed by the First / Second / Third Witch "
          + " / ".join(f"{by_witch[w] / brews:.0%}" for w in ("First", "Second", "Third")))
    print(f"  decisions per game: median {statistics.median(lengths):.0f}, longest {max(lengths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
