"""`rulecraft run`: agents play a whole game; the narration and every decision, then the scores."""
from __future__ import annotations

from ..engine.limits import PastLimit, past_limit
from ..runtime.errors import RulesRuntimeError
from ..diagnostics import UserError
from ..agents.seat import act
from . import common, plaintext
from .arguments import GAME_HELP, table_args


def add_arguments(run) -> None:
    run.description = (
        "Agents play GAME to the end. Prints the rules' narration and every decision in order, then the "
        "final scores and the winner(s). The same seed, options and agents give the same output, byte for byte.")
    run.add_argument("game", metavar="GAME", help=GAME_HELP)
    table_args(run)
    run.add_argument("--log", metavar="FILE", help="write the game's transcript (YAML) to FILE, for 'rulecraft replay'")
    run.add_argument("--quiet", "-q", action="store_true", help="print only the final scores and winner(s)")


def cmd_run(args) -> int:
    program, players, kinds, seed = common.new_table(args)
    if "human" in kinds:
        raise UserError("'run' plays without people; use 'rulecraft play GAME --seat K' to take a seat")
    session = common.start_session(program, args.game, players, seed, args.set, narrate=not args.quiet)
    agents = common.make_agents(kinds, seed)
    account = plaintext.Account(session, quiet=args.quiet)
    if not args.quiet:
        plaintext.echo_lines(plaintext.header(session, plaintext.seats_text(session, kinds)), plaintext.header_style)
    account.flush()
    try:
        while not session.over:
            if plaintext.at_limit(session):      # stop before an agent thinks about a decision the limit refuses
                raise PastLimit(past_limit(program))
            session.take(act(agents[session.to_move], session))
            account.flush()
    except RulesRuntimeError:
        if args.log:       # the decisions up to the failure, so that `replay` shows it again
            from ..engine import records
            records.write(args.log, session, "transcript", {"agents": kinds})
        raise
    plaintext.print_result(session)
    if args.log:
        from ..engine import records        # ruamel.yaml, only when a transcript is written
        records.write(args.log, session, "transcript", {"agents": kinds})
    return 0

