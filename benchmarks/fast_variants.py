#!/usr/bin/env python3
"""Hand-edited versions of the fast twin's functions, timed against the generated ones.

    python benchmarks/fast_variants.py [--players 4] [--rounds 7] [--games 1500] [VARIANT.py ...]

Before teaching the compiler a change to the fast path, write the code it would generate by hand:
each file of benchmarks/variants/ (by default all of them) holds functions of
`rulecraft show blackmore --python --fast` edited so (B27, the body of the first choice, in which a
whole playout runs; D13, winning_card; R7, end_of_round). Each is put in place of the generated
function of the same name in the fast twin (its globals: the same constants and helpers), checked
to play the same 200 games as the generated code (the same options offered and taken, the same
final state), then timed in CPU µs a game: engine.playout with yardsticks.py's random chooser,
every variant and the generated code in turns, `--rounds` times; medians and their ratio to the
generated code are printed. A variant whose function is no longer in the twin (the compiler's
numbering moved on) or that plays other games is reported and left out: the files are tied to
today's generated code, and say so. (The structured B27 does not stop where a chooser returns
None: playouts cut short are not what it measures.)
"""
from __future__ import annotations

import argparse
import glob
import os
import random
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_variant(path: str, env: dict) -> dict:
    """The functions a variant file defines, compiled with the fast twin's globals."""
    scope = dict(env)
    exec(compile(open(path, encoding="utf-8").read(), f"<rules variant {os.path.basename(path)}>", "exec"), scope)  # noqa: S102
    return {k: v for k, v in scope.items() if callable(v) and getattr(v, "__code__", None) is not None
            and v.__code__.co_filename.startswith("<rules variant")}


class Twin:
    """The fast twin of a program, whose functions can be swapped by name (choice bodies and globals)."""

    def __init__(self, program):
        self.fast = program.fast()
        self.env = self.fast.choices[0].body.__globals__
        self.generated = {name: f for name, f in self.env.items() if callable(f) and name[:1] in "BDRWFE"}

    def use(self, funcs: dict) -> None:
        funcs = {**self.generated, **funcs}
        for c in self.fast.choices:
            if c.body is not None:
                c.body = funcs.get(c.body.__name__, c.body)
        self.env.update(funcs)


def games(program, players: int, n: int) -> list:
    from rulecraft.engine.machine import new_game
    from rulecraft.engine.playout import playout
    out = []
    rng = random.Random(7)
    for seed in range(n):
        seen = []

        def choose(_m, who, ids):
            a = ids[rng.randrange(len(ids))]
            seen.append((who, ids, a))
            return a
        m = new_game(program, players, None, seed)
        playout(m, choose)
        out.append((seen, m.result, m.rng, m.decisions, [list(z) for z in m.zones], list(m.where), list(m.vars)))
    return out


def timed(program, players: int, n: int) -> float:
    from rulecraft.engine.machine import new_game
    from rulecraft.engine.playout import playout
    rng = random.Random(12345)
    getrandbits, randrange = rng.getrandbits, rng.randrange

    def choose(_m, _who, ids):
        return ids[randrange(len(ids))]
    start = time.process_time()
    for _ in range(n):
        playout(new_game(program, players, None, getrandbits(63)), choose)
    return (time.process_time() - start) / n * 1e6


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*", help="variant files (default: benchmarks/variants/blackmore_*.py)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--games", type=int, default=1500, help="games a timing")
    args = ap.parse_args(argv)
    from rulecraft.loader import load
    program = load("blackmore")
    twin = Twin(program)
    reference = games(program, args.players, 200)
    ways = {"generated": {}}
    for path in args.variants or sorted(glob.glob(os.path.join(HERE, "variants", "blackmore_*.py"))):
        name = os.path.basename(path)[:-3]
        funcs = load_variant(path, twin.env)
        missing = sorted(set(funcs) - set(twin.generated))
        if missing:
            print(f"{name}: left out, the twin has no {', '.join(missing)} (the generated code moved on)")
            continue
        twin.use(funcs)
        same = games(program, args.players, 200) == reference
        twin.use({})
        if not same:
            print(f"{name}: left out, it plays other games than the generated code")
            continue
        ways[name] = funcs
    times = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, funcs in ways.items():
            twin.use(funcs)
            times[name].append(timed(program, args.players, args.games))
    twin.use({})
    base = statistics.median(times["generated"])
    print(f"Blackmore {args.players}p, random playouts (engine.playout), CPU µs a game, medians of {args.rounds} "
          f"rounds of {args.games} games in turns; each variant plays the generated code's games")
    for name, t in times.items():
        print(f"  {name:34} {statistics.median(t):7.1f} µs   {statistics.median(t) / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
