"""The `rulecraft` command: argument parsing, dispatch, and turning every error into a sentence.

Exit codes: 0 success; 1 a problem with the rules, the input or the game
(diagnostics or one sentence on stderr); 2 a usage error (argparse);
130 interrupted. A Python traceback is shown only with RULECRAFT_DEBUG=1.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..diagnostics import RulesError, UserError
from ..engine.machine import IllegalDecision
from ..runtime.errors import RulesRuntimeError
from .commands import BY_NAME, COMMANDS, add_arguments_of, runner_of
from .terminal import echo, sanitized_output, set_colour

ERROR = "bold red"

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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command in the table (cli/commands.py), or of the command `only` alone: a
    command's parser imports its module and what its options need (the agents' help), and `rulecraft run`
    of a cached game should import no more than it uses."""
    parser = argparse.ArgumentParser(
        prog="rulecraft", description="Board and card games written as .rules text files, run by one interpreter.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in COMMANDS:
        if only is None or command.name == only:
            p = sub.add_parser(command.name, help=command.help)
            add_arguments_of(command)(p)
            p.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)
    return parser


class _Version(argparse.Action):
    """`--version`, reading the installed version only when asked (the package metadata costs ~15 ms)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from .. import __version__
        print(f"rulecraft {__version__}")
        parser.exit()


def _command(name: str):
    """The function that runs the command `name`, from its row in the table (importing its module only)."""
    return runner_of(BY_NAME[name])


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
    only = words[0] if words and words[0] in BY_NAME else None
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
