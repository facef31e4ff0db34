"""What several commands share: loading a game, players, seeds, options and agents.

Every problem with the user's input is raised as UserError (one sentence);
problems in the rules themselves come up as RulesError from the loader.
"""
from __future__ import annotations

import re
import secrets

from ..agents.registry import agent_kind, agent_seed, canonical, make_agent
from ..diagnostics import UserError
from ..engine.machine import seats_text
from ..engine.session import Session
from ..loader import game_path, load_file

DEFAULT_TABLE = 4          # default players: min(max players, 4), but at least the minimum


def load_program(ref: str):
    """A bundled game name or a path; a missing one is a UserError (one sentence), bad rules a RulesError."""
    return load_file(game_path(ref))


def same_game(ref: str, other: str) -> bool:
    """Do two references name the same rules file (a name and a path may)?"""
    if ref == other:
        return True
    try:
        return game_path(ref).resolve() == game_path(other).resolve()
    except UserError:
        return False


def default_players(program) -> int:
    return max(program.min_players, min(program.max_players, DEFAULT_TABLE))


def fresh_seed() -> int:
    """A seed for a game the user did not seed; it is printed so the game can be played again."""
    return secrets.randbelow(1_000_000)


def split_list(text: str | None) -> list[str]:
    if not text:
        return []
    items = [x.strip() for x in text.split(",")]
    if any(not x for x in items):
        raise UserError(f"'{text}' has an empty entry; separate names with single commas, e.g. random,first")
    return items


def agent_names(text: str | None) -> list[str]:
    """--agents as registered agent names with their settings (any case on the command line); an unknown
    one, or a bad setting, is a UserError."""
    return [canonical(name) for name in split_list(text)]


def saved_kinds(data: dict) -> list[str] | None:
    """The agent kind at each seat a transcript or save records, or None if it records none (or a damaged list)."""
    kinds = data.get("agents")
    if isinstance(kinds, list) and len(kinds) == data["players"] and all(isinstance(k, str) for k in kinds):
        return kinds
    return None


def warn(sentence: str) -> None:
    """A warning: the command goes on (e.g. a record made with other rules, replayed against today's)."""
    from .terminal import echo
    echo(f"rulecraft: warning: {sentence}", "yellow", stderr=True)


def say_stopped(sentence: str, failed: bool) -> None:
    """Games a batch stopped at the decision limit: a warning when others ended, an error when none did."""
    from .terminal import echo
    if failed:
        echo(f"rulecraft: error: {sentence}", "bold red", stderr=True)
    else:
        warn(sentence)


def new_table(args):
    """What `run` and `play` start a new game from: (program, players, agent kind per seat, seed)."""
    program = load_program(args.game)
    kinds = agent_names(args.agents)
    players = table_size(program, args.players, kinds, args.game)
    kinds = seat_kinds(kinds, players)
    seed = args.seed if args.seed is not None else fresh_seed()
    return program, players, kinds, seed


def table_size(program, players: int | None, agent_kinds: list[str], ref: str = "") -> int:
    """--players if given; else the number of --agents when more than one is listed; else the default."""
    if players is not None:
        if not program.min_players <= players <= program.max_players:
            raise UserError(f"{program.title} is for {seats_text(program)}, "
                            f"not {players}{variants_seating(ref, players)}")
        return players
    if len(agent_kinds) > 1:
        if not program.min_players <= len(agent_kinds) <= program.max_players:
            raise UserError(f"{program.title} is for {seats_text(program)}, but --agents lists {len(agent_kinds)} "
                            "agents; give one per seat, or one for every seat")
        return len(agent_kinds)
    return default_players(program)


def variants_seating(ref: str, players: int) -> str:
    """For a refused player count: the bundled games that extend `ref` and seat that many ("; for 1 player: …")."""
    from ..check.modules import bundled_games
    found = []
    for name, path in bundled_games().items():
        text = path.read_text(encoding="utf-8")
        seats = re.search(r"^players (\d+)(?:\.\.(\d+))?\s*$", text, re.M)
        if re.search(rf"^extends {re.escape(ref)}\s*$", text, re.M) and seats:
            low, high = int(seats[1]), int(seats[2] or seats[1])
            if low <= players <= high:
                found.append(name)
    if not found:
        return ""
    return f"; for {players} player{'s' if players != 1 else ''}: {', '.join(found)}"


def seat_kinds(agent_kinds: list[str], players: int) -> list[str]:
    """One agent kind per seat from --agents: a single kind serves every seat."""
    if not agent_kinds:
        return ["random"] * players
    if len(agent_kinds) == 1:
        return agent_kinds * players
    if len(agent_kinds) != players:
        raise UserError(f"--agents lists {len(agent_kinds)} agents for {players} players; "
                        "give one per seat, or one for every seat")
    return agent_kinds


def parse_seats(text: str, players: int) -> set[int]:
    """--seat 2, --seat 1,3 or --seat all → 0-based seat numbers."""
    if text.strip().lower() == "all":
        return set(range(players))
    seats = set()
    for item in split_list(text):
        if not (item.isascii() and item.isdigit()):
            raise UserError(f"--seat takes seat numbers from 1 to {players} or 'all', not '{item}'")
        k = int(item)
        if not 1 <= k <= players:
            raise UserError(f"there is no seat {k}: the game has {players} players (seats 1 to {players})")
        seats.add(k - 1)
    return seats


def make_agents(kinds: list[str], seed: int) -> list:
    """Agents per seat (None for a human seat, whom the caller prompts)."""
    agents = []
    for seat, name in enumerate(kinds):
        kind = agent_kind(name)
        agents.append(None if kind.name == "human" else make_agent(name, agent_seed(seed, seat)))
    return agents


def start_session(program, ref: str, players: int, seed: int, settings, narrate: bool = True) -> Session:
    options = Session.parse_options(program, settings)
    return Session.start(program, ref, players, seed, options, narrate=narrate)

