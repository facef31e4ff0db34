"""Test-only helpers: find cards and zones by name, arrange positions, play games.

Nothing here is part of rulecraft. These functions reach into a State the way a
scenario author would: put named cards into named zones (keeping `where` in
step with `zones`), set a variable, and restart the rules from a named rule.
"""
from __future__ import annotations

import random
from pathlib import Path

from rulecraft.engine import machine
from rulecraft.engine.session import Session

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------- look-ups
def card_id(program, name: str) -> int:
    """The component id of the card shown as `name` (e.g. "Blue 7")."""
    ids = [i for i, n in enumerate(program.card_names) if n == name]
    if len(ids) != 1:
        raise KeyError(f"{len(ids)} cards are named {name!r}")
    return ids[0]


def card_ids(program, *names: str) -> list[int]:
    return [card_id(program, n) for n in names]


def zone_info(program, zone: str):
    for z in program.zones:
        if z.name == zone:
            return z
    raise KeyError(f"no zone {zone!r}; zones: {[z.name for z in program.zones]}")


def zone_instance(program, zone: str, owner: int | None = None) -> int:
    """The instance index of `zone` (shared) or of `zone` of player `owner`."""
    z = zone_info(program, zone)
    if z.owner is None:
        if owner is not None:
            raise ValueError(f"zone {zone!r} is shared")
        return z.base
    if owner is None:
        raise ValueError(f"zone {zone!r} is per {z.owner}: give an owner")
    if not 0 <= owner < z.count:
        raise ValueError(f"no owner {owner} for zone {zone!r}")
    return z.base + owner


def cards_in(state, zone: str, owner: int | None = None) -> list[str]:
    """Names of the cards in a zone instance, bottom first (the top is last)."""
    p = state.program
    return [p.card_names[c] for c in state.zones[zone_instance(p, zone, owner)]]


def var_slot(program, name: str) -> int:
    for v in program.vars:
        if v.name == name:
            return v.slot
    for o in program.options:
        if o.name == name:
            return o.slot
    raise KeyError(name)


def get_var(state, name: str):
    return state.vars[var_slot(state.program, name)]


def set_var(state, name: str, value) -> None:
    state.vars[var_slot(state.program, name)] = value


# --------------------------------------------------------------- arranging
def move_card(state, card: int, instance: int, bottom: bool = False) -> None:
    """Move one card (by id) to a zone instance, on top unless `bottom`; keeps `where` consistent."""
    old = state.where[card]
    if old >= 0:
        state.zones[old].remove(card)
    if bottom:
        state.zones[instance].insert(0, card)
    else:
        state.zones[instance].append(card)
    state.where[card] = instance


def put(state, names, zone: str, owner: int | None = None) -> None:
    """Put the named cards into a zone, in order: the last one given ends on top."""
    p = state.program
    inst = zone_instance(p, zone, owner)
    for name in names:
        move_card(state, card_id(p, name), inst)


def arrange(state, *, hands=None, trump=None, deck=None, first=None, rest=None):
    """Lay out a Blackmore position.

    `hands` maps seat → card names; `trump` lists the trump stack bottom → top;
    `deck` lists the top of the deck, bottom → top (so the last name is drawn
    first). Every card not named goes under the deck, or, when `rest` lists
    (zone, owner) pairs, is dealt out round-robin among those zone instances in
    order of its number (so piles that share them get equal sums when every
    number is left an even number of times). `first` is the First Player's seat.
    """
    p = state.program
    named = set()
    for names in (hands or {}).values():
        named.update(names)
    named.update(trump or ())
    named.update(deck or ())
    assert all(n in p.card_names for n in named), named - set(p.card_names)
    unnamed = [c for c in range(len(p.card_names)) if p.card_names[c] not in named]
    if rest is None:
        deck_inst = zone_instance(p, "deck")
        for c in unnamed:
            move_card(state, c, deck_inst, bottom=True)
    else:
        targets = [zone_instance(p, z, o) for z, o in rest]
        unnamed.sort(key=lambda c: (card_number(p.card_names[c]), c))
        for k, c in enumerate(unnamed):
            move_card(state, c, targets[k % len(targets)])
    for seat, names in (hands or {}).items():
        put(state, names, "hand", seat)
    if trump is not None:
        put(state, trump, "trump_stack")
    if deck is not None:
        put(state, deck, "deck")
    if first is not None:
        set_var(state, "first_player", first)


def restart(state, rule: str = "play") -> None:
    """Drop where the rules wait and start `rule` (without parameters) afresh on this position."""
    p = state.program
    idx = p.rule_index[rule]
    state.pending = None
    state.result = None
    state.stack[:] = [[idx, 0] + [None] * p.codes[idx].frame_size]
    machine.run(state)


# -------------------------------------------------------------- invariants
def placement_problems(state) -> list[str]:
    """Every card must be in exactly one zone instance and `where` must say which."""
    p = state.program
    problems = []
    seen = {}
    for zi, z in enumerate(state.zones):
        for c in z:
            if c in seen:
                problems.append(f"{p.card_names[c]} is in {p.zone_instance_names[seen[c]]} and {p.zone_instance_names[zi]}")
            seen[c] = zi
            if state.where[c] != zi:
                problems.append(f"{p.card_names[c]} is in {p.zone_instance_names[zi]} but where says {state.where[c]}")
    for c in range(len(p.card_names)):
        if c not in seen and state.where[c] != -1:
            problems.append(f"{p.card_names[c]} is in no zone but where says {state.where[c]}")
    return problems


# ------------------------------------------------------------------- play
def play_random(session: Session, rnd: random.Random, limit: int = 10_000) -> int:
    """Play with uniformly random legal decisions until the end; returns the decisions taken."""
    k = 0
    while not session.over:
        ids = [o.id for o in session.legal()]
        session.take(ids[rnd.randrange(len(ids))])
        k += 1
        if k > limit:
            raise AssertionError(f"no end after {limit} decisions")
    return k


def card_number(name: str) -> int:
    """Blackmore card names are '<Colour> <number>'."""
    return int(name.rsplit(" ", 1)[1])


# ----------------------------------------------------------------- the keyboard
class Keyboard:
    """Scripted answers for input(); then `then` forever (or end of input if None)."""

    def __init__(self, answers, then=None):
        self.answers = list(answers)
        self.then = then
        self.prompts = []

    def __call__(self, prompt=""):
        self.prompts.append(prompt)
        if self.answers:
            return self.answers.pop(0)
        if self.then is None:
            raise EOFError
        return self.then


# ------------------------------------------------------------ stored games (determinism)
GOLDEN_GAMES = ROOT / "tests" / "golden" / "seeded-games.json"


def matches_stored_game(key: str, state, narration: list[str]) -> None:
    """Determinism against a record kept in tests/golden/seeded-games.json, not against a second run
    in the same process (which shares its hash seed, caches and any state leaked between games): the
    game's decisions, result and narration (by its sha256) as they were when the record was written.
    RULECRAFT_UPDATE_GOLDEN=1 rewrites the record (as tests/test_golden.py's); read the diff."""
    import hashlib
    import json
    import os
    scores, ties, winners = state.result
    now = {"rules_sha256": state.program.digest, "decisions": state.decisions,
           "result": [list(scores), list(ties), list(winners)], "narration_lines": len(narration),
           "last_line": narration[-1] if narration else "",
           "narration_sha256": hashlib.sha256("\n".join(narration).encode()).hexdigest()}
    stored = json.loads(GOLDEN_GAMES.read_text(encoding="utf-8")) if GOLDEN_GAMES.exists() else {}
    if os.environ.get("RULECRAFT_UPDATE_GOLDEN") == "1":
        stored[key] = now
        GOLDEN_GAMES.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    assert key in stored, f"no stored game {key!r}: write it with RULECRAFT_UPDATE_GOLDEN=1"
    was = stored[key]
    if was["rules_sha256"] != now["rules_sha256"]:
        raise AssertionError(f"{key}: the rules changed since the stored game was written; "
                             "rewrite it with RULECRAFT_UPDATE_GOLDEN=1 and read the diff")
    for field in ("decisions", "result", "narration_lines", "last_line", "narration_sha256"):
        assert now[field] == was[field], f"{key}: {field} is {now[field]!r}, the stored game's {was[field]!r}"
