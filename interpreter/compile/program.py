"""The compiled game: immutable tables and functions, shared by every game played.

Nothing here changes while a game runs; all that changes is in engine.State.
"""
from __future__ import annotations

from .. import slotclasses


@slotclasses.define(eq=False)
class OptionInfo:
    name: str
    kind: str                  # "choice" | "range" | "bool"
    values: tuple              # value names for choice; (lo, hi) for range; (False, True) for bool
    default: object            # the stored value (index for choice)
    doc: str
    slot: int

    def shown(self, value) -> str:
        if self.kind == "choice":
            return self.values[value]
        if self.kind == "bool":
            return "true" if value else "false"
        return str(value)

    def domain_text(self) -> str:
        if self.kind == "choice":
            return " | ".join(self.values)
        if self.kind == "bool":
            return "true | false"
        return f"{self.values[0]}..{self.values[1]}"

    def parse(self, text: str):
        """The stored value for `--set name=text`, or raise ValueError with a sentence."""
        text = text.strip()
        if self.kind == "choice":
            if text in self.values:
                return self.values.index(text)
            raise ValueError(f"option '{self.name}' is one of {', '.join(self.values)}, not '{text}'")
        if self.kind == "bool":
            low = text.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise ValueError(f"option '{self.name}' is true or false, not '{text}'")
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"option '{self.name}' is a number in {self.values[0]}..{self.values[1]}, not '{text}'") from None
        if not self.values[0] <= value <= self.values[1]:
            raise ValueError(f"option '{self.name}' is a number in {self.values[0]}..{self.values[1]}, not {value}")
        return value


@slotclasses.define(eq=False)
class ZoneInfo:
    name: str
    owner: str | None
    seen: str
    base: int
    count: int
    card_type: str


@slotclasses.define(eq=False)
class VarInfo:
    name: str
    owner: str | None
    slot: int
    init: object               # function (state) -> value, or None
    default: object
    format: object             # value -> text, for views
    table_size: int = 0        # for `var ... by K`: how many keys (the value is a list of that length)
    seen: str = "all"          # who sees its value: all, owner, team, nobody
    domain: object = None      # player count -> every value it can hold, or None for a number (layout.domain_of)
    type: object = None        # the declared type of one value (a table's entry), from ir.types: what
                               # an encoder of observations (rulecraft.api) reads to give it a fixed shape
    seen_base: int = 0         # State.seen[seen_base + owner (0 if shared)]: the seats that see its value now
    shown: bool = False        # a `show`/`hide` names it: who sees it may differ from its `seen` during play


@slotclasses.define(eq=False)
class ChoiceInfo:
    """One `chooses` statement: its universe of options fixed at load, and where to go after."""

    index: int
    rule: str
    span: object
    may: bool
    offset: int                # first action id of this choice
    size: int                  # options in the universe (the pass option is offset + size)
    position: object           # value -> position in the universe
    values: object             # the values by position (a sequence): option id - offset -> value
    var_index: int             # frame index that receives the chosen value
    label: object              # function (state, frame) -> text, with the value bound
    pass_label: object         # function (state, frame) -> text
    shown: object              # function (state, frame) -> the label as segments, for the other seats
    secret: bool = False       # `secretly`: even the pass is told to the others only as a choice made
    body_pc: int = 0           # the block its rule resumes at once an option is taken
    else_pc: int = 0           # ... once the pass option is taken
    body: object = None        # function (state, frame, chosen value) -> waiting?, running the option's block
                               # straight from the decision (compile.rules); None: the rule resumes at body_pc
    prompt: object = None      # function (state, frame) -> the question asked (`prompt "…"`), or None


@slotclasses.define(eq=False)
class AnytimeInfo:
    """An `anytime` option: offered at every decision of a player while its condition holds."""

    name: str
    code: int                  # index of its body in Program.codes
    label: object              # function (state, player) -> text
    frame_size: int


@slotclasses.define(eq=False)
class Code:
    """A compiled rule: `entry(state, frame) -> waiting?` starts or resumes it at the frame's pc."""

    name: str
    span: object
    entry: object
    spans: list                # pc -> the span the rule stands at there (for errors, and to check saves)
    frame_size: int
    params: int


@slotclasses.define(eq=False)
class ScenarioStep:
    """A scenario step with its expressions compiled: `value` is a function (state) -> value for
    expect/take/legal/illegal/next random/next shuffle; `sides` explains a failed comparison: (op, [(span, value, format)])."""

    kind: str
    span: object
    value: object = None
    name: str = ""
    sides: object = None
    parts: object = None     # an `expect a and b`: () -> [(span, value, sides)] for each side of the `and`
    checks: list = slotclasses.Factory(list)   # a `take "…":`: the steps checked as the option's block ends


@slotclasses.define(eq=False)
class Scenario:
    name: str
    span: object
    doc: str
    steps: list


@slotclasses.define(eq=False)
class Outcome:
    """`outcome …` (docs/language.md): how the seats' results relate; engine/outcomes.py applies it."""
    kind: str                  # "cooperative", "zero-sum" or "constant-sum"
    total: int | None          # what the scores sum to (0 for zero-sum), None for a cooperative game
    low: int | None            # the declared bounds of every score, or None
    high: int | None
    won: object                # a cooperative game's `when`: function (state) -> bool, else None
    span: object


@slotclasses.define(eq=False)
class ScorePart:
    """A part of the score (compile.scoreparts): a term of a sum, or the elements a `sum(… for x in L)` adds."""

    name: str | None           # the term's name (its def's), or None: its text as written (at `span`)
    span: object
    sign: int                  # 1, or -1 for a term taken away
    value: object              # function (state, player) -> the term's value, or the elements added
    each: object = None        # for elements: function (state, player, element) -> what it adds
    shown: object = None       # for elements: function (state, element) -> its text
    cards: bool = False        # the elements are cards: each is named to the seats that see where it lies
    hidden: bool = False       # otherwise, its value reads what some seat may not see (ir.hidden.reads_hidden)


@slotclasses.define(eq=False)
class Program:
    title: str
    min_players: int
    max_players: int
    teams: tuple
    options: list
    card_names: tuple          # component id -> display name
    card_types: tuple          # component id -> card type name
    cards_by_type: dict        # type name -> tuple of ids
    zones: list                # ZoneInfo
    zone_instance_names: tuple
    zone_instance_owner: tuple  # instance -> player index, -1 for shared, -(team + 2) for a team's (layout.team_owner)
    seen_masks: tuple          # [player count][instance] -> bit mask of the seats that see its cards at the
                               # start, then one per variable's value (VarInfo.seen_base): State.seen
                               # starts as this and changes by `show`/`hide`
    vars: list                 # VarInfo, in slot order with options
    var_count: int
    codes: list                # Code per rule index
    entries: tuple             # rule index -> pc -> the function entered there (compile.rules), for the machine's loop
    rule_index: dict
    choices: list
    action_count: int
    score: object              # function (state, player) -> int, or None
    tiebreak: object
    invariants: list           # (name, function (state) -> bool, 0, span)
    scenarios_: list = slotclasses.Factory(list)   # Scenario, run by engine.scenarios (read `scenarios`)
    limit: int | None = None   # `limit decisions N`
    heuristic: object = None   # function (state, player) -> int: how agents value an unfinished game, or None
    score_parts: tuple = ()    # ScorePart: what the score is made of (compile.scoreparts), for the final screen
    anytimes: dict = slotclasses.Factory(dict)     # option id -> AnytimeInfo
    table_sheet_: list = slotclasses.Factory(list)  # functions (state) -> a line as segments, from `sheet:` (read `table_sheet`)
    player_sheet_: list = slotclasses.Factory(list)  # functions (state, player) -> segments, from `sheet p:` (read `player_sheet`)
    lines: dict = slotclasses.Factory(dict)  # generated file name -> (rule label, span per line)
    entry: str = ""
    path: str = ""             # the entry file, absolute (a pickled Program is loaded again from it: loader)
    digest: str = ""
    sources: dict = slotclasses.Factory(dict)
    tracks_came_from: bool = False   # the rules read `c.came_from`: State.where also keeps the place each card left
    changes_seen: bool = False       # a `show`/`hide` changes State.seen during play
    where_size: int = 0        # len(State.where): a place per card, twice that when the rules read `came_from`
    warnings: list = slotclasses.Factory(list)   # Diagnostics of severity "warning": the rules load, but look again
    watched: object = None     # () -> this game compiled for a scenario's `take "…":` (loader), made when first asked
    fast: object = None        # () -> this game compiled for the fast path (engine.playout), made when first asked
    later: object = None       # () -> (scenarios, table sheet, player sheet), compiled when one is first read (Compiler.compile)
    outcome: Outcome | None = None   # `outcome …`, or None: every seat plays for itself (or its team)
    starts: dict = slotclasses.Factory(dict)   # (players, setup rule) -> what every new game starts with (engine.machine)

    @property
    def scenarios(self) -> list:
        if self.later is not None:
            self._finish()
        return self.scenarios_

    @property
    def table_sheet(self) -> list:
        if self.later is not None:
            self._finish()
        return self.table_sheet_

    @property
    def player_sheet(self) -> list:
        if self.later is not None:
            self._finish()
        return self.player_sheet_

    def _finish(self) -> None:
        later = self.later
        self.scenarios_, self.table_sheet_, self.player_sheet_ = later()
        self.later = None

    def option(self, name):
        for o in self.options:
            if o.name == name:
                return o
        return None
