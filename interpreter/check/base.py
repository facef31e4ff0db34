"""The checker's state, shared by its passes (declarations.py, statements.py, expressions.py).

Every attribute the passes read or write is declared here, in one place.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from .symbols import Scope


class CheckerBase:
    def __init__(self, decls, originals, diags):
        self.decls = decls
        self.originals = originals
        self.diags = diags
        self.globals: dict = {}
        self.types: dict = {}
        self.refs: dict = {}
        self.slots: dict = {}
        self.scope: Scope | None = None
        self.current_decl = None
        self.enum_values: dict[str, list] = {}
        self.var_count = 0
        self.options: list = []
        self.enums: list = []
        self.cards: list = []
        self.card_sets: list = []
        self.zones: list = []
        self.vars: list = []
        self.defs: dict = {}
        self.rules: dict = {}
        self.scores: dict = {}
        self.invariants: list = []
        self.events: dict = {}
        self.handlers: list = []
        self.scenarios: list = []
        self.anytimes: list = []
        self.sheets: dict = {}
        self.limit = None
        self.outcome = None                # the `outcome` declaration (ast.OutcomeDecl), if any
        self.in_rule = False
        self.option_types: dict = {}
        self.best_allowed: set = set()
        self.find_allowed: set = set()     # `x in xs where c` nodes inside first(...)
        self.range_universe: dict = {}     # id(RangeExpr) of a choice's domain -> (lo, hi) of its options
        self.narrowed: set = set()         # keys (check/expressions.narrow_key) known not to be none here
        self.narrow_saved: list = []       # the sets of the blocks around, restored when each ends
        self.depth = 0
        self.too_deep = False
        self.module = False
        self.type_vars: dict = {}          # name -> types.TypeVar, while a generic declaration is declared
        self.templates = 0                 # > 0 while a generic body is checked as written (check/generics.py)
        self.downcasts: dict = {}
        self.match_keys: dict = {}         # id(a match's case) -> the stored values it stands for (matches.py)
        self.rule_values: set = set()      # ids of the calls where a rule's value may be taken (returns.py)
        self.current_rule = None           # the RuleSym whose body is being checked
        self.one_of_universes: dict = {}   # a `chooses one of` and its alternatives -> their numbers (alternatives.py)
        self.enum_hints: dict = {}         # id(a Name) -> the enum the other side fixes it to (Expressions.expecting)

    # ---------------------------------------------------------------- errors
    def error(self, span, message, hint="", related=()):
        self.diags.append(Diagnostic(span, message, hint, "error", tuple(related)))

    def warn(self, span, message, hint=""):
        """Something legal that is probably a mistake: reported, and the rules still load."""
        self.diags.append(Diagnostic(span, message, hint, "warning"))

