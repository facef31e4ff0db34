"""Every agent kind by name, as OpenSpiel's REGISTER_SPIEL_BOT.

One table that `make_agent`, the CLI's `--agents` help and the "unknown agent" error all
read, so a new agent is one entry here and nothing else. An agent is named by its kind and,
for those that take them, settings after colons: `ismcts`, `mcts:iterations=800`,
`ismcts:seconds=0.5:rollout=greedy`, `greedy:samples=8`.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable

from .. import slotclasses
from ..diagnostics import UserError
from .basic import FirstLegalAgent, RandomAgent
from .human import HumanAgent
from .search import CUT, FULL, GreedyAgent, SearchAgent


@slotclasses.frozen      # not attrs, nor typing: on `rulecraft run`'s path (slotclasses.py)
class Setting:
    name: str
    parse: Callable[[str], object]      # text -> value; ValueError when it is not one
    about: str


@slotclasses.frozen
class AgentKind:
    name: str
    make: Callable[..., object]        # (the agent's own seed, **settings) -> an agent
    about: str                         # one line for the help
    settings: tuple = ()
    omniscient: bool = False           # sees the whole game: for comparison only


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not 0 < value < 3600:
        raise ValueError
    return value


def _rollout(text: str) -> str:
    if text not in ("random", "greedy"):
        raise ValueError
    return text


SEARCH_SETTINGS = (
    Setting("iterations", _positive_int, "playouts a decision (default 400)"),
    Setting("seconds", _positive_float, "think this long a decision instead (depends on the machine's speed)"),
    Setting("depth", _positive_int, "decisions a rollout plays before the game's heuristic (or score) judges it "
            f"(default {CUT} in a game that declares a heuristic, else {FULL}: to the end)"),
    Setting("rollout", _rollout, "random or greedy playouts (default random)"),
    Setting("c", _positive_float, "UCB1's exploration constant (default 0.7)"),
)

AGENT_KINDS = {k.name: k for k in (
    AgentKind("random", RandomAgent, "a legal option at random, from its own seed"),
    AgentKind("first", FirstLegalAgent, "always the first legal option"),
    AgentKind("greedy", GreedyAgent, "the option worth most one decision ahead, by the game's score",
              (Setting("samples", _positive_int, "games sampled from what it cannot see (default 4)"),)),
    AgentKind("mcts", lambda seed, **kw: SearchAgent(seed, private=False, **kw),
              "Monte Carlo tree search, for games where no seat knows what another does not", SEARCH_SETTINGS),
    AgentKind("ismcts", SearchAgent, "information-set Monte Carlo tree search: thinks on games sampled from "
              "what its seat may see", SEARCH_SETTINGS),
    AgentKind("cheat", lambda seed, **kw: SearchAgent(seed, **kw), "ismcts that sees every card and the future: "
              "for comparison only", SEARCH_SETTINGS, omniscient=True),
    AgentKind("human", lambda seed: HumanAgent(), "a person at the keyboard ('play' only)"),
)}


def agent_kind(name: str) -> AgentKind:
    """The kind a name (any case, settings after colons ignored) stands for; an unknown name is a
    UserError listing the known ones."""
    key = name.strip().split(":")[0].strip().lower()
    if key not in AGENT_KINDS:
        raise UserError(f"unknown agent '{key}' (agents: {', '.join(AGENT_KINDS)})")
    return AGENT_KINDS[key]


def parse_agent(name: str) -> tuple[AgentKind, dict]:
    """`ismcts:iterations=800:rollout=greedy` → its kind and its settings, each checked."""
    kind = agent_kind(name)
    settings = {}
    known = {s.name: s for s in kind.settings}
    for part in name.strip().split(":")[1:]:
        key, eq, text = part.partition("=")
        key = key.strip().lower()
        if key not in known:
            offered = f"its settings: {', '.join(known)}" if known else "it takes no settings"
            raise UserError(f"agent '{kind.name}' has no setting '{key}' ({offered})")
        if not eq:
            raise UserError(f"agent setting '{key}' needs a value, as in {kind.name}:{key}=…")
        try:
            settings[key] = known[key].parse(text.strip())
        except ValueError:
            raise UserError(f"agent setting {key}={text.strip()!r} is not valid: {known[key].about}") from None
    return kind, settings


def canonical(name: str) -> str:
    """An agent's name as written in records and help: `ISMCTS:Iterations=800` → `ismcts:iterations=800`
    (every setting checked)."""
    kind, settings = parse_agent(name)
    return ":".join([kind.name] + [f"{k}={v}" for k, v in settings.items()])


def agent_seed(seed: int, seat: int) -> int:
    """Each seat's agent draws from its own seed, derived from the game's seed and the seat (0-based)."""
    digest = hashlib.sha256(f"rulecraft-agent:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_agent(name: str, seed: int = 0):
    return agent_maker(name)(seed)


def agent_maker(name: str) -> Callable[[int], object]:
    """`seed -> a new agent` for a name, parsed and checked once (a batch makes an agent per seat and game)."""
    kind, settings = parse_agent(name)
    if not settings and not kind.omniscient:
        return kind.make                    # (no call of ours between: a batch makes two agents a game)

    def make(seed: int = 0):
        agent = kind.make(seed, **settings)
        if kind.omniscient:
            agent.omniscient = True
        return agent
    return make


def described() -> str:
    """The kinds with their one-line descriptions, for help text."""
    return "; ".join(f"{k.name}: {k.about}" for k in AGENT_KINDS.values())


def described_settings() -> str:
    """Each kind's settings, for `rulecraft agents`."""
    lines = []
    for k in AGENT_KINDS.values():
        lines.append(f"{k.name:8} {k.about}")
        for s in k.settings:
            lines.append(f"{'':10}{k.name}:{s.name}=…  {s.about}")
    return "\n".join(lines)
