"""The `rulecraft` command: argument parsing, dispatch, and turning every error into a sentence.

Exit codes: 0 success; 1 a problem with the rules, the input or the game
(diagnostics or one sentence on stderr); 2 a usage error (argparse);
130 interrupted. A Python traceback is shown only with RULECRAFT_DEBUG=1.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..runtime.errors import RulesRuntimeError
from .terminal import echo, sanitized_output, set_colour

ERROR = "bold red"
from ..diagnostics import RulesError, UserError
from ..engine.machine import IllegalDecision

GAME_HELP = "a bundled game name (see 'rulecraft list') or the path to a .rules file"

EPILOG = """\
examples:
  rulecraft run blackmore --seed 7
  rulecraft run blackmore --players 3 --set wheel=ascending --agents random,first,random --log game.yaml
  rulecraft replay game.yaml
  rulecraft play blackmore --seat 1 --save game.save
  rulecraft play --load game.save
  rulecraft serve blackmore --players 3 --agents human,human,ismcts
  rulecraft check games/blackmore.rules
  rulecraft doc blackmore --out blackmore.html
  rulecraft test examples/blackmore-no-refill.rules --explore 5
  rulecraft replay rulecraft-failures/blackmore-no-refill.failure.yaml --step --omniscient
  rulecraft simulate blackmore -n 1000 --players 2 --agents ismcts:iterations=100,random
  rulecraft sweep blackmore --vary hand_size=4..8 -n 400 --players 3 --target balance

Run 'rulecraft COMMAND --help' for a command's options."""

NO_COLOR_HELP = ("no colour or styles, even at a terminal (also: the NO_COLOR environment variable); "
                 "output to a pipe or a file is always plain")
PLAYERS_HELP = ("number of players (default: the game's maximum, but at most 4 and at least its minimum; "
                "with several --agents, one player per agent)")
SEED_HELP = "seed for the game's chance and the agents' (default: a fresh one, printed in the header)"
TABLE_SEED_HELP = ("seed for the game's chance and the agents' (default: a fresh one). Kept secret from the "
                   "players: the header does not print it; a --save or --log file holds it")
SET_HELP = "set a game option, e.g. --set wheel=ascending (repeatable; 'rulecraft list' shows the options)"
COMMANDS = ("run", "play", "check", "list", "replay", "test", "simulate", "sweep", "tournament", "fmt", "lsp", "doc", "show", "serve")
MODULES = {"list": "listing", "show": "generated"}   # a command whose module has another name


def agents_help() -> str:
    from ..agents.registry import described
    return (f"agents by seat, comma-separated ({described()}); one name serves every seat; "
            "settings after colons, e.g. ismcts:iterations=800:rollout=greedy (docs/simulating.md); "
            "default random; each agent is seeded from the seed and its seat")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the command `only` alone: a command's parser imports what its
    options need (the agents' help, a test's settings), and `rulecraft run` of a cached game should
    import no more than it uses."""
    parser = argparse.ArgumentParser(
        prog="rulecraft", description="Board and card games written as .rules text files, run by one interpreter.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    want = (lambda name: True) if only is None else (lambda name: name == only)
    if want("run"):
        _add_run(sub)
    if want("play"):
        _add_play(sub)
    if want("check"):
        _add_check(sub)
    if want("list"):
        _add_list(sub)
    if want("replay"):
        _add_replay(sub)
    if want("test"):
        from .test import add_parser as add_test
        add_test(sub, GAME_HELP, SET_HELP)
    if want("simulate"):
        from .simulate import add_parser as add_simulate
        add_simulate(sub, GAME_HELP, SET_HELP, agents_help())
    if want("sweep"):
        from .sweep import add_parser as add_sweep
        add_sweep(sub, GAME_HELP, SET_HELP, agents_help())
    if want("tournament"):
        from .tournament import add_parser as add_tournament
        add_tournament(sub, GAME_HELP, SET_HELP)
    if want("fmt"):
        from .fmt import add_parser as add_fmt
        add_fmt(sub)
    if want("lsp"):
        from .lsp import add_parser as add_lsp
        add_lsp(sub)
    if want("doc"):
        from .doc import add_parser as add_doc
        add_doc(sub, GAME_HELP)
    if want("show"):
        from .generated import add_parser as add_show
        add_show(sub, GAME_HELP)
    if want("serve"):
        from .serve import add_parser as add_serve
        add_serve(sub, GAME_HELP, lambda p: _table_args(p, TABLE_SEED_HELP))
    for command in sub.choices.values():
        command.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)
    return parser


class _Version(argparse.Action):
    """`--version`, reading the installed version only when asked (the package metadata costs ~15 ms)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from .. import __version__
        print(f"rulecraft {__version__}")
        parser.exit()


def _add_run(sub) -> None:
    run = sub.add_parser("run", help="agents play a whole game", description=(
        "Agents play GAME to the end. Prints the rules' narration and every decision in order, then the "
        "final scores and the winner(s). The same seed, options and agents give the same output, byte for byte."))
    run.add_argument("game", metavar="GAME", help=GAME_HELP)
    _table_args(run)
    run.add_argument("--log", metavar="FILE", help="write the game's transcript (YAML) to FILE, for 'rulecraft replay'")
    run.add_argument("--quiet", "-q", action="store_true", help="print only the final scores and winner(s)")


def _add_play(sub) -> None:
    play = sub.add_parser("play", help="play interactively against agents", description=(
        "Play GAME at the seat(s) given by --seat; agents take the other seats. Before each of your "
        "decisions you see what happened since your last one, then only what your seat may see (lines marked » "
        "changed), then numbered options: answer with a number, a label or the start of one. At the prompt you "
        "may also type 'rules', 'view', 'log', 'undo', 'save FILE', 'quit' or 'help'."))
    play.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP + " (not needed with --load)")
    play.add_argument("--seat", metavar="K", help="your seat, 1-based (default 1); several: --seat 1,2; "
                                                   "everyone at this keyboard (hot seat): --seat all")
    _table_args(play, TABLE_SEED_HELP)
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every decision (the whole game: "
                      "it holds every seat's hidden cards and choices and the random generator's state)")
    play.add_argument("--load", metavar="FILE", help="resume a game saved with --save or 'save FILE' "
                      "(same seats and agents unless --seat/--agents say otherwise; add --save to keep saving)")
    play.add_argument("--log", metavar="FILE", help="write the transcript to FILE when the game ends")
    play.add_argument("--ask-forced", action="store_true", help=(
        "ask even when a decision has one option only (by default it is taken for you, and said so; "
        "at a hot seat it is always asked)"))


def _add_check(sub) -> None:
    check = sub.add_parser("check", help="parse and check rule files", description=(
        "Parse and check each FILE, printing every error with its file:line:col. "
        "Exit status 0 when all are clean, 1 otherwise."))
    check.add_argument("files", metavar="FILE", nargs="+", help="a .rules file (or a bundled game name)")


def _add_list(sub) -> None:
    lst = sub.add_parser("list", help="bundled games and their options", description=(
        "List the games bundled with rulecraft: title, player counts and options (allowed values, default). "
        "Variants outside the package (e.g. examples/ in a checkout) are listed when their files or "
        "folders are given as PATH."))
    lst.add_argument("paths", metavar="PATH", nargs="*", help="more .rules files or folders of them to list")


def _add_replay(sub) -> None:
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


def _table_args(p, seed_help: str = SEED_HELP) -> None:
    p.add_argument("--players", "-n", type=int, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--seed", "-s", type=int, metavar="S", help=seed_help)
    p.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], help=SET_HELP)
    p.add_argument("--agents", "-a", metavar="A,B,...", help=agents_help())


def _command(name: str):
    """The function of one command, importing its module only (MODULES: where it is not the command's name)."""
    import importlib
    module = importlib.import_module(f".{MODULES.get(name, name)}", __package__)
    return getattr(module, f"cmd_{name}")


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
    words = sys.argv[1:] if argv is None else list(argv)
    only = words[0] if words and words[0] in COMMANDS else None
    try:
        args = build_parser(only).parse_args(words)
    except SystemExit as e:                       # --help, or a usage error (exit 2)
        return e.code if isinstance(e.code, int) else 2
    set_colour(not args.no_color)
    try:
        return _command(args.command)(args)
    except RulesError as e:
        from .check import show_diagnostics
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
