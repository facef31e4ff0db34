"""`rulecraft replay`: a transcript or save played again, every decision checked against the rules.

With --step, --omniscient or --seat the walk is the stepper's (cli/stepper.py).
"""
from __future__ import annotations

from ..engine import records
from ..validate import transcripts
from . import common, show


def cmd_replay(args) -> int:
    data = records.read(args.file)
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
                              on_start=begin, on_decision=before)
    account.flush()
    failure = transcripts.recorded(data)
    if failure is not None:             # a game written by `rulecraft test`: show its failure again
        seen, sentence = transcripts.reproduce(session, failure)
        account.flush()
        print(f"{name}: {len(session.history)} decisions replayed, each legal; "
              + ("then " + sentence if seen else "but the recorded failure did not happen again: " + sentence))
        return 1
    records.verify_result(data, session, name)
    records.verify_state(data, session, name)
    for line in show.result_lines(session):
        print(line)
    if not args.quiet:
        print(f"{name}: verified, {len(session.history)} decisions, each legal"
              + (" and the recorded result matches." if "result" in data else "."))
    return 0


def _begin(session, data, quiet) -> show.Account:
    account = show.Account(session, quiet=quiet)
    if not quiet:
        kinds = common.saved_kinds(data)
        seats = show.seats_text(session, kinds) if kinds is not None else None
        for line in show.header(session, seats):
            print(line)
    account.flush()
    return account

