"""What a seat is shown of the game's texts: narration and others' decisions, with hidden cards replaced.

Narration (`say`) and decision labels are kept as sealed segments (runtime.helpers.seal): the
strings everyone may see, and for each card the seats that saw its place when the text was
made. `render` gives one seat's text: a card it may not see becomes what it is ("a Witch").
A seat is one of:

- None: everything (the omniscient account of `run`, `replay` without `--seat`);
- a seat number, 0-based: what that player may see;
- PUBLIC: only what every seat sees (a hot-seat screen that everyone at the table reads).
"""
from __future__ import annotations

PUBLIC = -1


def render(segments, viewer) -> str:
    if viewer is None:
        return "".join(s if type(s) is str else s[0] for s in segments)
    out = []
    for s in segments:
        if type(s) is str:
            out.append(s)
        else:
            name, mask, hidden = s
            out.append(name if viewer >= 0 and mask >> viewer & 1 else hidden)
    return "".join(out)


def told(audience, viewer) -> bool:
    """Is a line said to `audience` (a mask of seats, or None for everyone) shown to `viewer`?"""
    if audience is None or viewer is None:
        return True
    return viewer >= 0 and bool(audience >> viewer & 1)


def narration(entries, viewer) -> list[str]:
    """The lines of narration `viewer` is told, as they read for them."""
    return [render(segments, viewer) for _kind, audience, segments in entries if told(audience, viewer)]


def event_text(session, event, viewer) -> str | None:
    """One event of a session as `viewer` is told it, or None if it is not told to them.

    A decision reads "Player 2: play Blue 7" (redacted for the others as its chooser's label says);
    a shuffle "deck is shuffled" (with its new order to a viewer who sees the zone); a random draw
    its value."""
    kind = event[0]
    if kind == "say":
        _kind, audience, segments = event
        return render(segments, viewer) if told(audience, viewer) else None
    if kind == "decision":
        d = event[1]
        return f"{session.state.names[d.player]}: {session.told(d, viewer)}"
    outcome = event[1]
    program, m = session.program, session.state
    if outcome[0] == "shuffle":
        _s, _after, zone, order = outcome
        name = program.zone_instance_names[zone]
        # (in a game that changes who sees a zone, the order is told to none: it is told after the step,
        # when the zone may be seen by others than when it was shuffled)
        if viewer is None or (viewer >= 0 and not program.changes_seen and m.seen[zone] >> viewer & 1):
            return f"{name} is shuffled: {', '.join(program.card_names[c] for c in order) or 'empty'}"
        return f"{name} is shuffled"
    _r, _after, count, k, shown = outcome
    if _draw_told(session, outcome, viewer):
        return f"random draw: {shown} ({k + 1} of {count})"
    return "a random draw"


def _draw_told(session, outcome, viewer) -> bool:
    """Is a `random(...)` draw's value told in `viewer`'s news? Only to the omniscient account. To a
    seat the value is never told here: where it goes (a variable, a card moved, a narration) decides
    whether the seat may see it, and it reaches the seat there — in its view, a label or a `say` —
    sealed by the same `seen by` that filters everything else. Telling it here would tell it to every
    seat, whatever it went into (issue 26)."""
    return viewer is None


class Observer:
    """One seat's observation of a session, read as the game goes on: what the seat may see now,
    and what it was told since it last looked — the one model every consumer uses (the CLI's
    accounts, and agents or adapters that look at the game)."""

    def __init__(self, session, viewer):
        self.session = session
        self.viewer = viewer          # a seat, None (everything, for debugging) or PUBLIC
        self.read = 0

    def news(self, kinds=("say", "decision", "chance")) -> list[str]:
        """What the seat was told since it last asked, in order, as it reads for them."""
        events = self.session.events
        out = []
        for e in events[self.read:]:
            if e[0] in kinds:
                text = event_text(self.session, e, self.viewer)
                if text is not None:
                    out.append(text)
        self.read = len(events)
        return out

    def observe(self) -> dict:
        """The seat's view of the game now (engine.views) and its news since it last looked."""
        from .views import view
        seen = None if self.viewer == PUBLIC else view(self.session.state, self.viewer)
        return {"seat": self.viewer, "omniscient": self.viewer is None, "view": seen, "news": self.news()}
