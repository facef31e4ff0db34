#!/usr/bin/env python3
"""A warm `rulecraft run GAME -q` against loading the game alone, in CPU time of fresh processes.

    python benchmarks/cli_load.py [--game blackmore] [--rounds 7]

A: `python -m rulecraft run GAME -q --seed 1` (the game in the cache: one run first warms it).
B: `python -c "from rulecraft.loader import load; load(GAME)"`. Each a fresh process, taken in
turns for `--rounds` rounds; the CPU time is the children's user + system time
(resource.getrusage). Printed: the medians and the median of the per-round ratios A / B (the
aim: <= 1.5), and which of lark, ruamel, rich, attrs and the checker the run imports (none should be).
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys

HEAVY = ("lark", "ruamel", "rich", "attrs", "rulecraft.check.checker", "rulecraft.syntax.parser")


def cpu_of(argv: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    run = [sys.executable, "-m", "rulecraft", "run", args.game, "-q", "--seed", "1"]
    load = [sys.executable, "-c", f"from rulecraft.loader import load; load({args.game!r})"]
    cpu_of(run)                                         # the cache warm
    runs, loads = [], []
    for _ in range(args.rounds):
        runs.append(cpu_of(run))
        loads.append(cpu_of(load))
    ratio = statistics.median(a / b for a, b in zip(runs, loads))
    imported = subprocess.run([sys.executable, "-X", "importtime", *run[1:]], capture_output=True, text=True).stderr
    heavy = sorted({h for h in HEAVY for line in imported.splitlines() if line.rstrip().endswith(" " + h)})
    print(f"{args.game}: run -q {statistics.median(runs):.3f} s CPU, load alone {statistics.median(loads):.3f} s; "
          f"run / load {ratio:.2f} (median of {args.rounds} rounds in turns; aim <= 1.5)")
    print(f"heavy imports in the run: {', '.join(heavy) if heavy else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
