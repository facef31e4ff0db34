"""The CLI is made from one table of commands (cli/commands.py, issue 33): every row has a module that
builds its parser and a function that runs it, and shows in `rulecraft --help`; a broken row is caught."""
from __future__ import annotations

import inspect
import re

import pytest

from rulecraft.cli.commands import COMMANDS, Command, add_arguments_of, runner_of
from rulecraft.cli.main import build_parser


def problems(command: Command, capsys) -> list[str]:
    """What is wrong with a row of the table: an empty list when its parser, runner and help line work."""
    found = []
    try:
        add = add_arguments_of(command)
        if not callable(add) or len(inspect.signature(add).parameters) != 1:
            found.append(f"{command.parser}.add_arguments does not take one parser")
    except (ImportError, AttributeError) as e:
        found.append(f"no parser: {e}")
    try:
        run = runner_of(command)
        if not callable(run) or len(inspect.signature(run).parameters) != 1:
            found.append(f"{command.runner} does not take the parsed arguments")
    except (ImportError, AttributeError, ValueError) as e:
        found.append(f"no runner: {e}")
    if found:
        return found
    parser = build_parser()
    try:
        parser.parse_args([command.name, "--help"])
    except SystemExit:
        pass
    own = capsys.readouterr().out
    if not own.startswith(f"usage: rulecraft {command.name} "):
        found.append(f"'rulecraft {command.name} --help' does not show its usage")
    try:
        parser.parse_args(["--help"])
    except SystemExit:
        pass
    listing = capsys.readouterr().out
    if not re.search(rf"^    {re.escape(command.name)}\s+{re.escape(command.help)}$", listing, re.M):
        found.append(f"'{command.name}' is not listed with its help in 'rulecraft --help'")
    return found


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")      # each help on the line of its command


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_every_command_has_a_parser_a_runner_and_a_line_in_the_help(command, capsys):
    assert problems(command, capsys) == []


def test_the_parser_lists_the_table_in_order_and_nothing_else(capsys):
    names = [c.name for c in COMMANDS]
    assert len(set(names)) == len(names)
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices) == names
    for command in COMMANDS:        # `rulecraft NAME` builds the parser of NAME alone
        sub = next(a for a in build_parser(command.name)._actions if a.dest == "command")
        assert list(sub.choices) == [command.name]


@pytest.mark.parametrize("broken", [
    Command("run", "agents play a whole game", "no_such_module", "run:cmd_run"),
    Command("run", "agents play a whole game", "common", "run:cmd_run"),           # no add_arguments there
    Command("run", "agents play a whole game", "run", "run:cmd_play"),             # no such function
    Command("run", "agents play a whole game", "run", "nowhere:cmd_run"),
    Command("run", "agents play a whole game", "run", "run"),                      # not module:function
    Command("run", "agents play the whole game", "run", "run:cmd_run"),            # not the help shown
    Command("walk", "agents play a whole game", "run", "run:cmd_run"),             # not in the parser
], ids=["parser-module", "parser-function", "runner-function", "runner-module", "runner-form", "help", "name"])
def test_a_broken_row_is_caught(broken, capsys):
    assert problems(broken, capsys)
