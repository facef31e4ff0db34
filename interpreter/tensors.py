"""A seat's observation as a fixed-length list of numbers, derived from the rules alone.

The shape is known when a game is loaded for a number of players: it depends on the
zones, cards, options and variables the rules declare, never on a game in progress.
What a seat may not see is zero, read through the same tests as its view
(`engine.views.can_see`, `sees_value`), so the encoding shows nothing the view hides.

Segments, in order (`Encoder.layout` lists them with their offsets):

- `seat`: one-hot, the observing seat; `to_move`: one-hot, the seat to decide (zeros when over);
  `over`: 1 once the game is over;
- per option: a choice one-hot, a bool 0/1, a range scaled to 0..1 between its bounds;
- per zone instance at this player count (a per-player zone once per seat, a per-team zone once
  per team): for each card of the zone's card type, by name (copies of a card share one place:
  the seats cannot tell them apart either), how many are in the zone if the seat sees it; then,
  if it sees it, which is on top (one-hot, by name); then `count`: how many cards the zone holds /
  how many cards of its type exist (always public);
- per variable (per seat, per team, per table entry): Int its value (unscaled: the rules give
  it no bounds); Bool 0/1; an enum, a player, a team, a card or a zone one-hot over its
  universe (a card by name); a list of such values the count of each value; any other list its length;
  Str nothing; an optional value (`T?`) as a T, none all zeros (an optional Int or Bool first says
  whether it holds one: 1, then the value). A value the seat may not see is all zeros.

The *information state* (perfect recall) adds what the seat remembers: for each zone instance,
by name, how many cards the seat last saw there (`Memory`: where the cards of each name were when
last in a zone the seat sees, as many as may still be there; a card still in sight counts where it
is). It is built from the seat's own sightings, by name (copies are not told apart), so two games
the seat cannot tell apart give it the same numbers.
"""
from __future__ import annotations

import functools

from .ir import types as T
from .engine.views import can_see, sees_value
from .runtime.helpers import MAX_INT, MAX_LEN


HISTORY_WIDTH = 3        # numbers per decision in the information state's history: who, what the seat was told
                         # of the decision, and a checksum of everything it was told and saw in that step


class Encoder:
    """The observation encoding of one program at one player count."""

    def __init__(self, program, players: int):
        self.program = program
        self.n = players
        self.layout: list[tuple[str, int, int]] = []     # (name, offset, length)
        self._plan: list = []                            # (kind, offset, data) read by encode
        self.low: list[float] = []                       # the least and greatest value of each number
        self.high: list[float] = []                      # (Int: the rules keep numbers within ±MAX_INT)
        self.size = 0
        self._build()

    # ------------------------------------------------------------ the shape
    def _add(self, name: str, length: int, kind: str, data=None, low: float = 0.0, high: float = 1.0) -> None:
        self.layout.append((name, self.size, length))
        self._plan.append((kind, self.size, data))
        self.low += [low] * length
        self.high += [high] * length
        self.size += length

    def _build(self) -> None:
        p, n = self.program, self.n
        self._add("seat", n, "seat")
        self._add("to_move", n, "to_move")
        self._add("over", 1, "over")
        for o in p.options:
            if o.kind == "choice":
                self._add(f"option {o.name}", len(o.values), "option", o)
            else:
                self._add(f"option {o.name}", 1, "option", o)
        team_count = max(1, len(p.teams))
        for z in p.zones:
            count = n if z.owner == "player" else (team_count if z.owner == "team" else 1)
            position, width = self._card_names(z.card_type)
            total = max(1, len(position))
            for k in range(count):
                inst = z.base + k
                name = p.zone_instance_names[inst]
                self._add(f"zone {name}", width, "zone", (inst, position), high=float(total))
                self._add(f"top {name}", width, "top", (inst, position))
                self._add(f"count {name}", 1, "count", (inst, total))
        for v in p.vars:
            width, encode, (low, high) = self._value_encoder(v.type)
            entries = v.table_size or 1
            if v.owner == "player":
                owners = [(k, f"{v.name} of player {k + 1}") for k in range(n)]
            elif v.owner == "team":
                owners = [(k, f"{v.name} of team {p.teams[k]}") for k in range(len(p.teams))]
            else:
                owners = [(None, v.name)]
            for owner, name in owners:
                if width * entries:
                    self._add(f"var {name}", width * entries, "var", (v, owner, width, encode), low, high)

    def _card_names(self, type_name: str) -> tuple[dict, int]:
        """(card id -> the place of its name among the type's distinct names, how many names)."""
        p = self.program
        ids = p.cards_by_type.get(type_name, range(len(p.card_names)))     # a zone of any card: all of them
        places: dict = {}
        position = {c: places.setdefault(p.card_names[c], len(places)) for c in ids}
        return position, len(places)

    def _value_encoder(self, typ):
        """(width, function (out, offset, value), (least, greatest)) for one value of a declared type."""
        if isinstance(typ, T.OptionalT):
            return self._optional_encoder(typ.inner)
        universe = self._universe(typ)
        if universe is not None:
            index, size = universe

            def one_hot(out, at, value):
                k = index(value)
                if k is not None:
                    out[at + k] = 1.0
            return size, one_hot, (0.0, 1.0)
        if typ is T.INT:
            def number(out, at, value):
                out[at] = float(value)
            return 1, number, (float(-MAX_INT), float(MAX_INT))
        if typ is T.BOOL:
            def flag(out, at, value):
                out[at] = 1.0 if value else 0.0
            return 1, flag, (0.0, 1.0)
        if isinstance(typ, T.ListT):
            inner = self._universe(typ.elem)
            if inner is not None:
                index, size = inner

                def counts(out, at, value):
                    for x in value:
                        k = index(x)
                        if k is not None:
                            out[at + k] += 1.0
                return size, counts, (0.0, float(MAX_LEN))

            def length(out, at, value):
                out[at] = float(len(value))
            return 1, length, (0.0, float(MAX_LEN))
        return 0, None, (0.0, 0.0)                       # Str and anything without a number

    def _optional_encoder(self, inner):
        """`T?`: a value with a universe one-hot as a T, all zeros for none; a number or a flag after
        a 1 that says it holds one (none: both 0)."""
        if self._universe(inner) is not None:
            return self._value_encoder(inner)          # none has no place in the universe: all zeros
        width, encode, (low, high) = self._value_encoder(inner)
        if not width:
            return 0, None, (0.0, 0.0)

        def present(out, at, value):
            if value is not None:
                out[at] = 1.0
                encode(out, at + 1, value)
        return width + 1, present, (min(low, 0.0), max(high, 1.0))

    def _universe(self, typ):
        """(value -> position or None, size) for a type with a finite universe, else None."""
        p = self.program
        if isinstance(typ, T.EnumT):
            size = len(typ.values)
        elif typ is T.PLAYER:
            size = self.n
        elif typ is T.TEAM:
            size = max(1, len(p.teams))
        elif isinstance(typ, T.ZoneT):
            size = len(p.zone_instance_names)
        elif isinstance(typ, T.CardT) or typ is T.ANYCARD:
            position, width = self._card_names(typ.name)
            return position.get, width
        else:
            return None

        def index(value):
            k = int(value) if type(value) in (int, bool) else None
            return k if k is not None and 0 <= k < size else None
        return index, size

    # ------------------------------------------------------------ one observation
    def encode(self, m, viewer: int) -> list[float]:
        """The observation of seat `viewer` (0-based) in state `m`."""
        out = [0.0] * self.size
        pending = m.pending
        for kind, at, data in self._plan:
            if kind == "zone":
                inst, position = data
                cards = m.zones[inst]
                if cards and can_see(m, inst, viewer):
                    for c in cards:
                        out[at + position[c]] += 1.0
            elif kind == "top":
                inst, position = data
                cards = m.zones[inst]
                if cards and can_see(m, inst, viewer):
                    out[at + position[cards[-1]]] = 1.0
            elif kind == "count":
                inst, total = data
                out[at] = len(m.zones[inst]) / total
            elif kind == "var":
                v, owner, width, encode = data
                if not sees_value(m, v, owner, viewer):
                    continue
                value = m.vars[v.slot]
                if owner is not None:
                    value = value[owner]
                if v.table_size:
                    for j, x in enumerate(value):
                        encode(out, at + j * width, x)
                else:
                    encode(out, at, value)
            elif kind == "seat":
                out[at + viewer] = 1.0
            elif kind == "to_move":
                if pending is not None:
                    out[at + pending[1]] = 1.0
            elif kind == "over":
                out[at] = 1.0 if m.result is not None else 0.0
            elif kind == "option":
                o = data
                value = m.vars[o.slot]
                if o.kind == "choice":
                    out[at + value] = 1.0
                elif o.kind == "bool":
                    out[at] = 1.0 if value else 0.0
                else:
                    lo, hi = o.values
                    out[at] = (value - lo) / (hi - lo) if hi > lo else 0.0
        return out

    # ------------------------------------------------------------ what a seat remembers
    @functools.cached_property
    def memory_blocks(self) -> list[tuple[int, dict, int]]:
        """(zone instance, card -> place of its name, offset) of the memory part, in the zones' order."""
        blocks, at = [], 0
        for kind, _offset, data in self._plan:
            if kind == "zone":
                inst, position = data
                blocks.append((inst, position, at))
                at += max(position.values(), default=-1) + 1
        return blocks

    @functools.cached_property
    def memory_size(self) -> int:
        blocks = self.memory_blocks
        if not blocks:
            return 0
        inst, position, at = blocks[-1]
        return at + max(position.values(), default=-1) + 1

    @functools.cached_property
    def history_steps(self) -> int:
        """The decisions the history part has room for: the rules' limit (engine.limits)."""
        from .engine.limits import decision_limit
        return decision_limit(self.program)

    @functools.cached_property
    def information_state_size(self) -> int:
        return self.size + self.memory_size + HISTORY_WIDTH * self.history_steps

    def encode_information_state(self, m, viewer: int, last_seen: dict, steps=(), digests=()) -> list[float]:
        """The observation, then where the seat last saw each card (`Memory.last_seen[viewer]`), then each
        decision as the seat was told it (`steps`: engine.recall's Steps, the setup first): who took it
        (seat + 1), its action id + 1 if the seat was told it in full, -1 if not, and the step's checksum
        (`digests`: Recall.digests, a 24-bit number as a fraction of 2**24, exact in a float32)."""
        out = self.encode(m, viewer)
        memory = [0.0] * self.memory_size
        where = {inst: (position, at) for inst, position, at in self.memory_blocks}
        for card, inst in last_seen.items():
            position, at = where[inst]
            if card in position:
                memory[at + position[card]] += 1.0
        history = [0.0] * (HISTORY_WIDTH * self.history_steps)
        for k, step in enumerate(steps[1:self.history_steps + 1]):
            history[HISTORY_WIDTH * k] = step.chooser + 1.0
            history[HISTORY_WIDTH * k + 1] = -1.0 if step.told is None else step.told + 1.0
            if k + 1 < len(digests):
                history[HISTORY_WIDTH * k + 2] = digests[k + 1] / 16777216.0
        return out + memory + history

    def describe(self) -> list[str]:
        """The layout as lines of text: offset, length, name (for documentation and debugging)."""
        return [f"{at:6d} {length:5d}  {name}" for name, at, length in self.layout]


class Memory:
    """Where each seat last saw the cards, by name: updated after every step of a game (`see`), copied
    with it. `last_seen[viewer]` maps cards to the zone instance where the seat last saw one of that
    name — the cards in its sight where they are, then, for the cards of each name out of its sight,
    as many places as it may still hold them in, given to that name's cards in a fixed order.

    By name, not by card: copies named alike (three Guards) cannot be told apart, so which one left a
    zone the seat sees and which one came back is no sighting. Keeping it by card told the seat which
    copy it was dealt (a Guard it last saw in a discard, or one it never saw), and the tensor of two
    games it cannot tell apart differed (`rulecraft test`'s leak property found it in a game of rounds
    of a Love Letter). Each step, per name: the cards that left the seat's sight (fewer in a zone it
    sees than before, beyond those that came into another it sees) are remembered where they were;
    remembered places beyond the cards of that name now out of its sight are forgotten, the oldest
    first. With unique names this is exactly where each card was last seen."""

    def __init__(self, players: int):
        self.last_seen: list[dict] = [{} for _ in range(players)]
        self.steps = 0                  # the decisions seen so far
        self.read = 0                   # how many of a session's states after each step were seen (api.Match)
        self._in_sight: list[dict] = [{} for _ in range(players)]     # name -> {instance: count} at the last step
        self._away: list[dict] = [{} for _ in range(players)]         # name -> [(step, instance)], out of sight

    def see(self, m) -> None:
        masks = m.seen
        names = m.program.card_names
        by_name = _cards_by_name(m.program)
        counted = []                     # (instance, seats that see it, name -> how many), each zone once
        for inst, cards in enumerate(m.zones):
            if cards and masks[inst]:
                counts: dict = {}
                for c in cards:
                    counts[names[c]] = counts.get(names[c], 0) + 1
                counted.append((inst, masks[inst], counts))
        for viewer, memory in enumerate(self.last_seen):
            now: dict = {}
            for inst, mask, counts in counted:
                if mask >> viewer & 1:
                    for name, k in counts.items():
                        now.setdefault(name, {})[inst] = k
            before, away = self._in_sight[viewer], self._away[viewer]
            for name in before.keys() | now.keys():
                was, seen = before.get(name, {}), now.get(name, {})
                if was == seen:
                    continue                 # nothing of this name left or came into sight
                left = sorted(inst for inst, k in was.items() for _ in range(k - seen.get(inst, 0)))
                came = sum(max(0, k - was.get(inst, 0)) for inst, k in seen.items())
                kept = away.get(name, []) + [(self.steps, inst) for inst in left[came:]]
                room = len(by_name[name]) - sum(seen.values())
                if len(kept) > room:
                    kept = sorted(kept)[len(kept) - room:]
                if kept:
                    away[name] = kept
                else:
                    away.pop(name, None)
                places = sorted(inst for inst, k in seen.items() for _ in range(k))
                places += sorted(inst for _step, inst in kept)
                for c in by_name[name]:
                    memory.pop(c, None)
                for c, inst in zip(by_name[name], places):
                    memory[c] = inst
            self._in_sight[viewer] = now
        self.steps = m.decisions

    def copy(self) -> "Memory":
        twin = Memory(0)
        twin.last_seen = [dict(d) for d in self.last_seen]
        twin._in_sight = [dict(d) for d in self._in_sight]       # (replaced whole at each step, never changed)
        twin._away = [dict(d) for d in self._away]
        twin.steps, twin.read = self.steps, self.read
        return twin


@functools.lru_cache(maxsize=16)
def _cards_by_name(program) -> dict:
    """Card name -> the ids of the cards shown with it, in order."""
    out: dict = {}
    for c, name in enumerate(program.card_names):
        out.setdefault(name, []).append(c)
    return out
