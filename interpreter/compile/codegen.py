"""Where generated Python becomes code: one namespace per game, constants, and a line → span map.

Only the compiler writes this source, and only from the typed IR: names in it
are generated (K12 for a constant, D3 for a def, R4/W5 for rules, v7 for a
local, rt_top for a runtime helper); no text of a rule file is ever code.
Every function is compiled under a file name such as `<rules rule refill>` and
registered with the span of each of its lines, so a failure inside it names
the rule, file and line (see engine.machine).
"""
from __future__ import annotations

from ..runtime.errors import RuleFailure, StepBudgetSpent
from ..runtime.helpers import HELPERS
from .codecache import CodeCache
from .written import Atom, Constant

SAFE_BUILTINS = {"len": len, "tuple": tuple, "sum": sum, "any": any, "all": all, "abs": abs, "dict": dict, "set": set, "max": max, "min": min,
                 "range": range, "reversed": reversed, "sorted": sorted, "int": int, "str": str, "list": list, "True": True, "False": False}

TICK = ("m.ticks -= 1", "if m.ticks < 0: raise StepBudgetSpent()")


class Namespace:
    """The globals every generated function of one game shares."""

    def __init__(self, cache_key: str | None, tag: str = ""):
        self.cache = CodeCache(cache_key)
        self.tag = tag                # in each function's file name: a twin's (" fast") are told from the game's
        self.env: dict = dict(HELPERS)
        self.env["__builtins__"] = dict(SAFE_BUILTINS)
        self.env["StepBudgetSpent"] = StepBudgetSpent
        self.env["RuleFailure"] = RuleFailure   # a `say` that fails is told, not raised (StatementGen.nat_Say)
        self.const_names: dict = {}
        self.keep: list = []          # constants stay alive, so their ids stay unique
        self.lines: dict = {}         # generated file name -> (rule label, span of each line)
        self.chains: dict = {}        # id(span) -> the rules it was written into (compile.inline)
        self.count = 0
        self.sources: list | None = None   # (file name, source) of each function, when kept (`rulecraft show`)

    def const(self, value) -> str:
        """A name bound to `value` in the namespace: the same object gets the same name, and so does
        an equal text or number (so the code does not depend on which copy of it the IR holds: a game
        read back from the check cache gives the same code as one just checked)."""
        key = (type(value), value) if type(value) in (str, int) else id(value)
        name = self.const_names.get(key)
        if name is None:
            name = f"K{len(self.const_names)}"
            self.const_names[key] = name
            self.env[name] = value
            self.keep.append(value)
        return Constant(name, value)     # (the namespace's own keys stay plain str: its look-ups stay quick)

    def bind(self, name: str, value) -> None:
        self.env[name] = value

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return Atom(f"{prefix}{self.count}")

    def define(self, name: str, head: str, lines, label: str, span=None):
        """Compile `head` + indented `lines` [(indent, text, span)] into the namespace; return the function."""
        filename = f"<rules {label}: {name}{self.tag}>"
        source = head + "\n" + "".join("    " * ind + text + "\n" for ind, text, _span in lines)
        spans = [None, self.placed(span)] + [self.placed(s) for _ind, _text, s in lines]     # line 1 is the `def`
        self.lines[filename] = (label, spans)
        if self.sources is not None:
            self.sources.append((filename, source))
        exec(self.cache.compile(source, filename, "exec"), self.env)  # noqa: S102 - generated from the typed IR only
        return self.env[name]

    def placed(self, span):
        """Where a line stands: its span, or for a line of a rule written into its caller (compile.inline)
        `(span in the function's own rule, (rule, span), …)`, the rules it was written in, outermost first."""
        chain = self.chains.get(id(span)) if span is not None else None
        if not chain:
            return span
        calls = [call for _label, _key, call in chain] + [span]
        return (calls[0],) + tuple((label, call) for (label, _key, _call), call in zip(chain, calls[1:]))

    def function(self, params: str, source: str, label: str = "expression", span=None):
        """A function `(params) -> source`, e.g. a score or a label."""
        name = self.fresh("E")
        return self.define(name, f"def {name}({params}):", [(1, f"return {source}", span)], label, span)
