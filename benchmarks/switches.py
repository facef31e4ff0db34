#!/usr/bin/env python3
"""One compiler switch measured: a game compiled with it off and on, played alternately in one process.

    python benchmarks/switches.py --switch entries --game three-sisters --players 4
    python benchmarks/switches.py --switch loops --game blackmore --players 6 --rounds 5
    python benchmarks/switches.py --switch inline --fast        # random playouts on the fast path

Each optimisation the compiler may leave out is a field of compile.options.CompileOptions
(inline, bodies, entries, loops, truth_tables, …), which the tests also turn off to check that
the games play the same. Timing two whole processes on a shared machine mixes the switch
with everything else that changed between them; here both programs live in one process and are
played in turn, several rounds, each figure in this process's CPU time (fastest slice of each
measurement, as the other benchmarks do). First it checks that both play the same games (the
decisions of 30 seeded random games). It also prints the generated code's size both ways.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import fmt_rate, interpreter_player, machine_line, measure, pin_to_one_core  # noqa: E402


def compiled(game: str, name: str, value):
    """The game compiled with the option `name` set to `value` (no code cache, so it is compiled here)."""
    from rulecraft.compile import codegen
    from rulecraft.compile.options import DEFAULT
    from rulecraft.loader import load

    lines = []
    define = codegen.Namespace.define

    def counting(self, fname, head, body, label, span=None):
        lines.append(len(body) + 1)
        return define(self, fname, head, body, label, span)

    codegen.Namespace.define = counting
    try:
        return load(game, options=DEFAULT.with_(**{name: value})), len(lines), sum(lines)
    finally:
        codegen.Namespace.define = define


def fast_player(program, players: int, agent_seed: int = 12345):
    """`play_one(seed)` on the fast path: engine.playout with a random choice."""
    import random

    from rulecraft.engine import machine
    from rulecraft.engine.playout import playout

    program.fast()
    randrange = random.Random(agent_seed).randrange

    def choose(m, who, ids):
        return ids[randrange(len(ids))]

    def play_one(seed: int) -> int:
        m = machine.new_game(program, players, None, seed)
        playout(m, choose)
        return m.decisions
    return play_one


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--switch", required=True, help="a field of rulecraft.compile.options.CompileOptions, e.g. entries")
    ap.add_argument("--fast", action="store_true", help="time random playouts on the fast path (engine.playout)")
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3, help="measurements of each, alternately (default 3)")
    ap.add_argument("--seconds", type=float, default=1.0, help="each measurement (default 1)")
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(argv)

    os.environ["RULECRAFT_NO_CACHE"] = "1"
    from rulecraft.compile.options import SWITCHES
    attr = args.switch
    if attr not in SWITCHES:
        print(f"the compiler has no switch {attr} (its switches: {', '.join(SWITCHES)})")
        return 2
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    programs = {v: compiled(args.game, attr, v) for v in (False, True)}
    player = fast_player if args.fast else interpreter_player
    players = {v: player(p, args.players) for v, (p, _f, _l) in programs.items()}
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
