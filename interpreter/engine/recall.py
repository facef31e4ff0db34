"""A seat's observation history: what it was told and what it saw, step by step (perfect recall).

A *step* is the setup, or one decision and everything the rules did until the next one. After each
step a seat has its *news* (engine.observe: the decision as it was told it, narration addressed to
it, chance as it may know it — a shuffle, "a random draw") and its *view* (engine.views). Its
observation history is the list of (news, view) of every step so far; its information state is that
history, so two games a seat cannot tell apart give it the same information state, and two it can
tell apart, different ones (the property `tests/test_perfect_recall.py` checks for every bundled game).

A session keeps a copy of its state after each step (`Session.after`), and a seat's `Recall` reads
them when it is asked, from where it last read: nothing is computed for a seat nobody asks about.

    recall.catch_up()[k] = Step(news=(...lines as the seat reads them...), chooser=the seat that decided
                                (None for the setup), told=the decision's action id when the seat was
                                told it in full, else None)
    recall.views()[k]    = the seat's view after step k (engine.views), None where unchanged
"""
from __future__ import annotations

import zlib

import attrs

from . import observe, views


@attrs.define(frozen=True)
class Step:
    news: tuple                  # the lines the seat was told in this step, in order
    chooser: int | None          # the seat whose decision began the step (None: the setup)
    told: int | None             # that decision's action id if the seat was told it in full, else None


class Recall:
    """One seat's observation history, read on demand from a session's events and the states it passed
    through (`Session.after`). Its lists only grow, so a copy (a game cloned for search) shares them
    until one of the two reads on."""

    def __init__(self, session, viewer: int):
        self.session = session
        self.viewer = viewer
        self.steps: list[Step] = []   # the first `count` are this recall's
        self.count = 0
        self.read = 0                 # how many of session.events the steps cover
        self.seen: list = []          # the view after each step, None where unchanged (the first `viewed`)
        self.viewed = 0
        self.last_view = None
        self.joined = ""              # `text` for the first `written` steps
        self.written = 0
        self.last_lines: list = []    # the view's lines after step `chunked` - 1
        self.chunks: list = []        # each step's lines of `text` (the first `chunked`)
        self.sums: list = []          # and their checksums
        self.chunked = 0

    def copy(self, session) -> "Recall":
        twin = Recall.__new__(Recall)
        twin.__dict__.update(self.__dict__)
        twin.session = session
        return twin

    def catch_up(self) -> list[Step]:
        """Read the steps since the last call; the whole history so far."""
        events = self.session.events
        total = len(self.session.after)
        if self.count < total and len(self.steps) != self.count:
            self.steps = self.steps[:self.count]          # shared with a copy that read on: ours now
        while self.count < total:
            end = self.read + 1 if self.count else self.read
            while end < len(events) and events[end][0] != "decision":
                end += 1
            chooser = told = None
            if self.count:
                d = events[self.read][1]
                chooser = d.player
                if self.session.told(d, self.viewer) == d.label:
                    told = d.id
            news = tuple(t for e in events[self.read:end]
                         if (t := observe.event_text(self.session, e, self.viewer)) is not None)
            self.steps.append(Step(news, chooser, told))
            self.count += 1
            self.read = end
        return self.steps if len(self.steps) == self.count else self.steps[:self.count]

    def views(self) -> list:
        """The seat's view after each step (engine.views), None where it is the one after the step before."""
        states = self.session.after
        if self.viewed < len(states) and len(self.seen) != self.viewed:
            self.seen = self.seen[:self.viewed]
        while self.viewed < len(states):
            view = views.view(states[self.viewed], self.viewer)
            self.seen.append(None if view == self.last_view else view)
            self.last_view = view
            self.viewed += 1
        return self.seen if len(self.seen) == self.viewed else self.seen[:self.viewed]

    def text(self, view_lines) -> str:
        """The history as text: each step's news, then what changed in its view (indented): the whole view
        after the setup, then each line that differs from the step before as "  N| line" (N counts from 1),
        preceded by "  (M lines)" when the view's length changed — so each view can be rebuilt from it."""
        digests = self.digests(view_lines)
        if self.written < len(digests):
            lines = [line for chunk in self.chunks[self.written:len(digests)] for line in chunk]
            if lines:
                self.joined = "\n".join(([self.joined] if self.joined else []) + lines)
            self.written = len(digests)
        return self.joined

    def digests(self, view_lines) -> list[int]:
        """Each step's lines of `text` as a 24-bit checksum (CRC-32's low bits): the information-state tensor
        holds one per decision, so two histories that differ anywhere give different tensors (but for one
        chance in 2**24 per pair), even where the difference was only said or seen in passing."""
        name = self.session.state.names[self.viewer]
        steps, seen = self.catch_up(), self.views()
        if len(self.chunks) != self.chunked:
            self.chunks, self.sums = self.chunks[:self.chunked], self.sums[:self.chunked]
        for step, view in zip(steps[self.chunked:], seen[self.chunked:]):
            lines = list(step.news)
            if view is not None:
                now, before = _lines(view, name, view_lines), self.last_lines
                if not before:
                    lines += ["  " + line for line in now]
                else:
                    if len(now) != len(before):
                        lines.append(f"  ({len(now)} lines)")
                    lines += [f"  {i + 1}| {line}" for i, line in enumerate(now)
                              if i >= len(before) or line != before[i]]
                self.last_lines = now
            self.chunks.append(lines)
            self.sums.append(zlib.crc32("\n".join(lines).encode()) & 0xFFFFFF)
            self.chunked += 1
        return self.sums if len(self.sums) == self.chunked else self.sums[:self.chunked]


def _lines(view, name, view_lines) -> list[str]:
    """A view as the lines of its text: zones and values, then whose decision it is and, when it is the
    seat's own, its options (or the result, once the game is over)."""
    lines = view_lines(view, name)
    if "scores" in view:
        lines.append("the game is over: " + ", ".join(f"{k} {v}" for k, v in view["scores"].items()))
    elif "to_decide" in view:
        lines.append(f"to decide: {view['to_decide']}")
        if "options" in view:
            lines.append("options: " + " | ".join(view["options"]))
    return lines
