#!/usr/bin/env python3
"""ISMCTS's CPU time a decision, its rollouts on the fast path (engine.playout) and decision by decision.

    python benchmarks/search_rollouts.py [--game blackmore --players 2] [--iterations 100] [--decisions 40] [--pairs 3]

One process, one game's first `--decisions` decisions (seat 0 searching, its choice taken for every
seat in turn), searched by SearchAgent with each iteration's game played on the fast path
(playout) and on the resumable path, a loop over machine.decide (decide); the two alternated
`--pairs` times, each in CPU time.
Both must choose the same options (the same agent seed): the fast path changes no game.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blackmore")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--pairs", type=int, default=3)
    args = ap.parse_args(argv)
    from rulecraft.agents import search
    from rulecraft.agents.search import SearchAgent
    from rulecraft.agents.seat import Seat
    from rulecraft.engine import machine
    from rulecraft.engine.playout import playout, reference_playout
    from rulecraft.engine.session import Session
    from rulecraft.loader import load

    program = load(args.game)
    program.fast()

    def run(rollout):
        search.playout = rollout            # each iteration's game played on by this path
        agent = SearchAgent(seed=7, iterations=args.iterations)
        session = Session.start(program, args.game, args.players, seed=3)
        chosen, spent, asked = [], 0.0, 0
        while not session.over and asked < args.decisions:
            seat = Seat(session, machine.chooser(session.state))
            t = time.process_time()
            a = agent.choose(seat)
            spent += time.process_time() - t
            asked += 1
            chosen.append(a)
            session.take(a)
        return spent / asked, chosen

    times = {"playout": [], "decide": []}
    picks = {}
    for _ in range(args.pairs):
        for name, rollout in (("playout", playout), ("decide", reference_playout)):
            t, picks[name] = run(rollout)
            times[name].append(t)
    same = picks["playout"] == picks["decide"]
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{args.game} {args.players}p, ismcts:iterations={args.iterations}, {args.decisions} decisions, "
          f"CPU ms a decision (median of {args.pairs}): rollouts on playout {med['playout'] * 1e3:.2f}, "
          f"on decide {med['decide'] * 1e3:.2f} ({med['decide'] / med['playout']:.2f}x); same choices: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
