"""The properties every game must have, checked with no effort from its author.

Each check takes a running game and raises PropertyFailure with a sentence when
the property does not hold. `play_checked` drives one game with a chooser of
option indexes (hypothesis data, or a seeded random) and checks everything at
every step, so a failure names the step it happened at.
"""
from __future__ import annotations

import random

import attrs

from ..runtime.errors import RulesRuntimeError
from ..engine import machine, records, views
from ..engine.machine import IllegalDecision

DEFAULT_LIMIT = 5000


class PropertyFailure(Exception):
    """A property that does not hold. `step` is the number of decisions taken when it broke;
    `taken` the option ids of those decisions (play_checked fills it in). When taking a
    decision made the rules fail, `taken` ends with that decision and `failed_decision` is set."""

    def __init__(self, prop: str, message: str, step: int, failed_decision: bool = False):
        self.prop = prop
        self.step = step
        self.detail = message
        self.taken: list = []
        self.failed_decision = failed_decision
        super().__init__(f"{prop}: {message} (at decision {step})")


@attrs.define
class Outcome:
    decisions: list          # option ids taken
    steps: int
    final: object            # the final State


def check_places(m, step):
    """Every card is in exactly one place, and `where` agrees with the zones."""
    seen = {}
    for zi, cards in enumerate(m.zones):
        for c in cards:
            if c in seen:
                raise PropertyFailure("every card in one place",
                                      f"{m.program.card_names[c]} is in {m.program.zone_instance_names[seen[c]]} "
                                      f"and in {m.program.zone_instance_names[zi]}", step)
            seen[c] = zi
            if m.where[c] != zi:
                raise PropertyFailure("every card in one place", f"{m.program.card_names[c]} is misplaced", step)
    for c, w in enumerate(m.where):
        if w >= 0 and c not in seen:
            raise PropertyFailure("every card in one place", f"{m.program.card_names[c]} is lost", step)


def check_invariants(m, step):
    failed = machine.check_invariants(m)
    if failed:
        raise PropertyFailure(f"invariant {failed[0]}", "it does not hold", step)


def check_refusal(m, step, bad_id):
    """An option not offered is refused and leaves the state exactly as it was."""
    legal = machine.legal_ids(m)
    if bad_id in legal:
        return
    before = m.copy()
    try:
        machine.decide(m, bad_id)
    except IllegalDecision:
        pass
    else:
        raise PropertyFailure("illegal options are refused", f"option {bad_id} was accepted though not offered", step)
    if not m.same_as(before):
        raise PropertyFailure("illegal options are refused", f"refusing option {bad_id} changed the game", step)


def check_view_hides(m, step, viewer, permute):
    """A player's view is unchanged when what is hidden from them changes: the cards hidden from them
    shuffled among hidden places, and the values of variables they may not see changed."""
    p = m.program
    hidden_slots = []
    for zone in p.zones:
        owners = range(m.n) if zone.owner == "player" else (range(len(p.teams)) if zone.owner == "team" else [None])
        for k in owners:
            inst = zone.base + (k or 0)
            if not views.can_see(m, inst, viewer):
                hidden_slots.extend((inst, i) for i in range(len(m.zones[inst])))
    secrets = _hidden_values(m, viewer)
    if len(hidden_slots) < 2 and not secrets:
        return
    before = views.view(m, viewer)
    other = m.copy()
    if len(hidden_slots) >= 2:
        _permute_hidden_cards(p, other, hidden_slots, permute)
    for change in secrets:
        change(other)
    after = views.view(other, viewer)
    if before != after:
        raise PropertyFailure("views hide what is hidden",
                              f"player {viewer + 1}'s view changed when what is hidden from them (cards, or values "
                              "they may not see) changed", step)


def _permute_hidden_cards(p, other, hidden_slots, permute):
    cards = [other.zones[z][i] for z, i in hidden_slots]
    types = [p.card_types[c] for c in cards]
    order = permute(len(cards))
    moved = [cards[j] for j in order]
    # only swap cards of the same type, so every zone still holds what it may hold
    if [p.card_types[c] for c in moved] != types:
        moved = cards[:]
        by_type: dict = {}
        for idx, c in enumerate(cards):
            by_type.setdefault(p.card_types[c], []).append(idx)
        for idxs in by_type.values():
            perm = permute(len(idxs))
            vals = [cards[idxs[j]] for j in perm]
            for idx, v in zip(idxs, vals):
                moved[idx] = v
    for (z, i), c in zip(hidden_slots, moved):
        other.zones[z][i] = c
        other.where[c] = z


def _declared_hidden(m, v, owner, viewer) -> bool:
    """Is the value of `v` kept for `owner` hidden from `viewer`, read from its declaration alone
    (not from the view, which is what is being tested)?"""
    if v.seen == "nobody":
        return True
    teams = max(1, len(m.program.teams))
    if v.seen == "owner":
        return owner != (viewer if v.owner == "player" else viewer % teams)
    if v.seen == "team":
        team = owner if v.owner == "team" else owner % teams
        return team != viewer % teams
    return False


def _hidden_values(m, viewer) -> list:
    """Changes to the values of numbers and flags `viewer` may not see, each a function of a state copy."""
    out = []
    for v in m.program.vars:
        if v.seen == "all" or v.table_size:
            continue
        owners = range(m.n) if v.owner == "player" else (range(len(m.program.teams)) if v.owner == "team" else [None])
        for k in owners:
            if not _declared_hidden(m, v, k, viewer):
                continue
            value = m.vars[v.slot][k] if k is not None else m.vars[v.slot]
            if type(value) not in (int, bool):
                continue

            def change(state, v=v, k=k, value=value):
                new = (not value) if type(value) is bool else value + 1
                if k is None:
                    state.vars[v.slot] = new
                else:
                    state.vars[v.slot][k] = new
            out.append(change)
    return out


def check_save_load(m, step):
    """A save at this step loads to the identical state."""
    data = records.state_to_data(m)
    text = records.dump(data)
    back = records._yaml().load(text)
    restored = records.state_from_data(m.program, back, m.n, m.names)
    if not restored.same_as(m):
        raise PropertyFailure("save and load", "the loaded game differs from the saved one", step)
    return restored


def play_checked(program, players, options, seed, pick, limit=None, deep=True) -> Outcome:
    """Play one game, choosing with `pick(n) -> index`, checking the properties as it goes.

    Cheap properties (places, invariants, the end, someone can move, refusal of an illegal
    option) are checked at every step. With `deep`, the costly ones (views under reshuffle,
    independent copies, save and load) are checked at two steps drawn by `pick`, so over
    many games every step gets its turn.
    """
    taken: list = []
    try:
        return _play_checked(program, players, options, seed, pick, limit, deep, taken)
    except PropertyFailure as f:
        f.taken = list(taken)
        raise
    except Exception as e:          # a bug in rulecraft itself: still worth a short game that shows it
        one_line = (str(e).strip().splitlines() or [""])[0]
        f = PropertyFailure("no internal error", f"{type(e).__name__}: {one_line}", len(taken))
        f.taken = list(taken)
        raise f from e


def check_state(m, step, limit):
    """The checks that depend on the state alone (so a replay can repeat them exactly)."""
    check_places(m, step)
    check_invariants(m, step)
    if m.result is not None:
        return None
    ids = machine.legal_ids(m)
    if not ids:
        raise PropertyFailure("someone can always move", "the game is not over but nobody has an option", step)
    try:
        machine.legal_options(m)          # every label can be shown
    except RulesRuntimeError as e:
        raise PropertyFailure("no runtime error", str(e), step) from None
    if step >= limit:
        raise PropertyFailure("the game ends", f"it has not ended after {limit} decisions", step)
    return ids


def game_limit(program) -> int:
    return program.limit or DEFAULT_LIMIT


def _play_checked(program, players, options, seed, pick, limit, deep, taken) -> Outcome:
    limit = limit or game_limit(program)
    # the costly checks run at the start and at one drawn step; save and load (slow YAML) at the drawn one only
    save_step = pick(min(limit, 128)) if deep else -1
    deep_steps = {0, save_step} if deep else set()
    # which option not offered to try at each step: from the game's seed, not from hypothesis
    # (a draw per step would double the draws; the refusal seldom depends on the id tried)
    others = random.Random(seed)
    try:                      # narrating: every `say` is evaluated, as `run` would show it
        m = machine.new_game(program, players, options, seed, sink=[])
    except RulesRuntimeError as e:
        raise PropertyFailure("no runtime error", str(e), 0) from None
    step = 0
    while True:
        ids = check_state(m, step, limit)
        if ids is None:
            break
        check_refusal(m, step, others.randrange(program.action_count + 1) if program.action_count else 0)
        if step in deep_steps:
            viewer = pick(m.n)
            shuffler = random.Random(pick(2**31))       # one draw, not one per card
            check_view_hides(m, step, viewer, lambda n: _permutation(shuffler, n))
            snapshot = m.copy()
            probe = m.copy()
            try:
                for _ in range(3):
                    if probe.result is not None:
                        break
                    pids = machine.legal_ids(probe)
                    machine.decide(probe, pids[pick(len(pids))])
            except RulesRuntimeError:
                pass
            if not m.same_as(snapshot):
                raise PropertyFailure("copies are independent", "playing on a copy changed the original", step)
            if step == save_step:
                m = check_save_load(m, step)
        choice = ids[pick(len(ids))]
        taken.append(choice)
        try:
            machine.decide(m, choice)
        except RulesRuntimeError as e:
            raise PropertyFailure("no runtime error", str(e), step + 1, failed_decision=True) from None
        step += 1
    return Outcome(taken, step, m)


def _permutation(rnd, n):
    order = list(range(n))
    rnd.shuffle(order)
    return order


def replay_ids(program, players, options, seed, ids):
    """Replay option ids; the final state (for determinism checks)."""
    m = machine.new_game(program, players, options, seed)
    for i in ids:
        machine.decide(m, i)
    return m
