"""Type parameters: a `def` or `rule` written once for any types, checked anew at each use.

    def led_suit[C](trick: Zone[C]) = bottom(trick).suit

`C` is a type the use gives: `led_suit(trick)` with a `Zone[Playing]` makes C a Playing.
This is how a module of the standard library is written over "a card with a suit and a
rank" for every game (stdlib/tricks.rules).

The algorithm (templates, as C++'s, made small):

1. *Declared* (declarations.py): the names in `[...]` are type variables (types.TypeVar)
   while the parameters and the result are resolved. Each must be the type, or part of
   the type, of some parameter, since a use tells what it is from its arguments only.
2. *Checked as written*, once (`check_template`): the body with every type variable
   standing for ANY, the type that matches everything. What does not depend on the types
   — an unknown name, a built-in called wrongly — is reported where it is written.
3. *Checked at each use* (`instance`): the arguments' types tell each variable's type
   (types.bind); the first use with those types makes a copy of the declaration, with
   fresh nodes and the types put in place, named `led_suit[Playing]`, and checks it like
   a declaration written by hand. Its errors (a Chip has no 'suit') are reported at the
   use — the place to change — with the line of the body as a note. Later uses with the
   same types share the copy.

Nothing after checking knows about type parameters: each copy is an ordinary def or rule
of the typed IR (lower.py skips the declarations written with `[...]`), inlined or
compiled exactly as the same def written for one card type would be.
"""
from __future__ import annotations

import re

import attrs

from ..diagnostics import Diagnostic
from ..syntax import ast
from ..ir import types as T
from .base import CheckerBase
from .symbols import DefSym, RuleSym

_USED_WITH = re.compile(r"^'[^']*' used with [^:]*: ")
MAX_INSTANCES = 64       # copies of one generic def or rule: more means it makes new types for itself


def _fresh(node):
    """A copy of a syntax tree with new nodes (the checker keys what it finds by node), spans shared."""
    if type(node) is tuple:
        return tuple(_fresh(x) for x in node)
    if attrs.has(type(node)) and type(node).__module__ == ast.__name__:
        return type(node)(**{f.name: _fresh(getattr(node, f.name)) for f in attrs.fields(type(node))})
    return node


def _uses(t, name: str) -> bool:
    if isinstance(t, T.TypeVar):
        return t.name == name
    if isinstance(t, T.OptionalT):
        return _uses(t.inner, name)
    if isinstance(t, (T.ListT, T.ZoneT)):
        return _uses(t.elem, name)
    return False


class Generics(CheckerBase):
    def declare_type_params(self, d) -> tuple:
        """The type variables of a generic declaration, in scope (self.type_vars) for resolving its
        parameters and result; the caller empties self.type_vars after."""
        names = []
        for tp in d.type_params:
            if tp.name in names:
                self.error(tp.span, f"type parameter '{tp.name}' appears twice")
                continue
            if tp.name in ("Int", "Bool", "Str", "Player", "Team", "List", "Zone", "Card") or \
                    tp.name in self.globals and tp.name in self.type_names():
                self.error(tp.span, f"'{tp.name}' is already a type", "name the type parameter with a new name, like C")
                continue
            names.append(tp.name)
        self.type_vars = {n: T.TypeVar(n) for n in names}
        return tuple(names)

    def type_names(self) -> set:
        return {s.decl.name for s in self.enums if isinstance(s.decl, ast.EnumDecl)} | {c.decl.name for c in self.cards}

    def check_type_params_used(self, d, names, params) -> None:
        for tp in d.type_params:
            if tp.name in names and not any(_uses(t, tp.name) for _n, t in params):
                self.error(tp.span, f"type parameter '{tp.name}' is the type of no parameter, so no use can tell what it is",
                           f"give a parameter the type {tp.name} (or List[{tp.name}], Zone[{tp.name}], {tp.name}?), "
                           "or remove it")

    # ---------------------------------------------------------------- checked as written
    def check_template(self, sym) -> None:
        """The body, once, with each type variable standing for ANY: what does not depend on the types."""
        if sym.template_ok is not None:
            return
        sym.template_ok = False            # (a use inside its own body meets it being checked)
        blank = {n: T.ANY for n in sym.type_params}
        params = tuple((n, T.substitute(t, blank)) for n, t in sym.params)
        before = self.error_count()
        self.templates += 1
        try:
            if isinstance(sym, DefSym):
                self.check_def(DefSym(sym.decl, params, T.substitute(sym.ret, blank) if sym.ret is not None else None))
            else:
                self.check_rule(RuleSym(sym.decl, params))
        finally:
            self.templates -= 1
        sym.template_ok = self.error_count() == before

    def error_count(self) -> int:
        return sum(1 for d in self.diags if d.severity == "error")

    # ---------------------------------------------------------------- checked at each use
    def instance(self, sym, call, arg_types, args_failed: bool):
        """The copy of generic `sym` for the types of this call's arguments (made and checked the
        first time), or None when they cannot say (reported) or were already wrong (`args_failed`:
        an error was reported in the arguments)."""
        name = sym.decl.name.split("@")[0]
        if len(arg_types) != len(sym.params):
            self.error(call.span, f"'{name}' takes {len(sym.params)} argument(s), not {len(arg_types)}",
                       f"{name}({', '.join(f'{n}: {t}' for n, t in sym.params)})")
            return None
        self.check_template(sym)
        found: dict = {}
        for (_pname, ptyp), atyp in zip(sym.params, arg_types):
            T.bind(ptyp, atyp, found)
        if args_failed or self.templates and any(T.has_any(t) for t in found.values()):
            return None                     # an argument already reported as wrong, or in a body checked as written
        missing = [n for n in sym.type_params if n not in found or T.has_any(found[n])]
        if missing:
            self.error(call.span, f"'{name}' cannot tell what {' and '.join(missing)} "
                                  f"{'is' if len(missing) == 1 else 'are'} from these arguments",
                       "`none` and `[]` say nothing of their type: pass a variable or a value of the type")
            return None
        if not sym.template_ok:
            return None                     # its own errors are reported where they are written
        key = tuple(found[n] for n in sym.type_params)
        inst = sym.instances.get(key)
        if inst is not None:
            return inst
        given = ", ".join(f"{n} = {t}" for n, t in zip(sym.type_params, key))
        for n, t in zip(sym.type_params, key):
            if any(_uses(pt, n) and isinstance(pt, T.OptionalT) for _p, pt in sym.params) and \
                    (T.is_card(t) or isinstance(t, (T.ListT, T.ZoneT, T.OptionalT))):
                self.error(call.span, f"'{name}' used with {given}: {t}? cannot be optional",
                           "a card that may be missing is a zone that may be empty; a list may be empty")
                return None
        if len(sym.instances) >= MAX_INSTANCES:
            self.error(call.span, f"'{name}' is used with more than {MAX_INSTANCES} sets of types",
                       "a generic def or rule that calls itself with ever new types never ends")
            return None
        decl = attrs.evolve(_fresh(sym.decl), name=f"{sym.decl.name}[{', '.join(map(str, key))}]", type_params=())
        if id(sym.decl) in self.originals:       # an `override` copied: `original(...)` still means the one it replaced
            self.originals[id(decl)] = self.originals[id(sym.decl)]
        params = tuple((n, T.substitute(t, found)) for n, t in sym.params)
        if isinstance(sym, DefSym):
            inst = DefSym(decl, params, T.substitute(sym.ret, found) if sym.ret is not None else None)
            self.defs[decl.name] = inst
        else:
            inst = RuleSym(decl, params)
            self.rules[decl.name] = inst
        sym.instances[key] = inst
        saved, self.diags = self.diags, []
        try:
            if isinstance(inst, DefSym):
                self.check_def(inst)
            else:
                self.check_rule(inst)
        finally:
            found_diags, self.diags = self.diags, saved
        told = set()
        for d in sorted(found_diags, key=Diagnostic.sort_key):
            message = _USED_WITH.sub("", d.message)    # from a use inside the body: its notes tell the way
            if message in told:            # the same mistake at each place of the body: once, at the first
                continue
            told.add(message)
            self.diags.append(Diagnostic(call.span, f"'{name}' used with {given}: {message}", d.hint, d.severity,
                                         ((d.span, f"in '{name}', here"),) + tuple(d.related)))
        return inst
