#!/usr/bin/env python3
"""Python bytecodes executed per game: the interpreter against the hand-written Blackmore.

    python benchmarks/bytecodes.py [--players 4] [--games 100] [--top 15]
    python benchmarks/bytecodes.py --game three-sisters --players 4 --games 10    (any game: the interpreter alone)

Time on a shared machine is noisy; the number of bytecodes a game executes is not: the same
seeds and the same random agent give the same count on every run. It is not time either (a
bytecode adding two big integers in the shuffle costs more than one loading a local), so the
speed figures stay those of handwritten_blackmore.py; this script says *where* the interpreter
does more work than the hand-written game, function by function (generated rule functions are
named by their rule; `<listcomp>` are comprehensions, wherever they are).

Both sides play games 1..N with the agents of handwritten_blackmore.py (`sys.settrace` with
opcode events counts every bytecode of every Python function; C code is not counted).
"""
from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import interpreter_player  # noqa: E402
import handwritten_blackmore  # noqa: E402


def count(play_one, games: int) -> collections.Counter:
    """Bytecodes executed by `play_one(seed)` for seeds 1..games, by function name."""
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, _arg):
        if event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        elif event == "opcode":
            code = frame.f_code
            name = code.co_name
            if code.co_filename.startswith("<rules"):      # "<rules rule contest: W5>" -> "rule contest"
                name = f"{code.co_filename[7:].split(':')[0]} ({name})"
            counts[name] += 1
        return tracer

    play_one(0)                     # warm: nothing first-time is counted
    sys.settrace(tracer)
    try:
        for seed in range(1, games + 1):
            play_one(seed)
    finally:
        sys.settrace(None)
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--top", type=int, default=15, help="functions listed on each side")
    ap.add_argument("--game", default="blackmore",
                    help="a bundled game or a .rules file (default blackmore, against the hand-written one)")
    args = ap.parse_args(argv)

    from rulecraft.loader import load

    per_game = lambda c: sum(c.values()) / args.games  # noqa: E731
    if args.game != "blackmore":
        interp = count(interpreter_player(load(args.game), args.players), args.games)
        print(f"{args.game}, {args.players} players, {args.games} games, random agent: bytecodes per game")
        print(f"  interpreter  {per_game(interp):10,.0f}")
        for name, n in interp.most_common(args.top):
            print(f"  {n / args.games:9,.0f}  {name}")
        return 0
    hand = count(handwritten_blackmore.direct_player(args.players), args.games)
    interp = count(interpreter_player(load("blackmore"), args.players), args.games)
    print(f"Blackmore, {args.players} players, {args.games} games, random agent: bytecodes per game")
    print(f"  hand-written {per_game(hand):10,.0f}")
    print(f"  interpreter  {per_game(interp):10,.0f}   ({per_game(interp) / per_game(hand):.2f}x)")
    for title, c in (("hand-written", hand), ("interpreter", interp)):
        print(f"\n{title}, by function (per game):")
        for name, n in c.most_common(args.top):
            print(f"  {n / args.games:9,.0f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
