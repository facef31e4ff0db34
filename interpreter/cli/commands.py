"""Every `rulecraft` command, one row each: the one table the parser, `rulecraft --help` and the dispatch
are made from (cli/main.py). Adding a command is a row here and its module.

A row names the command, its line in `rulecraft --help`, the module under cli/ whose
`add_arguments(parser)` gives the command's description and options, and the function that runs it
(`module:function`, taking the parsed arguments and returning the exit status). Modules are named as
strings and imported when needed, so `rulecraft run` imports `run` alone (tests/test_lazy_cli.py).
"""
from __future__ import annotations

from importlib import import_module

from .. import slotclasses


@slotclasses.frozen
class Command:
    name: str        # the word after `rulecraft`
    help: str        # its line in `rulecraft --help`
    parser: str      # the module whose add_arguments(parser) adds its description and options
    runner: str      # "module:function": function(args) -> exit status


COMMANDS = (
    Command("run", "agents play a whole game", "run", "run:cmd_run"),
    Command("play", "play interactively against agents", "play", "play:cmd_play"),
    Command("check", "parse and check rule files", "check", "check:cmd_check"),
    Command("list", "bundled games and their options", "listing", "listing:cmd_list"),
    Command("replay", "replay a transcript and verify it", "replay", "replay:cmd_replay"),
    Command("test", "run a game's scenarios and explore random games for broken rules", "test", "test:cmd_test"),
    Command("simulate", "play many games by agents and measure the rules", "simulate", "simulate:cmd_simulate"),
    Command("sweep", "play every setting of some options; which is best", "sweep", "sweep:cmd_sweep"),
    Command("tournament", "agents against each other, rated", "tournament", "tournament:cmd_tournament"),
    Command("fmt", "lay out rule files in the one canonical way", "fmt", "fmt:cmd_fmt"),
    Command("lsp", "a language server for editors (stdio; needs rulecraft[lsp])", "lsp", "lsp:cmd_lsp"),
    Command("doc", "write a game's rules as a document (Markdown or HTML)", "doc", "doc:cmd_doc"),
    Command("show", "the Python a game's rules compile to, or their typed IR", "generated", "generated:cmd_show"),
    Command("serve", "a web table: a link per player, agents in the other seats", "serve", "serve:cmd_serve"),
)
BY_NAME = {c.name: c for c in COMMANDS}


def add_arguments_of(command: Command):
    """The function that fills the command's parser (importing its module)."""
    return import_module(f".{command.parser}", __package__).add_arguments


def runner_of(command: Command):
    """The function that runs the command (importing its module)."""
    module, function = command.runner.split(":")
    return getattr(import_module(f".{module}", __package__), function)
