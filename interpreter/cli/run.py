"""`rulecraft run` (agents play a whole game) and `rulecraft replay` (a transcript, checked)."""
from __future__ import annotations

from ..runtime.errors import RulesRuntimeError
from ..diagnostics import UserError
from ..engine import records
from ..validate import transcripts
from . import common, show


def cmd_run(args) -> int:
    program = common.load_program(args.game)
    kinds = common.split_list(args.agents)
    players = common.table_size(program, args.players, kinds)
    kinds = common.seat_kinds(kinds, players)
    if "human" in kinds:
        raise UserError("'run' plays without people; use 'rulecraft play GAME --seat K' to take a seat")
    seed = args.seed if args.seed is not None else common.fresh_seed()
    session = common.start_session(program, args.game, players, seed, args.set, narrate=not args.quiet)
    agents = common.make_agents(kinds, seed)
    account = show.Account(session, quiet=args.quiet)
    if not args.quiet:
        for line in show.header(session, show.seats_text(session, kinds)):
            print(line)
    try:
        while not session.over:
            who = session.to_move
            choice = agents[who].choose(session)
            account.decision(who, common.label_of(session, choice))
            session.take(choice)
    except RulesRuntimeError:
        if args.log:       # the decisions up to the failure, so that `replay` shows it again
            records.write(args.log, session, "transcript", {"agents": kinds})
        raise
    account.narrate()
    for line in show.result_lines(session):
        print(line)
    if args.log:
        records.write(args.log, session, "transcript", {"agents": kinds})
    return 0


def cmd_replay(args) -> int:
    data = records.read(args.file)
    name = args.file
    if getattr(args, "step", False) or getattr(args, "omniscient", False) or getattr(args, "seat", None) is not None:
        from .stepper import cmd_step
        return cmd_step(args, data)
    account = None
    started = False

    def before(session, index, option_id):
        nonlocal account, started
        if not started:
            started = True
            account = _begin(session, data, args.quiet)
        account.decision(session.to_move, common.label_of(session, option_id))

    session = records.restore(data, common.load_program, name=name, narrate=not args.quiet, on_decision=before)
    if not started:
        account = _begin(session, data, args.quiet)
    account.narrate()
    failure = transcripts.recorded(data)
    if failure is not None:             # a game written by `rulecraft test`: show its failure again
        seen, sentence = transcripts.reproduce(session, failure)
        account.narrate()
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
        kinds = data.get("agents")
        seats = show.seats_text(session, kinds) if _is_kinds(kinds, session.state.n) else None
        for line in show.header(session, seats):
            print(line)
    return account


def _is_kinds(kinds, n) -> bool:
    return isinstance(kinds, list) and len(kinds) == n and all(isinstance(k, str) for k in kinds)
