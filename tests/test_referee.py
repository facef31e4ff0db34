"""An independent referee of The Witches of Blackmore, reading a transcript's YAML alone.

Written from the rulebook, not from games/blackmore.rules, and importing nothing of rulecraft:
it takes the deck's order from the recorded shuffle, deals, turns the trump, takes the First
Player from the recorded draw, then checks that every recorded decision is legal — the right
player, a card from their hand, a trump change among the contest's cards — and plays it, and
finally scores the game. Its scores and winners must be the transcript's result. This is what
recording chance in transcripts is for: the YAML alone is enough to referee a game.
"""
from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from rulecraft.cli.main import main

COLOURS = ("Yellow", "Blue", "Red", "Green", "Purple", "Black")


class Illegal(Exception):
    pass


def card(name: str) -> tuple[str, int]:
    colour, number = name.rsplit(" ", 1)
    assert colour in COLOURS and 1 <= int(number) <= 9, name
    return colour, int(number)


def strength(c, trump, ascending: bool) -> int:
    """The Witches' Wheel: the trump's number ranks highest, then downwards (or upwards) around the wheel."""
    return 9 - ((c[1] - trump[1]) % 9 if ascending else (trump[1] - c[1]) % 9)


def referee(data: dict) -> dict:
    """Play the recorded game by the rulebook; raise Illegal at the first decision it does not allow."""
    n = data["players"]
    names = data["names"]
    options = data["options"]
    ascending = options["wheel"] == "ascending"
    hand_size = int(options["hand_size"])
    chance = data["chance"]
    shuffles = [c for c in chance if "shuffle" in c]
    draws = [c for c in chance if "random" in c]
    assert len(shuffles) == 1 and shuffles[0]["shuffle"] == "deck" and shuffles[0]["after"] == 0
    assert len(draws) == 1 and draws[0]["of"] == n and draws[0]["after"] == 0
    deck = [card(x) for x in shuffles[0]["order"]]             # bottom first: the top card is the last
    assert sorted(deck) == sorted((c, k) for c in COLOURS for k in range(1, 10))
    hands = [[] for _ in range(n)]
    won = [[] for _ in range(n)]
    for p in range(n):                                         # deal one player's cards at a time
        for _ in range(hand_size):
            if deck:
                hands[p].append(deck.pop())
    trump_stack = [deck.pop()]
    first = names.index(draws[0]["random"])
    assert draws[0]["position"] == first + 1
    decisions = iter(data["decisions"])
    final_stage = False

    def take(player: int) -> str:
        d = next(decisions, None)
        if d is None:
            raise Illegal("the transcript stops before the game ends")
        if d["player"] != player + 1:
            raise Illegal(f"{d['label']!r} is by player {d['player']}, but it is player {player + 1}'s turn")
        return d["label"]

    while any(hands):
        order = [p for p in ((first + i) % n for i in range(n)) if hands[p]]
        table = []
        for p in order:
            label = take(p)
            if not label.startswith("play "):
                raise Illegal(f"{label!r}: a card must be played")
            c = card(label[len("play "):])
            if c not in hands[p]:
                raise Illegal(f"{label!r}: player {p + 1} does not hold it")
            hands[p].remove(c)
            table.append((p, c))
        trump = trump_stack[-1]
        lead = table[0][1][0]
        trumps = [pc for pc in table if pc[1][0] == trump[0]]
        candidates = trumps or [pc for pc in table if pc[1][0] == lead]
        winner, _best = max(candidates, key=lambda pc: strength(pc[1], trump, ascending))
        label = take(winner)
        played = [c for _p, c in table]
        if label == f"keep the trump {trump[0]} {trump[1]}":
            pass
        elif label.startswith("put ") and label.endswith(" on the trump stack"):
            c = card(label[len("put "):-len(" on the trump stack")])
            if c not in played:
                raise Illegal(f"{label!r}: only a card of this contest can become the trump")
            played.remove(c)
            trump_stack.append(c)
        else:
            raise Illegal(f"{label!r}: the winner keeps the trump or puts a contest card on it")
        won[winner].extend(played)
        first = winner
        if final_stage:
            continue
        clockwise = [(winner + i) % n for i in range(n)]
        for p in clockwise:
            while len(hands[p]) < hand_size and deck:
                hands[p].append(deck.pop())
        if not deck:
            final_stage = True
            while len(trump_stack) > 1 and any(len(h) < hand_size for h in hands):
                for p in clockwise:
                    if len(hands[p]) < hand_size and len(trump_stack) > 1:
                        hands[p].append(trump_stack.pop())
    if next(decisions, None) is not None:
        raise Illegal("the transcript goes on after the game has ended")
    scores = [sum(k for _c, k in w) for w in won]
    best = max(scores)
    return {"scores": {names[p]: scores[p] for p in range(n)}, "winners": [names[p] for p in range(n) if scores[p] == best]}


def transcript(tmp_path, seed, players, *settings):
    log = tmp_path / f"game-{seed}-{players}.yaml"
    argv = ["run", "blackmore", "--seed", str(seed), "--players", str(players), "--log", str(log), "-q"]
    for s in settings:
        argv += ["--set", s]
    assert main(argv) == 0
    return YAML(typ="safe").load(log.read_text())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("settings", [(), ("wheel=ascending",), ("hand_size=3",), ("wheel=ascending", "hand_size=8")],
                         ids=["default", "ascending", "hands-of-3", "ascending-hands-of-8"])
def test_the_referee_agrees_with_every_recorded_game(tmp_path, capsys, players, settings):
    for seed in range(3):
        data = transcript(tmp_path, seed, players, *settings)
        assert referee(data) == data["result"]
    capsys.readouterr()


def test_the_referee_catches_a_decision_the_rules_do_not_allow(tmp_path, capsys):
    data = transcript(tmp_path, 1, 3)
    first = data["decisions"][0]
    someone_else = next(d for d in data["decisions"] if d["player"] != first["player"] and d["label"].startswith("play "))
    first["label"] = someone_else["label"]            # a card from another player's hand
    with pytest.raises(Illegal, match="does not hold it"):
        referee(data)
    capsys.readouterr()
