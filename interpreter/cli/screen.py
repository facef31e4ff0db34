"""The screen before a person's decision in `rulecraft play`, laid out for people.

From top to bottom: what happened since the seat last decided (the news: narration, and the
others' decisions folded several to a line), a title, the seat's view (engine.views through
plaintext.view_lines, in its compact form) with every line that changed since the seat's last
screen marked `»`, then the numbered options, in columns when there are many. At a terminal
the screen fits its size: long lines wrap with an indent and, when the news would not fit,
only its latest lines are shown with a note that `log` has them all. In a pipe nothing is
wrapped or cut. Nothing here knows a game, and every word shown comes from the seat's view
and the events as told to that seat.
"""
from __future__ import annotations

import re
import textwrap

CHANGED = "» "
SAME = "  "
DECISION = "  "                   # the indent that marks a decision line in the news (plaintext.Account)
OWN = "your "                     # how plaintext.view_lines starts a line of the viewer's own cards
TAKEN_FOR_YOU = "your only option, taken for you)"     # ends the news line of a decision taken for the person
ASKED_ROOM = 48             # the most of its question such a line repeats ("asked: answer with a spell?")


def taken_for_you(question: str | None) -> str:
    """What ends the news line of a decision taken for the person: what they were asked, shortened (its
    first question, or the clause of it after the last colon), and that it was their only option."""
    asked = ""
    if question:
        first = re.match(r"[^?]*\?|[^.]*", question.strip()).group(0).strip()
        if len(first) > ASKED_ROOM:
            first = first.rpartition(": ")[2]
        if len(first) > ASKED_ROOM:
            first = first[:ASKED_ROOM - 1].rstrip() + "…"
        asked = f"asked: {first} — " if first else ""
    return f"  ({asked}{TAKEN_FOR_YOU}"
TAKEN_NOTE = "taken for you:"                              # ... and names it in a note of lines left out
PINNED_OWN = "own"          # a news line's pinned flag when it tells what came of the person's own choice
OWN_CUT = " (with some of what came of your decision)"     # a note of lines left out says when it holds such


def fold_decisions(lines: list[tuple], width: int | None) -> list[tuple[str, bool]]:
    """The news, (kind, line, pinned) triples, as (line, pinned) pairs: runs of decisions ("  Player 2: let
    it pass") joined by " · " into as few lines as fit (a line pinned if one of its decisions is)."""
    out: list[tuple[str, bool]] = []
    run: list[tuple[str, bool]] = []

    def close():
        if width is None:
            out.extend((DECISION + item, pinned) for item, pinned in run)
        elif run:
            line, line_pinned = "", False
            for item, pinned in run:
                if line and len(DECISION) + len(line) + 3 + len(item) > width:
                    out.append((DECISION + line, line_pinned))
                    line, line_pinned = "", False
                line = f"{line} · {item}" if line else item
                line_pinned = line_pinned or pinned
            out.append((DECISION + line, line_pinned))
        run.clear()
    for kind, line, pinned in lines:
        if kind == "decision":
            run.append((line[len(DECISION):], pinned))
        else:
            close()
            out.append((line, pinned))
    close()
    return out


def wrap(line: str, width: int | None, indent: str = "") -> list[str]:
    """One line as it shows at `width` columns: wrapped with a hanging indent (None: as it is)."""
    if width is None or len(indent) + len(line) <= width:
        return [indent + line]
    lead = len(line) - len(line.lstrip(" "))
    return textwrap.wrap(line, width=width, initial_indent=indent, subsequent_indent=indent + " " * (lead + 4),
                         break_on_hyphens=False, drop_whitespace=True) or [indent]


def wrap_help(line: str, width: int | None) -> list[str]:
    """A line of a command list ("  save FILE   save the game …") wrapped under its description."""
    found = re.match(r"( +\S+(?: [A-Z]+)? {2,})\S", line)
    if width is None or len(line) <= width:
        return [line]
    return textwrap.wrap(line, width=width, subsequent_indent=" " * len(found.group(1)) if found else "",
                         break_on_hyphens=False)


def shared_start(labels: list[str]) -> str:
    """The longest run of leading words that most of the labels share ("shed action: fill "), or ""."""
    need = max(4, -(-len(labels) // 2))
    counts: dict = {}
    for label in labels:
        words = label.split(" ")
        for k in range(1, len(words)):
            start = " ".join(words[:k]) + " "
            counts[start] = counts.get(start, 0) + 1
    shared = [start for start, n in counts.items() if n >= need and len(start) >= 8]
    return max(shared, key=len, default="")


def option_lines(labels: list[str], width: int | None) -> list[str]:
    """The numbered options: one a line (wrapped to the width), or in columns (read down) when they fit
    side by side. At a terminal, words most labels start with are written once above them ("shed action:
    fill …")."""
    if width is None or len(labels) < 6:
        return [part for i, label in enumerate(labels, 1) for part in wrap(f"  {i:2d}. {label}", width)]
    whole = [f"{i:2d}. {label}" for i, label in enumerate(labels, 1)]
    if _columns(whole, width, 3):       # the labels whole, when they fit in a few rows: no heading to misread
        return _columns(whole, width, 3)
    start = shared_start(labels)
    heading = [f"  {start}…"] if start else []
    cells = [f"{i:2d}. " + (f"…{label[len(start):]}" if start and label.startswith(start) else label)
             for i, label in enumerate(labels, 1)]
    return heading + (_columns(cells, width) or [part for c in cells for part in wrap(f"  {c}", width)])


def _columns(cells: list[str], width: int, most_rows: int | None = None) -> list[str] | None:
    """The cells in as many columns (4, 3 or 2, read down) as fit the width, or None (also when they would
    take more than `most_rows` rows)."""
    for columns in (4, 3, 2):
        rows = -(-len(cells) // columns)
        if most_rows is not None and rows > most_rows:
            return None
        cols = [cells[k * rows:(k + 1) * rows] for k in range(columns)]
        widths = [max(map(len, col)) + 2 for col in cols if col]
        if sum(widths) <= width:
            return ["  " + "".join(col[r].ljust(w) for col, w in zip(cols, widths) if r < len(col)).rstrip()
                    for r in range(rows)]
    return None


class Screen:
    """One seat's decision screens, remembering what the seat last saw (to mark what changed)."""

    def __init__(self):
        self.last_seen: dict = {}          # seat -> the view lines of its last screen
        self.unchanging: dict = {}         # seat -> the lines on every one of its screens so far

    def remember(self, seat, lines: list[str]) -> set:
        """Note a screen's full view; return the lines the seat saw on every earlier screen (none at first)."""
        before = self.unchanging.get(seat, set())
        self.unchanging[seat] = set(lines) if seat not in self.unchanging else before & set(lines)
        return before

    @staticmethod
    def fold_unchanging(lines: list[str], unchanging: set) -> list[str]:
        """The lines without those that never changed (a legend, a printed board), said in one line."""
        return _fold(lines, unchanging, "lines that have not changed since your first decision: 'view'")

    def fold_unchanged(self, seat, lines: list[str]) -> list[str]:
        """The lines without those as they were at the seat's last screen (its own cards stay, as
        `plaintext.view_lines` words them: "your hand: …"): a long sheet shows only what changed."""
        before = set(self.last_seen.get(seat) or ())
        same = {line for line in lines if line in before and not line.startswith(OWN)}
        return _fold(lines, same, "lines as at your last decision: 'view' shows them")

    def view(self, seat, lines: list[str], width: int | None, mark: bool = True,
             full: list[str] | None = None) -> list[tuple[str, bool]]:
        """The view's lines, each with whether it changed since this seat's last screen (then marked).
        `full`: the whole view the lines were cut from: a line is compared with the last whole view, so a
        line shown again after it was folded is not marked unless it changed, nor is a note of folding."""
        before = self.last_seen.get(seat)
        self.last_seen[seat] = list(lines if full is None else full)
        whole = None if full is None else set(full)
        out = []
        for line in lines:
            changed = mark and before is not None and line not in before and (whole is None or line in whole)
            for k, part in enumerate(wrap(line, width, CHANGED if changed else SAME)):
                out.append((part if k == 0 or not changed else SAME + part[len(SAME):], changed))
        return out


def _fold(lines: list[str], folded: set, what: str) -> list[str]:
    """The lines without those in `folded`, said in one note where the first of them stood. A line shown
    keeps its label lines (each nearest line before it that is less indented: "garden z1 …" above
    "       z4 …", "Player 1 (you):" above both), so a changed line is never shown without its row."""
    gone = [line in folded for line in lines]
    for i, line in enumerate(lines):
        depth = _indent(line)
        for j in range(i - 1, -1, -1) if not gone[i] else ():
            if depth == 0:
                break
            if _indent(lines[j]) < depth:
                gone[j], depth = False, _indent(lines[j])
    if sum(gone) < 2:
        return lines
    first = gone.index(True)
    return [line for line, out in zip(lines[:first], gone) if not out] + [f"({sum(gone)} {what})"] + \
        [line for line, out in zip(lines[first:], gone[first:]) if not out]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def fit_news(news: list[tuple[str, bool]], room: int | None, width: int | None = None) -> list[tuple[str, bool]]:
    """The news, (line, pinned) pairs, wrapped to `width` and cut to fit `room` rows: its latest lines (at
    least a third of the room), and before them the pinned ones (what was decided for the person and what
    came of it: the latest of them when not all fit; and what came of the person's own choice, before
    which the latest lines give way: cut only when it alone does not fit), each run of lines left out said in a note, which names the decisions
    taken for the person among them and says when it holds what came of the person's choice."""
    def rows(lines):
        return [(part, pinned) for line, pinned in lines for part in wrap(line, width)]
    if room is None or len(rows(news)) <= room:
        return rows(news)
    room = max(1, room)
    # left out first: the lines pinned for decisions taken for the person (oldest first), then what came of
    # their own choice (latest first: what directly followed the choice stays)
    pinned = sorted((k for k, (_line, is_pinned) in enumerate(news) if is_pinned),
                    key=lambda k: (1, -k) if news[k][1] == PINNED_OWN else (0, k))
    shown = []
    for dropped in range(len(pinned) + 1):
        own_only = all(news[k][1] == PINNED_OWN for k in pinned[dropped:])
        for latest in sorted({min(len(news), max(1, room // 3)), 0 if own_only else 1}, reverse=True):
            for start in range(max(0, len(news) - room), len(news) - latest + 1):
                kept = sorted(k for k in pinned[dropped:] if k < start) + list(range(start, len(news)))
                shown = rows(_with_notes(news, kept))
                if len(shown) <= room:
                    return shown
    return shown[-room:]


def _with_notes(news, kept: list[int]) -> list[tuple[str, bool]]:
    """The kept lines of the news, each run of lines left out replaced by a note of how many."""
    out, last = [], -1
    for k in kept + [len(news)]:
        left = k - last - 1
        if left:
            which = "more" if out else "earlier"
            taken = _taken([line for line, _ in news[last + 1:k]])
            own = OWN_CUT if any(pinned == PINNED_OWN for _, pinned in news[last + 1:k]) else ""
            out.append((f"… {left} {which} line{'s' if left != 1 else ''}{own}{taken}: type 'log' to read them",
                        bool(taken or own)))
        if k < len(news):
            out.append(news[k])
        last = k
    return out


def _taken(lines: list[str]) -> str:
    """The decisions taken for the person in these lines of news, counted: " (taken for you: let it pass ×2)"."""
    counts: dict = {}
    for line in lines:
        for item in line.strip().split(" · "):
            if item.endswith(TAKEN_FOR_YOU):
                label = item[:-len(TAKEN_FOR_YOU)].rpartition("  (")[0].partition(": ")[2]
                counts[label] = counts.get(label, 0) + 1
    said = ", ".join(label if n == 1 else f"{label} ×{n}" for label, n in counts.items())
    return f" ({TAKEN_NOTE} {said})" if said else ""
