"""Functions the generated rule code calls while a game runs.

Only what can fail with a sentence for the rule author (the top of an empty
zone, max of nothing, a missing player) or what is too long to inline lives
here; the compiler inlines the rest. Each is bound by name into the generated
code's namespace (see rulecraft.builtins for which built-in uses which).
"""
from __future__ import annotations

from . import rng
from .errors import RuleFailure, StepBudgetSpent


def rt_top(m, z):
    cards = m.zones[z]
    if not cards:
        raise RuleFailure(f"top of an empty zone ({m.program.zone_instance_names[z]})")
    return cards[-1]


def rt_bottom(m, z):
    cards = m.zones[z]
    if not cards:
        raise RuleFailure(f"bottom of an empty zone ({m.program.zone_instance_names[z]})")
    return cards[0]


def rt_random(m, xs, shown):
    """`random(xs)`; recorded, when the game keeps a chance log, as ("random", decisions so far,
    how many there were, which was drawn, the value as `shown(m, value)` shows it to people)."""
    if not xs:
        raise RuleFailure("random choice from nothing")
    if m.forced and m.forced[0][0] == "draws":    # chance decided outside, draw by draw (below)
        k = m.forced[0][1].below(len(xs))
    elif m.forced:                                # a scenario's `next random is …`
        wanted = _forced(m, "random")
        if wanted not in xs:
            raise RuleFailure(f"the scenario says the next random draw is {shown(m, wanted)}, "
                              f"but it can only be one of {', '.join(shown(m, x) for x in xs)}")
        k = xs.index(wanted)
    else:
        k = rng.below(m, len(xs))
    if m.chance is not None:
        m.chance.append(("random", m.decisions, len(xs), k, shown(m, xs[k])))
    return xs[k]


# A state's `forced` queue may instead start with ("draws", source): every draw of the rules —
# `random(xs)` one, `shuffle z` one per Fisher–Yates swap — then asks `source.below(n)` for a number
# in 0..n-1 and never reads the state's RNG. An adapter that shows the game's chance structure
# (rulecraft.rl.openspiel: one chance node per draw) decides them there; `below` may raise to stop
# the rules at the draw. A shuffle first tells the source the sizes of all its draws (`expect`), so
# that a source stopped at one swap knows the chance nodes of the next ones.


def _forced(m, kind):
    """The next outcome a scenario fixed, which must be of this kind (they are used in order)."""
    wanted_kind, value = m.forced.pop(0)
    if wanted_kind != kind:
        doing = {"random": "draw at random", "shuffle": "shuffle"}
        raise RuleFailure(f"the scenario fixes a {wanted_kind} next, but the rules {doing[kind]} first")
    return value(m)


MAX_INT = 10 ** 15          # rules keep numbers within ±MAX_INT, lists under MAX_LEN elements
MAX_LEN = 100_000


def rt_too_big(value):
    """A number the rules stored is beyond the bound: say so (before Python spends minutes on it)."""
    digits = len(str(abs(value))) if abs(value).bit_length() < 10_000 else f"over {abs(value).bit_length() * 3 // 10:,}"
    raise RuleFailure(f"a number of {digits} digits: rules keep numbers within ±10^15")


def rt_mul(a, b):
    """`a * b` of two computed numbers: a chain of them could grow without end."""
    r = a * b
    if -MAX_INT <= r <= MAX_INT:
        return r
    rt_too_big(r)


def rt_list(xs):
    """A list made by joining lists: doubling one in a loop could exhaust memory."""
    if len(xs) <= MAX_LEN:
        return xs
    raise RuleFailure(f"a list of {len(xs):,} elements: rules keep lists under {MAX_LEN:,}")


MAX_TEXT = 1_000_000


def rt_text(s):
    """A text made by joining: joins within joins could grow without end."""
    if len(s) <= MAX_TEXT:
        return s
    raise RuleFailure(f"a text of {len(s):,} characters: rules keep texts under {MAX_TEXT:,}")


def rt_pad(text: str, width: int, how: str) -> str:
    """`pad`, `pad_left`, `centre`: the text in a field of `width` characters (a wider text stays whole)."""
    if width > MAX_TEXT:
        raise RuleFailure(f"a field of {width:,} characters: rules keep texts under {MAX_TEXT:,}")
    return text.ljust(width) if how == "left" else (text.rjust(width) if how == "right" else text.center(width))


def rt_spend(m, xs):
    """An inner `for` of a comprehension spends the step budget by its length (products could be huge)."""
    m.ticks -= len(xs)
    if m.ticks < 0:
        raise StepBudgetSpent()
    return xs


def rt_range(low, high, within=None):
    """`low..high` with computed bounds; in a choice, `within` is the universe (lo, hi) of its option ids."""
    if within is not None and low <= high and (low < within[0] or high > within[1]):
        raise RuleFailure(f"the range {low}..{high} goes outside {within[0]}..{within[1]}, the numbers this "
                          "choice can offer (from the bounds of what its range is computed from)")
    if high - low >= 100_000:
        raise RuleFailure(f"the range {low}..{high} is too large: ranges in rules hold at most 100000 numbers")
    return tuple(range(low, high + 1))


def rt_max(xs):
    if not xs:
        raise RuleFailure("max of nothing")
    return max(xs)


def rt_min(xs):
    if not xs:
        raise RuleFailure("min of nothing")
    return min(xs)


def rt_first(xs):
    """`first(x in xs where c)`: the first that meets it; nothing is a sentence for the rule author."""
    for x in xs:
        return x
    raise RuleFailure("first(…): no element meets the condition (or the list is empty)")


def rt_nothing(what):
    """`max`/`min` of an empty list: a sentence for the rule author."""
    raise RuleFailure(f"{what} of nothing")


def rt_max_by(xs, key):
    if not xs:
        rt_nothing("max")
    return max(xs, key=key)      # the first of the largest, as the docs promise


def rt_min_by(xs, key):
    if not xs:
        rt_nothing("min")
    return min(xs, key=key)


def rt_sort_by(xs, key):
    return tuple(sorted(xs, key=key))   # stable: equal keys keep their order


def rt_count(xs):
    return sum(1 for x in xs if x)


def rt_index(xs, i):
    if not -len(xs) <= i < len(xs):
        raise RuleFailure(f"index {i} is outside a list of {len(xs)}")
    return xs[i]


def rt_div(a, b):
    if b == 0:
        raise RuleFailure("division by zero")
    return a // b


def rt_mod(a, b):
    if b == 0:
        raise RuleFailure("division by zero (mod 0)")
    return a % b


def rt_owner(m, c):
    where = m.where[c]
    p = m.program.zone_instance_owner[where] if where >= 0 else -1
    if p < 0:
        raise RuleFailure(f"{m.program.card_names[c]} is not in a player's zone, so it has no owner")
    return p


def rt_slot(key, lo, size):
    k = key - lo
    if not 0 <= k < size:
        raise RuleFailure(f"{key} is outside the table's keys {lo}..{lo + size - 1}")
    return k


def rt_remove(xs, x):
    xs = tuple(xs)
    if x not in xs:
        raise RuleFailure("cannot remove something that is not in the list")
    i = xs.index(x)
    return xs[:i] + xs[i + 1:]


def rt_player(m, k):
    if not 1 <= k <= m.n:
        raise RuleFailure(f"there is no player {k} in a game of {m.n}")
    return k - 1


def rt_winners(m):
    p = m.program
    if p.outcome is not None and p.outcome.won is not None:       # `outcome cooperative when …`: all or none
        return tuple(range(m.n)) if p.outcome.won(m) else ()
    if p.score is None:
        return tuple(range(m.n))
    keys = [(p.score(m, i), p.tiebreak(m, i) if p.tiebreak else 0) for i in range(m.n)]
    best = max(keys)
    return tuple(i for i in range(m.n) if keys[i] == best)


def rt_score(m, player):
    return m.program.score(m, player)


def rt_zone_of(m, c):
    where = m.where[c]
    if where < 0:
        raise RuleFailure(f"{m.program.card_names[c]} is not in play (in no zone)")
    return where


def rt_seen_leaving(m, cards, src):
    """Cards leave zone `src` whole (`move Z to …`, compiled inline): under the observation property
    they were in sight of the seats that see `src`."""
    if type(m.sink) is ShownLog:
        log, mask = m.sink.cards, m.seen[src]
        for c in cards:
            log[c] = log.get(c, 0) | mask


def rt_seen_leaving_each(m, cards):
    """Cards about to be moved one by one (`move c to …`, `move [list] to …`), in the rules compiled with
    the watch calls: under the observation property each was in sight of the seats that see its zone."""
    if type(m.sink) is ShownLog:
        log, masks = m.sink.cards, m.seen
        for c in cards:
            place = m.where[c]
            if place >= 0:
                log[c] = log.get(c, 0) | masks[place]


def rt_came_from(m, c, n):
    """`c.came_from`: the zone `c` left when it last moved, kept at `m.where[n + c]` (n cards in all)."""
    z = m.where[n + c]
    if z < 0:
        raise RuleFailure(f"{m.program.card_names[c]} came from no zone (it has not moved from one)")
    return z


def rt_zone_owner(m, z):
    p = m.program.zone_instance_owner[z]
    if p < 0:
        raise RuleFailure(f"{m.program.zone_instance_names[z]} is not a player's zone, so it has no owner")
    return p


def rt_move_list_from(m, n, cards, dst, bottom):
    """rt_move_list in a program that reads `came_from`: each card also records the zone it left (a
    card named twice left `dst` the second time, as if each were moved in turn)."""
    cards = tuple(cards)
    where = m.where
    left = [where[c] for c in cards]
    rt_move_list(m, cards, dst, bottom)
    seen = set()
    for c, s in zip(cards, left):
        where[n + c] = dst if c in seen else s
        seen.add(c)


def rt_move_list(m, cards, dst, bottom):
    """`move LIST to Z`: as if each card were moved in turn (to the bottom: each goes under the last)."""
    zones, where = m.zones, m.where
    cards = tuple(cards)
    n = len(cards)
    first = cards[0] if n else 0
    if n > 8 and cards == tuple(range(first, first + n)) and where[first:first + n].count(-1) == n:
        where[first:first + n] = [dst] * n    # a run of cards in no zone yet (all of a type, at setup): no loop
    else:
        if len(set(cards)) < n:               # a card named twice ends where its last move puts it
            cards = tuple(reversed(dict.fromkeys(reversed(cards))))
        for c in cards:
            s = where[c]
            if s >= 0:
                zones[s].remove(c)
            where[c] = dst
    if bottom:
        zones[dst][0:0] = cards[::-1]
    else:
        zones[dst].extend(cards)


def rt_shuffle(m, z):
    """`shuffle z`; recorded, when the game keeps a chance log, as ("shuffle", decisions so far,
    the zone instance, its cards in their new order, bottom first). It spends a step per card."""
    items = m.zones[z]
    m.ticks -= len(items)
    if m.ticks < 0:
        raise StepBudgetSpent()
    if m.forced and m.forced[0][0] == "draws":    # Fisher–Yates, each swap decided outside
        draws = m.forced[0][1]
        draws.expect(range(len(items), 1, -1))     # the sizes of its draws, known before the first
        for i in range(len(items) - 1, 0, -1):
            j = draws.below(i + 1)
            items[i], items[j] = items[j], items[i]
    elif m.forced:                                # a scenario's `next shuffle is […]`
        wanted = list(_forced(m, "shuffle"))
        if sorted(wanted) != sorted(items):
            names = m.program.card_names
            raise RuleFailure(f"the scenario says the next shuffle gives {len(wanted)} cards, "
                              f"but {m.program.zone_instance_names[z]} holds other ones: "
                              f"{', '.join(names[c] for c in items) or 'none'}")
        items[:] = wanted
    else:
        rng.shuffle(m, items)
    if m.chance is not None:
        m.chance.append(("shuffle", m.decisions, z, tuple(items)))


def rt_cast(m, c, positions, type_name):
    """A card of any type, used where a card of one type is expected."""
    if c is None or positions[c] is None:
        shown = m.program.card_names[c] if c is not None else "no card"
        raise RuleFailure(f"{shown} is not a {type_name}")
    return c


def rt_cast_all(m, cards, positions, type_name):
    for c in cards:
        rt_cast(m, c, positions, type_name)
    return tuple(cards)


# ---------------------------------------------------------------- what is shown, and to whom
# A text shown to people (narration, a decision's label) is kept as segments: plain strings, and
# for each card a segment that knows what the card is called and what it is when hidden ("a Witch").
# `seal` fixes, from where each card is at that moment, which seats see it; each seat is then shown
# the text with the cards it may not see replaced (engine.observe.render).

def rt_seg_card(m, c, hidden):
    """A card in a shown text, not yet sealed: ("card", its name, its id, what it is when hidden)."""
    if c is None:
        return "no card"
    return ("card", m.program.card_names[c], c, hidden)


def rt_seg_card_or_none(m, c, hidden):
    """An optional card (`Witch?`) in a shown text: the card, or "none"."""
    return "none" if c is None else ("card", m.program.card_names[c], c, hidden)


def rt_seg_cards(m, cards, hidden):
    """Cards in a shown text, separated by commas (a zone's or a list's)."""
    if not cards:
        return "nothing"
    out = []
    for c in cards:
        if out:
            out.append(", ")
        out.append(rt_seg_card(m, c, hidden))
    return tuple(out)


class CheckedNarration(list):
    """A narration sink that lets a failing narration stop the game (rulecraft test, scenarios): elsewhere
    a narration that fails is told as failing and the game goes on (rt_say_failed)."""


class ShownLog(CheckedNarration):
    """A narration sink that also keeps which cards its texts named, with the seats that saw them named
    (the observation property: a card named to a seat has come into its sight, if only in passing)."""

    def __init__(self):
        super().__init__()
        self.cards: dict[int, int] = {}
        self.reveals = 0            # `reveal(x)`s run: a secret value shown on purpose


def rt_or_none(compute):
    """A card or zone that a shown value may have been computed from, or None where computing it fails:
    a branch the value did not take (`if empty(used) then 0 else face[top(used)]`). The value itself is
    computed apart, so a real failure is still reported there."""
    try:
        return compute()
    except Exception:       # noqa: BLE001 - any failure means the value did not read it
        return None


def rt_reveal(m, value):
    """`reveal(x)` is x; it tells the observation property that the rules show a secret here on purpose."""
    if type(m.sink) is ShownLog:
        m.sink.reveals += 1
    return value


def seal(m, segments, seen=None) -> tuple:
    """A flat tuple of strings (seen by all) and (name, seats that see it, what it is when hidden).
    `seen`: card -> the seats that saw it before now, if only in passing (engine.session.sealed_label)."""
    out = []
    masks = m.seen
    everyone = (1 << m.n) - 1
    log = m.sink.cards if type(m.sink) is ShownLog else None
    stack = [segments]
    while stack:
        s = stack.pop()
        if type(s) is str:
            out.append(s)
        elif len(s) == 4 and s[0] == "card":
            place = m.where[s[2]]
            mask = masks[place] if place >= 0 else everyone       # out of play: nothing secret about it
            if seen:
                mask |= seen.get(s[2], 0)
            if log is not None:
                log[s[2]] = log.get(s[2], 0) | mask
            out.append(s[1] if mask == everyone else (s[1], mask, s[3]))
        elif len(s) == 6 and s[0] == "derived":      # a value computed from cards, zones or private values
            _kind, text, cards, zones, mask, hidden = s
            mask &= everyone
            for c in cards:
                if c is not None and m.where[c] >= 0:
                    mask &= masks[m.where[c]] | (seen.get(c, 0) if seen else 0)
            for z in zones:
                if z is not None:
                    mask &= masks[z]
            if log is not None:         # a card told by its field ("Red") is shown too, to who is told it
                for c in cards:
                    if c is not None and mask:
                        log[c] = log.get(c, 0) | mask
            out.append(text if mask == everyone else (text, mask, hidden))
        else:
            stack.extend(reversed(s))
    return tuple(out)


def rt_said(m, audience, segments):
    """`say`: the narration, sealed now, for `audience` (a mask of seats, or None for everyone)."""
    m.sink.append(("say", audience, seal(m, segments)))


def rt_say_failed(m, told, error):
    """A `say` whose text (or audience) failed to compute while someone listens. A narration is computed
    only when shown, so its failure cannot stop the game (`run -q` would play on): its audience, if it
    was computed (else `rt_UNSET`), is told it failed, and the game goes on, as it does unshown.
    `rulecraft test` and scenarios (a CheckedNarration sink) raise the failure, so it is found.
    (The generated `say` catches the failure in line, not through a helper taking lambdas: a lambda
    would turn the locals it reads into cells, slower to read everywhere in the rule's function.)"""
    if isinstance(m.sink, CheckedNarration):
        raise error
    if told is not rt_UNSET:
        m.sink.append(("say", told, (f"(a narration fails here: {error})",)))


def rt_no_option(m, who):
    """A choice without a pass, over options some seat may not see, has none left: skipping it would tell
    the others what they may not know, so the rules must say what happens (`may choose … or "…"`)."""
    raise RuleFailure(f"Player {who + 1} must choose here but has no option left, and whether there is one depends "
                      "on what other players may not see; write `may choose … or \"…\"` so she is asked (and passes) "
                      "whatever she holds")


def rt_value_seen(m, base: int, owner) -> int:
    """The seats that see the value of a variable now (`var … seen by …`, then `show`/`hide`), kept at
    State.seen[base + owner] (owner: a seat or a team, None for a shared variable)."""
    return m.seen[base if owner is None else base + owner]


def rt_all_values_seen(m, base: int, team_owned: bool) -> int:
    """The seats that see the value of a per-player (or per-team) variable for every owner: a text that
    reads it for owners it computes itself (`{[p.bid for p in players]}`) is told in full to those."""
    mask = (1 << m.n) - 1
    for k in range(max(1, len(m.program.teams)) if team_owned else m.n):
        mask &= m.seen[base + k]
    return mask


def rt_show(m, k, seats, shown: bool):
    """`show X to …` (shown) / `hide X from …`: the seats (a mask) see zone instance or value `k`
    (State.seen) from now on, or no longer do. State.seen is replaced whole, so the copies that share
    it keep theirs."""
    masks = list(m.seen)
    masks[k] = (masks[k] | seats) if shown else (masks[k] & ~seats)
    m.seen = tuple(masks)


def rt_seats(m, owner: int, kind: str, who) -> int:
    """The seats of a `show`/`hide`: "all", "others" (every seat but the owner — a seat, or -(team + 2)
    for a team's, as Program.zone_instance_owner records it, or -1 for the table's), a player, a team,
    or a list of players."""
    if kind == "all":
        return (1 << m.n) - 1
    if kind == "others":
        if owner == -1:
            raise RuleFailure("`others` leaves out an owner, and this belongs to the table: name the seats")
        mine = 1 << owner if owner >= 0 else rt_told(m, -owner - 2, True)
        return ((1 << m.n) - 1) & ~mine
    if kind == "team":
        return rt_told(m, who, True)
    if kind == "player":
        return 1 << who
    out = 0
    for p in who:
        out |= 1 << p
    return out


def rt_told(m, who, team: bool):
    """The seats of `say to`: a player, or a team's players."""
    if team:
        t = max(1, len(m.program.teams))
        return sum(1 << p for p in range(m.n) if p % t == who)
    return 1 << who


rt_UNSET = object()     # a value computed ahead that failed: computed again where it is used (expressions.py)


HELPERS = {name: fn for name, fn in globals().items() if name.startswith("rt_")}


def rt_drive(m, base):
    """Run the frames above `base` on the stack, top first, until they are done (False) or one waits (True).

    Each frame's rule is a function `entry(m, frame) -> waiting?` that starts or resumes at the
    frame's pc; the machine drives a whole game with base 0, a `signal` drives its handlers."""
    stack = m.stack
    entries = m.program.entries
    while len(stack) > base:
        fr = stack[-1]
        if entries[fr[0]][fr[1]](m, fr):
            return True
        stack.pop()
    return False


HELPERS["rt_drive"] = rt_drive


def rt_drive_fast(m, base, entries, choose):
    """rt_drive on the fast path (engine.playout): the frames' functions take the playout's `choose`."""
    stack = m.stack
    while len(stack) > base:
        fr = stack[-1]
        if entries[fr[0]][fr[1]](m, fr, choose):
            return True
        stack.pop()
    return False


HELPERS["rt_drive_fast"] = rt_drive_fast
