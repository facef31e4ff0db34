"""`rulecraft tournament`: agents against each other in a round robin, rated on Elo's scale."""
from __future__ import annotations

import json

from ..diagnostics import UserError
from ..engine import outcomes
from ..engine.session import Session
from ..simulate import batch, tournament
from ..simulate.games import timeouts
from . import common, progress
from .arguments import GAME_HELP, SET_HELP


def add_arguments(p) -> None:
    p.description = (
        "Every group of --players different agents plays -n games at every order of seats, each order on the "
        "same deals; prints each agent's win rate (95 % interval), its rating on Elo's scale (Bradley-Terry) "
        "and how it fared against each other agent. See docs/simulating.md.")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--agents", "-a", metavar="A,B,...", required=True, help="at least two agents, with settings "
                   "if any (e.g. random,greedy,ismcts:iterations=200)")
    p.add_argument("-n", "--games", type=int, default=20, metavar="N",
                   help="games for each order of seats (default 20)")
    p.add_argument("--players", "-p", type=int, metavar="P", help="players at a table (default: the fewest the "
                   "game allows, at least 2)")
    p.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], help=SET_HELP)
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="the run's seed (default 0)")
    p.add_argument("--workers", "-w", type=int, metavar="K", help="worker processes (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def cmd_tournament(args) -> int:
    program = common.load_program(args.game)
    agents = common.agent_names(args.agents)
    if len(set(agents)) < 2 or len(set(agents)) != len(agents):
        raise UserError("a tournament needs at least two different agents, each named once")
    if "human" in agents:
        raise UserError("'tournament' plays without people")
    players = args.players if args.players is not None else max(2, program.min_players)
    if not program.min_players <= players <= program.max_players:
        raise UserError(f"{program.title} is for {common.seats_text(program)}, not {players}")
    if players > len(agents):
        raise UserError(f"{players} players need at least {players} different agents; --agents names {len(agents)}")
    if args.games < 1:
        raise UserError("-n must be at least 1")
    Session.parse_options(program, args.set)
    todo = tournament.jobs(str(common.game_path(args.game)), agents, players, args.set, args.games, args.seed)
    workers = args.workers if args.workers is not None else batch.default_workers()
    with progress.bar(program.title, len(todo), unit="games") as live:
        results = batch.run(todo, workers, on_done=lambda done: live.advance(done - live.done))
    table = tournament.standings(agents, todo, results, 1 if outcomes.one_result(program) else len(program.teams))
    stopped = timeouts(program, results)          # a game stopped at the limit counts for no agent
    status = 1 if stopped and not any(r.scores for r in results) else 0
    if stopped:                                   # on stderr, so that --json says it too
        common.say_stopped(stopped, failed=bool(status))
    if args.json:
        print(json.dumps(dict(table, game=program.title, players=players, games=len(todo), seed=args.seed),
                         indent=2, sort_keys=True))
        return status
    print(f"{program.title}: {len(todo)} games, {players} players at a table, {args.games} for each order of seats")
    print()
    print(f"{'agent':<28} {'rating':>7} {'games':>6} {'win rate':>9}  95% interval")
    for row in table["agents"]:
        lo, hi = row["ci"]
        print(f"{row['agent']:<28} {row['rating']:>7.0f} {row['games']:>6} {row['win_rate']:>9.3f}  {lo:.3f}–{hi:.3f}")
    print()
    print("head to head (the row's share of the points against the column):")
    names = [row["agent"] for row in table["agents"]]
    width = max(8, *(len(x) for x in names))
    print(" " * (width + 1) + " ".join(f"{x[:width]:>{width}}" for x in names))
    for row in table["agents"]:
        cells = [f"{row['against'][x]:>{width}.3f}" if x in row["against"] else f"{'—':>{width}}" for x in names]
        print(f"{row['agent'][:width]:<{width}} " + " ".join(cells))
    return status
