"""`rulecraft sweep`: which setting of a game's options is best.

Plays every combination of the `--vary`'d options (and `--compare` files) on the same seeds and
prints one row per setting: the seats' win rates, the first player's, the length, and the design
metrics, each with its 95 % interval; a `*` marks a figure that differs significantly from the
reference setting (simulate/sweep.py says how). With `--target`, settings are ranked by it and,
unless `--no-race`, the clearly worse ones stop early.
"""
from __future__ import annotations

import csv
import json

from ..diagnostics import UserError
from ..engine import outcomes
from ..simulate import batch
from ..simulate import sweep as sw
from . import common, progress
from .arguments import GAME_HELP, SET_HELP, agents_help


def add_arguments(p) -> None:
    p.description = (
        "Agents play GAME N times at every combination of the --vary'd options, on the same seeds, and "
        "each setting's figures are set side by side with 95 % intervals; '*' marks a figure that differs "
        "significantly from the reference (the defaults with any --set): a paired bootstrap on the shared "
        "seeds, Holm-corrected for the number of settings. --target ranks the settings and stops clearly "
        "worse ones early (racing); --skill measures whether thinking longer wins more (docs/simulating.md).")
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--vary", metavar="NAME=VALUES", action="append", default=[], help=(
        "an option and its values: NAME=4..8, NAME=a,b,c or NAME=all (repeatable: every combination is played)"))
    p.add_argument("-n", "--games", type=int, default=100, metavar="N", help="games a setting (default 100)")
    p.add_argument("--players", "-p", type=int, metavar="P", help="number of players (default: as 'run' chooses)")
    p.add_argument("--agents", "-a", metavar="A,B,...", help=agents_help())
    p.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], help=SET_HELP)
    p.add_argument("--compare", metavar="GAME", action="append", default=[],
                   help="another rules file (a variant) to sweep too, on the same seeds (repeatable)")
    p.add_argument("--target", metavar="FIGURE[:max|:min]", help=(
        "rank the settings by this figure, e.g. balance, drawishness, first_player_gap, skill_trace, duration:min; "
        "and stop clearly worse settings early"))
    p.add_argument("--no-race", action="store_true", help="with --target: play every setting to N games")
    p.add_argument("--standings", action="store_true", help="also follow each seat's standing after every decision, "
                   "for lead change, stability, decisiveness threshold and drama (as simulate --standings; slower)")
    p.add_argument("--skill", metavar="K", type=int, help=(
        "also measure the skill trace: K matches in which one seat searches twice as long as the others "
        "(1, 2, 4, … iterations), --skill-games games each"))
    p.add_argument("--skill-games", metavar="G", type=int, default=10, help="games a skill match (default 10)")
    p.add_argument("--skill-agent", metavar="KIND", default="ismcts", help="the search of the skill trace "
                   "(ismcts or mcts; default ismcts)")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="the run's seed (default 0)")
    p.add_argument("--workers", "-w", type=int, metavar="K",
                   help=f"worker processes (default: all cores, here {batch.default_workers()})")
    p.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="where the workers run: local processes, or Ray (the 'ray' extra)")
    p.add_argument("--out", metavar="FILE", help=(
        "keep every game in FILE (JSON lines) as it is played; run the same sweep again to resume from it"))
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    p.add_argument("--csv", metavar="FILE", help="write one row per setting and figure to FILE")
    p.add_argument("--plot", metavar="FILE", help="draw each figure against the settings to FILE (.png or .svg)")


def cmd_sweep(args) -> int:
    if args.games < 2:
        raise UserError("-n must be at least 2: a sweep compares settings game by game")
    if not args.vary and not args.compare:
        raise UserError("say what to sweep: --vary NAME=VALUES (an option's values) or --compare FILE")
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise UserError("--plot needs a file name ending in .png or .svg")
    if args.skill is not None and not 1 <= args.skill <= 12:
        raise UserError("--skill takes 1 to 12 matches (the strongest searches 2^K iterations)")
    if args.skill_games < 1:
        raise UserError("--skill-games must be at least 1")
    if args.skill_agent not in ("ismcts", "mcts"):
        raise UserError("--skill-agent is ismcts or mcts")
    program = common.load_program(args.game)
    path = str(common.game_path(args.game))
    kinds = common.agent_names(args.agents)
    players = common.table_size(program, args.players, kinds)
    kinds = common.seat_kinds(kinds, players)
    if "human" in kinds:
        raise UserError("'sweep' plays without people; choose agents such as random, greedy or ismcts")
    others = []
    for ref in args.compare:
        other = common.load_program(ref)
        if not other.min_players <= players <= other.max_players:
            raise UserError(f"{ref} is for {common.seats_text(other)}, not {players}")
        others.append((ref, str(common.game_path(ref))))
    settings = sw.settings_of(program, path, args.vary, args.set, others)
    target = sw.direction(args.target) if args.target else None
    workers = args.workers if args.workers is not None else batch.default_workers()
    teams = 1 if outcomes.one_result(program) else len(program.teams)    # one shared result: one side
    skill = (args.skill_agent, args.skill, args.skill_games) if args.skill else None
    header = {"sweep": 1, "game": path, "players": players, "agents": list(kinds), "seed": args.seed,
              "games": args.games, "settings": [[s.label, s.path, list(s.settings)] for s in settings],
              "skill": list(skill) if skill else None, "standings": args.standings}
    record = sw.Record(args.out, header) if args.out else None
    total = len(settings) * args.games + (len(settings) * args.skill * args.skill_games if skill else 0)
    try:
        with progress.bar(f"{program.title}: sweep", total, unit="games") as live:
            out = sw.play(settings, players, tuple(kinds), args.seed, args.games, workers, args.backend,
                          target, not args.no_race, record, skill, teams,
                          lambda done: live.advance(done - live.done), args.standings)
    finally:
        if record:
            record.close()
    analysis = sw.analyse(out["played"], players, teams, args.seed)
    for s, curve in out["skill"].items():
        trace = sw.skill_trace(curve)
        analysis["rows"][s]["figures"]["skill_trace"] = {"value": trace, "ci": [trace, trace]}
        analysis["rows"][s]["skill_curve"] = curve
    if target and target[0] not in analysis["rows"][settings[0]]["figures"]:
        raise UserError(f"--target {target[0]}: no such figure (the figures: "
                        f"{', '.join(sorted(analysis['rows'][settings[0]]['figures']))})")
    data = _data(program, players, kinds, args, analysis, out, target)
    if args.csv:
        _write_csv(args.csv, data)
    if args.plot:
        _plot(args.plot, data)
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True))
        return 0
    for line in _tables(data):
        print(line)
    if args.csv:
        print(f"wrote {args.csv}")
    if args.plot:
        print(f"wrote {args.plot}")
    return 0


def _data(program, players, kinds, args, analysis, out, target) -> dict:
    rows = []
    for s, row in analysis["rows"].items():
        rows.append({"setting": s.label, "reference": s.reference, "games": row["games"],
                     "stopped_after": out["stopped"].get(s), "figures": row["figures"],
                     "differs": row["differs"], **({"skill_curve": row["skill_curve"]} if "skill_curve" in row else {})})
    data = {"game": program.title, "players": players, "agents": list(kinds), "seed": args.seed,
            "games": args.games, "settings": rows}
    if target:
        name, way = target
        ordered = sorted(rows, key=lambda r: -way * r["figures"][name]["value"])
        best, runner = ordered[0], (ordered[1] if len(ordered) > 1 else None)
        data["target"] = {"figure": name, "better": "higher" if way > 0 else "lower", "best": best["setting"],
                          "ranking": [r["setting"] for r in ordered],
                          "margin": abs(best["figures"][name]["value"] - runner["figures"][name]["value"]) if runner else 0.0}
    return data


def _cell(figure: dict, differs: bool | None, digits: int = 3) -> str:
    lo, hi = figure["ci"]
    return f"{figure['value']:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f}){'*' if differs else ' '}"


def _tables(data: dict) -> list[str]:
    rows = data["settings"]
    width = max(len(r["setting"]) + (12 if r["reference"] else 0) for r in rows) + 2
    lines = [f"{data['game']}: sweep of {len(rows)} settings, {data['players']} players, up to {data['games']} games "
             "each on the same seeds",
             f"agents: {', '.join(f'Player {i + 1} {k}' for i, k in enumerate(data['agents']))}", ""]
    first = list(rows[0]["figures"])
    seats = [k for k in first if k.startswith("seat ")]
    groups = [("who wins", seats + ["first player win rate", "duration"]),
              ("design metrics", [k for k in first if k not in seats and k not in
                                  ("first player win rate", "duration", "first_player_gap")])]
    for title, keys in groups:
        for start in range(0, len(keys), 3):          # three figures a table keeps a row under 100 columns
            part = keys[start:start + 3]
            lines.append(f"{title if start == 0 else ''}".ljust(width) + "".join(
                f"{k.replace('_', ' ')[:24]:>26}" for k in part))
            for r in rows:
                mark = " (reference)" if r["reference"] else ""
                lines.append(f"{(r['setting'] + mark)[:width - 1]:<{width}}" + "".join(
                    f"{_cell(r['figures'][k], r['differs'].get(k)):>26}" for k in part if k in r["figures"]))
            lines.append("")
    lines.append("games a setting: " + ", ".join(
        f"{r['setting']} {r['games']}" + (" (stopped: clearly worse)" if r["stopped_after"] else "") for r in rows))
    for r in rows:
        if "skill_curve" in r:
            lines.append(f"skill curve of {r['setting']}: " + " ".join(f"{y:.2f}" for y in r["skill_curve"]))
    lines.append("* differs from the reference at 5 % (paired bootstrap on the shared seeds, Holm-corrected "
                 f"over {len(rows) - 1} setting{'s' if len(rows) != 2 else ''}); intervals are 95 %")
    t = data.get("target")
    if t:
        lines.append(f"best by {t['figure'].replace('_', ' ')} ({t['better']} is better): {t['best']}, "
                     f"ahead of the next by {t['margin']:.3f}")
    return lines


def _write_csv(path: str, data: dict) -> None:
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["setting", "reference", "games", "figure", "value", "ci_low", "ci_high", "differs"])
            for r in data["settings"]:
                for name, fig in r["figures"].items():
                    w.writerow([r["setting"], int(r["reference"]), r["games"], name, fig["value"], fig["ci"][0],
                                fig["ci"][1], "" if name not in r["differs"] else int(r["differs"][name])])
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None


def _plot(path: str, data: dict) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("--plot needs matplotlib: pip install 'rulecraft[plot]'") from None
    rows = data["settings"]
    names = [k for k in rows[0]["figures"] if k != "first_player_gap"]
    cols = 4
    fig, axes = plt.subplots((len(names) + cols - 1) // cols, cols, figsize=(4 * cols, 3 * ((len(names) + cols - 1) // cols)),
                             squeeze=False)
    xs = list(range(len(rows)))
    for ax, name in zip(axes.flat, names):
        values = [r["figures"][name]["value"] for r in rows]
        low = [v - r["figures"][name]["ci"][0] for v, r in zip(values, rows)]
        high = [r["figures"][name]["ci"][1] - v for v, r in zip(values, rows)]
        ax.errorbar(xs, values, yerr=[low, high], fmt="o-", capsize=3)
        ax.set_title(name.replace("_", " "), fontsize=9)
        ax.set_xticks(xs, [r["setting"] for r in rows], rotation=30, ha="right", fontsize=7)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(f"{data['game']}: {data['players']} players, agents {', '.join(sorted(set(data['agents'])))}")
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
