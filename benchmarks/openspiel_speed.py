#!/usr/bin/env python3
"""The OpenSpiel adapter against the rulecraft API and against OpenSpiel's own Kuhn poker, in CPU time.

    python benchmarks/openspiel_speed.py [--rounds 5] [--games 40] [--iterations 100] [--afresh]

1. Random play: decisions per CPU second of random games through the adapter (chance nodes
   sampled from chance_outcomes) against the same games' count through rulecraft.api
   (Match.apply), for Blackmore 4p and benchmarks/games/kuhn-poker.rules. Aim: >= 0.5.
2. CFR (open_spiel.python.algorithms.cfr, `--iterations` iterations, the solver built inside the
   timing) on benchmarks/games/kuhn-poker.rules (reward=score) against OpenSpiel's
   python_kuhn_poker; both reach the same NashConv, printed. Aim: <= 3x. The adapter keeps each
   information state it works out by history (rl/openspiel.py `_Known`), so CFR's later iterations
   read them again; `--afresh` turns that off: every iteration then costs what the first does.
Each pair is taken in turns for `--rounds` rounds; printed: medians of the per-round ratios.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
KUHN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "games", "kuhn-poker.rules")


def spiel_play(game, games: int, rng) -> int:
    decisions = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = s.legal_actions()
                s.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions


def api_play(rc, games: int, rng) -> int:
    decisions = 0
    for i in range(games):
        m = rc.new(seed=i)
        while not m.over:
            ids = m.legal_ids()
            m.apply(ids[rng.randrange(len(ids))])
            decisions += 1
    return decisions


def rate(play, *args) -> float:
    start = time.process_time()
    decisions = play(*args)
    return decisions / (time.process_time() - start)


def cfr_time(game, iterations: int):
    from open_spiel.python.algorithms import cfr, exploitability
    start = time.process_time()
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    spent = time.process_time() - start
    return spent, exploitability.nash_conv(game, solver.average_policy())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=40, help="Blackmore games per measurement (Kuhn: 25x as many)")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--afresh", action="store_true", help="work out every information state again (no table)")
    args = ap.parse_args(argv)
    import pyspiel
    from rulecraft import api
    from rulecraft.rl import openspiel as rcos
    from _common import machine_line
    if args.afresh:
        rcos._Known.get = lambda self, key, make: make()
    print(machine_line() + f"; {args.rounds} rounds in turns, medians\n")
    rng = random.Random(1)
    for ref, players, games in (("blackmore", 4, args.games), (KUHN, 2, args.games * 25)):
        game, rc = rcos.load_game(ref, players=players), api.load(ref, players=players)
        spiel_play(game, 2, rng), api_play(rc, 2, rng)
        spiel, plain = [], []
        for _ in range(args.rounds):
            spiel.append(rate(spiel_play, game, games, rng))
            plain.append(rate(api_play, rc, games, rng))
        ratio = statistics.median(a / b for a, b in zip(spiel, plain))
        print(f"random play, {os.path.basename(ref)} {players}p: adapter {statistics.median(spiel):,.0f} decisions/s, "
              f"API {statistics.median(plain):,.0f}; adapter / API {ratio:.2f} (aim >= 0.5)")
    import open_spiel.python.games  # noqa: F401 (registers python_kuhn_poker)
    theirs = pyspiel.load_game("python_kuhn_poker")
    times = []
    for _ in range(args.rounds):        # a new game each round: no information state kept from the last
        a, conv_a = cfr_time(rcos.load_game(KUHN, reward="score"), args.iterations)
        b, conv_b = cfr_time(theirs, args.iterations)
        times.append((a, b))
    ratio = statistics.median(a / b for a, b in times)
    print(f"CFR, {args.iterations} iterations: kuhn-poker.rules {statistics.median(a for a, _ in times):.3f} s CPU "
          f"(NashConv {conv_a:.5f}), python_kuhn_poker {statistics.median(b for _, b in times):.3f} s "
          f"(NashConv {conv_b:.5f}); ratio {ratio:.2f} (aim <= 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
