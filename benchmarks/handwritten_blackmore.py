#!/usr/bin/env python3
"""The yardstick: The Witches of Blackmore written by hand in plain Python.

    python benchmarks/handwritten_blackmore.py [--seconds 3] [--warmup 1] [--players 2 --players 4] [--verify 200]
                                               [--wheel descending|ascending] [--hand-size 6]

The same rules as games/blackmore.rules, with the same options (the wheel's side,
the hand size; by default descending and 6), the same chance (the engine's seed
mixing, then SplitMix64 on one integer, Fisher–Yates, the same card order) and decisions of the same shape: a random agent picks among the same
options, in the same order (a hand's cards in the order they were drawn; for the
trump change, the contest's cards in play order, then "keep").

Two versions, both timed:
  * direct     -- the game is one function; decisions are a callback. The yardstick.
  * resumable  -- the same code as a generator that yields each decision, so a
                  caller can stop and resume between decisions as the engine API
                  allows (new_game / legal_ids / decide).

The game itself (the chance, the cards, play_direct, play_resumable) imports nothing
from rulecraft; only the drivers at the end use the engine.

`--verify N` plays N seeds through the interpreter and through the hand-written
game with the same agent and checks they give the same scores, winners and
numbers of decisions; on a mismatch it says which and stops before timing (exit 1).
tests/test_benchmarks.py runs the same check in the test suite.
The interpreter's figure is printed beside, with the ratio (the aim: the
interpreter at half the hand-written speed or better).
"""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import add_common_args, fmt_rate, interpreter_player, machine_line, measure, pin_to_one_core, table  # noqa: E402

# ------------------------------------------------------------------ chance
# The engine's chance, copied (not imported) from interpreter/runtime/rng.py: the seed is
# mixed once, then SplitMix64 on one integer; `below` and Fisher-Yates draw as it does.
MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Mix the seed, so that neighbouring seeds start far apart in the sequence."""
    z = (seed * GAMMA + 0x632BE59BD9B4E019) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def shuffle(s: int, items: list) -> int:
    """Fisher–Yates with SplitMix64; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        s = (s + GAMMA) & MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return s


def below(s: int, n: int) -> tuple[int, int]:
    s = (s + GAMMA) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, (z ^ (z >> 31)) % n


# ------------------------------------------------------------------ cards
# A card is an int 0..53: colour = card // 9 (Yellow, Blue, Red, Green, Purple, Black),
# number = card % 9 + 1 -- the order of `[Witch(c, n) for c in Colour for n in 1..9]`.
COLOUR = tuple(c // 9 for c in range(54))
NUMBER = tuple(c % 9 + 1 for c in range(54))


def strength(card: int, trump: int, descending: bool) -> int:
    if descending:
        return 9 - (NUMBER[trump] - NUMBER[card]) % 9
    return 9 - (NUMBER[card] - NUMBER[trump]) % 9


# ------------------------------------------------------------------ the game, direct
def play_direct(n: int, seed: int, choose, descending: bool = True, hand_size: int = 6):
    """Play one game; `choose(player, options) -> index` makes every decision.

    Returns (scores, winners, decisions)."""
    s = seed_state(seed)
    deck = list(range(54))
    s = shuffle(s, deck)
    hands = [[] for _ in range(n)]
    won = [[] for _ in range(n)]
    for p in range(n):                                   # deal(hand_size, deck, p.hand)
        h = hands[p]
        for _ in range(hand_size):
            if deck:
                h.append(deck.pop())
    trump_stack = [deck.pop()]
    s, first = below(s, n)
    final_stage = False
    decisions = 0
    while any(hands):
        # contest
        order = [p for p in [(first + i) % n for i in range(n)] if hands[p]]
        table = []
        for p in order:
            h = hands[p]
            table.append(h.pop(choose(p, h)))
            decisions += 1
        lead = COLOUR[table[0]]
        trump = trump_stack[-1]
        tc = COLOUR[trump]
        trumps = [c for c in table if COLOUR[c] == tc]
        candidates = trumps if trumps else [c for c in table if COLOUR[c] == lead]
        best = max(candidates, key=lambda c: strength(c, trump, descending))
        winner = order[table.index(best)]
        # change the trump: any contest card, or keep
        k = choose(winner, table + [None])
        decisions += 1
        if k < len(table):
            trump_stack.append(table.pop(k))
        won[winner].extend(table)
        first = winner
        # end of round
        if final_stage:
            continue
        clockwise = [(winner + i) % n for i in range(n)]
        for p in clockwise:
            h = hands[p]
            while len(h) < hand_size and deck:
                h.append(deck.pop())
        if not deck:
            final_stage = True
            while len(trump_stack) > 1 and any(len(h) < hand_size for h in hands):
                for p in clockwise:
                    if len(hands[p]) < hand_size and len(trump_stack) > 1:
                        hands[p].append(trump_stack.pop())
    scores = tuple(sum(NUMBER[c] for c in w) for w in won)
    best = max(scores)
    return scores, tuple(p for p in range(n) if scores[p] == best), decisions


# ------------------------------------------------------------------ the game, resumable
def play_resumable(n: int, seed: int, descending: bool = True, hand_size: int = 6):
    """The same game as a generator: yields (player, options), receives an index; returns as play_direct."""
    s = seed_state(seed)
    deck = list(range(54))
    s = shuffle(s, deck)
    hands = [[] for _ in range(n)]
    won = [[] for _ in range(n)]
    for p in range(n):
        h = hands[p]
        for _ in range(hand_size):
            if deck:
                h.append(deck.pop())
    trump_stack = [deck.pop()]
    s, first = below(s, n)
    final_stage = False
    decisions = 0
    while any(hands):
        order = [p for p in [(first + i) % n for i in range(n)] if hands[p]]
        table = []
        for p in order:
            h = hands[p]
            k = yield p, h
            table.append(h.pop(k))
            decisions += 1
        lead = COLOUR[table[0]]
        trump = trump_stack[-1]
        tc = COLOUR[trump]
        trumps = [c for c in table if COLOUR[c] == tc]
        candidates = trumps if trumps else [c for c in table if COLOUR[c] == lead]
        best = max(candidates, key=lambda c: strength(c, trump, descending))
        winner = order[table.index(best)]
        k = yield winner, table + [None]
        decisions += 1
        if k < len(table):
            trump_stack.append(table.pop(k))
        won[winner].extend(table)
        first = winner
        if final_stage:
            continue
        clockwise = [(winner + i) % n for i in range(n)]
        for p in clockwise:
            h = hands[p]
            while len(h) < hand_size and deck:
                h.append(deck.pop())
        if not deck:
            final_stage = True
            while len(trump_stack) > 1 and any(len(h) < hand_size for h in hands):
                for p in clockwise:
                    if len(hands[p]) < hand_size and len(trump_stack) > 1:
                        hands[p].append(trump_stack.pop())
    scores = tuple(sum(NUMBER[c] for c in w) for w in won)
    best = max(scores)
    return scores, tuple(p for p in range(n) if scores[p] == best), decisions


# ------------------------------------------------------------------ drivers
# Everything below drives the game or compares it with the interpreter; only this part uses rulecraft.
WHEELS = ("descending", "ascending")     # the option's stored value is its index in games/blackmore.rules


def engine_options(descending: bool = True, hand_size: int = 6) -> dict:
    """The same options as the engine's stored values (for machine.new_game)."""
    return {"wheel": WHEELS.index("descending" if descending else "ascending"), "hand_size": hand_size}


def direct_player(n: int, agent_seed: int = 12345, descending: bool = True, hand_size: int = 6):
    rng = random.Random(agent_seed)
    randrange = rng.randrange

    def choose(_player, options):
        return randrange(len(options))

    def play_one(seed: int) -> int:
        return play_direct(n, seed, choose, descending, hand_size)[2]

    return play_one


def resumable_player(n: int, agent_seed: int = 12345, descending: bool = True, hand_size: int = 6):
    rng = random.Random(agent_seed)
    randrange = rng.randrange

    def play_one(seed: int) -> int:
        g = play_resumable(n, seed, descending, hand_size)
        _p, options = next(g)
        try:
            while True:
                _p, options = g.send(randrange(len(options)))
        except StopIteration as stop:
            return stop.value[2]

    return play_one


def both_ways(program, n: int, seed: int, descending: bool = True, hand_size: int = 6):
    """One seeded game through the interpreter and by hand, each with a random agent seeded `seed`.

    Returns ((scores, winners, decisions) from the interpreter, the same from the hand-written game)."""
    from rulecraft.engine import machine

    a = random.Random(seed)
    m = machine.new_game(program, n, engine_options(descending, hand_size), seed)
    while m.result is None:
        ids = machine.legal_ids(m)
        machine.decide(m, ids[a.randrange(len(ids))])
    b = random.Random(seed)
    hand = play_direct(n, seed, lambda _p, opts: b.randrange(len(opts)), descending, hand_size)
    return (tuple(m.result[0]), tuple(m.result[2]), m.decisions), hand


def verify(program, n: int, games: int, descending: bool = True, hand_size: int = 6) -> str | None:
    """Same seeds, same agent: the interpreter and the hand-written game must agree exactly.

    Returns None when all `games` seeds agree, else a description of the first mismatch."""
    for seed in range(games):
        interp, hand = both_ways(program, n, seed, descending, hand_size)
        if interp != hand:
            return (f"MISMATCH at {n}p seed {seed}: interpreter {interp[0]} {interp[1]} {interp[2]} decisions, "
                    f"hand-written {hand[0]} {hand[1]} {hand[2]} decisions")
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(ap)
    ap.add_argument("--players", type=int, action="append", help="player counts (default 2 and 4)")
    ap.add_argument("--wheel", choices=WHEELS, default="descending", help="the wheel option (default descending)")
    ap.add_argument("--hand-size", type=int, default=6, help="the hand_size option, 1..8 (default 6)")
    ap.add_argument("--verify", type=int, default=200, metavar="N",
                    help="first check N seeded games agree with the interpreter (0: skip; default 200)")
    args = ap.parse_args(argv)

    from rulecraft.loader import load

    program = load("blackmore")
    counts = args.players or [2, 4]
    descending = args.wheel == "descending"
    opts = dict(descending=descending, hand_size=args.hand_size)
    label = "default options" if (descending, args.hand_size) == (True, 6) else \
        f"wheel={args.wheel}, hand_size={args.hand_size}"
    print(machine_line() + "; " + pin_to_one_core(args.cpu))
    if args.verify:
        for n in counts:
            problem = verify(program, n, args.verify, **opts)
            if problem:
                print("verify " + problem + "\nnot timed: the hand-written game does not play the interpreter's games")
                return 1
            print(f"verify {n}p: {args.verify} seeded games identical (scores, winners, decisions)")
    print(f"{args.seconds:g} s per measurement in {args.rounds} slices (fastest shown) after {args.warmup:g} s warm-up;"
          f" random agent, {label}\n")
    rows = []
    for n in counts:
        hand = measure(direct_player(n, **opts), args.seconds, args.warmup, args.rounds)
        gen = measure(resumable_player(n, **opts), args.seconds, args.warmup, args.rounds)
        interp = measure(interpreter_player(program, n, engine_options(**opts)), args.seconds, args.warmup, args.rounds)
        rows.append([f"blackmore {n}p", fmt_rate(hand["games_per_s"]), fmt_rate(gen["games_per_s"]),
                     fmt_rate(interp["games_per_s"]), f"{interp['games_per_s'] / hand['games_per_s']:.2f}",
                     f"{interp['games_per_s'] / gen['games_per_s']:.2f}",
                     f"{hand['us_per_decision']:.1f} / {interp['us_per_decision']:.1f}",
                     f"{interp['cpu_games_per_s'] / hand['cpu_games_per_s']:.2f}"])
    print(table(rows, ["game", "hand-written games/s", "resumable games/s", "interpreter games/s",
                       "interp/hand", "interp/resumable", "µs/decision hand/interp",
                       "interp/hand (CPU time)"]))
    print("\nratio target: interp/hand >= 0.50")
    return 0


if __name__ == "__main__":
    sys.exit(main())
