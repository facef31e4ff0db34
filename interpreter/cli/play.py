"""`rulecraft play`: people at some seats, agents at the others.

Before each of a person's decisions the screen (cli/screen.py) shows what happened since
they last decided, then only what their seat may see (engine.views), marking what changed,
and the numbered legal options. An option is chosen by its number, its label, or the start
of its label in any case. A decision with one option is taken without asking (said so on its
line, which stays on the next screen with what came of it; and each option shows beforehand the
one-option decisions it leads to, cli/ahead.py),
unless `--ask-forced` or at a hot seat (where everyone would see that a player had no choice,
which can tell what their hidden cards are). At the prompt a person may also type `rules`, `view`, `log`, `undo`,
`save FILE`, `quit` or `help`. With `--save FILE` the game is saved after every decision, so
leaving at any point leaves a game that `--load FILE` resumes exactly (agents included: their
chance is replayed). A save is the whole game, hidden cards, choices and the random generator
included (it must be, to resume): the help and every confirmation say so to the player who saves.
"""
from __future__ import annotations

import sys

from ..agents.human import HumanAgent
from ..agents.seat import act
from ..engine.limits import PastLimit, past_limit
from ..runtime.errors import RulesRuntimeError
from ..diagnostics import UserError
from ..engine import observe, records, views
from . import ahead, common, plaintext, rulesummary, screen, terminal
from .arguments import GAME_HELP, TABLE_SEED_HELP, table_args

HELP = [       # one entry a line, wrapped to the terminal when shown (screen.wrap_help)
    "Answer with an option's number, its text, or the start of its text (any case); several numbers "
    "(2 4 7) take the first now and the others at your next decisions while they are offered. Other commands:",
    "  rules       the game: its options, components and sections ('rules all': the whole opening comment; "
    "'rules SECTION': that section of the rule file as written, e.g. 'rules scoring')",
    "  view        the whole table again, as your seat sees it (others' sheets in full)",
    "  log         the latest of what you were told ('log all': all of it, from the start)",
    "  undo        take back the last decision made at this keyboard (and the agents' after it), "
    "when nothing hidden was revealed and no chance spoke since",
    "  save FILE   save the game to FILE (resume with: rulecraft play --load FILE); a save is the whole "
    "game: every seat's hidden cards and choices and the random generator, so reading it "
    "shows what your seat may not see (and what chance will bring)",
    "  quit        leave the game (it is saved first if you started with --save)",
    "  help        this text",
    "Lines marked » changed since your last decision; when the view is too long for the screen, the lines "
    "as they were are folded into one ('view' shows them all). Cards in a zone are listed bottom to top. "
    "An option followed by → names the decisions it then takes for you (each your only option).",
]
HELP_WIDTH = 100            # the help's width in a pipe
SAVE_HOLDS = ("  it holds what your seat may not see: the other seats' hidden cards and choices, and the "
              "random generator's state — keep it from the other players, and do not read it to play on honestly")
COMMANDS = ("rules", "view", "show", "look", "log", "undo", "save", "quit", "exit", "q", "help", "h", "?")
LOG_LINES = 60
CONSEQUENCE_LINES = 3       # the narration after a decision taken for the person kept on screen with it
TITLE, CHANGED, NEWS_DECISION, NOTE = "bold", "yellow", "dim", "italic"


def add_arguments(play) -> None:
    play.description = (
        "Play GAME at the seat(s) given by --seat; agents take the other seats. Before each of your "
        "decisions you see what happened since your last one, then only what your seat may see (lines marked » "
        "changed), then numbered options: answer with a number, a label or the start of one. At the prompt you "
        "may also type 'rules', 'view', 'log', 'undo', 'save FILE', 'quit' or 'help'.")
    play.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP + " (not needed with --load)")
    play.add_argument("--seat", metavar="K", help="your seat, 1-based (default 1); several: --seat 1,2; "
                                                   "everyone at this keyboard (hot seat): --seat all")
    table_args(play, TABLE_SEED_HELP)
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every decision (the whole game: "
                      "it holds every seat's hidden cards and choices and the random generator's state)")
    play.add_argument("--load", metavar="FILE", help="resume a game saved with --save or 'save FILE' "
                      "(same seats and agents unless --seat/--agents say otherwise; add --save to keep saving)")
    play.add_argument("--log", metavar="FILE", help="write the transcript to FILE when the game ends")
    play.add_argument("--ask-forced", action="store_true", help=(
        "ask even when a decision has one option only (by default it is taken for you, and said so; "
        "at a hot seat it is always asked)"))


class Quit(Exception):
    """The person asked to leave the game."""


class _Undone(Exception):
    """The person took back a decision: the game goes on from the rebuilt session."""


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
    data = records.read(args.load, args.game)
    if args.game is not None and not common.same_game(args.game, data["game"]):
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
    session, agents = _replayed(data, kinds, args.load, warn=common.warn)
    records.verify_state(data, session, args.load)
    session.drain_narration()
    return session, kinds, agents


def _replayed(data: dict, kinds: list[str], name: str, upto=None, warn=None, program=None):
    """The session a record describes, and fresh agents whose own random draws are where they were
    at its end (each agent's choice at its recorded decisions is made again)."""
    agents = common.make_agents(kinds, data["seed"])

    def replay_chance(session, _index, _option_id):
        agent = agents[session.to_move]
        if agent is not None:
            act(agent, session)

    load = common.load_program if program is None else (lambda _ref: program)
    session = records.restore(data, load, name=name, on_decision=replay_chance, upto=upto, warn=warn)
    return session, agents


class _Game:
    def __init__(self, args, session, kinds, agents):
        self.args = args
        self.kinds = kinds
        self.agents = agents
        self.humans = [i for i, k in enumerate(kinds) if k == "human"]
        # one person at the table is told what their seat may see; at a hot seat the screen is everyone's,
        # and what only one player may know waits for their turn
        self.hot_seat = len(self.humans) > 1
        self.screen = screen.Screen()
        self.log: list[str] = []
        self.news: list[tuple[str, str, bool]] = []     # (kind, line, pinned) since the person last decided
        self.pinning = 0        # 1: a decision is taken for the person; 2: its line told; 3..: what came of it
        self.forced_question = None     # the question of the decision taken for the person (its `prompt`)
        self.deciding = None    # the seat whose decision is being told (set before each is taken)
        self.following = None   # the person's seat whose own choice is being told, until another seat decides
        self.answered = False   # ... and whether another seat has answered it (its line is told, then no more)
        self._attach(session)
        self.seat_now = None
        self.people: dict = {}      # seat -> its HumanAgent, which keeps the rest of a several-number answer

    def _attach(self, session, told_already: bool = False) -> None:
        """Follow `session` (a new game, a resumed one — whose story so far is news — or one rebuilt by
        undo, whose events were told already)."""
        self.session = session
        viewer = observe.PUBLIC if self.hot_seat else self.humans[0]
        self.account = plaintext.Account(session, viewer=viewer, keep_for=self.humans if self.hot_seat else (),
                                    sink=self._told)
        if told_already:
            self.account.read = len(session.events)

    def _told(self, kind: str, line: str) -> None:
        """A line of news. A decision taken for the person (their only option) is said on its line, and it and
        the narration after it are pinned: they stay on the next screen however long the news (screen.fit_news).
        So is what follows a decision the person chose, up to the next decision of another seat: what came of
        their own choice (a spell that could not be paid for) is never folded away."""
        if kind == "decision":
            self.pinning = 2 if self.pinning == 1 else 0
            if self.pinning:
                line += screen.taken_for_you(self.forced_question)
            elif self.deciding in self.humans:
                self.following, self.answered = self.deciding, False
            if self.following is not None and self.deciding != self.following:
                # the first answer of another seat (paying for the person's spell, or not) and what it
                # says are what came of the choice too; the next decision after them is not
                self.following = None if self.answered else self.following
                self.answered = True
        elif self.pinning:
            self.pinning = self.pinning + 1 if self.pinning < 2 + CONSEQUENCE_LINES else 0
        pinned = screen.PINNED_OWN if self.following is not None else self.pinning > 0
        self.news.append((kind, line, pinned))
        self.log.append(line)

    # ---------------------------------------------------------------- loop
    def play(self) -> int:
        resumed = (f", resumed from {self.args.load} after {len(self.session.history)} decisions"
                   if self.args.load else "")
        width, _height = self._size()
        for line in plaintext.header(self.session, plaintext.seats_text(self.session, self.kinds), resumed,
                                     seed_shown=False, kept_in=self.args.save or self.args.load):
            for part in screen.wrap(line, width):
                terminal.echo(part, TITLE)
        print("Type 'help' at your prompt for commands.")
        try:
            self._autosave()
            while not self.session.over:
                s = self.session
                if plaintext.at_limit(s):        # stop before asking for a decision the limit refuses
                    raise PastLimit(past_limit(s.program))
                who = s.to_move
                agent = self.agents[who]
                try:
                    choice = self._ask(who) if agent is None else act(agent, s)
                except _Undone:
                    self._autosave()
                    continue
                self.deciding = who
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
            self.account.flush()
            self._print_news(None, self._size()[0])     # what happened up to the failure (or the limit), then why
            self._autosave()
            raise
        self.account.flush()
        self._print_news(None, self._size()[0])
        plaintext.print_result(self.session)
        width, _height = self._size()
        for line in plaintext.score_parts_lines(self.session, width, self.account.viewer):
            for part in screen.wrap(line, width):
                print(part)
        if self.args.log:
            records.write(self.args.log, self.session, "transcript", {"agents": self.kinds})
        return 0

    def _size(self):
        """(columns, rows) of the terminal, or (None, None) when the output is not one."""
        out = terminal.console()
        if not out.is_terminal:
            return None, None
        return out.width, out.height

    def _ask(self, who: int) -> int:
        s = self.session
        self.account.flush()
        name = s.state.names[who]
        agent = self.people.get(who)
        if agent is None:
            agent = self.people[who] = HumanAgent(write=self._write, on_command=self._command, prompt=f"{name}> ",
                                                  commands=COMMANDS)
        if agent.queued and agent.queued_by == who and any(o.label == agent.queued[0] for o in s.legal()):
            return act(agent, s)      # the next of the numbers this player answered at once
        options = s.legal()
        width, height = self._size()
        if self._forced(options):
            # told with the news of the next screen. Not at a hot seat: there everyone would see that this
            # player has one option only, which can tell what their hidden cards are
            self.pinning = 1          # its line, told when it is taken, says so and what was asked (_told)
            self.forced_question = s.prompt()
            return options[0].id
        if self.seat_now is not None and self.seat_now != who and sys.stdin.isatty():
            # hot seat at a terminal: hand over before showing the next player's cards
            self._print_news(None if height is None else height - 2, width)
            input(f"Pass the keyboard to {name}, then press Enter. ")
            terminal.clear_screen()     # the screen and its scrollback: nothing of the last hand stays above
        self.seat_now = who
        private = [f"(to you) {line}" for line in self.account.told_only_to(who)]
        opts = self._option_lines(options, who, width)
        # the view leaves the news a third of the screen (or what it needs, if less): folded to fit
        news_rows = len([part for line, _ in screen.fold_decisions(self.news, width) for part in screen.wrap(line, width)])
        news_room = 0 if height is None else min(max(1, news_rows), max(3, height // 3))
        view = self._screen_view(who, width, lambda rows: height is None or
                                 rows + len(opts) + len(private) + 4 + news_room <= height)
        room = None if height is None else height - len(view) - len(opts) - len(private) - 4
        self._print_news(None if room is None else max(1, room), width)
        if room is None or room > 1:
            print()
        terminal.echo(f"=== {name}, your decision ===" if self.hot_seat else f"=== your decision ({name}) ===", TITLE)
        for line in private:
            terminal.echo(f"  {line}", CHANGED)
        for line, changed in view:
            terminal.echo(line, CHANGED if changed else None)
        agent.show_options = lambda _options: self._print_options(opts)
        return act(agent, s)

    def _option_lines(self, options, who: int, width) -> list[str]:
        """The decision's question (its `prompt`, if it has one) and its numbered options."""
        question = self.session.prompt()
        asked = screen.wrap(question, width, "  ") if question else []
        return asked + screen.option_lines(self._labels(options, who), width)

    def _labels(self, options, who: int) -> list[str]:
        """The options' labels, each followed by the decisions it would then take for the person (cli/ahead)."""
        if self.args.ask_forced or self.hot_seat:
            return [o.label for o in options]
        out = []
        for o in options:
            after = ahead.forced_after(self.session, o.id, who)
            out.append(" → ".join([o.label, *after]))
        return out

    def _forced(self, options) -> bool:
        """Is this decision taken without asking? (One option, and neither --ask-forced nor a hot seat.)"""
        return len(options) == 1 and not self.args.ask_forced and not self.hot_seat

    def _screen_view(self, who: int, width, fits):
        """The seat's view for its decision screen, made smaller until it `fits(rows)`: the others'
        sheets cut to a line, then left out, then the lines unchanged since its first screen folded,
        then all the lines unchanged since its last screen (a long sheet shows what changed)."""
        m = self.session.state
        seen = views.view(m, who)
        full = plaintext.view_lines(seen, m.names[who], others="first")
        unchanging = self.screen.remember(who, full)

        def rows(lines):
            return sum(len(screen.wrap(line, width, screen.SAME)) for line in lines)
        lines = full
        if not fits(rows(lines)):
            lines = plaintext.view_lines(seen, m.names[who], others="none")
        if not fits(rows(lines)):
            lines = screen.Screen.fold_unchanging(lines, unchanging)
        if not fits(rows(lines)):
            lines = self.screen.fold_unchanged(who, lines)
        return self.screen.view(who, lines, width, full=full)

    def _view_lines(self, who: int, width, compact: bool, mark: bool = True, others: str = "first"):
        m = self.session.state
        lines = plaintext.view_lines(views.view(m, who), m.names[who], others=others if compact else "full")
        if not mark:
            return [(part, False) for line in lines for part in screen.wrap(line, width, screen.SAME)]
        return self.screen.view(who, lines, width)

    def _print_news(self, room, width=None) -> None:
        news = screen.fold_decisions(self.news, width)
        self.news = []
        for line, pinned in screen.fit_news(news, room, width):
            decision = line.startswith(screen.DECISION) or line.startswith("…")
            terminal.echo(line, CHANGED if pinned else NEWS_DECISION if decision else None)

    def _write(self, line: str) -> None:
        """A reply at the prompt ("please answer with a number …"), wrapped to the terminal like the rest."""
        for part in screen.wrap(line, self._size()[0]):
            print(part)

    @staticmethod
    def _print_options(lines) -> None:
        for line in lines:
            print(line)

    # ------------------------------------------------------------ commands
    def _command(self, text: str, session) -> bool:
        word, _, rest = text.partition(" ")
        word = word.lower()
        width, _height = self._size()
        if word in ("help", "?", "h"):
            for line in HELP:
                for part in screen.wrap_help(line, width or HELP_WIDTH):
                    print(part)
        elif word in ("view", "show", "look"):
            for line, _ in self._view_lines(self.seat_now, width, compact=False, mark=False):
                print(line)
            self._print_options(self._option_lines(self.session.legal(), self.seat_now, width))
        elif word == "rules":
            asked = rest.strip()
            program = self.session.program
            if asked and asked.lower() != "all":
                found = rulesummary.section(getattr(program, "sources", None) or {}, asked)
                if found is None:
                    heads = [h for text in (getattr(program, "sources", None) or {}).values()
                             for h in rulesummary.headings(text)]
                    found = [f"no section starts with '{asked}'; the sections: {' · '.join(heads) or 'none'}"]
            else:
                found = rulesummary.summary(program, self.session.options, asked.lower() == "all")
            for line in found:
                for part in screen.wrap(line, width):
                    print(part)
        elif word == "log":
            whole = rest.strip().lower() == "all"
            shown = self.log if whole else self.log[-LOG_LINES:]
            for line in shown:
                for part in screen.wrap(line, width):
                    print(part)
            if len(self.log) > len(shown):      # said last, where the eye is, above the prompt
                print(f"(the last {len(shown)} of {len(self.log)} lines: 'log all' prints them all)")
        elif word == "undo":
            self._undo()
        elif word == "save":
            path = rest.strip()
            if not path:
                print("save needs a file name: save FILE")
            else:
                self._write_save(path)
                print(f"saved to {path} (resume with: rulecraft play --load {path})")
                print(SAVE_HOLDS)
        elif word in ("quit", "exit", "q"):
            raise Quit()
        else:
            return False
        return True

    def _undo(self) -> None:
        """Take back the last decision made at this keyboard, if doing so reveals nothing (see HELP)."""
        s = self.session
        mine = [i for i, d in enumerate(s.history) if d.player in self.humans]
        if not mine:
            print("nothing to undo: no decision was made at this keyboard yet")
            return
        data = records.session_record(s, "transcript")
        for k in reversed(mine):
            # the last decision that was asked: one taken for the person (a single option) would only be taken again
            before, agents = _replayed(data, self.kinds, "the game", upto=k, program=s.program)
            if not self._forced(before.legal()):
                break
        else:
            print("nothing to undo: every decision made at this keyboard had one option only")
            return
        seat = s.history[k].player
        if len(before.chance) != len(s.chance):
            print("cannot undo: chance has spoken since that decision (a shuffle or a draw)")
            return
        if ahead.seen_cards(s.state, seat) - ahead.seen_cards(before.state, seat):
            print(f"cannot undo: since that decision {s.state.names[seat]} has seen cards that were hidden")
            return
        taken = len(s.history) - k
        self.agents = agents
        self.people = {}            # numbers answered for later decisions go with the decisions taken back
        self._attach(before, told_already=True)
        self.news = []
        print(f"undone: {taken} decision{'s' if taken != 1 else ''} taken back; "
              f"{before.state.names[seat]} decides again")
        raise _Undone()

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
            if self.args.save:
                print(SAVE_HOLDS)

