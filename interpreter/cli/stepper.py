"""`rulecraft replay FILE --step`: a transcript walked decision by decision.

Before each decision the table is shown as one player sees it (engine.views):
by default the player who decides, with `--seat K` always seat K, with
`--omniscient` everything, hidden cards included. Then the decision taken and
what it caused. At a terminal the walk waits for Enter between decisions (`q`
stops it); in a pipe or a test it runs straight through. A transcript written
by `rulecraft test` ends with the failure it records, shown at its step.
"""
from __future__ import annotations

import sys

from ..diagnostics import UserError
from ..engine import machine, observe, records, views
from ..runtime.helpers import seal
from ..text import few
from ..validate import transcripts
from . import common, plaintext, terminal

TAKEN, FAILED, OK = "bold cyan", "bold red", "green"


class _Stop(Exception):
    """The person typed q at the pause."""


def cmd_step(args, data: dict) -> int:
    name = args.file
    info = transcripts.recorded(data)
    total = len(data["decisions"])
    interactive = sys.stdin is not None and sys.stdin.isatty()
    seat = None
    account = None

    def viewer_for(session):
        if args.omniscient:
            return None
        if seat is not None:
            return seat
        return session.to_move if not session.over else 0

    def begin(session):
        nonlocal seat, account
        n = session.state.n
        if args.seat is not None:
            if not 1 <= args.seat <= n:
                raise UserError(f"there is no seat {args.seat}: the game has {n} players (seats 1 to {n})")
            seat = args.seat - 1
        plaintext.echo_lines(plaintext.header(session), plaintext.header_style)
        who = ("everything, hidden cards included" if args.omniscient else
               f"what {session.state.names[seat]} sees" if seat is not None else "what the deciding player sees")
        print(f"{total} decision{'s' if total != 1 else ''}; showing {who}")
        if info is not None:
            print(f"this transcript records a failure: {transcripts.describe(info)}")
        account = plaintext.Account(session)
        account.flush(decisions=False, viewer=viewer_for(session))

    def table(session, title):
        viewer = viewer_for(session)
        v = views.view(session.state, viewer)
        seen = "everything" if viewer is None else f"as {session.state.names[viewer]} sees it"
        print()
        terminal.echo(f"── {title} · {seen} ──", plaintext.TITLE)
        for line in plaintext.view_lines(v, None if viewer is None else session.state.names[viewer]):
            print(f"  {line}")
        if "to_decide" in v:
            opts = v.get("options")
            shown = len(opts) if getattr(args, "all_options", False) else 10
            more = " (--all-options lists them all)" if opts and len(opts) > shown else ""
            print(f"  {v['to_decide']} to decide" + (f" among: {few(opts, shown)}{more}" if opts else ""))

    def pause():
        if not interactive:
            return
        try:
            answer = input("[Enter: next decision, q: stop] ")
        except EOFError:
            raise _Stop() from None
        if answer.strip().lower() in ("q", "quit"):
            raise _Stop()

    def before(session, index, option_id):
        account.flush(decisions=False, viewer=viewer_for(session))
        table(session, f"decision {index} of {total}")
        viewer, who = viewer_for(session), session.to_move
        label = session.label(option_id) if viewer is None or viewer == who else \
            observe.render(seal(session.state, machine.shown_label(session.state, option_id)), viewer)
        terminal.echo(f"  → {session.state.names[who]}: {label}", TAKEN)
        pause()

    try:
        session = records.restore(data, common.load_program, name=name, on_start=begin, on_decision=before,
                                  warn=common.warn)
    except _Stop:
        print("stopped.")
        return 0
    account.flush(decisions=False, viewer=viewer_for(session))
    done = len(session.history)
    if info is not None:
        d = info.get("decision")
        title = (f"before decision {d.get('number')}, the one that fails" if isinstance(d, dict)
                 else f"after decision {done}, where it fails")
        table(session, title)
        if isinstance(d, dict):
            terminal.echo(f"  → {session.state.names[session.to_move]}: {d.get('label')}", TAKEN)
        seen, sentence = transcripts.reproduce(session, info)
        fixed = not seen and records.rules_changed(data, session.program)
        print()
        terminal.echo(("FAILURE: " if seen else "under the current rules, " if fixed
                       else "the recorded failure did not happen again: ") + sentence, FAILED if seen else None)
        return 0 if fixed else 1
    table(session, f"after decision {done}" + (", the end" if session.over else ""))
    differs = records.verify_result(data, session, name)
    records.verify_state(data, session, name)
    print()
    plaintext.print_result(session)
    if differs:
        print(differs)
    if plaintext.at_limit(session):        # a game `run` stopped at its limit: the same failure again
        return 1
    terminal.echo(f"{name}: verified, {done} decisions, each legal", OK)
    return 0
