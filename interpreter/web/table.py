"""A game at a web table: people at some seats (each with a secret token), agents at the others.

Nothing here knows HTTP (web.app serves it). What a seat is sent (`page`) is built only from that
seat's observation — engine.views for the table, engine.observe for the story so far, the options
only when the decision is theirs — the same texts the terminal shows (cli.plaintext), so a page never
holds another seat's hidden cards or values, the seed or the random generator. A spectator sees
what every seat sees (observe.PUBLIC). Decisions name the table's `version` (how many decisions
were taken, public) and the option's place in the list the seat was shown, so a stale, replayed or
forged one is refused with one sentence and changes nothing.
"""
from __future__ import annotations

import hmac
import secrets
import threading

from ..agents.seat import act
from ..cli import plaintext, rulesummary
from ..engine import observe, records, views
from ..engine.limits import PastLimit, past_limit
from ..engine.machine import IllegalDecision
from ..runtime.errors import RulesRuntimeError

SPECTATOR = "spectator"
TOKEN_BYTES = 32                     # 256 random bits per link: unguessable


class Refused(Exception):
    """A decision or a token the table will not take: its message is one sentence for the sender."""

    def __init__(self, sentence: str, status: int = 409):
        super().__init__(sentence)
        self.status = status


class WebTable:
    """One game in play and who may act in it. Agents play in a worker thread, so no request waits on
    them; every change bumps `version`, which the live streams (web.app) watch."""

    def __init__(self, session, kinds: list[str], agents: list, save: str | None = None, log: str | None = None):
        self.session = session
        self.kinds = kinds
        self.agents = agents
        self.save_path = save
        self.log_path = log
        self.humans = [i for i, k in enumerate(kinds) if k == "human"]
        self.tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in self.humans}
        self.tokens[SPECTATOR] = secrets.token_urlsafe(TOKEN_BYTES)
        self.lock = threading.RLock()
        self.version = 0             # bumped on every change: a stream sends a page when it moves
        self.stopped: str | None = None       # why the game stopped before its end (a rules error, the limit)
        self._wake = threading.Event()
        self._worker = threading.Thread(target=self._agents_loop, name="rulecraft-agents", daemon=True)

    # ------------------------------------------------------------ seats
    def seat_of(self, token: str | None):
        """The seat a token opens (a number, or SPECTATOR); a wrong one is refused. Every token is compared
        in constant time, so a guess learns nothing from how long the answer took."""
        given = (token or "").encode("utf-8", "replace")
        found = None
        for seat, secret in self.tokens.items():
            if hmac.compare_digest(given, secret.encode()):
                found = seat
        if found is None:
            raise Refused("this link is not a seat at this table (check the link you were given)", 403)
        return found

    # ------------------------------------------------------------ pages
    def page(self, seat) -> dict:
        """What `seat` is shown now: only its own observation (see the module's docstring)."""
        with self.lock:
            s = self.session
            m = s.state
            viewer = observe.PUBLIC if seat == SPECTATOR else seat
            you = None if seat == SPECTATOR else m.names[seat]
            seen = views.view(m, viewer)
            log = []
            for event in s.events:
                if event[0] == "chance":
                    continue
                text = observe.event_text(s, event, viewer)
                if text is not None:
                    log.append({"decision": event[0] == "decision", "text": text})
            turn = not s.over and self.stopped is None and s.to_move == seat
            out = {
                "title": s.program.title,
                "you": you,
                "players": list(m.names),
                "seats": plaintext.seats_text(s, self.kinds),
                "version": self.version,
                "view": plaintext.view_lines(seen, you),
                "log": log,
                "to_decide": None if s.over or self.stopped else m.names[s.to_move],
                "your_turn": turn,
                "options": [o.label for o in s.legal()] if turn else [],
                "prompt": s.prompt() if turn else None,
                "over": s.over,
                "result": plaintext.result_lines(s) if s.over else [],
                "score_parts": plaintext.score_parts_lines(s, viewer=viewer) if s.over else [],
                "stopped": self.stopped,
            }
            return out

    def rules(self) -> list[str]:
        """The game as its file describes it (the terminal's `rules all`): the same for every seat."""
        return rulesummary.summary(self.session.program, self.session.options, everything=True)

    # ------------------------------------------------------------ decisions
    def decide(self, seat, version, choice) -> str:
        """Take `seat`'s decision: option number `choice` (0-based) of the list it was shown at `version`."""
        if seat == SPECTATOR:
            raise Refused("a spectator's link cannot decide", 403)
        if type(version) is not int or type(choice) is not int:
            raise Refused("a decision names the table's version and an option's number (both integers)", 400)
        with self.lock:
            s = self.session
            if s.over:
                raise Refused("the game is over: no more decisions are taken")
            if self.stopped:
                raise Refused(f"the game stopped: {self.stopped}")
            if version != self.version:
                raise Refused("that decision was made on an old page (the table moved on); choose again")
            if s.to_move != seat:
                raise Refused(f"it is not your decision: {s.state.names[s.to_move]} is to decide")
            options = s.legal()
            if not 0 <= choice < len(options):
                raise Refused(f"there is no option {choice + 1}: choose one of 1 to {len(options)}")
            label = options[choice].label
            self._take(options[choice].id)
        self._wake.set()
        return label

    def _take(self, option_id: int) -> None:
        """Take a decision (the lock held), save, and tell the streams."""
        s = self.session
        try:
            s.take(option_id)
        except (RulesRuntimeError, PastLimit) as e:
            self.stopped = str(e).splitlines()[0]
        except IllegalDecision as e:                 # cannot happen: the id came from the legal list
            raise Refused(str(e)) from None
        self.version += 1
        self._records()

    def _records(self) -> None:
        if self.save_path:
            records.write(self.save_path, self.session, "save", {"agents": self.kinds})
        if self.log_path and self.session.over:
            records.write(self.log_path, self.session, "transcript", {"agents": self.kinds})

    # ------------------------------------------------------------ agents
    def start(self) -> None:
        """Let the agents play (their seats first, if the game opens with them)."""
        self._worker.start()
        self._wake.set()

    def _agents_loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while True:
                with self.lock:
                    s = self.session
                    if s.over or self.stopped or self.agents[s.to_move] is None:
                        break
                    if plaintext.at_limit(s):
                        self._stop(past_limit(s.program))
                        break
                    seen, agent = self.version, self.agents[s.to_move]
                try:
                    # outside the lock: pages are served while an agent thinks (only this thread moves the
                    # game while an agent's seat is to decide, so nothing changes under it)
                    choice = act(agent, s)
                except RulesRuntimeError as e:
                    with self.lock:
                        self._stop(str(e).splitlines()[0])
                    break
                with self.lock:
                    if self.version == seen:
                        self._take(choice)

    def _stop(self, why: str) -> None:
        self.stopped = why
        self.version += 1
