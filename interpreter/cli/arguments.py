"""The options several commands share, with their help: the game, the table (players, seed, options,
agents). A command's module builds its own parser from these (cli/commands.py lists the modules)."""
from __future__ import annotations

GAME_HELP = "a bundled game name (see 'rulecraft list') or the path to a .rules file"
PLAYERS_HELP = ("number of players (default: the game's maximum, but at most 4 and at least its minimum; "
                "with several --agents, one player per agent)")
SEED_HELP = "seed for the game's chance and the agents' (default: a fresh one, printed in the header)"
TABLE_SEED_HELP = ("seed for the game's chance and the agents' (default: a fresh one). Kept secret from the "
                   "players: the header does not print it; a --save or --log file holds it")
SET_HELP = "set a game option, e.g. --set wheel=ascending (repeatable; 'rulecraft list' shows the options)"


def agents_help() -> str:
    """--agents' help, naming every registered agent (it imports the agents' registry: asked for by the
    commands that take --agents only)."""
    from ..agents.registry import described
    return (f"agents by seat, comma-separated ({described()}); one name serves every seat; "
            "settings after colons, e.g. ismcts:iterations=800:rollout=greedy (docs/simulating.md); "
            "default random; each agent is seeded from the seed and its seat")


def table_args(p, seed_help: str = SEED_HELP) -> None:
    """--players, --seed, --set and --agents: a new game at a table (run, play, serve)."""
    p.add_argument("--players", "-n", type=int, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--seed", "-s", type=int, metavar="S", help=seed_help)
    p.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], help=SET_HELP)
    p.add_argument("--agents", "-a", metavar="A,B,...", help=agents_help())
