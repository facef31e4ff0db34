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
_SEEN = {"all": "face up", "owner": "seen by its owner", "team": "seen by its team", "nobody": "face down",
         "others": "seen by all but its owner"}


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


def section(sources: dict, wanted: str) -> list[str] | None:
    """The lines of the section whose heading starts with `wanted` (any case), as the file writes them:
    its heading, its comments and its rules, up to the next heading; None when no heading matches.
    The first file (the game's own) is searched first."""
    wanted = wanted.strip().lower()
    for text in sources.values():
        lines = text.splitlines()
        starts = [i for i, line in enumerate(lines) if _HEADING.match(line)]
        for k, i in enumerate(starts):
            if _HEADING.match(lines[i]).group(1).lower().startswith(wanted):
                end = starts[k + 1] if k + 1 < len(starts) else len(lines)
                while end > i + 1 and not lines[end - 1].strip():
                    end -= 1
                return lines[i:end]
    return None


def summary(program, values: dict, everything: bool = False) -> list[str]:
    from ..engine.machine import seats_text
    lines = [f"{program.title} ({seats_text(program)}) — {program.entry}"]
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
    lines.append("'rules SECTION' prints a section as the file writes it (the start of its name will do); "
                 "each option's label says what it does; 'view' shows the table, 'log' what happened.")
    return lines
