"""The Witches of Blackmore in plain Python, written as a person would: the yardstick.

One `random.Random` deals the cards and makes every decision (a random player); lists for
the deck, the hands and the trump stack; the contest's winner found by a loop. Nothing from
rulecraft. The rules are games/blackmore.rules' (the rulebook with its completions); the
cards are (colour, number) pairs, the top of a pile is the end of its list.
"""
from __future__ import annotations

import random


def play(players: int, rng: random.Random, descending: bool = True, hand_size: int = 6):
    """One game with random decisions: returns (scores, winners, decisions); winners 0-based."""
    deck = [(colour, number) for colour in range(6) for number in range(1, 10)]
    rng.shuffle(deck)
    hands = [[] for _ in range(players)]
    for hand in hands:
        for _ in range(hand_size):
            if deck:
                hand.append(deck.pop())
    trumps = [deck.pop()]
    first = rng.randrange(players)
    scores = [0] * players
    final_stage = False
    decisions = 0
    while True:
        order = [(first + i) % players for i in range(players)]
        order = [p for p in order if hands[p]]
        if not order:
            break
        table = []
        for p in order:
            hand = hands[p]
            table.append(hand.pop(rng.randrange(len(hand))))
        decisions += len(order)
        # the highest trump wins; if nobody played one, the highest card of the lead colour
        trump_colour, trump_number = trumps[-1]
        lead = table[0][0]
        best = -1
        winner = 0
        for i, (colour, number) in enumerate(table):
            if colour != trump_colour and colour != lead:
                continue
            if descending:
                strength = 9 - (trump_number - number) % 9
            else:
                strength = 9 - (number - trump_number) % 9
            if colour == trump_colour:
                strength += 10
            if strength > best:
                best = strength
                winner = order[i]
        # the winner may put one card of the contest on the trump stack, or keep the trump
        k = rng.randrange(len(table) + 1)
        decisions += 1
        if k < len(table):
            trumps.append(table.pop(k))
        for colour, number in table:
            scores[winner] += number
        first = winner
        if final_stage:
            continue
        clockwise = [(winner + i) % players for i in range(players)]
        for p in clockwise:
            hand = hands[p]
            while len(hand) < hand_size and deck:
                hand.append(deck.pop())
        if not deck:
            final_stage = True
            while len(trumps) > 1 and any(len(hand) < hand_size for hand in hands):
                for p in clockwise:
                    if len(hands[p]) < hand_size and len(trumps) > 1:
                        hands[p].append(trumps.pop())
    top = max(scores)
    winners = tuple(p for p in range(players) if scores[p] == top)
    return tuple(scores), winners, decisions
