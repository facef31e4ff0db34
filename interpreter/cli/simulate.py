"""`rulecraft simulate`: many games by agents, and what they say about the rules.

Prints per-seat results (win rate with its 95 % interval, score mean and spread, ties), game
length, first-player advantage and the design metrics of docs/simulating.md; `--json` prints
the same as one object, `--csv` writes one row per game, `--plot` draws them (matplotlib, the
`plot` extra), `--compare` plays the same seeds on a second rule file and sets each figure
beside the first's, with the difference and whether it is significant.
"""
from __future__ import annotations

import csv
import json

from ..diagnostics import UserError
from ..simulate import batch, metrics
from ..engine import outcomes
from ..simulate.games import Job, kept, shared, timeouts
from . import common, progress
from .arguments import GAME_HELP, SET_HELP, agents_help


def add_arguments(p) -> None:
    p.description = (
        "Agents play GAME N times; prints each seat's win rate (with a 95 % interval), scores, game length, "
        "first-player advantage and design metrics (see docs/simulating.md). Each game's seed comes from "
        "--seed and the game's number, so the figures are the same for any --workers or --backend.")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("-n", "--games", type=int, default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--players", "-p", type=int, metavar="P", help="number of players (default: as 'run' chooses)")
    p.add_argument("--agents", "-a", metavar="A,B,...", help=agents_help())
    p.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], help=SET_HELP)
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="the run's seed (default 0)")
    p.add_argument("--workers", "-w", type=int, metavar="K",
                   help=f"worker processes (default: all cores, here {batch.default_workers()})")
    p.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="where the workers run: local processes, or Ray (the 'ray' extra; RAY_ADDRESS names a cluster)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    p.add_argument("--csv", metavar="FILE", help="write one row per game to FILE")
    p.add_argument("--plot", metavar="FILE", help="draw scores, win rates and lengths to FILE (.png or .svg; "
                   "needs the 'plot' extra)")
    p.add_argument("--standings", action="store_true", help="also follow each seat's standing after every decision, "
                   "for the metrics lead change, stability, decisiveness threshold and drama (slower: the game is "
                   "scored at every decision)")
    p.add_argument("--compare", metavar="GAME", help="also play the same seeds on this game or rules file, and "
                   "compare each figure")
    p.add_argument("--skill", metavar="K", type=int, help=(
        "also measure the skill trace: K matches in which one seat's ISMCTS searches twice as long as the "
        "others' (1, 2, 4, … iterations), 10 games each (docs/simulating.md)"))


def cmd_simulate(args) -> int:
    if args.games < 1:
        raise UserError("-n must be at least 1")
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise UserError("--plot needs a file name ending in .png or .svg")
    workers = args.workers if args.workers is not None else batch.default_workers()
    first = _side(args, args.game, workers)
    second = _side(args, args.compare, workers) if args.compare else None
    if args.csv:
        _write_csv(args.csv, first, second)
    if args.plot:
        from ..simulate.plot import draw
        draw(args.plot, [first] + ([second] if second else []))
    status = _stopped(first, second)
    if args.json:
        out = dict(first["summary"])
        out.update(game=first["title"], agents=first["agents"], options=first["options"], seed=args.seed)
        if second:
            out["compare"] = dict(second["summary"], game=second["title"], options=second["options"])
            out["comparison"] = metrics.compare(first["summary"], second["summary"])
        print(json.dumps(out, indent=2, sort_keys=True))
        return status
    for line in _table(first):
        print(line)
    if second:
        print()
        for line in _table(second):
            print(line)
        print()
        for line in _comparison(first, second):
            print(line)
    if args.csv:
        print(f"wrote {args.csv}")
    if args.plot:
        print(f"wrote {args.plot}")
    return status


def _stopped(*sides) -> int:
    """Say of each rule set which games its decision limit stopped (on stderr, so --json says it too);
    1 when a rule set ended none of its games: then nothing was measured."""
    status = 0
    for side in sides:
        if side is None:
            continue
        sentence = timeouts(side["program"], side["results"])
        if sentence:
            none_ended = side["summary"]["finished"] == 0
            common.say_stopped(f"{side['ref']}: {sentence}", failed=none_ended)
            status = max(status, int(none_ended))
    return status


def _side(args, ref: str, workers: int) -> dict:
    """Play the run on one rule set; its figures and what they were played with."""
    path = str(common.game_path(ref))
    # the games played here: loaded once (the program already kept when its files are the same)
    program = kept(path)
    if program is None:
        program = shared(path, common.load_program(ref))
    kinds = common.agent_names(args.agents)
    players = common.table_size(program, args.players, kinds)
    kinds = common.seat_kinds(kinds, players)
    if "human" in kinds:
        raise UserError("'simulate' plays without people; choose agents such as random, greedy or ismcts")
    from ..engine.session import Session
    options = Session.parse_options(program, args.set)           # checked here, once, with a clear sentence
    shown = {o.name: o.shown(options.get(o.name, o.default)) for o in program.options}
    settings, agents, seed, measure = tuple(args.set), tuple(kinds), args.seed, args.standings
    jobs = [Job(path, players, settings, agents, seed, i, measure) for i in range(args.games)]
    with progress.bar(program.title, args.games, unit="games") as live:
        results = batch.run(jobs, workers, args.backend, lambda done: live.advance(done - live.done))
    teams = 1 if outcomes.one_result(program) else len(program.teams)
    summary = metrics.summarise(results, players, teams)
    summary["outcome"] = program.outcome.kind if program.outcome is not None else (
        "one side" if outcomes.side_count(program, players) == 1 else "competitive")
    if getattr(args, "skill", None):
        _skill(summary, path, players, args, teams, workers)
    return {"program": program, "title": program.title, "ref": ref, "players": players, "agents": kinds, "options": shown,
            "results": results, "summary": summary}


def _skill(summary: dict, path: str, players: int, args, teams: int, workers: int) -> None:
    """Add the skill trace and its curve to a summary's metrics (simulate/sweep.py defines it)."""
    from ..simulate import sweep
    if not 1 <= args.skill <= 12:
        raise UserError("--skill takes 1 to 12 matches (the strongest searches 2^K iterations)")
    setting = sweep.Setting("", path, tuple(args.set), True)
    curve = sweep.play([setting], players, (), args.seed, 0, workers, args.backend,
                       skill=("ismcts", args.skill, 10), teams=teams)["skill"][setting]
    summary["metrics"]["skill_trace"] = sweep.skill_trace(curve)
    summary["skill_curve"] = curve


def _table(side: dict) -> list[str]:
    s = side["summary"]
    options = ", ".join(f"{k}={v}" for k, v in side["options"].items())
    lines = [f"{side['title']}: {s['games']} games, {side['players']} players"
             + (f" ({options})" if options else ""),
             f"agents: {', '.join(f'Player {i + 1} {k}' for i, k in enumerate(side['agents']))}"]
    if s["finished"] < s["games"]:
        lines.append(f"finished: {s['finished']} of {s['games']} (the others timed out or the rules failed)")
    lines.append("")
    lines.append(f"{'seat':<10} {'wins':>6} {'ties':>5} {'win rate':>9}  {'95% interval':<15} {'score':>8} {'sd':>7}")
    for seat in s["seats"]:
        lo, hi = seat["ci"]
        lines.append(f"Player {seat['seat']:<3} {seat['wins']:>6} {seat['ties']:>5} {seat['win_rate']:>9.3f}  "
                     f"{f'{lo:.3f}–{hi:.3f}':<15} {seat['score_mean']:>8.1f} {seat['score_sd']:>7.1f}")
    le = s["lengths"]
    lines.append("")
    lines.append(f"game length: {le['mean']:.1f} decisions on average (sd {le['sd']:.1f}, {le['min']}–{le['max']})")
    fpa = s["first_player_advantage"]
    if s["outcome"] == "cooperative":
        lo, hi = fpa["ci"]
        lines.append(f"together: the players win {fpa['win_rate']:.3f} of games (95% interval {lo:.3f}–{hi:.3f})")
    elif s["outcome"] == "one side":
        lines.append("one side: every seat wins every game; say when they win together with "
                     "`outcome cooperative when …` (docs/language.md)")
    else:
        lines.append(f"first player (the seat that moved first): wins {fpa['win_rate']:.3f} of games "
                     f"(a fair share is {fpa['fair_share']:.3f})")
    lines.append("")
    lines.append("design metrics (docs/simulating.md):")
    for key, value in s["metrics"].items():
        lines.append(f"  {key.replace('_', ' '):<24} {value:.3f}")
    if "skill_curve" in s:
        lines.append(f"  skill curve (strong seat's utility, match by match): "
                     + " ".join(f"{y:.2f}" for y in s["skill_curve"]))
    for e in s["errors"]:
        lines.append(f"rules failed: {e}")
    return lines


def _comparison(a: dict, b: dict) -> list[str]:
    rows = metrics.compare(a["summary"], b["summary"])
    lines = [f"compared on the same seeds: A = {a['ref']}, B = {b['ref']}",
             f"{'figure':<26} {'A':>9} {'B':>9} {'B − A':>9}  significant (5%)"]
    for r in rows:
        sig = "" if r["significant"] is None else ("yes" if r["significant"] else "no")
        lines.append(f"{r['figure']:<26} {r['a']:>9.3f} {r['b']:>9.3f} {r['difference']:>+9.3f}  {sig}")
    return lines


def _write_csv(path: str, first: dict, second: dict | None) -> None:
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            players = first["players"]
            w.writerow(["rules", "game", "seed", "decisions", "winners", "timeout", "error"]
                       + [f"score_{p + 1}" for p in range(players)])
            for side in [first] + ([second] if second else []):
                for r in side["results"]:
                    scores = list(r.scores) if r.scores else [""] * players
                    w.writerow([side["ref"], r.index, r.seed, r.decisions, " ".join(str(p + 1) for p in r.winners),
                                int(r.timeout), r.error] + scores)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None
