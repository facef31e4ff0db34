"""What `rules` prints inside `rulecraft play`: the game as its file describes it.

The title, player counts and options (with this game's values and what each means), the
components (how many cards, which zones and who sees them), the opening comment of the rule
file (its first paragraph; `rules all` prints all of it) and the headings of its sections —
comment lines such as `# ------ Setup` or `# ====== Gameplay`. Everything comes from the file
and the compiled program; the file's comments are the author's own summary of the rulebook.
"""
from __future__ import annotations

import re

_HEADING = re.compile(r"^#\s*[-=]{3,}\s*(\S.*?)\s*$")
_SEEN = {"all": "face up", "owner": "seen by its owner", "team": "seen by its team", "nobody": "face down"}


def header_comment(text: str) -> list[str]:
    """The comment lines that open a file, without their `#`."""
    out = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        out.append(line[1:].removeprefix(" ").rstrip())
    return out


def headings(text: str) -> list[str]:
    return [m.group(1) for m in map(_HEADING.match, text.splitlines()) if m]


def summary(program, values: dict, everything: bool = False) -> list[str]:
    lo, hi = program.min_players, program.max_players
    count = f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo} to {hi} players"
    lines = [f"{program.title} ({count}) — {program.entry}"]
    if program.options:
        lines.append("options:")
        for o in program.options:
            doc = f" — {o.doc}" if o.doc else ""
            lines.append(f"  {o.name} = {o.shown(values[o.name])}  (one of {o.domain_text()}; default "
                         f"{o.shown(o.default)}){doc}")
    zones = []
    for z in program.zones:
        whose = {"player": "each player's ", "team": "each team's "}.get(z.owner, "")
        zones.append(f"{whose}{z.name.replace('_', ' ')} ({_SEEN.get(z.seen, z.seen)})")
    lines.append(f"components: {len(program.card_names)} cards; zones: {', '.join(zones) or 'none'}")
    sources = getattr(program, "sources", None) or {}
    entry = sources.get(program.entry, "")
    about = header_comment(entry)
    if not everything and "" in about:
        about = about[:about.index("")] + ["(… 'rules all' prints the whole opening comment)"]
    if about:
        lines.append("about:")
        lines.extend(f"  {line}" for line in about)
    for path, text in sources.items():
        heads = headings(text)
        if heads:
            lines.append(f"sections of {path}: {' · '.join(heads)}")
    lines.append("Each option's label says what it does; 'view' shows the table, 'log' what happened.")
    return lines
