"""`rulecraft play`: people at some seats, agents at the others.

Before each of a person's decisions the screen shows only what that seat may
see (engine.views) and the numbered legal options. At the prompt a person may
also type `help`, `view`, `save FILE` or `quit`. With `--save FILE` the game is
saved after every decision, so leaving at any point leaves a game that
`--load FILE` resumes exactly (agents included: their chance is replayed).
"""
from __future__ import annotations

import sys

from ..agents.human import HumanAgent
from ..agents.seat import act
from ..runtime.errors import RulesRuntimeError
from ..diagnostics import UserError
from ..engine import observe, records, views
from . import common, show

HELP = """\
Answer with an option's number (or its exact text). Other commands:
  view        show the table again, as your seat sees it
  save FILE   save the game to FILE (resume with: rulecraft play --load FILE)
  quit        leave the game (it is saved first if you started with --save)
  help        this text
Cards in a zone are listed bottom to top."""


class Quit(Exception):
    """The person asked to leave the game."""


def cmd_play(args) -> int:
    if args.load:
        session, kinds, agents = _resume(args)
    else:
        session, kinds, agents = _new(args)
    game = _Game(args, session, kinds, agents)
    return game.play()


def _new(args):
    if args.game is None:
        raise UserError("name a game to play (e.g. 'rulecraft play blackmore --seat 1') or --load a saved game")
    program, players, kinds, seed = common.new_table(args)
    humans = common.parse_seats(args.seat, players) if args.seat else set()
    if not humans and "human" not in kinds:
        humans = {0}                       # nobody named: the person takes seat 1
    kinds = ["human" if i in humans else k for i, k in enumerate(kinds)]
    session = common.start_session(program, args.game, players, seed, args.set)
    return session, kinds, common.make_agents(kinds, seed)


def _resume(args):
    for flag, value in (("--players", args.players), ("--seed", args.seed), ("--set", args.set or None)):
        if value is not None:
            raise UserError(f"{flag} cannot be used with --load: a saved game keeps its own")
    data = records.read(args.load)
    if args.game is not None and args.game != data["game"]:
        raise UserError(f"{args.load} is a game of {data['game']}, not {args.game}")
    players = data["players"]
    saved = common.saved_kinds(data)
    if args.agents:
        kinds = common.seat_kinds(common.agent_names(args.agents), players)
    elif saved is not None:
        kinds = list(saved)
    else:
        kinds = ["random"] * players
    if args.seat:
        humans = common.parse_seats(args.seat, players)
        kinds = ["human" if i in humans else ("random" if k == "human" else k) for i, k in enumerate(kinds)]
    elif "human" not in kinds:
        kinds[0] = "human"
    agents = common.make_agents(kinds, data["seed"])

    def replay_chance(session, _index, _option_id):
        # an agent's own random draws continue where they were when the game was saved
        agent = agents[session.to_move]
        if agent is not None:
            act(agent, session)

    session = records.restore(data, common.load_program, name=args.load, on_decision=replay_chance)
    records.verify_state(data, session, args.load)
    session.drain_narration()
    return session, kinds, agents


class _Game:
    def __init__(self, args, session, kinds, agents):
        self.args = args
        self.session = session
        self.kinds = kinds
        self.agents = agents
        self.humans = [i for i, k in enumerate(kinds) if k == "human"]
        # one person at the table is told what their seat may see; at a hot seat the screen is everyone's,
        # and what only one player may know waits for their turn
        hot_seat = len(self.humans) > 1
        self.account = show.Account(session, viewer=observe.PUBLIC if hot_seat else self.humans[0],
                                    keep_for=self.humans if hot_seat else ())
        self.seat_now = None
        self.people: dict = {}      # seat -> its HumanAgent, which keeps the rest of a several-number answer

    # ---------------------------------------------------------------- loop
    def play(self) -> int:
        s = self.session
        resumed = f", resumed from {self.args.load} after {len(s.history)} decisions" if self.args.load else ""
        for line in show.header(s, show.seats_text(s, self.kinds), resumed, seed_shown=False):
            print(line)
        print("Type 'help' at your prompt for commands.")
        try:
            self._autosave()
            while not s.over:
                who = s.to_move
                agent = self.agents[who]
                choice = self._ask(who) if agent is None else act(agent, s)
                s.take(choice)
                self.account.flush()
                self._autosave()
        except Quit:
            self._left("")
            return 0
        except EOFError:
            print()
            self._left("input ended before the game did; ", error=True)
            return 1
        except RulesRuntimeError:
            self._autosave()
            raise
        self.account.flush()
        for line in show.result_lines(s):
            print(line)
        if self.args.log:
            records.write(self.args.log, s, "transcript", {"agents": self.kinds})
        return 0

    def _ask(self, who: int) -> int:
        self.account.flush()
        name = self.session.state.names[who]
        agent = self.people.get(who)
        if agent is None:
            agent = self.people[who] = HumanAgent(write=print, on_command=self._command, prompt=f"{name}> ")
        if agent.queued and agent.queued_by == who and \
                any(o.label == agent.queued[0] for o in self.session.legal()):
            return act(agent, self.session)      # the next of the numbers this player answered at once
        if self.seat_now is not None and self.seat_now != who and sys.stdin.isatty():
            # hot seat at a terminal: hand over before showing the next player's cards
            input(f"Pass the keyboard to {name}, then press Enter. ")
            print("\n" * 40)
        self.seat_now = who
        print()
        print(f"=== {name}, your decision ===" if len(self.humans) > 1 else f"=== your decision ({name}) ===")
        for line in self.account.told_only_to(who):
            print(f"  (to you) {line}")
        self._show_view(who)
        return act(agent, self.session)

    def _show_view(self, who: int) -> None:
        m = self.session.state
        for line in show.view_lines(views.view(m, who), m.names[who]):
            print("  " + line)

    # ------------------------------------------------------------ commands
    def _command(self, text: str, session) -> bool:
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("help", "?", "h"):
            print(HELP)
        elif word in ("view", "show", "look"):
            self._show_view(self.seat_now)
            HumanAgent(write=print).list_options(self.session.legal())
        elif word == "save":
            path = rest.strip()
            if not path:
                print("save needs a file name: save FILE")
            else:
                self._write_save(path)
                print(f"saved to {path} (resume with: rulecraft play --load {path})")
        elif word in ("quit", "exit", "q"):
            raise Quit()
        else:
            return False
        return True

    def _write_save(self, path: str) -> None:
        records.write(path, self.session, "save", {"agents": self.kinds})

    def _autosave(self) -> None:
        if self.args.save:
            self._write_save(self.args.save)

    def _left(self, why: str, error: bool = False) -> None:
        s = self.session
        self._autosave()
        where = f"{why}left the game after {len(s.history)} decisions"
        if self.args.save:
            where += f"; resume with: rulecraft play --load {self.args.save}"
        elif why:
            where += " (it was not saved)"
        if error:
            print(f"rulecraft: error: {where}", file=sys.stderr)
        else:
            print(where)
