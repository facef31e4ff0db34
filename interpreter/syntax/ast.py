"""The abstract syntax tree: frozen attrs classes, each with the Span it came from.

Each class's docstring shows the source it stands for.

Over 500 lines for one reason: one small declaration per kind of node, in the
order of the language reference; split up, the tree's shape would no longer read
in one place.
"""
from __future__ import annotations

import attrs

from ..diagnostics import Span


def node(cls):
    return attrs.frozen(eq=False, repr=True)(cls)


# ------------------------------------------------------------------ types
@node
class NamedType:
    """`Int`, `Player`, `Colour`, `Witch`"""
    span: Span
    name: str


@node
class GenericType:
    """`List[Witch]`, `Zone[Witch]`"""
    span: Span
    name: str
    arg: object


@node
class RangeType:
    """`1..9`"""
    span: Span
    lo: int
    hi: int


# ------------------------------------------------------------ expressions
@node
class IntLit:
    """`42`"""
    span: Span
    value: int


@node
class CardLookup:
    """`Witch named "Blue 7"`: the card of that type shown with that name"""
    span: Span
    card_type: str
    wanted: str


@node
class NoneLit:
    """`none`: no value (of an optional type, `Player?`)"""
    span: Span


@node
class OptionalType:
    """`Player?`"""
    span: Span
    inner: object


def type_text(t) -> str:
    """A type as the rules write it: `Int`, `List[Witch]`, `1..9`, `Player?` (for hover and documents)."""
    if isinstance(t, NamedType):
        return t.name
    if isinstance(t, GenericType):
        return f"{t.name}[{type_text(t.arg)}]"
    if isinstance(t, RangeType):
        return f"{t.lo}..{t.hi}"
    if isinstance(t, OptionalType):
        return f"{type_text(t.inner)}?"
    return "?"


@node
class BoolLit:
    """`true`"""
    span: Span
    value: bool


@node
class Template:
    """`"{p} plays {c}"`: literal text and interpolated expressions."""
    span: Span
    parts: tuple  # str | expression


@node
class Name:
    """`hand_size`"""
    span: Span
    id: str


@node
class Attr:
    """`c.colour`, `p.hand`"""
    span: Span
    obj: object
    name: str
    name_span: Span


@node
class Call:
    """`size(deck)`, `strength(c)`"""
    span: Span
    func: str
    func_span: Span
    args: tuple


@node
class Index:
    """`order[0]`"""
    span: Span
    obj: object
    index: object


@node
class ListLit:
    """`[a, b, c]`"""
    span: Span
    items: tuple


@node
class RangeExpr:
    """`0..hand_size`: a range with a bound computed when the rules run"""
    span: Span
    low: object
    high: object


@node
class RangeLit:
    """`1..9`"""
    span: Span
    lo: int
    hi: int


@node
class FindWhere:
    """`c in p.hand where c.colour == led` (inside `first(...)`)"""
    span: Span
    var: str
    iterable: object
    cond: object


@node
class LetIn:
    """`let n = size(p.hand)` then, on the next line of a def, an expression using `n`"""
    span: Span
    name: str
    value: object
    body: object


@node
class Cond:
    """`if a then b else c`"""
    span: Span
    test: object
    then: object
    other: object


@node
class MatchCase:
    """`Three, FullHouse -> 5`: the values the case is for (constants of the matched value's type) and its result"""
    span: Span
    keys: tuple
    value: object


@node
class Match:
    """`match h:` then one case a line (`Pair -> 2`, `Three, FullHouse -> 5`) and at last `else -> 0`"""
    span: Span
    subject: object
    cases: tuple                   # MatchCase, in order
    otherwise: object = None       # the value after `else ->`, or None
    else_span: Span | None = None


@node
class BinOp:
    """`a + b`, `a mod 9`"""
    span: Span
    op: str
    left: object
    right: object


@node
class Compare:
    """`a == b`, `c in xs`, `c not in xs`"""
    span: Span
    op: str
    left: object
    right: object


@node
class BoolOp:
    """`a and b`, `a or b`"""
    span: Span
    op: str
    left: object
    right: object


@node
class Not:
    """`not a`"""
    span: Span
    operand: object


@node
class Neg:
    """`-a`"""
    span: Span
    operand: object


@node
class CompFor:
    """`for c in xs if cond` inside a comprehension"""
    span: Span
    var: str
    iterable: object
    cond: object


@node
class Comprehension:
    """`[c.number for c in p.won]`, `sum(c.number for c in p.won)`"""
    span: Span
    element: object
    fors: tuple


@node
class BestBy:
    """`max(c in cards by strength(c))`: the element with the best key"""
    span: Span
    var: str
    iterable: object
    key: object


# ------------------------------------------------------------- statements
@node
class Let:
    """`let winner = best.owner`"""
    span: Span
    name: str
    value: object


@node
class Assign:
    """`first = winner`, `p.score += 3`"""
    span: Span
    target: object
    op: str
    value: object


@node
class Move:
    """`move c to p.played`, `move p.played to winner.won`, `move x to z bottom`"""
    span: Span
    what: object
    to: object
    bottom: bool


@node
class Shuffle:
    """`shuffle deck`"""
    span: Span
    zone: object


@node
class Show:
    """`show q.hand to p` (shown) or `hide dummy.hand from all`: who sees a zone's cards, or a variable's
    value (`show p.bid to all`), changed. `seats` is "all", "others" (every seat but the owner) or an
    expression (a player, a team, a list of players)."""
    span: Span
    what: object
    seats: object
    shown: bool


@node
class Say:
    """`say "{p} wins"`, `say to p "you drew {c}"`"""
    span: Span
    text: Template
    to: object = None          # the player or team told; None: everyone


@node
class ExprStmt:
    """`refill(p)`: a call of a rule"""
    span: Span
    expr: object


@node
class Pass:
    """`pass`"""
    span: Span


@node
class Stop:
    """`stop`: leave the current rule"""
    span: Span


@node
class Return:
    """`return x`: the value of a rule declared with a type, and the rule ends"""
    span: Span
    value: object


@node
class Break:
    """`break`: leave the innermost loop"""
    span: Span


@node
class If:
    """`if a: ... elif b: ... else: ...`"""
    span: Span
    branches: tuple  # ((cond, block), ...)
    otherwise: tuple | None


@node
class For:
    """`for p in players: ...`"""
    span: Span
    var: str
    iterable: object
    body: tuple


@node
class While:
    """`while size(deck) > 0: ...`"""
    span: Span
    cond: object
    body: tuple


@node
class Repeat:
    """`repeat 6: ...`"""
    span: Span
    count: object
    body: tuple


@node
class Choose:
    """`p chooses c in p.hand where ... as "play {c}": ...` (with `may`, also `or "pass"` and `else:`)"""
    span: Span
    chooser: object
    may: bool
    var: str
    domain: object
    where: object
    label: Template | None
    pass_label: Template | None
    body: tuple
    otherwise: tuple | None
    secret: bool | None = None     # `p secretly chooses …`: the others are told only that p chose
    var2: str | None = None        # `…, c in Cell`: a pair choice, over every (var, var2)
    domain2: object = None
    prompt: Template | None = None  # `prompt "Answer the spell?"`: the question, shown to the chooser above the options


@node
class Alternative:
    """`k in 1..5 where … as "play slot {k}": …`: one shape of option of a `chooses one of`"""
    span: Span
    var: str
    domain: object
    var2: str | None        # `q in players, c in Colour`: a pair
    domain2: object
    where: object
    label: Template
    body: tuple


@node
class ChooseOneOf:
    """`p [may] chooses one of:` and its alternatives: one decision over options of several shapes"""
    span: Span
    chooser: object
    may: bool
    secret: bool
    alternatives: tuple
    otherwise: tuple | None


@node
class ChooseSome:
    """`p chooses some d in p.dice where … up to 3 as "re-roll {d}" or "keep the rest": body` — several
    options, one decision each; `d` is one option in the label, the list of those chosen in the body"""
    span: Span
    chooser: object
    var: str
    domain: object
    where: object
    most: object            # `up to N` / `exactly N`: the most that may be chosen, or None (all)
    exact: bool             # `exactly N`: also the least
    label: Template | None
    done_label: Template | None
    body: tuple
    secret: bool | None = None


# ------------------------------------------------------------ declarations
@node
class TypeParam:
    """`C` in `def led_suit[C](trick: Zone[C])`: a type each use of the def gives."""
    span: Span
    name: str


@node
class Param:
    span: Span
    name: str
    type: object


@node
class Field:
    span: Span
    name: str
    type: object


@node
class GameDecl:
    """`game "The Witches of Blackmore"`"""
    span: Span
    title: str


@node
class PlayersDecl:
    """`players 2..6`"""
    span: Span
    lo: int
    hi: int


@node
class TeamsDecl:
    """`teams Red, Blue`"""
    span: Span
    names: tuple


@node
class ImportDecl:
    """`import cards`, `import "helpers.rules"`"""
    span: Span
    ref: str
    is_path: bool


@node
class ExtendsDecl:
    """`extends blackmore`, `extends "../games/blackmore.rules"`"""
    span: Span
    ref: str
    is_path: bool


@node
class ChoiceDomain:
    span: Span
    values: tuple


@node
class RangeDomain:
    span: Span
    lo: int
    hi: int


@node
class BoolDomain:
    span: Span


@node
class OptionDecl:
    """`option wheel: descending | ascending = descending "help"`"""
    span: Span
    override: bool
    name: str
    domain: object
    default: object
    doc: str


@node
class EnumDecl:
    """`enum Colour: Yellow, Blue, Red`; `enum Rank(points: Int): Ten(10), Ace(11) "A"`"""
    span: Span
    override: bool
    name: str
    values: tuple
    shown: tuple = ()       # per value: its display name, or None (shown by its name)
    fields: tuple = ()      # Field: the data each value carries
    data: tuple = ()        # per value: the expressions given for the fields (a tuple), or None
    spans: tuple = ()       # per value: where it is written


@node
class CardDecl:
    """`card Witch(colour: Colour, number: 1..9) named "{colour} {number}"`"""
    span: Span
    override: bool
    name: str
    fields: tuple
    named: Template | None


@node
class CardsDecl:
    """`cards witches = [Witch(c, n) for c in Colour for n in 1..9]`"""
    span: Span
    override: bool
    name: str
    value: object


@node
class ZoneDecl:
    """`zone hand of Witch per player, seen by owner`"""
    span: Span
    override: bool
    name: str
    type: object
    owner: str | None
    seen: str


@node
class VarDecl:
    """`var first: Player`, `var points: Int per player = 0`, `var filled: Int per player by Flower = 0`"""
    span: Span
    override: bool
    name: str
    type: object
    owner: str | None
    init: object
    index: object = None       # the type after `by`: an enum or a range
    seen: str | None = None    # who sees its value: owner, team, nobody; None: everyone


@node
class DefDecl:
    """`def strength(c: Witch): Int = ...`"""
    span: Span
    override: bool
    name: str
    params: tuple
    ret: object
    body: object
    const: bool = False     # `const NAME = …`: no parameters, computed once when the rules load
    type_params: tuple = ()  # TypeParam: `def beats[C](a: C, b: C)`, checked anew at each use


@node
class RuleDecl:
    """`rule contest: ...`"""
    span: Span
    override: bool
    name: str
    params: tuple
    body: tuple
    type_params: tuple = ()  # TypeParam, as a def's
    returns: object = None   # `rule settle(p: Player): Bool:`: the type of the value it gives with `return`


@node
class ScoreDecl:
    """`score p: Player = sum(c.number for c in p.won)`, `tiebreak p: Player = ...`, `heuristic p = ...`"""
    span: Span
    override: bool
    kind: str
    var: str
    value: object
    var_type: object = None       # `score p: Player = …`: written, it must be Player

    @property
    def name(self):
        return self.kind


@node
class InvariantDecl:
    """`invariant hands_small: all(size(p.hand) <= 6 for p in players)`"""
    span: Span
    override: bool
    name: str
    value: object


@node
class LimitDecl:
    """`limit decisions 400`: the game must end within this many decisions"""
    span: Span
    decisions: int


@node
class OutcomeDecl:
    """`outcome cooperative when total >= 12`, `outcome zero-sum, scores -2..2`, `outcome constant-sum 10`:
    what the seats' results are to one another (check/declarations.py says which forms are allowed)"""
    span: Span
    kind: str               # as written: "cooperative", "zero-sum", "constant-sum", or anything (refused by the checker)
    total: int | None       # the constant of a constant sum
    condition: object       # a cooperative game's `when` expression, or None
    bounds_word: str | None  # the word before the bounds (must be "scores"), or None without bounds
    low: int | None
    high: int | None


@node
class EventDecl:
    """`event harvested(p: Player, f: Fruit)`"""
    span: Span
    name: str
    params: tuple


@node
class WhenDecl:
    """`when harvested(p, f) where f == Peach: ...` (parameters take the event's types)"""
    span: Span
    event: str
    params: tuple          # names
    where: object
    body: tuple
    types: tuple = ()      # per name: its type as written (`p: Player`), or None


@node
class AnytimeDecl:
    """`anytime shovel(p) where p.compost >= 3 as "use the Shovel": ...`"""
    span: Span
    name: str
    player: str
    where: object
    label: object
    body: tuple
    player_type: object = None    # `anytime name(p: Player)`: written, it must be Player


@node
class SheetDecl:
    """`sheet p:` then lines such as `"goods {p.goods}, compost {p.compost}"`; `sheet:` for the table"""
    span: Span
    override: bool
    player: str | None
    lines: tuple
    player_type: object = None    # `sheet p: Player:`: written, it must be Player

    @property
    def name(self):
        return "sheet" if self.player is None else "sheet of a player"


@node
class Signal:
    """`signal harvested(p, Peach)`"""
    span: Span
    event: str
    args: tuple


@node
class AddTo:
    """`add x to p.owed`"""
    span: Span
    value: object
    target: object


@node
class RemoveFrom:
    """`remove x from p.owed`"""
    span: Span
    value: object
    target: object


@node
class ScenarioStep:
    """One line of a scenario: kind is players/seed/option/arrange/take/expect/legal/illegal/over/failure/said.
    A `take "…":` holds the checks made as the option's block ends (`expect …`, `expect said "…"`)."""
    span: Span
    kind: str
    value: object = None
    name: str = ""
    checks: tuple = ()


@node
class ScenarioDecl:
    """`scenario name "description": ...`"""
    span: Span
    name: str
    override: bool
    doc: str
    steps: tuple


@node
class DropDecl:
    """`drop scenario five_player_example`: a variant leaves out a scenario of the game it extends"""
    span: Span
    name: str


@node
class Module:
    """A whole .rules file."""
    span: Span
    path: str
    decls: tuple


NAMED_DECLS = (OptionDecl, EnumDecl, CardDecl, CardsDecl, ZoneDecl, VarDecl, DefDecl, RuleDecl, ScoreDecl, InvariantDecl,
               EventDecl, ScenarioDecl, AnytimeDecl)
