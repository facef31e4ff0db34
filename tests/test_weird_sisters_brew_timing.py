"""An independent check of "immediately score the brew" (Weird Sisters, issue 12).

The rulebook: "If the ingredients added complete a brew, immediately score the brew and
end your turn." Written from the rulebook and the recipe table of
docs/games/weird-sisters.md (not from the rule file): over random games, whenever a witch
is offered an ingredient to add, her team's cauldron must not already hold a recipe on
offer, and every brew completed by adding is scored by the add that completed it.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from rulecraft.engine import machine
from rulecraft.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
COLOURS = ("Y", "P", "G", "O", "R", "B")
INGREDIENT = {"Mandrake Root": "Y", "Eye of Newt": "P", "Frog's Tongue": "G",
              "Rabbit's Foot": "O", "Wolf's Fang": "R", "Owl's Feather": "B"}     # the rulebook's colours


def recipes_from_the_docs() -> dict[str, Counter]:
    """The 30 recipes, read from the table in docs/games/weird-sisters.md §4."""
    out = {}
    for line in (ROOT / "docs" / "games" / "weird-sisters.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and re.fullmatch(r"\d+", cells[0]):
            out[cells[1]] = Counter({k: int(n) for k, n in zip(COLOURS, cells[2:8]) if n})
    assert len(out) == 30
    return out


RECIPES = recipes_from_the_docs()


def zone(m, name, k=0):
    base = next(z for z in m.program.zones if z.name == name).base
    return [m.program.card_names[c] for c in m.zones[base + k]]


def completed(m, team) -> list[str]:
    held = Counter(INGREDIENT[name] for name in zone(m, "cauldron", team))
    return [b for b in zone(m, "brew_row") if all(held[k] >= n for k, n in RECIPES[b].items())]


def brews(m):
    return [len(zone(m, "brews_won", t)) for t in (0, 1)]


@pytest.mark.parametrize("seed", range(6))
def test_no_witch_adds_after_completing_a_brew(seed):
    program = load_file(ROOT / "games" / "weird-sisters.rules")
    m = machine.new_game(program, 6, seed=seed)
    rnd = random.Random(seed)
    scored_by_adding = 0
    after_adding = False        # an add, and then only rivals declining to answer it (bare passes)
    while m.result is None:
        seat = machine.chooser(m)
        team = seat % 2                           # Heath holds the odd seats, Cavern the even ones
        ids = machine.legal_ids(m)
        labels = [machine.label(m, i) for i in ids]
        adding = [i for i, text in zip(ids, labels) if text.startswith("add ") and text.endswith(" square")]
        if adding:
            assert completed(m, team) == [], (
                f"seed {seed}: seat {seat + 1} may still add though the cauldron holds {completed(m, team)}")
        pick = ids[rnd.randrange(len(ids))]
        before = brews(m)
        bare = machine.only_pass(m)
        machine.decide(m, pick)
        after_adding = pick in adding or (after_adding and bare)
        if after_adding and brews(m) != before:
            scored_by_adding += 1
    assert scored_by_adding >= 1, "no brew was completed by adding: the check saw nothing"
