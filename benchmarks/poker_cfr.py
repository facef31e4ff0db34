"""Kuhn and Leduc poker written in rules, solved with CFR through the OpenSpiel adapter.

    python benchmarks/poker_cfr.py [ITERATIONS]       # default 2000

For each game and each way of dealing (`deal=shuffle`, `deal=draw`) it walks the game tree through
`rulecraft.rl.openspiel`, counts each player's information states (strings and tensors: OpenSpiel's
own `kuhn_poker` and `leduc_poker` have 6 and 468 per player), then runs vanilla CFR on the tree
and prints player 1's value of the average strategy (Kuhn: -1/18 = -0.0556; Leduc: about -0.0856).
The tree is walked once and kept as plain tuples, so CFR runs at Python speed, not the adapter's.
tests/test_perfect_recall.py runs the same functions with fewer iterations.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def tree(state, counts=None):
    """The game tree below `state` as tuples: ("chance", [(p, child)]), ("end", returns) or
    (player, information state string, [(action, child)]). `counts`, if given, is a pair of
    (strings, tensors) sets per player that the walk fills."""
    if state.is_terminal():
        return ("end", tuple(state.returns()))
    if state.is_chance_node():
        return ("chance", [(p, tree(state.child(a), counts)) for a, p in state.chance_outcomes()])
    p = state.current_player()
    key = state.information_state_string(p)
    if counts is not None:
        counts[p][0].add(key)
        counts[p][1].add(tuple(state.information_state_tensor(p)))
    return (p, key, [(a, tree(state.child(a), counts)) for a in state.legal_actions()])


def cfr(root, iterations: int, players: int = 2) -> float:
    """Vanilla CFR with alternating updates; player 0's expected value under the average strategy."""
    regrets, totals = {}, {}

    def strategy(key, n):
        r = regrets.get(key)
        if r is None:
            return [1.0 / n] * n
        pos = [max(x, 0.0) for x in r]
        s = sum(pos)
        return [x / s for x in pos] if s > 0 else [1.0 / n] * n

    def walk(node, i, reach_i, reach_other):
        kind = node[0]
        if kind == "end":
            return node[1][i]
        if kind == "chance":
            return sum(p * walk(child, i, reach_i, reach_other * p) for p, child in node[1])
        p, key, moves = node
        sigma = strategy(key, len(moves))
        if p != i:
            return sum(s * walk(child, i, reach_i, reach_other * s) for s, (_a, child) in zip(sigma, moves))
        values = [walk(child, i, reach_i * s, reach_other) for s, (_a, child) in zip(sigma, moves)]
        v = sum(s * x for s, x in zip(sigma, values))
        r = regrets.setdefault(key, [0.0] * len(moves))
        t = totals.setdefault(key, [0.0] * len(moves))
        for k, x in enumerate(values):
            r[k] += reach_other * (x - v)
            t[k] += reach_i * sigma[k]
        return v

    for _ in range(iterations):
        for i in range(players):
            walk(root, i, 1.0, 1.0)

    def average(node):
        kind = node[0]
        if kind == "end":
            return node[1][0]
        if kind == "chance":
            return sum(p * average(child) for p, child in node[1])
        _p, key, moves = node
        t = totals.get(key)
        s = sum(t) if t else 0.0
        sigma = [x / s for x in t] if s > 0 else [1.0 / len(moves)] * len(moves)
        return sum(q * average(child) for q, (_a, child) in zip(sigma, moves))
    return average(root)


def rules_game(name: str, deal: str):
    from rulecraft.rl import openspiel as rcos
    return rcos.load_game(str(EXAMPLES / f"{name}.rules"), options={"deal": deal}, reward="score")


def main(iterations: int) -> None:
    import pyspiel
    for name, native in (("kuhn-poker", "kuhn_poker"), ("leduc-poker", "leduc_poker")):
        for deal in ("draw", "shuffle"):
            start = time.process_time()
            counts = [(set(), set()), (set(), set())]
            root = tree(rules_game(name, deal).new_initial_state(), counts)
            walked = time.process_time() - start
            start = time.process_time()
            value = cfr(root, iterations)
            print(f"{name} deal={deal}: information states per player "
                  f"{[len(c[0]) for c in counts]} (tensors {[len(c[1]) for c in counts]}); tree walked in "
                  f"{walked:.1f} s CPU; CFR x{iterations}: player 1's value {value:.5f} "
                  f"({time.process_time() - start:.1f} s CPU)", flush=True)
        value = cfr(tree(pyspiel.load_game(native).new_initial_state()), iterations)
        print(f"OpenSpiel's {native}: CFR x{iterations}: player 1's value {value:.5f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
