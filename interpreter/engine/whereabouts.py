"""Where each seat may think each card is: the memory its samples respect (engine.determinize).

A seat that watched a card played face up and then won into a face-down pile knows the card is in
that pile, though it sees only how many cards the pile holds. For every seat and every card this
keeps the zone instances the card may be in as far as the seat can tell — a bit mask, read by
`determinize.sample` — following the game step by step (a step: the setup, or one decision and all
the rules run until the next), from `seen by` alone:

- a card in a zone the seat sees is there, and only there;
- a card that left a zone the seat sees for one it does not see is in that one (the seat saw it go:
  every zone's count is public);
- when a card goes from a zone the seat does not see (or from no zone) to another it does not see, the
  seat cannot tell which card it was: every card that may have been in the first may now be in the
  second (and on, through the zones it may have gone to since, within the step).

Each card moves once per step, from where it was before the step to where it is after: the zones it
crossed within a step are not followed, and neither is the order of the cards within a zone. So a
seat's memory never rules out where a card truly is (tests/test_memory.py checks it in every bundled
game and example). The zones each move left and entered are taken as known to every seat, as the
counts of every zone are public; when one step moves several cards between zones a seat does not
see, the counts alone may tell it a little less (which zone gave to which), never which card went.
Started on a game in progress, a seat remembers only what it sees then.
The values of variables are not remembered: a value hidden again (`hide`) is drawn afresh in samples,
which forgets, never tells. Who sees a zone may change (`show`, `hide`: State.seen): a card is taken
as seen leaving a zone if the seat saw that zone before the step, and as seen where it lies if the seat
sees that zone after it; the cards of a zone that comes into a seat's sight are known to be there.
"""
from __future__ import annotations

from itertools import compress
from operator import ne


class Whereabouts:
    """For each seat, for each card, the zone instances it may be in (bit k: instance k; the bit after
    the last instance: in no zone). A table calls `note` after each step, which only keeps where the
    cards are (a list copy); the masks follow those steps when a seat's are read (`of`), so a game
    no agent samples from pays next to nothing."""
    __slots__ = ("where", "_possible", "_steps", "_masks", "_nowhere")

    def __init__(self, m):
        self._masks = m.seen
        self._nowhere = len(m.zones)
        self.where = m.where[:len(m.program.card_names)]      # where the cards were at the last step followed
        self._steps: list[list[int]] = []                     # where they were after each step since
        self._possible: list[list[int]] = []
        for viewer in range(m.n):
            unseen = 1 << self._nowhere
            for inst, mask in enumerate(self._masks[:self._nowhere]):
                if not mask >> viewer & 1:
                    unseen |= 1 << inst
            self._possible.append([1 << z if z >= 0 and self._masks[z] >> viewer & 1 else unseen
                                   for z in self.where])

    def copy(self) -> "Whereabouts":
        twin = Whereabouts.__new__(Whereabouts)
        twin.where = self.where
        twin._steps = self._steps[:]
        twin._possible = [row[:] for row in self._possible]
        twin._masks, twin._nowhere = self._masks, self._nowhere
        return twin

    def note(self, m) -> None:
        """Call after each step of the game (the setup, or a decision and the rules it runs)."""
        self._steps.append((m.where[:len(self.where)], m.seen))

    def of(self, viewer: int) -> list[int]:
        """For each card, the zone instances seat `viewer` may think it is in (a bit mask)."""
        for now, masks in self._steps:
            self._follow(now, masks)
        self._steps.clear()
        return self._possible[viewer]

    def _follow(self, now: list[int], masks: tuple) -> None:
        before, old = self.where, self._masks
        if before == now and masks is old:
            return
        moved = [(c, before[c], now[c]) for c in compress(range(len(now)), map(ne, before, now))]
        self.where, self._masks = now, masks
        nowhere = self._nowhere
        for viewer, possible in enumerate(self._possible):
            if masks is not old:                  # zones that came into the seat's sight: their cards are there
                for c, z in enumerate(now):
                    if z >= 0 and masks[z] >> viewer & 1 and not old[z] >> viewer & 1:
                        possible[c] = 1 << z
            unseen_moves: dict[int, int] = {}     # zone not seen -> the zones not seen a card went to from it
            for c, a, b in moved:
                if b >= 0 and masks[b] >> viewer & 1:
                    possible[c] = 1 << b
                elif a >= 0 and old[a] >> viewer & 1:
                    possible[c] = 1 << (b if b >= 0 else nowhere)
                else:
                    a = a if a >= 0 else nowhere
                    unseen_moves[a] = unseen_moves.get(a, 0) | 1 << (b if b >= 0 else nowhere)
            if unseen_moves:
                _spread(possible, _closure(unseen_moves))


def _closure(moves: dict[int, int]) -> dict[int, int]:
    """zone -> every zone a card may have reached from it through `moves` (in any order, within a step)."""
    reach = dict(moves)
    changed = True
    while changed:
        changed = False
        for z, to in reach.items():
            more = to
            for y, further in reach.items():
                if to >> y & 1:
                    more |= further
            if more != to:
                reach[z] = more
                changed = True
    return reach


def _spread(possible: list[int], reach: dict[int, int]) -> None:
    """Every card that may be in a zone cards left unseen may now be wherever they went."""
    sources = 0
    for z in reach:
        sources |= 1 << z
    wider: dict[int, int] = {}
    for mask in set(possible):          # a few distinct masks among many cards
        if mask & sources:
            more = mask
            for z, to in reach.items():
                if mask >> z & 1:
                    more |= to
            wider[mask] = more
    possible[:] = [wider.get(mask, mask) for mask in possible]
