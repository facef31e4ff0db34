"""The typed intermediate form: the one contract between check and compile.

Every name is already resolved to one kind of node — a local (by frame slot), a
variable (by variable slot), a card field, a zone, a built-in, a rule, a choice,
an event — and every expression carries its type and span. The compiler reads
only these nodes: no syntax tree, no side tables keyed by node identity, no
string tags. (starlark-go's resolved `Binding`s, cel-go's checked AST.)

Expressions have `type` and `span`; statements have `span`. Bodies are tuples.

Over 500 lines for one reason: one small declaration per kind of node; the whole
contract between check and compile reads in one place.
"""
from __future__ import annotations

from .. import slotclasses

# slot classes, not attrs (slotclasses.py: `import attrs` and its classes cost a load about 20 ms); compared by
# identity, and one `_repr` below given to every node class at the end
_node = slotclasses.frozen(eq=False, repr=False)


# ------------------------------------------------------------------ expressions
@_node
class Const:
    """An int, a bool, an enum value's or a team's index: `3`, `true`, `Red`, `Coven`."""
    type: object
    span: object
    value: object


@_node
class Text:
    """`"play {c}"`: literal parts (str) and expressions, joined."""
    type: object
    span: object
    parts: tuple


@_node
class Local:
    """A parameter or local of the enclosing rule or def, by slot."""
    type: object
    span: object
    slot: int


@_node
class Var:
    """A shared variable or an option, by variable slot: `final_stage`, `wheel`."""
    type: object
    span: object
    slot: int


@_node
class OwnedVar:
    """A variable kept per player or per team: `p.score`."""
    type: object
    span: object
    slot: int
    owner: object


@_node
class TableEntry:
    """An entry of a table `var ... by K`: `p.filled[Tulip]`. `key_kind` is "direct" (enum, player),
    "range" (with `lo`, `size`) or "card" (with `card_type`)."""
    type: object
    span: object
    table: object
    key: object
    key_kind: str
    lo: int = 0
    size: int = 0
    card_type: str = ""


@_node
class Zone:
    """A zone instance: `deck` (shared, no owner), `p.hand` (owner a player or a team)."""
    type: object
    span: object
    zone: str
    owner: object = None


@_node
class CardField:
    """`c.colour`."""
    type: object
    span: object
    card_type: str
    field: str
    card: object


@_node
class Property:
    """A built-in attribute: `c.owner`, `c.zone`, `c.came_from`, `p.team`, `p.seat`, `z.owner` ("zone owner")."""
    type: object
    span: object
    name: str
    obj: object


@_node
class Fixed:
    """A collection fixed when the game loads: an enum's values, a card type's cards, a card set, a range."""
    type: object
    span: object
    kind: str               # "enum" | "cards" | "card set" | "range"
    name: str = ""
    lo: int = 0
    hi: int = -1


@_node
class Special:
    """`players`, `player_count`, `teams`, `winners`."""
    type: object
    span: object
    name: str


@_node
class DefCall:
    """A call of a `def` (or of a def with no parameters named alone)."""
    type: object
    span: object
    name: str
    args: tuple


@_node
class BuiltinCall:
    """A call of a built-in function (see rulecraft.builtins)."""
    type: object
    span: object
    name: str
    args: tuple


@_node
class BestBy:
    """`c in cards by strength(c)`, only inside max/min/sort."""
    type: object
    span: object
    slot: int
    iterable: object
    key: object


@_node
class CardNamed:
    """`Witch("Blue 7")`: the card of a type with that display name, found at load."""
    type: object
    span: object
    card_type: str
    wanted: str


@_node
class MakeCard:
    """`Witch(c, n)` in a `cards` declaration."""
    type: object
    span: object
    card_type: str
    args: tuple


@_node
class Index:
    """`xs[i]` on a list or a zone."""
    type: object
    span: object
    seq: object
    index: object


@_node
class ListLit:
    """`[a, b]`; an item that is a Comprehension is spread into the list."""
    type: object
    span: object
    items: tuple


@_node
class Pairs:
    """The options of a pair choice: every (a, b) of `first` × `second`, as tuples."""
    type: object
    span: object
    first: object
    second: object
    kind: str = "pairs"


@_node
class PairPart:
    """The first (0) or second (1) part of a pair choice's option."""
    type: object
    span: object
    pair: object
    which: int


@_node
class ComputedRange:
    """`0..hand_size`: bounds computed when the rules run. As a choice's domain, `lo..hi` is its
    universe (derived from the declared bounds of what the bounds are computed from), checked at run time."""
    type: object
    span: object
    low: object
    high: object
    lo: int = 0
    hi: int = -1
    kind: str = "range"     # (read by the layout like a Fixed range's)
    bounded: bool = False   # lo..hi is known (the range is a choice's domain)


@_node
class NoneValue:
    """`none`, the value of an optional type that holds nothing."""
    type: object
    span: object


@_node
class EnumData:
    """`r.points`: data an enum value carries (`values`, by the value's index); `r.position` when
    `values` is None (an enum value is its index)."""
    type: object
    span: object
    values: object
    obj: object


@_node
class FindWhere:
    """`x in xs where cond` inside `first(...)`: the elements of `xs` for which `cond` holds, lazily."""
    type: object
    span: object
    slot: int
    iterable: object
    cond: object


@_node
class LetIn:
    """`let` in a def: `value` computed once into a local slot, then `body`."""
    type: object
    span: object
    slot: int
    value: object
    body: object


@_node
class Cond:
    type: object
    span: object
    test: object
    then: object
    other: object


@_node
class Match:
    """`match subject:` and its cases: a value in `keys[k]` (the stored values: an enum value's index, a
    number, a text, a bool, None) gives `results[k]`, any other `otherwise` (None: every value has a case)."""
    type: object
    span: object
    subject: object
    keys: tuple             # per case, a tuple of stored values (not nodes)
    results: tuple
    otherwise: object


@_node
class _Binary:
    type: object
    span: object
    op: str
    left: object
    right: object


@_node
class BinOp(_Binary):
    """`a + b`, `-`, `*`, `/`, `mod`; `+` also joins lists."""


@_node
class Compare(_Binary):
    """`a == b`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `not in`."""


@_node
class BoolOp(_Binary):
    """`a and b`, `a or b`."""


@_node
class Not:
    type: object
    span: object
    operand: object


@_node
class Neg:
    type: object
    span: object
    operand: object


@_node
class CompFor:
    slot: int
    iterable: object
    cond: object
    span: object


@_node
class Comprehension:
    type: object
    span: object
    element: object
    fors: tuple


@_node
class Cast:
    """A card of any type used as a card (or list of cards) of one type: checked when the rules run."""
    type: object
    span: object
    expr: object
    card_type: str
    many: bool


# ------------------------------------------------------------------ statements
@_node
class Let:
    span: object
    slot: int
    value: object


@_node
class Assign:
    """`place op value`, op one of = += -= *=; place is a Local, Var, OwnedVar or TableEntry."""
    span: object
    place: object
    op: str
    value: object


@_node
class AddTo:
    span: object
    place: object
    value: object


@_node
class RemoveFrom:
    span: object
    place: object
    value: object


@_node
class Move:
    span: object
    what: object
    to: object
    bottom: bool


@_node
class Shuffle:
    span: object
    zone: object


@_node
class Show:
    span: object
    what: object            # a zone, or a Var / OwnedVar
    seats: object           # "all", "others", or a Player, Team or List[Player] expression
    shown: bool


@_node
class Say:
    span: object
    text: object
    to: object = None       # a Player or Team expression: who is told; None: everyone


@_node
class CallRule:
    span: object
    rule: str               # the rule's key (its name, or the generated name of a handler)
    args: tuple


@_node
class Signal:
    span: object
    event: str
    args: tuple


@_node
class Pass:
    span: object


@_node
class Stop:
    span: object


@_node
class Break:
    """Leave the innermost loop."""
    span: object


@_node
class If:
    span: object
    branches: tuple         # ((cond, body), ...)
    otherwise: tuple | None


@_node
class For:
    span: object
    slot: int
    list_slot: int          # temporaries kept in the frame, so a loop can wait for a decision
    index_slot: int
    iterable: object
    body: tuple


@_node
class While:
    span: object
    cond: object
    body: tuple


@_node
class Repeat:
    span: object
    count_slot: int
    count: object
    body: tuple


@_node
class Choose:
    """`p [may] choose x in domain where … as "…" or "…": body else: otherwise`."""
    span: object
    chooser: object
    may: bool
    slot: int
    domain: object
    elem: object            # the element type: what the options are
    where: object
    label: object
    pass_label: object
    body: tuple
    otherwise: tuple | None
    secret: bool = False    # `secretly`: the other seats are told only that a choice was made
    prompt: object = None   # `prompt "…"`: the question asked (Text, without the chosen value), or None


# ------------------------------------------------------------------ declarations
@_node
class CardType:
    name: str
    span: object
    fields: tuple           # ((name, type), ...) in order
    named: object           # Text over the fields as locals 0..n-1, or None


@_node
class CardSet:
    name: str
    span: object
    value: object


@_node
class ZoneDecl:
    name: str
    span: object
    type: object
    owner: str | None
    seen: str


@_node
class VarDecl:
    name: str
    span: object
    type: object
    owner: str | None
    slot: int
    init: object
    seen: str = "all"       # who sees its value: all, owner, team, nobody


@_node
class OptionDecl:
    name: str
    span: object
    kind: str               # "choice" | "range" | "bool"
    values: tuple
    default: object
    doc: str
    slot: int


@_node
class Def:
    name: str
    span: object
    params: int
    type: object
    body: object
    binds_locals: bool      # does the body bind locals (comprehensions, `by`)? then it cannot be inlined
    const: bool = False     # computed once, when the rules load (compile: ExprGen.const_value)


@_node
class Rule:
    """A rule, a `when` handler, an `anytime` body or a scenario's `arrange:` block."""
    key: str
    label: str              # how errors name it: "rule refill", "when window#1"
    span: object
    params: int
    frame_size: int
    where: object           # a handler's condition, tested when it starts; else None
    body: tuple


@_node
class Anytime:
    name: str
    rule: str               # key of its body's Rule
    where: object           # over local 0, the player
    label: object


@_node
class Step:
    """A scenario step: players/seed/option/arrange/expect/take/legal/illegal/over/failure/said."""
    kind: str
    span: object
    value: object = None    # int, option value, text, or an expression
    name: str = ""
    checks: tuple = ()      # a `take "…":`: the steps checked as the option's block ends (expect, said)


@_node
class Scenario:
    name: str
    span: object
    doc: str
    steps: tuple


@_node
class Program:
    """A whole checked game, ready to compile."""
    title: str
    min_players: int
    max_players: int
    teams: tuple
    options: tuple
    cards: tuple
    card_sets: tuple
    zones: tuple
    vars: tuple
    var_count: int
    defs: dict              # name -> Def
    rules: dict             # key -> Rule, in order: rules, handlers, anytime bodies, arrange blocks
    events: dict            # name -> tuple of handler keys, in declaration order
    anytimes: tuple
    score: object           # expression over local 0 (the player), or None
    tiebreak: object
    heuristic: object       # how agents value an unfinished game for local 0, or None (they use score)
    invariants: tuple       # ((name, expression, span), ...)
    scenarios: tuple
    sheet_table: tuple
    sheet_player: tuple     # expressions over local 0
    limit: int | None
    tracks_came_from: bool = False   # some expression reads a card's `came_from`: every move records it
    outcome: tuple | None = None     # `outcome …`: (kind, total, low, high, condition expression or None, span)
    changes_seen: bool = False       # some `show`/`hide` changes who sees a zone or a value during play
    shown_vars: tuple = ()           # the slots of the variables a `show`/`hide` names, in order


_CHILD_FIELDS: dict = {}


_SCALARS = ("int", "str", "bool")      # fields declared so hold no node: not looked into


def _child_fields(cls) -> tuple:
    """The fields of a node class that may hold nodes (not its type, span, element type, nor a field
    declared a number, text or bool)."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(f.name for f in cls.__record_fields__
                                           if f.name not in ("type", "span", "elem") and f.type not in _SCALARS)
    return names


_KIDS: dict = {}       # class -> _child_fields, or None for what is no node (str, int, None, …)


def _kids(cls):
    names = _KIDS[cls] = _child_fields(cls) if hasattr(cls, "__record_fields__") else None
    return names


def walk(node):
    """Every IR node under `node` (itself included; `node` may be a tuple of nodes), depth first."""
    stack = [node]
    pop, push, kids = stack.pop, stack.append, _KIDS.get
    while stack:
        n = pop()
        t = type(n)
        if t is tuple:
            stack.extend(n)
            continue
        names = kids(t, False)
        if names is False:
            names = _kids(t)
        if names is None:
            continue
        yield n
        for name in names:
            push(getattr(n, name))


# the nodes that bind locals of their own, each with the fields holding the slots it binds: the one list
# (lowering, inlining, the generator's loops and tables, what a shown text reads all ask it)
BINDERS = {BestBy: ("slot",), FindWhere: ("slot",), LetIn: ("slot",), CompFor: ("slot",), Let: ("slot",),
           For: ("slot", "list_slot", "index_slot"), Repeat: ("count_slot",), Choose: ("slot",)}
# the fields of IR nodes that hold a local's slot, read or bound (the others named `slot` are variables')
LOCAL_SLOTS = {Local: ("slot",), **BINDERS}


def bound_by(n) -> tuple:
    """The slots of the locals node `n` itself binds (none for a node that binds none)."""
    return tuple(getattr(n, name) for name in BINDERS.get(type(n), ()))


def binders(node):
    """Each node under `node` (a node or a tuple of them) that binds locals, with the slots it binds."""
    for n in walk(node):
        if type(n) in BINDERS:
            yield n, bound_by(n)


def _repr(self) -> str:
    return f"{type(self).__qualname__}({', '.join(f'{a.name}={getattr(self, a.name)!r}' for a in type(self).__record_fields__)})"


for _cls in list(vars().values()):
    if isinstance(_cls, type) and _cls.__module__ == __name__ and slotclasses.has(_cls):
        _cls.__repr__ = _repr
