"""A game being played: the program, its state, and the decisions so far.

This is the API the CLI, agents and tests use. A session can be saved and
loaded (YAML), and written as a transcript that `replay` checks step by step.
"""
from __future__ import annotations

from .. import slotclasses
from ..diagnostics import UserError
from ..runtime.helpers import ShownLog, seal
from . import machine, observe
from .whereabouts import Whereabouts
from .limits import PastLimit, decision_limit, past_limit
from .machine import IllegalDecision


@slotclasses.define      # not attrs: `import attrs` would cost `rulecraft run` ~10 ms (slotclasses.py)
class Decision:
    id: int
    label: str
    player: int
    shown: tuple = ()        # the label as the other seats are shown it (engine.observe), sealed once taken


def sealed_label(before, option_id: int, shown, after) -> tuple:
    """A decision's label (`shown`, machine.shown_label) as the other seats are told it, fixed from what
    each could see when it was taken: a card in it is named to a seat that sees it once the step is over
    (`after`) or that saw it as the option's block ended — played face up to a table, though the trick is
    gathered into a pile nobody sees before the next decision. The block's end is found by taking the
    decision again from `before` (a copy of the game then) in the rules compiled with the calls the state's
    watch needs (loader: `program.watched`, also a scenario's), with the same chance: the RNG copied, a
    scenario's fixed outcomes copied, or draws decided outside (an adapter's) told again as they came
    (`Drawn`); only when a card of the label is still hidden from someone after the step. A seat that saw
    the card within the block, if only in passing — named to it in a narration, or in a zone it sees that
    the card left (`ShownLog`, told by the watched rules) — is told its name too: a card played face up,
    named, then put back into the bag at once is not "a Chip" to those who just read its name."""
    sealed = seal(after, shown)
    program = before.program
    if all(type(x) is str for x in sealed) or getattr(program, "watched", None) is None:
        return sealed
    m = before.copy()
    if m.forced and m.forced[0][0] == "draws":
        source = m.forced[0][1]
        if type(source) is not Drawn:        # outcomes nobody kept: they cannot be told again
            return sealed
        m.forced[0] = ("draws", source.again())
    passing = ShownLog()         # the cards each seat saw within the block: named to it, or in its sight
    m.program, m.sink, m.chance = program.watched(), passing, None
    index, frame = m.pending[0], m.stack[-1]
    then = []

    log = after.sink if type(after.sink) is ShownLog else []     # the leak property's: what was named to whom

    def block_ends(state, fr, i):          # the compiled rules call the state's watch there (compile.rules)
        if i == index and fr is frame:
            state.watch, narration, state.sink = None, state.sink, log
            then.append(seal(state, shown, dict(passing.cards)))
            state.sink = narration
    m.watch = block_ends
    try:
        machine.decide(m, option_id)
    except Exception:     # noqa: BLE001 - it failed for real already, or it will: the label stays as sealed
        return sealed
    if not then:
        return sealed
    everyone = (1 << after.n) - 1
    out = []
    for a, b in zip(then[0], sealed):
        if type(a) is str or type(b) is str:
            out.append(a if type(a) is str else b)
        else:
            mask = a[1] | b[1]
            out.append(a[0] if mask == everyone else (a[0], mask, a[2]))
    return tuple(out)


class Drawn:
    """A step's draws decided outside (the runtime's `("draws", source)`, runtime.helpers), passed on to
    the source and kept as they come, so that the step can be taken again with the same outcomes
    (`again`: sealed_label takes the decision again to see where its block ends)."""
    __slots__ = ("source", "outcomes")

    def __init__(self, source, outcomes=None):
        self.source, self.outcomes = source, outcomes if outcomes is not None else []

    def expect(self, sizes) -> None:
        self.source.expect(sizes)

    def below(self, n: int) -> int:
        k = self.source.below(n)
        self.outcomes.append(k)
        return k

    def again(self) -> "Drawn":
        """A source that answers the same draws with the same outcomes, in order."""
        return Drawn(_Again(iter(self.outcomes)))


class _Again:
    __slots__ = ("outcomes",)

    def __init__(self, outcomes):
        self.outcomes = outcomes

    def expect(self, sizes) -> None:
        pass

    def below(self, n: int) -> int:
        return next(self.outcomes)


class Table:
    """What every game in play answers from its state: over, whose decision, the legal options. A Session
    adds labels, narration and records; a batch of simulated games plays on a bare Table."""
    whereabouts = None       # where each seat may think each card is (engine.whereabouts), if it is followed

    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def to_move(self):
        return machine.chooser(self.state)

    def legal(self) -> list:
        """The legal options (id and label), in the order the rules list them."""
        return machine.legal_options(self.state)

    def legal_ids(self) -> list[int]:
        """Only the ids of the legal options: what an agent needs, without building every label."""
        return machine.legal_ids(self.state)


@slotclasses.define(eq=False)
class Session(Table):
    program: object
    state: object
    game_ref: str
    seed: int
    options: dict            # option name -> stored value
    history: list = slotclasses.Factory(list)
    narration: list = slotclasses.Factory(list)     # the rules' narration not yet in `events` (the machine's sink)
    chance: list = slotclasses.Factory(list)        # every chance outcome so far (runtime.helpers), for records
    events: list = slotclasses.Factory(list)        # what happened, in order (engine.observe reads it for a seat)
    drained: int = 0                          # how far drain_narration has read `events`
    logged: int = 0                           # how many of `chance` are in `events`
    whereabouts: Whereabouts | None = None    # what each seat remembers of where the cards went (search agents)
    after: list = slotclasses.Factory(list)         # the state after the setup and after each decision (copies never
                                              # changed): a seat's observation history reads them (engine.recall)

    # ----------------------------------------------------------- creation
    @classmethod
    def start(cls, program, game_ref: str, players: int, seed: int = 0, options: dict | None = None,
              names=None, narrate: bool = True, forced: list | None = None) -> "Session":
        """`forced`: chance fixed in advance (engine.machine.new_game)."""
        values = {o.name: o.default for o in program.options}
        values.update(options or {})
        sink = [] if narrate else None
        chance: list = []
        try:
            state = machine.new_game(program, players, values, seed, names, sink, chance=chance, forced=forced)
        except ValueError as e:
            raise UserError(str(e)) from None
        session = cls(program, state, game_ref, seed, values, [], sink if sink is not None else [], chance)
        session.whereabouts = Whereabouts(state)
        session.absorb()
        session.after.append(state.copy())
        return session

    def copy(self) -> "Session":
        """An independent copy of the game and of what happened so far (for clones and search)."""
        narration, chance = list(self.narration), list(self.chance)
        state = self.state.copy()
        state.sink = narration if self.state.sink is not None else None
        state.chance = chance if self.state.chance is not None else None
        return Session(self.program, state, self.game_ref, self.seed, dict(self.options), list(self.history),
                       narration, chance, list(self.events), self.drained, self.logged,
                       whereabouts=self.whereabouts.copy() if self.whereabouts is not None else None,
                       after=list(self.after))

    def absorb(self) -> None:
        """Move what the rules just said and drew into `events`, after the decision that caused it."""
        self.events.extend(("chance", c) for c in self.chance[self.logged:])
        self.logged = len(self.chance)
        self.events.extend(self.narration)
        self.narration.clear()

    @staticmethod
    def parse_options(program, settings) -> dict:
        """`NAME=VALUE` strings → stored option values; a bad one raises UserError."""
        out = {}
        for item in settings or ():
            if "=" not in item:
                raise UserError(f"write options as NAME=VALUE, not '{item}'")
            name, _, text = item.partition("=")
            opt = program.option(name.strip())
            if opt is None:
                known = ", ".join(o.name for o in program.options) or "none"
                raise UserError(f"{program.title} has no option '{name.strip()}' (its options: {known})")
            try:
                out[opt.name] = opt.parse(text)
            except ValueError as e:
                raise UserError(str(e)) from None
        return out

    # ------------------------------------------------------------ playing
    def label(self, option_id: int) -> str:
        """The label of a legal option; an id that is not legal now is shown as itself."""
        return machine.label(self.state, option_id) if option_id in self.legal_ids() else str(option_id)

    def prompt(self) -> str | None:
        """The pending decision's question (`prompt "…"`), as its chooser is asked it; None without one."""
        return machine.prompt(self.state)

    def take(self, option_id: int) -> None:
        """Apply a decision; an illegal one raises IllegalDecision and changes nothing."""
        m = self.state
        if m.pending is None:
            raise IllegalDecision("the game is over" if m.result is not None else "no decision is pending")
        ids = self.legal_ids()
        if option_id not in ids:
            raise IllegalDecision(f"option {option_id} is not legal now (legal: {', '.join(map(str, ids))})")
        if m.decisions >= decision_limit(self.program):
            raise PastLimit(past_limit(self.program))
        who = machine.chooser(m)
        text = machine.label(m, option_id)
        shown = machine.shown_label(m, option_id)
        if m.forced and m.forced[0][0] == "draws" and type(m.forced[0][1]) is not Drawn:
            m.forced = [("draws", Drawn(m.forced[0][1]))] + m.forced[1:]     # kept for sealed_label
        before = m.copy(keep_logs=True)
        mark, drawn = len(self.narration), len(self.chance)
        try:
            machine.decide(m, option_id)
        except BaseException:
            # atomic: a failing rule (or a step stopped at a draw with no outcome yet, as the OpenSpiel
            # adapter stops it at a chance node) leaves the game as it was before the decision
            del self.narration[mark:]
            del self.chance[drawn:]
            self.state = before
            raise
        # sealed with what each seat could see of it: a card played face up is seen by all, one given away
        # stays hidden
        self.history.append(Decision(option_id, text, who, sealed_label(before, option_id, shown, self.state)))
        self.events.append(("decision", self.history[-1]))
        self.absorb()
        if self.whereabouts is not None:
            self.whereabouts.note(m)
        self.after.append(self.state.copy())

    def told(self, decision: Decision, viewer) -> str:
        """A decision as `viewer` is told it: in full to its chooser (and to everything), else redacted."""
        if viewer is None or viewer == decision.player:
            return decision.label
        return observe.render(decision.shown, viewer)

    def take_label(self, text: str) -> None:
        """Take the legal option with this exact label (scenarios and tests speak in labels)."""
        self.take(machine.option_labelled(self.state, text))

    def drain_narration(self, viewer=None) -> list[str]:
        """The narration since the last drain, as `viewer` is told it (engine.observe: None is everything)."""
        return observe.narration(self.take_narration(), viewer)

    def take_narration(self) -> list:
        """The narration since the last drain, as kept (engine.observe renders it for a seat)."""
        out = [e for e in self.events[self.drained:] if e[0] == "say"]
        self.drained = len(self.events)
        return out

    # ------------------------------------------------------------- result
    def scores(self):
        if self.state.result is None:
            return None
        scores, ties, winners = self.state.result
        return {"scores": list(scores), "tiebreaks": list(ties), "winners": list(winners)}
