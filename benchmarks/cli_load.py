#!/usr/bin/env python3
"""A warm `rulecraft run GAME -q` against loading the game alone, in CPU time of fresh processes.

    python benchmarks/cli_load.py [--game blackmore] [--rounds 7] [--base OTHER/.venv/bin/python]

A: `python -m rulecraft run GAME -q --seed 1` (the game in the cache: one run first warms it).
B: `python -c "from rulecraft.loader import load; load(GAME)"`. Each a fresh process, taken in
turns for `--rounds` rounds; the CPU time is the children's user + system time
(resource.getrusage). Printed: the medians and the median of the per-round ratios A / B (the
aim: <= 1.5), and which of lark, ruamel, rich, attrs and the checker the run imports (none should be).
With --base, the same two commands run by another checkout's Python (its venv's, running its code) are
taken in the same rounds, each after this one's, and its figures printed below.
Python's bytecode cache matters: with PYTHONDONTWRITEBYTECODE set, every module is compiled from
source at each start (set PYTHONPYCACHEPREFIX to keep the cache out of the checkouts).
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


def commands(python: str, game: str) -> tuple[list[str], list[str]]:
    run = [python, "-m", "rulecraft", "run", game, "-q", "--seed", "1"]
    load = [python, "-c", f"from rulecraft.loader import load; load({game!r})"]
    return run, load


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--base", metavar="PYTHON", help="also time another checkout's Python, in the same rounds")
    args = ap.parse_args(argv)
    pythons = [sys.executable] + ([args.base] if args.base else [])
    pairs = [commands(python, args.game) for python in pythons]
    for run, _ in pairs:
        cpu_of(run)                                     # the cache warm
    runs, loads = [[] for _ in pairs], [[] for _ in pairs]
    for _ in range(args.rounds):
        for i, (run, load) in enumerate(pairs):
            runs[i].append(cpu_of(run))
            loads[i].append(cpu_of(load))
    for i, python in enumerate(pythons):
        ratio = statistics.median(a / b for a, b in zip(runs[i], loads[i]))
        who = "" if i == 0 else f" (base: {python})"
        print(f"{args.game}: run -q {statistics.median(runs[i]):.3f} s CPU, load alone "
              f"{statistics.median(loads[i]):.3f} s; run / load {ratio:.2f} (median of {args.rounds} rounds "
              f"in turns; aim <= 1.5){who}")
    imported = subprocess.run([sys.executable, "-X", "importtime", *pairs[0][0][1:]],
                              capture_output=True, text=True).stderr
    heavy = sorted({h for h in HEAVY for line in imported.splitlines() if line.rstrip().endswith(" " + h)})
    print(f"heavy imports in the run: {', '.join(heavy) if heavy else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
