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
