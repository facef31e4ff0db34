#!/usr/bin/env python3
"""Python bytecodes executed per game: the interpreter against the hand-written Blackmore.

    python benchmarks/bytecodes.py [--players 4] [--games 100] [--top 15]
    python benchmarks/bytecodes.py --game three-sisters --players 4 --games 10    (any game: the interpreter alone)
    python benchmarks/bytecodes.py --plain --players 4 [--lines 30]   (yardsticks.py's pair: the fast path, the plain game)
    python benchmarks/bytecodes.py --plain --game connect-four [--lines 30]   (or tic-tac-toe: benchmarks/plain/'s games)

Time on a shared machine is noisy; the number of bytecodes a game executes is not: the same
seeds and the same random agent give the same count on every run. It is not time either (a
bytecode adding two big integers in the shuffle costs more than one loading a local), so the
speed figures stay those of handwritten_blackmore.py; this script says *where* the interpreter
does more work than the hand-written game, function by function (generated rule functions are
named by their rule; `<listcomp>` are comprehensions, wherever they are).

Both sides play games 1..N with the agents of handwritten_blackmore.py (`sys.settrace` with
opcode events counts every bytecode of every Python function; C code is not counted).
With `--plain`, the pair yardsticks.py times instead: random playouts on the fast path
(engine.playout, the chooser of yardsticks.py) against benchmarks/plain/blackmore.py, and with
`--lines N` the N busiest lines of the generated functions (the fast twin's source, `rulecraft
show blackmore --fast`), so a change to the fast path can be judged without a timer.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import interpreter_player  # noqa: E402
import handwritten_blackmore  # noqa: E402


def count(play_one, games: int, lines: collections.Counter | None = None) -> collections.Counter:
    """Bytecodes executed by `play_one(seed)` for seeds 1..games, by function name (and with `lines`,
    by (file name, line) of the generated functions)."""
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
                if lines is not None:
                    lines[(code.co_filename, frame.f_lineno)] += 1
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
    ap.add_argument("--plain", action="store_true",
                    help="the game (blackmore, connect-four, tic-tac-toe) on the fast path (engine.playout) "
                         "against benchmarks/plain/ (yardsticks.py's pair)")
    ap.add_argument("--lines", type=int, default=0, help="with --plain: the busiest lines of the generated code")
    args = ap.parse_args(argv)

    from rulecraft.loader import load

    if args.plain:
        return plain_pair(args)

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


def playout_player(program, players: int, agent_seed: int = 12345):
    """`play_one(seed)` on the fast path: engine.playout with yardsticks.py's random chooser."""
    from rulecraft.engine.machine import new_game
    from rulecraft.engine.playout import playout
    randrange = random.Random(agent_seed).randrange

    def choose(_m, _who, ids):
        return ids[randrange(len(ids))]

    def play_one(seed: int) -> None:
        playout(new_game(program, players, None, seed), choose)
    return play_one


def plain_player(players: int, agent_seed: int = 12345, game: str = "blackmore"):
    """`play_one(seed)` for benchmarks/plain/ (one generator for the deal and the decisions)."""
    from plain import GAMES, blackmore
    play = blackmore.play if game == "blackmore" else GAMES[game][2]     # (Blackmore's as counted before)

    def play_one(seed: int) -> None:
        play(players, random.Random(agent_seed + seed))
    return play_one


def fast_sources(game: str = "blackmore") -> dict:
    """File name of each generated function of the fast twin -> its source (`rulecraft show GAME --fast`)."""
    from rulecraft.loader import generated_python
    sources, name = {}, None
    for line in generated_python(game, fast=True).splitlines():
        if line.startswith("# rules "):
            name = f"<{line[2:]}>"
            sources[name] = []
        elif name is not None and line:
            sources[name].append(line)
    return {k: "\n".join(v) for k, v in sources.items()}


def plain_pair(args) -> int:
    from rulecraft.loader import load
    from plain import GAMES
    if args.game not in GAMES:
        print(f"--plain: one of {', '.join(GAMES)}, not {args.game}")
        return 2
    source = GAMES[args.game][0]
    players = args.players if args.game == "blackmore" else 2
    program = load(source)
    program.fast()
    lines: collections.Counter = collections.Counter()
    plain = count(plain_player(players, game=args.game), args.games)
    fast = count(playout_player(program, players), args.games, lines if args.lines else None)
    total = lambda c: sum(c.values()) / args.games  # noqa: E731
    print(f"{args.game}, {players} players, {args.games} games, random play: bytecodes per game")
    print(f"  plain        {total(plain):10,.0f}")
    print(f"  playout      {total(fast):10,.0f}   ({total(fast) / total(plain):.2f}x)")
    for title, c in (("plain", plain), ("playout (fast path)", fast)):
        print(f"\n{title}, by function (per game):")
        for name, n in c.most_common(args.top):
            print(f"  {n / args.games:9,.0f}  {name}")
    if args.lines:
        sources = fast_sources(source)
        print(f"\nthe {args.lines} busiest lines of the generated code (per game):")
        for (filename, line), n in lines.most_common(args.lines):
            text = sources.get(filename, "").splitlines()
            shown = text[line - 1].strip() if line and 0 < line <= len(text) else f"(line {line}: the game's own, not the twin)"
            print(f"  {n / args.games:7,.0f}  {filename[7:-1]:34} {shown[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
