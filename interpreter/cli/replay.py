"""`rulecraft replay`: a transcript or save played again, every decision checked against the rules.

With --step, --omniscient or --seat the walk is the stepper's (cli/stepper.py).
"""
from __future__ import annotations

from ..engine import records
from ..validate import transcripts
from . import common, plaintext, terminal

OK, FAILED = "green", "bold red"


def add_arguments(replay) -> None:
    replay.description = (
        "Replay a transcript written by 'run --log' (or a save), checking every decision against the rules "
        "and the recorded result; prints the game like 'run'. An illegal decision is reported by its number.")
    replay.add_argument("file", metavar="FILE", help="the transcript (YAML)")
    replay.add_argument("--game", metavar="GAME", help=(
        "the game's rules (a bundled name or a .rules file), when they are not where the transcript says: a "
        "transcript itself names only a bundled game or a file in its own folder or the current one"))
    replay.add_argument("--quiet", "-q", action="store_true", help="print only the final scores and winner(s)")
    replay.add_argument("--step", action="store_true", help=(
        "walk the game decision by decision, showing the table before each one as the deciding player sees it "
        "(waits for Enter between decisions when run at a terminal)"))
    replay.add_argument("--omniscient", action="store_true", help="with --step: show everything, hidden cards included")
    replay.add_argument("--all-options", action="store_true",
                        help="with --step: list every option of each decision (by default the first 10)")
    replay.add_argument("--seat", metavar="K", type=int, help="with --step: always show the table as seat K sees it")


def cmd_replay(args) -> int:
    data = records.read(args.file, args.game)
    name = args.file
    if args.step or args.omniscient or args.all_options or args.seat is not None:
        from .stepper import cmd_step
        return cmd_step(args, data)
    account = None

    def begin(session):
        nonlocal account
        account = _begin(session, data, args.quiet)

    def before(session, index, option_id):
        account.flush()

    session = records.restore(data, common.load_program, name=name, narrate=not args.quiet,
                              on_start=begin, on_decision=before, warn=common.warn)
    account.flush()
    failure = transcripts.recorded(data)
    if failure is not None:             # a game written by `rulecraft test`: show its failure again
        seen, sentence = transcripts.reproduce(session, failure)
        account.flush()
        fixed = not seen and records.rules_changed(data, session.program)
        terminal.echo(f"{name}: {len(session.history)} decisions replayed, each legal; "
              + ("then " + sentence if seen else
                 "under the current rules, " + sentence if fixed else
                 "but the recorded failure did not happen again: " + sentence), FAILED if seen else None)
        return 0 if fixed else 1
    differs = records.verify_result(data, session, name)
    records.verify_state(data, session, name)
    plaintext.print_result(session)
    if differs:
        print(differs)
    if plaintext.at_limit(session):        # a game `run` stopped at its limit: the same failure again
        return 1
    if not args.quiet:
        terminal.echo(f"{name}: verified, {len(session.history)} decisions, each legal"
                      + (" and the recorded result matches." if "result" in data and not differs else "."), OK)
    return 0


def _begin(session, data, quiet) -> plaintext.Account:
    account = plaintext.Account(session, quiet=quiet)
    if not quiet:
        kinds = common.saved_kinds(data)
        seats = plaintext.seats_text(session, kinds) if kinds is not None else None
        plaintext.echo_lines(plaintext.header(session, seats), plaintext.header_style)
    account.flush()
    return account

