#!/usr/bin/env python3
"""One compiler switch measured: a game compiled with it off and on, played alternately in one process.

    python benchmarks/switches.py --switch entries --game three-sisters --players 4
    python benchmarks/switches.py --switch loops --game blackmore --players 6 --rounds 5
    python benchmarks/switches.py --switch inline --fast        # random playouts on the fast path
    python benchmarks/switches.py --off tables --game three-sisters --fast   # an analysis that is no switch

Each optimisation the compiler may leave out is a field of compile.options.CompileOptions
(inline, bodies, entries, loops, rows, extremes), which the tests also turn off to check that
the games play the same. An analysis that is no switch (`--off`: OFF below, each one that paid
when it was measured) is turned off by replacing the method that decides it, for this process
only: no second code path in the compiler.

Timing two whole processes on a shared machine mixes the switch
with everything else that changed between them; here both programs live in one process and are
played in turn, several rounds, each figure in this process's CPU time (fastest slice of each
measurement, as the other benchmarks do). First it checks that both play the same games (the
decisions of 30 seeded random games). It also prints the generated code's size both ways.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import fmt_rate, interpreter_player, machine_line, measure, pin_to_one_core  # noqa: E402



def _no_guarded_tables(cells):
    def patched(self, *args):
        made = cells(self, *args)
        return None if made is not None and made[1] is not None else made
    return patched


# analyses that are no switch: (module, class or None, function, its replacement given the original)
OFF = {
    "tables": [("tabulate", "Tabulator", "table", lambda f: lambda self, e, then=None, worth=2: None)],
    "guarded_tables": [("tabulate", "Tabulator", "cells", _no_guarded_tables)],
    "hoisting": [("hoisting", "LoopParts", "movable", lambda f: lambda self, e: False)],
    "distinct": [("analysis", "Analysis", "distinct", lambda f: lambda self, s: False)],
    "known_values": [("comprehensions", "Comprehensions", "known_values", lambda f: lambda self, e: None)],
    "match_tables": [("load_values", "LoadValues", "match_table", lambda f: lambda self, e: None),
                     ("load_values", "LoadValues", "is_table", lambda f: lambda self, e: False)],
    "entry_test": [("statements", "StatementGen", "entry_test", lambda f: lambda self, call: None)],
    "narration_only": [("statements", "StatementGen", "narration_only", lambda f: lambda self, key: False)],
    "size_truth": [("operators", None, "_size_truth", lambda f: lambda e: None)],
    "copied_blocks": [("rules", "RuleGen", "copied", lambda f: lambda self, k, path: False)],
    "block_groups": [("rules", None, "_group_size", lambda f: lambda blocks: 0)],
    "match_lines": [("loops", "LoopGen", "loopable_match", lambda f: lambda self, e: False)],
}


@contextlib.contextmanager
def turned_off(name):
    """Each function that decides analysis `name` replaced, for the time of the block."""
    undo = []
    try:
        for module, cls, attr, replacement in OFF.get(name, ()):
            owner = importlib.import_module("rulecraft.compile." + module)
            owner = getattr(owner, cls) if cls else owner
            undo.append((owner, attr, getattr(owner, attr)))
            setattr(owner, attr, replacement(getattr(owner, attr)))
        yield
    finally:
        for owner, attr, original in reversed(undo):
            setattr(owner, attr, original)


def compiled(game: str, name: str, value, analysis: bool = False, fast: bool = False):
    """The game compiled with the option `name` set to `value` (or, for an `analysis`, the analysis
    made or not), and its fast twin if `fast` (no code cache, so it is compiled here)."""
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
        with turned_off(name if analysis and not value else None):
            program = load(game, options=DEFAULT if analysis else DEFAULT.with_(**{name: value}))
            if fast:
                program.fast()
        return program, len(lines), sum(lines)
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
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--switch", help="a field of rulecraft.compile.options.CompileOptions, e.g. entries")
    which.add_argument("--off", choices=sorted(OFF), help="an analysis that is no switch, turned off by a patch")
    ap.add_argument("--fast", action="store_true", help="time random playouts on the fast path (engine.playout)")
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3, help="measurements of each, alternately (default 3)")
    ap.add_argument("--seconds", type=float, default=1.0, help="each measurement (default 1)")
    ap.add_argument("--cpu", type=int, default=None)
    args = ap.parse_args(argv)

    os.environ["RULECRAFT_NO_CACHE"] = "1"
    from rulecraft.compile.options import SWITCHES
    attr = args.switch or args.off
    if args.switch and attr not in SWITCHES:
        print(f"the compiler has no switch {attr} (its switches: {', '.join(SWITCHES)})")
        return 2
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    programs = {v: compiled(args.game, attr, v, bool(args.off), args.fast) for v in (False, True)}
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
    print(f"{args.game}, {args.players} players, {attr}: games per CPU-second, best of {args.rounds}")
    for v, best in ((False, off), (True, on)):
        _p, functions, lines = programs[v]
        print(f"  {'on ' if v else 'off'}  {fmt_rate(best):>8}   (all: {', '.join(fmt_rate(r) for r in rates[v])}; "
              f"generated code {functions:,} functions, {lines:,} lines)")
    print(f"  on/off {on / off:.3f} (medians: {statistics.median(rates[True]) / statistics.median(rates[False]):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
