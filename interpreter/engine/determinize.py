"""Games that differ from this one only in what a seat may not see, derived from `seen by` alone.

Two users: the observation property (validate/properties.py) builds such a game to check that
the seat is told the same in both, and search agents (agents/search.py) sample such games to
think about what they cannot see — information-set MCTS "determinised" with no resampler
written per game (OpenSpiel needs one per game).

What is hidden from a seat: the cards of every zone instance it may not see (their number is
public, so a sample keeps each zone's count and only the cards of the same card type trade
places), the values of variables it may not see, and the future: the game's random generator,
which decides every shuffle and draw still to come. A sample knows nothing the seat does not, and
forgets nothing it saw: given the seat's memory of where the cards went (engine.whereabouts: a
card it watched go into a face-down pile is in that pile, or wherever it may have gone since),
each hidden card is dealt only into a zone it may be in. Without that memory (a game met midway),
a sample is drawn from the seat's current observation alone.
"""
from __future__ import annotations

from ..runtime.errors import RulesRuntimeError
from ..runtime.helpers import rt_value_seen
from . import machine, views


def hidden_places(m, viewer, unseen_only: bool = False) -> list[tuple[int, int]]:
    """(zone instance, position) of every card `viewer` may not see (with `unseen_only`, of those no
    seat may see: a face-down deck)."""
    out = []
    masks = m.seen
    for zone in m.program.zones:
        owners = range(m.n) if zone.owner == "player" else (range(len(m.program.teams)) if zone.owner == "team" else [None])
        for k in owners:
            inst = zone.base + (k or 0)
            if not views.can_see(m, inst, viewer) and not (unseen_only and masks[inst]):
                out.extend((inst, i) for i in range(len(m.zones[inst])))
    return out


def private_to_others(m, viewer) -> bool:
    """Does another seat see a card or a value that `viewer` may not (private information, not chance)?"""
    masks = m.seen
    if any(masks[z] and m.zones[z] for z, _ in hidden_places(m, viewer)):
        return True
    return any(rt_value_seen(m, v.seen_base, owner) for v, owner in hidden_values(m, viewer))


def permute_hidden_cards(m, places, permute) -> None:
    """Trade the cards at `places` among themselves in the order `permute(n)` gives (a list of
    indexes); only cards of one card type trade places, so every zone still holds what it may hold."""
    p = m.program
    cards = [m.zones[z][i] for z, i in places]
    types = [p.card_types[c] for c in cards]
    order = permute(len(cards))
    moved = [cards[j] for j in order]
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
    came = _came_from(m, places)
    for (z, i), c in zip(places, moved):
        m.zones[z][i] = c
        m.where[c] = z
    _keep_came_from(m, places, came)


class _Deal:
    """The hidden cards of one card type dealt again to their places, each (given `possible`, a seat's
    memory: engine.whereabouts) into a zone it may be in; what every deal of one position shares
    (which cards, which places, how the memory groups them, which places each group may take) is
    worked out once, so a search's hundred samples a decision pay only for the draw. The cards are
    put in order first, so the deal depends only on which cards are hidden (and what the seat
    remembers of them), never on where they truly are: two games a seat cannot tell apart give it
    the same samples.

    The cards that may be in the same zones go together, the most constrained first, each group into
    places drawn at random among the free places of its zones (with no constraint at all, that is a
    uniform deal). Should a group find too few free places, the cards are matched to the zones by
    augmenting paths instead: the true game is one such deal, so one exists while the memory holds
    the truth; if none does (a game changed by hand), a uniform deal stands."""
    __slots__ = ("places", "cards", "groups", "possible", "settled", "runs", "homes", "zone_of", "plan", "where")

    def __init__(self, places, cards, possible=None, sizes=None, where=None):
        self.places = places
        self.cards = sorted(cards)
        self.possible = possible
        self.runs = _runs(places, sizes)
        self.zone_of = [z for z, _i in places]
        self.homes = None                   # the places whose cards' State.where a deal sets (`_homes`), worked
        self.where = where                  # out when first needed (a plan says it by group) from `where`
        self.groups = None                  # None: nothing remembered narrows the deal (a shuffle is the deal)
        self.settled = frozenset()          # the places the groups that fill theirs whole take, in every deal
        self.plan = None                    # the deal as whole zones cut from shuffled groups (`_plan`)
        if possible is None:
            self.plan = _plan([(self.cards, list(range(len(places))), True)], self.runs, None, None)
            return
        free: dict[int, list[int]] = {}
        for k, (z, _i) in enumerate(places):
            free.setdefault(z, []).append(k)
        zones = 0
        for z in free:
            zones |= 1 << z
        by_mask: dict[int, list] = {}
        for c in self.cards:
            by_mask.setdefault(possible[c] & zones, []).append(c)
        if len(by_mask) == 1 and zones in by_mask:
            self.plan = _plan([(self.cards, list(range(len(places))), True)], self.runs, possible, where)
            return
        self.groups = []                    # (cards, the places they may take, are those the same in every deal?)
        settled: set[int] = set()
        fixed = True                        # have the groups so far taken the same places in every deal?
        for mask in sorted(by_mask, key=lambda mask: (mask.bit_count(), mask)):
            group = by_mask[mask]
            candidates = [k for z in free if mask >> z & 1 for k in free[z]]
            if fixed:
                candidates = [k for k in candidates if k not in settled]
                self.groups.append((group, candidates, True))
                if len(candidates) == len(group):
                    settled.update(candidates)
                else:
                    fixed = False
            else:
                self.groups.append((group, candidates, False))
        self.settled = frozenset(settled)
        self.plan = _plan(self.groups, self.runs, possible, where)

    def draw(self, rng) -> list:
        """The cards for `places`, in order: one deal at random (`rng`, a random.Random)."""
        return self._draw(rng)[0]

    def _draw(self, rng) -> tuple[list, bool]:
        """`draw`, and whether the deal kept to the memory's groups (else it was matched, or uniform)."""
        rnd = rng.random
        if self.groups is None:
            return sorted(self.cards, key=lambda _: rnd()), True    # independent keys: a uniform shuffle
        dealt = [None] * len(self.places)
        taken = None                        # the places taken, once a group's may differ between deals
        for group, candidates, fixed in self.groups:
            if not fixed:
                if taken is None:
                    taken = set(self.settled)
                if taken:
                    candidates = [k for k in candidates if k not in taken]
            if len(candidates) < len(group):
                shuffled = sorted(self.cards, key=lambda _: rnd())
                return _matched(shuffled, self.places, self.possible, rng), False
            chosen = sorted(candidates, key=lambda _: rnd())     # a random ordered choice
            if len(chosen) > len(group):
                del chosen[len(group):]
                if taken is None:
                    taken = set(self.settled)
            for k, c in zip(chosen, group):
                dealt[k] = c
            if taken is not None:
                taken.update(chosen)
        return dealt, True

    def into(self, m, rng) -> None:
        """Deal the cards again in `m` (a copy of the position the deal was worked out on)."""
        places = self.places
        came = _came_from(m, places)
        if self.plan is not None:           # each group shuffled (a key drawn a card), cut into its zones
            rnd, zones, where = rng.random, m.zones, m.where
            for group, cuts, moves in self.plan:
                dealt = sorted(group, key=lambda _: rnd())
                for z, a, b in cuts:
                    zones[z] = part = dealt if b - a == len(dealt) else dealt[a:b]
                    if moves:
                        for c in part:
                            where[c] = z
            _keep_came_from(m, places, came)
            return
        dealt, kept = self._draw(rng)
        zones = m.zones
        if self.runs is not None:           # each zone's places are the whole zone, in order
            for z, a, b in self.runs:
                zones[z] = dealt[a:b]
        else:
            for (z, i), c in zip(places, dealt):
                zones[z][i] = c
        where = m.where
        if kept and self.homes is None:
            self.homes = _homes(places, self.cards, self.possible, self.where)
        for k, z in (self.homes if kept else enumerate(self.zone_of)):
            where[dealt[k]] = z
        _keep_came_from(m, places, came)


def _plan(groups, runs, possible, where) -> list | None:
    """When every group's places are the same in every deal and are whole zones (`runs`), the deal as
    (the group's cards, (zone, first, end) of each zone's cut of them shuffled, may they move?) for
    each group: a random order of each group's cards cut into its zones is a uniform deal of them into
    their places, written as whole lists. A group may not move when each of its cards is remembered in
    the one zone it lies in (a card seen won face down): its cards' `State.where` stay. None otherwise."""
    if runs is None:
        return None
    run_at = {a: (z, a, b) for z, a, b in runs}
    zones = sum(1 << z for z, _a, _b in runs)
    plan = []
    for group, candidates, fixed in groups:
        if not fixed or len(candidates) != len(group):
            return None
        cuts, j = [], 0
        while j < len(candidates):
            run = run_at.get(candidates[j])
            if run is None or candidates[j:j + run[2] - run[1]] != list(range(run[1], run[2])):
                return None
            cuts.append((run[0], j, j + run[2] - run[1]))
            j += run[2] - run[1]
        moves = possible is None or where is None or any(
            (possible[c] & zones).bit_count() != 1 or not possible[c] >> where[c] & 1 for c in group)
        plan.append((group, cuts, moves))
    return plan


def _runs(places, sizes) -> list | None:
    """(zone, first, end) of each zone's run of `places` when each run is its whole zone in order
    (`sizes`: zone instance -> its number of cards), else None."""
    if sizes is None:
        return None
    runs = []
    for k, (z, i) in enumerate(places):
        if i == 0:
            runs.append([z, k, k])
        elif not runs or runs[-1][0] != z or runs[-1][2] != k or k - runs[-1][1] != i:
            return None
        runs[-1][2] = k + 1
    if any(sizes[z] != b - a for z, a, b in runs) or len({z for z, _a, _b in runs}) != len(runs):
        return None
    return [tuple(r) for r in runs]


def _deals(m, places, possible=None) -> list:
    """One _Deal per card type among the hidden `places`."""
    types = m.program.card_types
    by_type: dict = {}
    for place in places:
        by_type.setdefault(types[m.zones[place[0]][place[1]]], []).append(place)
    sizes = [len(z) for z in m.zones]
    return [_Deal(at, [m.zones[z][i] for z, i in at], possible, sizes, m.where) for at in by_type.values()]


def _homes(places, cards, possible, where) -> list:
    """(place, its zone) of each place the deal may put a card into that was not in that zone
    (`where`: the position's card -> zone instance): a card the memory keeps in the zone it is in
    (a card seen won face down) is there in every deal, and its `State.where` need not change."""
    if possible is None or where is None:
        return [(k, z) for k, (z, _i) in enumerate(places)]
    zones = sum(1 << z for z in {z for z, _i in places})
    loose = 0               # the zones a card that may move may be dealt into
    for c in cards:
        mask = possible[c] & zones
        if mask.bit_count() != 1 or not mask >> where[c] & 1:
            loose |= mask or -1
    return [(k, z) for k, (z, _i) in enumerate(places) if loose >> z & 1]


def _matched(cards, places, possible, rng) -> list:
    """Each card dealt into a zone it may be in (`possible`: card -> bit mask of zones), within each
    zone's places (augmenting paths), in a random order within each zone; or `cards` as they are if no
    such deal exists."""
    room: dict[int, int] = {}
    for z, _i in places:
        room[z] = room.get(z, 0) + 1
    allowed = possible
    into: dict[int, list] = {z: [] for z in room}

    def place(c, tried) -> bool:
        for z in room:
            if allowed[c] >> z & 1 and z not in tried:
                tried.add(z)
                if len(into[z]) < room[z]:
                    into[z].append(c)
                    return True
                for k, d in enumerate(into[z]):
                    if place(d, tried):
                        into[z][k] = c
                        return True
        return False

    for c in cards:
        if not place(c, set()):
            return cards
    for held in into.values():
        rng.shuffle(held)
    return [into[z].pop() for z, _i in places]


# In a program that reads `c.came_from` (State.where), the zone a card came from stays with its place:
# the cards dealt again take the histories of the places they land in, so each hidden zone still holds
# cards that came from where its cards truly came from (a card passed face down from one hand to
# another is still one card of that hand that came from the other), and nothing more is told.
def _came_from(m, places) -> list | None:
    if not m.program.tracks_came_from:
        return None
    n = len(m.program.card_names)
    return [m.where[n + m.zones[z][i]] for z, i in places]


def _keep_came_from(m, places, came) -> None:
    if came is None:
        return
    n = len(m.program.card_names)
    for (z, i), z0 in zip(places, came):
        m.where[n + m.zones[z][i]] = z0


def value_hidden(m, v, owner, viewer) -> bool:
    """Is the value of `v` kept for `owner` hidden from `viewer` now (State.seen)?"""
    return not rt_value_seen(m, v.seen_base, owner) >> viewer & 1


def guarded_values(m) -> list[tuple[object, object]]:
    """(variable, owner) of each value some seat may not see at some time: not `seen by all`, or shown
    and hidden by `show`/`hide` (owner None for a shared variable)."""
    out = []
    for v in m.program.vars:
        if v.seen == "all" and not v.shown:
            continue
        owners = range(m.n) if v.owner == "player" else (range(len(m.program.teams)) if v.owner == "team" else [None])
        out.extend((v, k) for k in owners)
    return out


def hidden_values(m, viewer) -> list[tuple[object, object]]:
    """(variable, owner) of each value `viewer` may not see now (owner None for a shared variable)."""
    return [(v, k) for v, k in guarded_values(m) if value_hidden(m, v, k, viewer)]


def set_value(m, v, owner, value) -> None:
    if owner is None:
        m.vars[v.slot] = value
    else:
        m.vars[v.slot][owner] = value


def get_value(m, v, owner):
    return m.vars[v.slot] if owner is None else m.vars[v.slot][owner]


def ask_again(m) -> None:
    """The waiting rule asks again: its options may come from what changed."""
    if m.pending is not None:
        m.pending = None
        machine.run(m)


def sample(m, viewer, rng, chance_only: bool = False, memory=None):
    """A game `viewer` cannot tell from this one: hidden cards dealt again at random among the places
    hidden from it (each into a zone it may be in, as far as the seat remembers: `memory`, an
    engine.whereabouts.Whereabouts of the game), hidden values drawn from their declared values (a
    number with no declared bound becomes its type's zero: the seat has no better guess), and a new
    random generator. With `chance_only`, only what no seat sees is dealt again (for games without
    private information). `rng` is the caller's random.Random; the game's own generator is never read.
    None when the rules cannot run on from the sample. Many samples of one position: `Sampler`."""
    return Sampler(m, viewer, chance_only, memory)(rng)


class Sampler:
    """`sample` for one position and one seat, called once per sample: what every sample shares (the
    hidden places, the deal's groups, the values to draw) is worked out when it is made. It reads the
    game `m` at each call: use it while `m` stays where it was (a search's samples of one decision)."""
    __slots__ = ("m", "deals", "values", "again")

    def __init__(self, m, viewer, chance_only: bool = False, memory=None):
        self.m = m
        places = hidden_places(m, viewer, unseen_only=chance_only)
        self.deals = _deals(m, places, memory.of(viewer) if memory is not None else None) if len(places) > 1 else []
        self.values = []                # (variable, owner, its declared values or None)
        for v, owner in hidden_values(m, viewer):
            if chance_only and rt_value_seen(m, v.seen_base, owner):
                continue
            self.values.append((v, owner, v.domain(m.n) if v.domain else None))
        self.again = bool(places or self.values)       # the waiting rule asks again (ask_again)

    def __call__(self, rng):
        other = self.m.copy()
        for deal in self.deals:
            deal.into(other, rng)
        for v, owner, values in self.values:
            if values is not None:
                if v.table_size:
                    new = [values[rng.randrange(len(values))] for _ in range(v.table_size)]
                else:
                    new = values[rng.randrange(len(values))]
            else:
                new = [v.default] * v.table_size if v.table_size else v.default
            set_value(other, v, owner, new)
        other.rng = rng.getrandbits(64)
        if self.again:
            try:
                ask_again(other)
            except RulesRuntimeError:       # a sample the rules cannot run from
                return None
        return other
