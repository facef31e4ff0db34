#!/usr/bin/env python3
"""One compiler switch measured: a game compiled with it off and on, played alternately in one process.

    python benchmarks/switches.py --switch rules.RuleGen.ENTRIES --game three-sisters --players 4
    python benchmarks/switches.py --switch loops.LoopGen.LOOPS --game blackmore --players 6 --rounds 5

The compiler keeps a class attribute for each of its optimisations (RuleGen.BODIES, ENTRIES,
START_FIRST; LoopGen.LOOPS; ExprGen.TRUTH_TABLES, …), which the tests also turn off to check
that the games play the same. Timing two whole processes on a shared machine mixes the switch
with everything else that changed between them; here both programs live in one process and are
played in turn, several rounds, each figure in this process's CPU time (fastest slice of each
measurement, as the other benchmarks do). First it checks that both play the same games (the
decisions of 30 seeded random games). It also prints the generated code's size both ways.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import fmt_rate, interpreter_player, machine_line, measure, pin_to_one_core  # noqa: E402


def compiled(game: str, cls, name: str, value):
    """The game compiled with `cls.name = value` (no code cache, so it is compiled here)."""
    from rulecraft.compile import codegen
    from rulecraft.loader import load

    lines = []
    define = codegen.Namespace.define

    def counting(self, fname, head, body, label, span=None):
        lines.append(len(body) + 1)
        return define(self, fname, head, body, label, span)

    saved = getattr(cls, name)
    setattr(cls, name, value)
    codegen.Namespace.define = counting
    try:
        return load(game), len(lines), sum(lines)
    finally:
        setattr(cls, name, saved)
        codegen.Namespace.define = define


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--switch", required=True, help="module.Class.ATTRIBUTE under rulecraft.compile, e.g. rules.RuleGen.ENTRIES")
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3, help="measurements of each, alternately (default 3)")
    ap.add_argument("--seconds", type=float, default=1.0, help="each measurement (default 1)")
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(argv)

    os.environ["RULECRAFT_NO_CACHE"] = "1"
    module, cls_name, attr = args.switch.rsplit(".", 2)
    cls = getattr(importlib.import_module(f"rulecraft.compile.{module}"), cls_name)
    if not hasattr(cls, attr):
        print(f"{cls_name} has no switch {attr}")
        return 2
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    programs = {v: compiled(args.game, cls, attr, v) for v in (False, True)}
    players = {v: interpreter_player(p, args.players) for v, (p, _f, _l) in programs.items()}
    if [players[False](s) for s in range(30)] != [players[True](s) for s in range(30)]:
        print("the two play different games: not timed")
        return 1
    rates = {False: [], True: []}
    for _ in range(args.rounds):
        for v in (False, True):
            rates[v].append(measure(players[v], args.seconds, 0.2, 3)["cpu_games_per_s"])
    off, on = max(rates[False]), max(rates[True])
    print(f"{args.game}, {args.players} players, {args.switch}: games per CPU-second, best of {args.rounds}")
    for v, best in ((False, off), (True, on)):
        _p, functions, lines = programs[v]
        print(f"  {'on ' if v else 'off'}  {fmt_rate(best):>8}   (all: {', '.join(fmt_rate(r) for r in rates[v])}; "
              f"generated code {functions:,} functions, {lines:,} lines)")
    print(f"  on/off {on / off:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
