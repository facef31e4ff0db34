"""`rulecraft test`: are these rules right? Scenarios, then random games checked at every step.

First every scenario of the rule file runs (`ok  NAME — doc` or `FAIL NAME:
file:line:col: message` with the source line). Then, for each player count and
each option value in turn (validate.explore.configurations), hypothesis plays
--explore random games, checking the game's invariants and the generic
properties (validate.properties) after every decision. A failing configuration
is shrunk by hypothesis to the smallest game it can find (a game past its decision
limit is not: it is reported as found, with the lengths of the games that ended),
written as a transcript (validate.transcripts) and reported with the command that
replays it.
The last line reads `N passed, M failed`, counting scenarios and configurations;
the exit status is 1 if anything failed. The same --seed gives the same output.
"""
from __future__ import annotations

from pathlib import Path

from ..diagnostics import UserError
from ..engine import records, scenarios
from ..engine.session import Session
from ..validate import explore, transcripts
from ..validate.properties import ENDLESS
from . import common, progress, terminal
from .arguments import GAME_HELP, SET_HELP
from .check import show_warnings

DEFAULT_EXPLORE = 20
OK, FAIL = "green", "bold red"          # styles, at a terminal that shows colour
DEFAULT_OUT = "rulecraft-failures"        # made when the first failure is written, not before


def cmd_test(args) -> int:
    program = common.load_program(args.game)
    if args.explore < 0:
        raise UserError("--explore takes a number of games, 0 or more")
    if args.players is not None and not program.min_players <= args.players <= program.max_players:
        raise UserError(f"{program.title} is for {common.seats_text(program)}, not {args.players}")
    fixed = Session.parse_options(program, args.set)
    out_dir = Path(args.out or DEFAULT_OUT)
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"--out {out_dir}: it is a file, not a folder")

    passed = failed = 0
    print(f"{program.title} ({program.entry})")
    show_warnings(program)

    results = []
    with progress.bar("scenarios", total=len(program.scenarios)) as bar:
        for sc in program.scenarios:
            bar.describe(f"scenario {sc.name}")
            try:
                results.append(scenarios.run_scenario(program, sc))
            except Exception as e:        # a bug in rulecraft: report it as this scenario's failure
                results.append(scenarios.ScenarioResult(sc.name, sc.doc, False,
                                                        f"internal error: {type(e).__name__}: {e}", sc.span))
            bar.advance()
    if results:
        print(f"scenarios: {len(results)}")
    for r in results:
        if r.ok:
            passed += 1
            terminal.echo(f"ok  {r.name}" + (f" — {r.doc}" if r.doc else ""), OK)
        else:
            failed += 1
            where = f"{r.span}: " if r.span is not None else ""
            terminal.echo(f"FAIL {r.name}: {where}{r.message}", FAIL)
            for line in _source_lines(program, r.span):
                print(line)
            inherited = _inherited_from(program, r.span)
            if inherited:
                print(f"     hint: this scenario comes from {inherited}, which these rules extend: if the variant "
                      f"changes what it tests, replace it (`override scenario {r.name} \"…\":`) or leave it out "
                      f"(`drop scenario {r.name}`)")

    if args.explore:
        configs = explore.configurations(program, args.players, fixed)
        depth = "shallow checks" if args.shallow else "all checks"
        invs = len(program.invariants)
        print(f"exploring: up to {args.explore} random game{'s' if args.explore != 1 else ''} in each of "
              f"{len(configs)} configuration{'s' if len(configs) != 1 else ''}, seed {args.seed}, {depth}, "
              f"{invs} invariant{'s' if invs != 1 else ''}")
        stem = Path(program.entry).stem
        written = 0
        with progress.bar("exploring", total=len(configs) * args.explore) as bar:
            for k, (n, opts) in enumerate(configs):
                name = _config_text(program, n, opts)
                bar.describe(name)
                played = 0
                lengths: list = []

                def tick(shrinking, name=name):
                    nonlocal played
                    if shrinking:
                        bar.describe(f"{name}: shrinking a failing game")
                    elif played < args.explore:
                        played += 1
                        bar.advance()
                runs, failure = explore.explore_one(program, n, opts, args.explore, args.seed,
                                                    deep=not args.shallow, lengths=lengths, on_game=tick)
                bar.advance(args.explore - played)
                if failure is None:
                    passed += 1
                    bar.print(f"ok  {name} — {runs} different game{'s' if runs != 1 else ''}"
                              f"{_lengths_text(lengths)}", OK)
                    continue
                failed += 1
                written += 1
                path = out_dir / (f"{stem}.failure.yaml" if written == 1 else f"{stem}.failure-{written}.yaml")
                _report(program, args, name, failure, path, bar.print, lengths)
                if not args.keep_going and k + 1 < len(configs):
                    rest = len(configs) - k - 1
                    bar.print(f"stopped at the first failure: {rest} more configuration{'s' if rest != 1 else ''} "
                              "not explored (--keep-going explores them)")
                    break
    terminal.echo(f"{passed} passed, {failed} failed", FAIL if failed else OK)
    return 1 if failed else 0


def _inherited_from(program, span) -> str | None:
    """The file a scenario was written in, when it is not the entry file (a variant inherited it)."""
    from ..check.modules import display_path
    if span is None or program.entry is None:
        return None
    here = display_path(Path(program.entry))
    return None if str(span.file) in (here, str(program.entry)) else str(span.file)


def _lengths_text(lengths: list) -> str:
    """How long the games were, in decisions: a game that runs long shows here before it hits the limit."""
    if not lengths:
        return ""
    ls = sorted(lengths)
    if ls[0] == ls[-1]:
        return f", {ls[0]} decision{'s' if ls[0] != 1 else ''} each"
    return f", {ls[0]}–{ls[-1]} decisions (median {ls[len(ls) // 2]})"


def _report(program, args, name: str, failure, path: Path, say, lengths=()) -> None:
    found_by = f"rulecraft test --seed {args.seed} ({name})"
    record = transcripts.failure_record(program, args.game, failure, found_by, dest=path)
    records.write_text(path, records.dump(record))
    info = record["failure"]
    before = info["after"]
    say(f"FAIL {name}: {transcripts.prop_text(failure.prop)}", FAIL)
    d = info.get("decision")
    if d is not None:
        say(f"     at decision {d['number']}: Player {d['player']} takes '{d['label']}' and the rules fail:")
        for line in str(failure.detail).splitlines():
            say(f"       {line}")
        say(f"     shrunk to a game of {before + 1} decision{'s' if before else ''}, the last one failing "
              f"(game seed {failure.seed}); the transcript holds the {before} before it")
    elif failure.prop == ENDLESS:
        # not shrunk (validate.explore): every game that breaks it is exactly as long
        say(f"     {failure.detail}")
        say(f"     the first game found that does not end (game seed {failure.seed}), not shrunk: every game "
            f"that fails this is {before} decisions long")
        if lengths:
            say(f"     {len(lengths)} game{'s' if len(lengths) != 1 else ''} ended before it{_lengths_text(lengths)}")
    else:
        say(f"     after decision {before}: {failure.detail or failure.message}")
        say(f"     shrunk to a game of {before} decision{'s' if before != 1 else ''} (game seed {failure.seed})")
        for line in _invariant_source(program, failure):
            say(line)
    say(f"     wrote {path}")
    say(f"     replay it: rulecraft replay {path} --step")


def _invariant_source(program, failure) -> list[str]:
    span = transcripts.invariant_span(program, failure.prop)
    return [] if span is None else [f"     {span}: the invariant:"] + _source_lines(program, span)


def _config_text(program, n: int, opts: dict) -> str:
    parts = [f"{n} player{'s' if n != 1 else ''}"]
    parts += [f"{o.name}={o.shown(opts[o.name])}" for o in program.options]
    return ", ".join(parts)


def _source_lines(program, span) -> list[str]:
    if span is None or not getattr(span, "line", 0):
        return []
    text = (getattr(program, "sources", None) or {}).get(span.file)
    if text is None:
        return []
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return []
    return [f"{span.line:7d} | {lines[span.line - 1].rstrip()}"]


def add_arguments(test) -> None:
    test.description = (
        "Check that GAME's rules are right. First run the scenarios written in the rule file; then play "
        "random games (driven by hypothesis) for each player count and each option value in turn, checking "
        "the game's invariants and the properties every game must have after every decision: every card in "
        "one place, someone can always move, the game ends within its bound, no runtime error, the same "
        "seed and decisions give the same game, copies are independent, save and load give the same game, "
        "a view hides what is hidden, illegal options are refused. A failure is shrunk to the smallest game "
        "found and written as a transcript to replay with 'rulecraft replay FILE --step'. "
        "Exit status 0 when everything passed, 1 otherwise. The same --seed gives the same run.")
    test.add_argument("game", metavar="GAME", help=GAME_HELP)
    test.add_argument("--explore", "-e", type=int, default=DEFAULT_EXPLORE, metavar="N",
                      help=f"random games per configuration (default {DEFAULT_EXPLORE}; 0: scenarios only)")
    test.add_argument("--seed", "-s", type=int, default=0, metavar="S",
                      help="seed of the exploration (default 0): the same seed explores the same games")
    test.add_argument("--players", "-n", type=int, metavar="N", help="explore only games of N players")
    test.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                      help=SET_HELP + "; the option keeps that value in every configuration explored")
    test.add_argument("--out", "-o", metavar="DIR",
                      help=f"folder for the transcripts of failing games, made if missing (default: ./{DEFAULT_OUT})")
    test.add_argument("--shallow", action="store_true",
                      help="skip the costly checks (views under reshuffle, copies, save and load): about twice as fast")
    test.add_argument("--keep-going", "-k", action="store_true",
                      help="explore every configuration even after one fails")
