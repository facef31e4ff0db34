"""The `rulecraft` command: argument parsing, dispatch, and turning every error into a sentence.

Exit codes: 0 success; 1 a problem with the rules, the input or the game
(diagnostics or one sentence on stderr); 2 a usage error (argparse);
130 interrupted. A Python traceback is shown only with RULECRAFT_DEBUG=1.
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import agents
from ..runtime.errors import RulesRuntimeError
from .check import show_diagnostics
from .terminal import echo, sanitized_output, set_colour

ERROR = "bold red"
from ..diagnostics import RulesError, UserError
from ..engine.machine import IllegalDecision

GAME_HELP = "a bundled game name (see 'rulecraft list') or the path to a .rules file"

EPILOG = """\
commands:
  run      agents play a whole game; prints what happens, then the scores
  play     play at one or more seats against agents (all seats: hot seat)
  check    parse and check rule files; report every error
  list     bundled games, their player counts and options
  replay   replay a transcript written by --log, checking every decision
  test     run a game's scenarios and explore random games for broken rules
  simulate play many games by agents; win rates, scores, lengths and design metrics
  tournament  agents against each other in a round robin, rated on Elo's scale
  fmt      lay out rule files in the one canonical way (--check, --diff)
  lsp      a language server for editors (needs rulecraft[lsp])
  doc      a game's rules as a Markdown or HTML document

examples:
  rulecraft run blackmore --seed 7
  rulecraft run blackmore --players 3 --set wheel=ascending --agents random,first,random --log game.yaml
  rulecraft replay game.yaml
  rulecraft play blackmore --seat 1 --save game.save
  rulecraft play --load game.save
  rulecraft check games/blackmore.rules
  rulecraft doc blackmore --out blackmore.html
  rulecraft test examples/blackmore-no-refill.rules --explore 5
  rulecraft replay rulecraft-failures/blackmore-no-refill.failure.yaml --step --omniscient
  rulecraft simulate blackmore -n 1000 --players 2 --agents ismcts:iterations=100,random

Run 'rulecraft COMMAND --help' for a command's options."""

NO_COLOR_HELP = ("no colour or styles, even at a terminal (also: the NO_COLOR environment variable); "
                 "output to a pipe or a file is always plain")
PLAYERS_HELP = ("number of players (default: the game's maximum, but at most 4 and at least its minimum; "
                "with several --agents, one player per agent)")
SEED_HELP = "seed for the game's chance and the agents' (default: a fresh one, printed in the header)"
SET_HELP = "set a game option, e.g. --set wheel=ascending (repeatable; 'rulecraft list' shows the options)"
AGENTS_HELP = (f"agents by seat, comma-separated ({agents.described()}); one name serves every seat; "
               "settings after colons, e.g. ismcts:iterations=800:rollout=greedy (docs/simulating.md); "
               "default random; each agent is seeded from the seed and its seat")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulecraft", description="Board and card games written as .rules text files, run by one interpreter.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from .. import __version__
    parser.add_argument("--version", action="version", version=f"rulecraft {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    run = sub.add_parser("run", help="agents play a whole game", description=(
        "Agents play GAME to the end. Prints the rules' narration and every decision in order, then the "
        "final scores and the winner(s). The same seed, options and agents give the same output, byte for byte."))
    run.add_argument("game", metavar="GAME", help=GAME_HELP)
    _table_args(run)
    run.add_argument("--log", metavar="FILE", help="write the game's transcript (YAML) to FILE, for 'rulecraft replay'")
    run.add_argument("--quiet", "-q", action="store_true", help="print only the final scores and winner(s)")

    play = sub.add_parser("play", help="play interactively against agents", description=(
        "Play GAME at the seat(s) given by --seat; agents take the other seats. Before each of your "
        "decisions you see what happened since your last one, then only what your seat may see (lines marked » "
        "changed), then numbered options: answer with a number, a label or the start of one. At the prompt you "
        "may also type 'rules', 'view', 'log', 'undo', 'save FILE', 'quit' or 'help'."))
    play.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP + " (not needed with --load)")
    play.add_argument("--seat", metavar="K", help="your seat, 1-based (default 1); several: --seat 1,2; "
                                                   "everyone at this keyboard (hot seat): --seat all")
    _table_args(play)
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every decision")
    play.add_argument("--load", metavar="FILE", help="resume a game saved with --save or 'save FILE' "
                      "(same seats and agents unless --seat/--agents say otherwise; add --save to keep saving)")
    play.add_argument("--log", metavar="FILE", help="write the transcript to FILE when the game ends")
    play.add_argument("--ask-forced", action="store_true", help=(
        "ask even when a decision has one option only (by default it is taken for you, and said so; "
        "at a hot seat it is always asked)"))

    check = sub.add_parser("check", help="parse and check rule files", description=(
        "Parse and check each FILE, printing every error with its file:line:col. "
        "Exit status 0 when all are clean, 1 otherwise."))
    check.add_argument("files", metavar="FILE", nargs="+", help="a .rules file (or a bundled game name)")

    lst = sub.add_parser("list", help="bundled games and their options", description=(
        "List the games bundled with rulecraft: title, player counts and options (allowed values, default). "
        "Variants outside the package (e.g. examples/ in a checkout) are listed when their files or "
        "folders are given as PATH."))
    lst.add_argument("paths", metavar="PATH", nargs="*", help="more .rules files or folders of them to list")

    replay = sub.add_parser("replay", help="replay a transcript and verify it", description=(
        "Replay a transcript written by 'run --log' (or a save), checking every decision against the rules "
        "and the recorded result; prints the game like 'run'. An illegal decision is reported by its number."))
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

    from .test import add_parser as add_test
    add_test(sub, GAME_HELP, SET_HELP)
    from .simulate import add_parser as add_simulate
    add_simulate(sub, GAME_HELP, SET_HELP, AGENTS_HELP)
    from .tournament import add_parser as add_tournament
    add_tournament(sub, GAME_HELP, SET_HELP)
    from .fmt import add_parser as add_fmt
    add_fmt(sub)
    from .lsp import add_parser as add_lsp
    add_lsp(sub)
    from .doc import add_parser as add_doc
    add_doc(sub, GAME_HELP)
    for command in sub.choices.values():
        command.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)
    return parser


def _table_args(p) -> None:
    p.add_argument("--players", "-n", type=int, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--seed", "-s", type=int, metavar="S", help=SEED_HELP)
    p.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], help=SET_HELP)
    p.add_argument("--agents", "-a", metavar="A,B,...", help=AGENTS_HELP)


def _commands():
    from .check import cmd_check
    from .listing import cmd_list
    from .play import cmd_play
    from .replay import cmd_replay
    from .run import cmd_run
    from .simulate import cmd_simulate
    from .test import cmd_test
    from .tournament import cmd_tournament
    from .fmt import cmd_fmt
    from .lsp import cmd_lsp
    from .doc import cmd_doc
    return {"run": cmd_run, "play": cmd_play, "check": cmd_check, "list": cmd_list, "replay": cmd_replay,
            "test": cmd_test, "simulate": cmd_simulate, "tournament": cmd_tournament, "fmt": cmd_fmt,
            "lsp": cmd_lsp, "doc": cmd_doc}


def _error(message: str) -> int:
    echo(f"rulecraft: error: {message}", ERROR, stderr=True)
    return 1



def main(argv=None) -> int:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")   # a game's text never fails on a narrow terminal
        except (AttributeError, ValueError, OSError):
            pass
    with sanitized_output():                      # no control character from a file reaches the terminal
        return _main(argv)


def _main(argv) -> int:
    debug = os.environ.get("RULECRAFT_DEBUG") == "1"
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:                       # --help, or a usage error (exit 2)
        return e.code if isinstance(e.code, int) else 2
    set_colour(not args.no_color)
    try:
        return _commands()[args.command](args)
    except RulesError as e:
        show_diagnostics(e.render())
        return 1
    except (UserError, IllegalDecision) as e:
        return _error(str(e))
    except RulesRuntimeError as e:
        print(str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:                       # e.g. `rulecraft run blackmore | head`
        _silence_stdout()
        return 1
    except OSError as e:                          # writing the output failed: a full disk, /dev/full
        _silence_stdout()
        return _error(f"cannot write the output: {e.strerror or e}")
    except Exception as e:                        # a bug in rulecraft, never in the user's input
        if debug:
            raise
        one_line = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return _error(f"internal error: {type(e).__name__}" + (f": {one_line}" if one_line else "")
                      + " (set RULECRAFT_DEBUG=1 to see where)")


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the final flush of what could not be written stays quiet."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
