"""Plain-text rendering: the running account of a game, a player's view, the result, a game's card.

Everything printed comes from the rules (narration, labels, zone and variable
names) or from the engine's generic view; nothing here knows any game.
"""
from __future__ import annotations

from ..engine import observe, outcomes, views
from ..engine.limits import decision_limit, past_limit
from . import terminal

# styles at a terminal that shows colour (cli/terminal.py); plain text everywhere else
DECISION, TITLE, RESULT = "dim", "bold", "bold"


def echo_lines(lines, style_of=None) -> None:
    """Print lines, each styled by `style_of(index, line)` when the console may."""
    for i, line in enumerate(lines):
        terminal.echo(line, style_of(i, line) if style_of else None)


def header_style(i: int, _line: str):
    return TITLE if i == 0 else None


def result_style(_i: int, line: str):
    return RESULT if line.startswith(("Winner", "Final scores")) or line.endswith("*") else None


class Account:
    """Prints what happens — narration, and each decision as "  Player 2: play Blue 7" (indented, so the
    rules' own lines stand out) — in order, as `viewer` is told it (engine.observe): None tells
    everything; a seat, what that player may know; PUBLIC, what every seat may (a hot-seat screen,
    where what only one player may know is kept for their turn: `keep_for`).
    """

    def __init__(self, session, quiet: bool = False, write=None, viewer=None, keep_for=(), sink=None):
        self.session = session
        self.quiet = quiet
        self.write = write
        self.sink = sink          # if given, sink(kind, line) receives each line instead, with its event's kind
        self.viewer = viewer
        self.read = 0                                     # how far the session's events are printed
        self.kept = {seat: [] for seat in keep_for}

    def flush(self, decisions: bool = True, viewer="account's") -> None:
        """Print the events since the last flush (without the decisions: a stepper shows them itself)."""
        viewer = self.viewer if viewer == "account's" else viewer
        events = self.session.events
        for event in events[self.read:]:
            if event[0] == "chance" or (event[0] == "decision" and not decisions):
                continue
            text = observe.event_text(self.session, event, viewer)
            if text is not None and not self.quiet:
                line = ("  " if event[0] == "decision" else "") + text
                if self.sink is not None:
                    self.sink(event[0], line)
                elif self.write is not None:
                    self.write(line)
                else:
                    terminal.echo(line, DECISION if event[0] == "decision" else None)
            if event[0] == "say":
                for seat, lines in self.kept.items():
                    own = observe.event_text(self.session, event, seat)
                    if own is not None and own != text:
                        lines.append(own)
        self.read = len(events)

    def told_only_to(self, seat) -> list[str]:
        """The lines kept for `seat` since its last turn (see keep_for), now shown to it."""
        lines = self.kept.get(seat, [])
        self.kept[seat] = []
        return lines


def header(session, agents_text: str | None = None, extra: str = "", seed_shown: bool = True,
           kept_in: str | None = None) -> list[str]:
    """The lines that open a game. Players at the table are not shown the seed: with it and the rules,
    anyone can replay the shuffle and know every hidden card and every roll to come (`kept_in`: the file
    that holds it, if one is written)."""
    p = session.program
    seed = f"seed {session.seed}" if seed_shown else "seed kept secret" + (f" (it is in {kept_in})" if kept_in else "")
    lines = [f"{p.title}: {session.state.n} players, {seed}{extra}"]
    if p.options:
        lines.append(f"options: {', '.join(f'{o.name}={o.shown(session.options[o.name])}' for o in p.options)}")
    if agents_text:
        lines.append(f"seats: {agents_text}")
    return lines


def seats_text(session, kinds: list[str]) -> str:
    return ", ".join(f"{session.state.names[i]} {kind}" for i, kind in enumerate(kinds))


def at_limit(session) -> bool:
    """Is the game stopped at its decision limit (engine.limits), not over and allowed no more decisions?"""
    return session.state.result is None and session.state.decisions >= decision_limit(session.program)


def result_lines(session) -> list[str]:
    """Final scores in seat order, then the winner or the players who share the win."""
    m = session.state
    if m.result is None:
        if at_limit(session):
            return [past_limit(session.program, "The game has") + "."]
        who = session.to_move
        return [f"The game is not over: {m.names[who]} is to decide (after {len(session.history)} decisions)."]
    scores, ties, winners = m.result
    width = max(len(name) for name in m.names)
    show_ties = session.program.tiebreak is not None
    lines = ["Final scores:"]
    for i, name in enumerate(m.names):
        line = f"  {name.ljust(width)}  {scores[i]:>4}"
        if show_ties:
            line += f"  (tie-break {ties[i]})"
        if i in winners:
            line += "  *"
        lines.append(line.rstrip())
    names = [m.names[i] for i in winners]
    if outcomes.one_result(session.program):         # `outcome cooperative`: all win or all lose
        lines.append("The players win together." if winners else "The players lose together.")
    elif len(names) == 1:
        lines.append(f"Winner: {names[0]}")
    else:
        lines.append(f"Winners (tied, sharing the victory): {_and(names)}")
    return lines


def score_parts_lines(session, width: int | None = None, viewer=None, totals: bool = True) -> list[str]:
    """What each final score is made of (compile.scoreparts): "Player 1  35 = garden points 26 + shed
    points 9", or the elements a `sum(… for x in L)` adds ("Blue 7 + Black 8", a value not in the
    element's name written beside it), wrapped to `width` between parts. Nothing for a game whose
    score has one part. As `viewer` (a seat, observe.PUBLIC, or None for everything) may see it: a
    card lying where the viewer may not look, or a part read from such things, is not named. Without
    `totals`, the scores themselves are left out (what the parts are, not the result they add to)."""
    m, program = session.state, session.program
    parts = getattr(program, "score_parts", ())
    if m.result is None or not parts:
        return []
    columns, width = width, max(len(name) for name in m.names)
    lines = ["What the scores are made of:"]
    for seat, name in enumerate(m.names):
        items = []
        for part in parts:
            if part.hidden and viewer is not None:
                items.append((part.sign, f"{part.name or _written(program, part.span)} (not shown)"))
            elif part.each is None:
                items.append((part.sign, f"{part.name or _written(program, part.span)} {part.value(m, seat)}"))
            else:
                unseen = 0
                for element in part.value(m, seat):
                    place = m.where[element] if part.cards else -1
                    if part.cards and viewer is not None and (place < 0 or not views.can_see(m, place, viewer)):
                        unseen += 1
                        continue
                    text, value = part.shown(m, element), part.each(m, seat, element)
                    items.append((part.sign, text if str(value) in text.split() else f"{text} ({value})"))
                if unseen:
                    items.append((part.sign, f"{unseen} card{'s' if unseen > 1 else ''} not shown"))
        line = f"  {name.ljust(width)}  {m.result[0][seat] if totals else '':>4} = "
        indent = " " * len(line)
        if not items:
            items = [(1, "nothing")]
        for k, (sign, text) in enumerate(items):
            piece = (("-" if sign < 0 else "") if k == 0 else (" - " if sign < 0 else " + ")) + text
            if columns is not None and k and len(line) + len(piece) > columns:
                lines.append(line)
                line = indent + piece.lstrip()          # "+ Blue 3", under the first part
            else:
                line += piece
        lines.append(line)
    return lines


def _written(program, span) -> str:
    """The text of the rules at `span` (one line), as written."""
    text = (getattr(program, "sources", None) or {}).get(span.file)
    if text is None or not span.end_line:
        return "a part"
    lines = text.splitlines()
    if span.end_line != span.line:
        return lines[span.line - 1][span.col - 1:].strip()
    return lines[span.line - 1][span.col - 1:span.end_col - 1]


def print_result(session) -> None:
    """The result: at a terminal that shows colour a table (seat, score, tie-break, winner), else `result_lines`."""
    m = session.state
    if m.result is None or not terminal.is_terminal() or terminal.console().color_system is None:
        echo_lines(result_lines(session), result_style)
        return
    c = terminal.console()
    from rich import box
    from rich.table import Table
    scores, ties, winners = m.result
    table = Table(title=terminal.text("Final scores", TITLE), box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("player")
    table.add_column("score", justify="right")
    if session.program.tiebreak is not None:
        table.add_column("tie-break", justify="right")
    table.add_column("")
    for i, name in enumerate(m.names):
        won = i in winners
        cells = [terminal.text(name), terminal.text(str(scores[i]))]
        if session.program.tiebreak is not None:
            cells.append(terminal.text(str(ties[i])))
        cells.append(terminal.text("wins" if won else ""))
        table.add_row(*cells, style=RESULT if won else None)
    c.print(table)
    terminal.echo(result_lines(session)[-1], RESULT)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _human(name: str) -> str:
    return name.replace("_", " ")


def _cards(shown) -> str:
    if isinstance(shown, dict):            # hidden: only its size
        n = shown.get("hidden", 0)
        return f"{n} hidden card{'s' if n != 1 else ''}" if n else "empty"
    return ", ".join(shown) if shown else "empty"


def view_lines(view: dict, viewer_name: str | None = None, others: str = "full") -> list[str]:
    """A player's view (engine.views.view) as text: zones, then variables. Cards are listed bottom to top.

    A game with a sheet shows its table in its own words, so beside it only the viewer's own
    private zones are listed (their hand, which a public sheet cannot show), and a player's sheet
    of one line is shown on their name's line. `others` says how the other players' sheets are
    shown: "full", "first" (their first line: the play screen's compact view) or "none" (one line
    saying so, when even that does not fit the terminal)."""
    lines = []
    sheet = view.get("sheet")
    for zone, entry in view["zones"].items():
        if sheet and viewer_name is not None:
            if _private_to(entry, viewer_name):
                lines.append(f"your {_human(zone)}: {_cards(entry[viewer_name])}")
            continue
        if isinstance(entry, dict) and "hidden" not in entry:       # one per player or team
            lines.append(f"{_human(zone)}:")
            for owner, shown in entry.items():
                mark = " (you)" if owner == viewer_name else ""
                lines.append(f"  {owner}{mark}: {_cards(shown)}")
        else:
            lines.append(f"{_human(zone)}: {_cards(entry)}")
    if sheet:
        lines.extend(sheet["table"])
        left_out = 0
        for owner, rows in sheet["players"].items():
            if not rows:
                continue
            mine = owner == viewer_name
            mark = " (you)" if mine else ""
            if others == "none" and not mine and viewer_name is not None:
                left_out += 1
                continue
            if len(rows) == 1 or not (mine or others == "full" or viewer_name is None):
                more = "" if len(rows) == 1 else f"  (+{len(rows) - 1} lines: 'view')"
                lines.append(f"{owner}{mark}: {rows[0]}{more}")
                continue
            lines.append(f"{owner}{mark}:")
            lines.extend(f"  {row}" for row in rows)
        if left_out:
            lines.append(f"({left_out} other player{'s' if left_out != 1 else ''}' sheet{'s' if left_out != 1 else ''}: 'view')")
    for var, value in view["vars"].items():
        if isinstance(value, dict):
            lines.append(f"{_human(var)}: " + ", ".join(f"{k} {v}" for k, v in value.items()))
        else:
            lines.append(f"{_human(var)}: {value}")
    return lines


def _private_to(entry, viewer_name: str) -> bool:
    """Is this zone one per player whose viewer's copy they see and (some of) the others' they do not?"""
    if not (isinstance(entry, dict) and "hidden" not in entry and viewer_name in entry):
        return False
    if not isinstance(entry[viewer_name], list):
        return False
    others = [shown for owner, shown in entry.items() if owner != viewer_name]
    return not others or any(isinstance(shown, dict) for shown in others)


def game_card(name: str, program) -> list[str]:
    """What `rulecraft list` prints for one game."""
    lo, hi = program.min_players, program.max_players
    count = f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo}-{hi} players"
    lines = [f"{name}: {program.title} ({count})"]
    for o in program.options:
        doc = f" - {o.doc}" if o.doc else ""
        lines.append(f"  --set {o.name}=<{o.domain_text()}>  (default {o.shown(o.default)}){doc}")
    if not program.options:
        lines.append("  no options")
    return lines
