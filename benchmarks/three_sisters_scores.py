#!/usr/bin/env python3
"""Three Sisters: mean scores by category, for random players and for a one-step greedy player.

    python benchmarks/three_sisters_scores.py [--game three-sisters] [--games 50] [--greedy-games 12] [--players 3]

`--game` is any game of the family (three-sisters, three-sisters-solo, three-sisters-weather,
three-sisters-solo-weather). The calibration table of docs/games/three-sisters.md §10 comes
from this script, with the commands listed there.

The random player picks uniformly among the legal options. The greedy player
tries every legal option on a copy of the state, runs it to the next decision,
and keeps the one with the best value for itself:

    score now + 0.75 per corn box, 0.5 per other crop box + 0.8 per sheet box + 0.2 per good + 0.3 per compost

(a crude measure of progress read from the state's tables; ties broken at random).
Categories are read from the game's own final tally (`say` in `rule final_tally`).
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import sys

from rulecraft.engine import machine, observe
from rulecraft.loader import load

TALLY = re.compile(r"^(.+): garden (\d+), perennials (\d+), apiary (\d+), fruit (\d+), shed (\d+) = (\d+) \((\d+) goods\)")
CATEGORIES = ["garden", "perennials", "apiary", "fruit", "shed", "total", "goods"]


def slots(program):
    s = {v.name: v.slot for v in program.vars}
    crops = [program.card_names[i] for i, t in enumerate(program.card_types) if t == "Crop"]
    # a crop box is worth its share of the crop's points (corn 3 over 4 boxes, bean 1 over 2); pumpkins 0.5
    s["crop_weights"] = [0.75 if n.startswith("corn") else 0.5 for n in crops]
    return s


def value(m, who, s):
    v = m.program.score(m, who)
    v += sum(w * g for w, g in zip(s["crop_weights"], m.vars[s["grown"]][who]))
    v += 0.8 * sum(m.vars[s["filled"]][who])
    v += 0.2 * m.vars[s["goods"]][who]
    v += 0.3 * (m.vars[s["compost_gained"]][who] - m.vars[s["compost_spent"]][who])
    return v


def play(program, n, seed, greedy: bool, rnd: random.Random):
    sink = []
    m = machine.new_game(program, n, None, seed, sink=sink)
    s = slots(program)
    while m.result is None:
        ids = machine.legal_ids(m)
        if not greedy or len(ids) == 1:
            machine.decide(m, ids[rnd.randrange(len(ids))])
            continue
        who = machine.chooser(m)
        best, best_v = [], None
        for i in ids:
            c = m.copy()
            machine.decide(c, i)
            v = value(c, who, s)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = [i], v
            elif abs(v - best_v) <= 1e-9:
                best.append(i)
        machine.decide(m, best[rnd.randrange(len(best))])
    lines = observe.narration(sink, None)
    rows = [TALLY.match(line) for line in lines if TALLY.match(line)]
    return [[int(x) for x in r.groups()[1:]] for r in rows], m.decisions


def report(label, results):
    per_player = [row for game in results for row in game]
    means = [statistics.mean(col) for col in zip(*per_player)]
    lo = min(r[5] for r in per_player)
    hi = max(r[5] for r in per_player)
    cells = ", ".join(f"{name} {mean:.1f}" for name, mean in zip(CATEGORIES, means))
    print(f"{label}: {len(results)} games, {len(per_player)} sheets — {cells} (total {lo}–{hi})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--greedy-games", type=int, default=12)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--game", default="three-sisters")
    args = ap.parse_args(argv)
    program = load(args.game)
    rnd = random.Random(2026)
    # Seeds far apart: the engine's SplitMix64 seeding makes seed k+1's stream that of seed k shifted by one draw.
    if args.games:
        random_results = [play(program, args.players, 1000 * seed, False, rnd)[0] for seed in range(args.games)]
        report(f"{args.game}, random, {args.players} players", random_results)
    if args.greedy_games:
        greedy_results = [play(program, args.players, 1000 * seed, True, rnd)[0] for seed in range(args.greedy_games)]
        report(f"{args.game}, greedy, {args.players} players", greedy_results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
