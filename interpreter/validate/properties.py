"""The properties every game must have, checked with no effort from its author.

Each check takes a running game and raises PropertyFailure with a sentence when
the property does not hold. `play_checked` drives one game with a chooser of
option indexes (hypothesis data, or a seeded random) and checks everything at
every step, so a failure names the step it happened at.
"""
from __future__ import annotations

import functools
import random

import attrs

from ..runtime.errors import RulesRuntimeError
from ..engine import determinize, machine, observe, records, views
from ..cli.plaintext import score_parts_lines, view_lines
from ..engine.recall import Recall
from ..runtime import rng
from ..runtime.helpers import CheckedNarration, ShownLog, seal
from ..tensors import HISTORY_WIDTH, Encoder, Memory
from ..engine.machine import IllegalDecision
from ..engine.limits import decision_limit, past_limit

ENDLESS = "the game ends"      # the property a game breaks by running past its limit (engine.limits)


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
    for c, w in enumerate(m.where[:len(m.program.card_names)]):
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
    other = hidden_otherwise(m, viewer, permute)
    if other is not None and views.view(m, viewer) != views.view(other, viewer):
        raise PropertyFailure("views hide what is hidden",
                              f"player {viewer + 1}'s view changed when what is hidden from them (cards, or values "
                              "they may not see) changed", step)


def hidden_otherwise(m, viewer, permute):
    """A copy of the game that differs from it only in what `viewer` may not see (the cards hidden from
    them shuffled among hidden places, the values hidden from them changed), or None if nothing is hidden
    or the rules cannot go on from that copy: midway through a move ("cast a spell", then which) what was
    told already rules some copies out, as `determinize.sample` skips them."""
    held = _held(m)
    places = [(z, i) for z, i in determinize.hidden_places(m, viewer) if m.zones[z][i] not in held]
    secrets = [(v, k) for v, k in determinize.hidden_values(m, viewer)
               if not v.table_size and type(determinize.get_value(m, v, k)) in (int, bool)]
    if len(places) < 2 and not secrets:
        return None
    other = m.copy()
    if len(places) >= 2:
        determinize.permute_hidden_cards(other, places, permute)
    for v, k in secrets:
        value = determinize.get_value(other, v, k)
        determinize.set_value(other, v, k, (not value) if type(value) is bool else value + 1)
    try:
        determinize.ask_again(other)
    except RulesRuntimeError:           # not a game the viewer could be in
        return None
    return other


def _held(m) -> set:
    """The numbers the waiting rules hold in their frames (tuples searched too), which may be cards: those
    chosen so far by a `chooses some` (issue 26: traded away, they were passed on from the hand they no
    longer were in, and the check reported the counts it made up), a `let c = …` before a choice. Such
    a card stays where it is in the other game; so may a card whose number is only a count (fewer
    cards traded, never a game the viewer could not be in)."""
    out, todo = set(), [f[2:] for f in m.stack]
    while todo:
        for x in todo.pop():
            if type(x) is int:
                out.add(x)
            elif type(x) in (tuple, list):
                todo.append(x)
    return out


def check_observation(m, step, viewer, permute, pick, further: int = 4):
    """Two games that differ only in what `viewer` may not see tell `viewer` the same — its view, who is
    asked, what it is told, its information state (history and tensor) — now and after each further
    decision that is the same as `viewer` is told
    it: the viewer's own taken alike, another's taken in the second game as the viewer was told it in
    the first. (A decision with no such counterpart that shows a card to the viewer — played face up,
    at once or by the end of the move it begins — or a decision after which a card comes into the
    viewer's sight — drawn — reveals what set the games apart: they may then differ, and the check
    ends there.)"""
    other = hidden_otherwise(m, viewer, permute)
    if other is None:
        return
    first, second = _session_on(m.copy()), _session_on(other)
    ours, theirs = _Told(first, viewer), _Told(second, viewer)
    try:
        for k in range(further + 1):
            seen, also = ours.now(), theirs.now()
            if seen != also:
                raise PropertyFailure("a seat is told only what it may know",
                                      f"player {viewer + 1} was told something else {k} decision(s) later, in a game "
                                      f"that differed only in what is hidden from them: {_first_difference(seen, also)}",
                                      step)
            if first.over:
                return
            ids = first.legal_ids()
            choice = ids[pick(len(ids))]
            who = first.to_move
            told = machine.label(first.state, choice) if who == viewer else \
                observe.render(_sealed_if_taken(first.state, choice), viewer)
            def told_there(i):
                return machine.label(second.state, i) if who == viewer else \
                    observe.render(_sealed_if_taken(second.state, i), viewer)
            # the viewer's own decision: the same option (two Coppers in its hand: the one taken, not its
            # twin, or its hand's order would differ for a reason the check made up); another's: the first
            # told alike (which may differ from the one taken: what sets the games apart may then show)
            legal = second.legal_ids()
            match = choice if who == viewer and choice in legal and told_there(choice) == told else \
                next((i for i in legal if told_there(i) == told), None)
            if match is None:
                seen_before, in_sight_before = _visible(first.state, viewer), _in_sight(first.state, viewer)

                def shown():
                    """A card seen for the first time, or one seen before (taken from a face-up pile into a
                    hand) that comes back in sight."""
                    return (_visible(first.state, viewer) - seen_before
                            or _in_sight(first.state, viewer) - in_sight_before)
                first.take(choice)
                # the decision shows what set the two games apart — a card played face up — at once or at
                # the end of the move it begins ("cast a spell", then which one): the chooser's next steps
                while not shown() and not first.over and first.to_move == who != viewer:
                    ids = first.legal_ids()
                    first.take(ids[pick(len(ids))])
                if shown():
                    return
                raise PropertyFailure("a seat is told only what it may know",
                                      f"player {viewer + 1} was told '{first.state.names[who]}: {told}', which no "
                                      "decision tells them in a game that differs only in what is hidden from them",
                                      step)
            before = _visible(first.state, viewer), _visible(second.state, viewer)
            first.take(choice)
            second.take(match)
            if _visible(first.state, viewer) - before[0] or _visible(second.state, viewer) - before[1]:
                return      # a card came into the viewer's sight (a draw): the games may now differ
    except RulesRuntimeError:
        return          # the rules failing here is another property's business


def check_chance_told(m, step, viewer, pick, further: int = 4):
    """Chance reaches `viewer` only through what it may see: two copies of the game that differ only in
    their random state (which no seat sees: it is the future of every draw) tell `viewer` the same —
    news and information state — for as long as its view is the same in both. (A draw into something
    the viewer sees shows in its view: from there the games may differ, and the check ends; so it does
    where the rules reveal a secret to the viewer — a Baron's comparison, a Priest's look at a card
    drawn at random — or show it a card in passing.)"""
    first, second = _session_on(m.copy()), _session_on(m.copy())
    second.state.rng = rng.next_u64(second.state.rng ^ 0x2545F4914F6CDD1D)[1]
    ours, theirs = _Told(first, viewer), _Told(second, viewer)
    try:
        for k in range(further + 1):
            seen, also = ours.now(), theirs.now()
            if seen["view"] != also["view"] or _values_seen(first.state, viewer) != _values_seen(second.state, viewer):
                return
            if seen != also:
                raise PropertyFailure("a seat is told only what it may know",
                                      f"player {viewer + 1} was told something else {k} decision(s) later, in a game "
                                      f"that differed only in chance it may not see: {_first_difference(seen, also)}",
                                      step)
            if first.over:
                return
            ids = first.legal_ids()
            choice = ids[pick(len(ids))]
            if choice not in second.legal_ids():
                return      # hidden chance gave another seat other options: its decision may differ
            before = _visible(first.state, viewer), _visible(second.state, viewer)
            first.take(choice)
            second.take(choice)
            if _passing(first.state, viewer) - before[0] or _passing(second.state, viewer) - before[1]:
                return      # a secret revealed on purpose, or a card shown in passing: the games may now differ
    except RulesRuntimeError:
        return


def _values_seen(state, viewer) -> list:
    """The values of the variables `viewer` may see, shown in its view or not (a game with a `sheet`
    shows its own lines instead: Yacht Dice's faces are told only in its narration)."""
    hidden = {(id(v), k) for v, k in determinize.hidden_values(state, viewer)}
    out = []
    for v in state.program.vars:
        owners = range(state.n) if v.owner == "player" else \
            (range(len(state.program.teams)) if v.owner == "team" else [None])
        out.extend(determinize.get_value(state, v, k) for k in owners if (id(v), k) not in hidden)
    return out


class _Told:
    """Everything `viewer` is told of a session from its start: its view and news (engine.observe), its
    observation history (engine.recall) and its information state tensor (rulecraft.tensors)."""

    def __init__(self, session, viewer):
        self.session, self.viewer = session, viewer
        self.observer = observe.Observer(session, viewer)
        self.recall = Recall(session, viewer)
        self.memory = Memory(session.state.n)
        self.encoder = _encoder(session.program, session.state.n)

    def now(self) -> dict:
        o = self.observer.observe()
        steps = self.recall.catch_up()
        seen = [dict(v) if v is not None else None for v in self.recall.views()]
        for view in [o["view"]] + [v for v in seen if v is not None]:
            view.pop("scores", None)            # the end of a game reveals its result: that is no leak
            view.pop("winners", None)
        self.memory.see(self.session.state)
        o["history"] = [(s.news, v, s.chooser, s.told) for s, v in zip(steps, seen)]
        tensor = self.encoder.encode_information_state(self.session.state, self.viewer,
                                                       self.memory.last_seen[self.viewer], steps,
                                                       self.recall.digests(view_lines))
        if self.session.over and 1 < len(steps) <= self.encoder.history_steps + 1:
            # the last step's checksum holds the result, which the end reveals, as the view's does
            end = self.encoder.size + self.encoder.memory_size + HISTORY_WIDTH * (len(steps) - 2) + 2
            tensor[end] = 0.0
        o["tensor"] = tensor
        s = self.session            # the question a decision asks (`prompt`) is told to its chooser
        o["prompt"] = s.prompt() if not s.over and s.to_move == self.viewer else None
        # the end screen's parts (the totals are the result, which the end reveals: no leak)
        o["score_parts"] = score_parts_lines(s, viewer=self.viewer, totals=False) if s.over else []
        return o


@functools.lru_cache(maxsize=16)
def _encoder(program, players):
    return Encoder(program, players)


def _visible(state, viewer) -> set:
    """The cards `viewer` sees now, or was shown in a text (by name or by a field) since the check began, and the
    secret values the rules revealed (`reveal(x)`) since then."""
    log = state.sink if isinstance(state.sink, ShownLog) else ShownLog()
    return _in_sight(state, viewer) \
        | {c for c, mask in log.cards.items() if mask >> viewer & 1} | {("revealed", k) for k in range(log.reveals)}


def _passing(state, viewer) -> set:
    """What `viewer` was shown outside its view (`_visible` less the cards in its sight now: one that
    came into its sight and stayed shows in the view, which the chance check compares)."""
    return _visible(state, viewer) - _in_sight(state, viewer)


def _in_sight(state, viewer) -> set:
    """The cards in the zones `viewer` sees now, and the values of variables it sees now that some seat
    may not see (a value shown by `show` comes into sight as a card turned face up does)."""
    return {c for inst, cards in enumerate(state.zones) if views.can_see(state, inst, viewer) for c in cards} \
        | {("value", v.slot, k) for v, k in determinize.guarded_values(state) if views.sees_value(state, v, k, viewer)}


def _session_on(state):
    """A session over a copy of a game, recording what it tells from here on, in the rules compiled with
    the watch calls (loader: `program.watched`), which tell the log each card that leaves a zone some
    seats see: it was in their sight, if only in passing (a hand shown face up as its player is knocked
    out, then gathered into the deck within the same step)."""
    from ..engine.session import Session
    if getattr(state.program, "watched", None) is not None:
        state.program = state.program.watched()
    s = Session(state.program, state, "check", 0, {})
    s.after.append(state.copy())
    s.narration = ShownLog()
    state.sink, state.chance = s.narration, s.chance
    return s


def _sealed_if_taken(state, option_id):
    """A decision's label as the other seats are told it, sealed as it would be once taken."""
    from ..engine.session import sealed_label
    shown = machine.shown_label(state, option_id)
    after = state.copy()
    machine.decide(after, option_id)
    return sealed_label(state, option_id, shown, after)


def _first_difference(a, b) -> str:
    """Where two observations (`_Told.now`) first differ, in a few words."""
    if a["news"] != b["news"]:
        return f"{a['news']} / {b['news']}"
    for key in a["view"]:
        if a["view"][key] != b["view"].get(key):
            return f"{key}: {a['view'][key]} / {b['view'].get(key)}"
    if a.get("history") != b.get("history"):
        return "their information states (observation histories) differ"
    if a.get("prompt") != b.get("prompt"):
        return f"the question they are asked: {a['prompt']} / {b['prompt']}"
    if a.get("score_parts") != b.get("score_parts"):
        diff = next((x, y) for x, y in zip(a["score_parts"], b["score_parts"]) if x != y) \
            if len(a["score_parts"]) == len(b["score_parts"]) else (a["score_parts"], b["score_parts"])
        return f"what the scores are made of: {diff[0]!r} / {diff[1]!r}"
    return "their information state tensors differ"


def check_save_load(m, step):
    """A save at this step loads to the identical state."""
    data = records.state_to_data(m)
    text = records.dump(data)
    back = records._yaml().load(text)
    restored = records.state_from_data(m.program, back, m.n, m.names)
    if not restored.same_as(m):
        raise PropertyFailure("save and load", "the loaded game differs from the saved one", step)
    return restored


def play_checked(program, players, options, seed, pick, deep=True) -> Outcome:
    """Play one game, choosing with `pick(n) -> index`, checking the properties as it goes.

    Cheap properties (places, invariants, the end, someone can move, refusal of an illegal
    option) are checked at every step. With `deep`, the costly ones (views under reshuffle,
    independent copies, save and load) are checked at two steps drawn by `pick`, so over
    many games every step gets its turn.
    """
    taken: list = []
    try:
        return _play_checked(program, players, options, seed, pick, deep, taken)
    except PropertyFailure as f:
        f.taken = list(taken)
        raise
    except Exception as e:          # a bug in rulecraft itself: still worth a short game that shows it
        one_line = (str(e).strip().splitlines() or [""])[0]
        f = PropertyFailure("no internal error", f"{type(e).__name__}: {one_line}", len(taken))
        f.taken = list(taken)
        raise f from e


def check_state(m, step):
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
    if step >= decision_limit(m.program):
        raise PropertyFailure(ENDLESS, past_limit(m.program), step)
    return ids


def _play_checked(program, players, options, seed, pick, deep, taken) -> Outcome:
    limit = decision_limit(program)
    # the costly checks run at the start and at one drawn step; save and load (slow YAML) at the drawn one only
    save_step = pick(min(limit, 128)) if deep else -1
    deep_steps = {0, save_step} if deep else set()
    # which option not offered to try at each step: from the game's seed, not from hypothesis
    # (a draw per step would double the draws; the refusal seldom depends on the id tried)
    others = random.Random(seed)
    try:                      # narrating: every `say` is evaluated, as `run` would show it
        m = machine.new_game(program, players, options, seed, sink=CheckedNarration())
    except RulesRuntimeError as e:
        raise PropertyFailure("no runtime error", str(e), 0) from None
    step = 0
    while True:
        ids = check_state(m, step)
        if ids is None:
            break
        check_refusal(m, step, others.randrange(program.action_count + 1) if program.action_count else 0)
        if step in deep_steps:
            viewer = pick(m.n)
            shuffler = random.Random(pick(2**31))       # one draw, not one per card
            check_observation(m, step, viewer, lambda n: _permutation(shuffler, n), pick)
            check_chance_told(m, step, viewer, pick)
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
