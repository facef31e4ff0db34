"""Pass 2 of checking, for `match`: a value compared with the constants its cases list.

    match h:
        Pair -> 2
        Three, FullHouse -> 5
        else -> 0

The matched value (the *subject*) is an Int, a Str, a Bool, an enum value, a team, or an
optional one of these (`none` is then a case like the others). Each case lists values
written out — numbers and ranges of them, texts, `true`/`false`, `none`, the enum's values
(by their bare names: the subject's type says which enum), team names — and gives a
result; every result has one type. A value may have one case only. Without `else`, the
cases must cover every value the subject can hold, which only an enum, a Bool, a team
(and `none` for an optional one) can do; with every value covered, an `else` would never
be used and is refused too.

What the checker records for lowering: `match_keys[id(case)]`, the stored values a case
stands for (an enum value's index, a number, a text, a bool, None), in order.
"""
from __future__ import annotations

from ..builtins import a_type as _a
from ..diagnostics import did_you_mean
from ..syntax import ast
from ..ir import types as T
from .base import CheckerBase
from .expressions import narrow_key
from .symbols import EnumValueSym, TeamValue

WRITTEN = "a number (or a range `1..3`), a text, true, false, none, an enum value or a team"


class Matches(CheckerBase):
    def expr_Match(self, e: ast.Match):
        subject = self.expr(e.subject)
        base = subject.inner if isinstance(subject, T.OptionalT) else subject
        matchable = subject is T.ANY or base in (T.INT, T.STR, T.BOOL, T.TEAM) or isinstance(base, T.EnumT)
        if not matchable:
            self.error(e.subject.span, f"a match compares with values written out in its cases, and {_a(subject)} "
                                       "cannot be written out", _subject_hint(base))
        first: dict = {}           # value -> the line of the case that has it
        result = T.ANY
        key = narrow_key(e.subject) if isinstance(subject, T.OptionalT) else None
        for case in e.cases:
            values = []
            for k in case.keys:
                keyed = self.case_values(k, subject) if matchable else ()
                again = next((v for v in keyed if v in first), _NOT_WRITTEN)
                if again is not _NOT_WRITTEN:     # (one error for a range that overlaps another)
                    self.error(k.span, f"{_value_text(again, base, self.teams)} has a case already, on line "
                                       f"{first[again].line}", "give each value one case",
                               related=((first[again], "its first case"),))
                for v in keyed:
                    first.setdefault(v, k.span)
                values.extend(keyed)
            self.match_keys[id(case)] = tuple(values)
            narrowed = [key] if key is not None and None not in values else []
            result = self.match_result(case.value, result, narrowed)
        every = _every_value(subject, self.teams) if matchable else None
        missing = [v for v in every if v not in first] if every is not None else None
        if e.otherwise is not None:
            if missing == []:
                self.error(e.else_span, f"every value of {subject} has a case: this `else` is never used",
                           "leave out `else -> …`")
            narrowed = [key] if key is not None and None in first else []
            result = self.match_result(e.otherwise, result, narrowed)
        elif missing:
            shown = ", ".join(_value_text(v, base, self.teams).strip("'") for v in missing[:8]) + (", …" if len(missing) > 8 else "")
            self.error(e.span, f"this match has no case for {shown}",
                       "add a case for each, or end with `else -> …`")
        elif every is None and subject is not T.ANY and matchable:
            self.error(e.span, f"a match over {_a(subject)} needs an `else -> …` case",
                       f"its cases cannot list every {subject}: end with `else -> …` for the others")
        return result

    def match_result(self, value, before, narrowed):
        """A case's result, checked (with the subject known not to be none where `narrowed` says so);
        the type of all results so far."""
        typ = self.with_narrowed(narrowed, self.expr, value)
        if typ is T.VOID:
            self.error(value.span, "this gives no value")
            return before
        joined = T.join(before, typ)
        if joined is None:
            self.error(value.span, f"every case of a match gives one type: this is {_a(typ)}, the cases before "
                                   f"give {_a(before)}", f"make this result {_a(before)} too")
            return before
        return joined

    def case_values(self, k, subject) -> tuple:
        """The stored values a case's key stands for (reported and () when it is not one of them)."""
        base = subject.inner if isinstance(subject, T.OptionalT) else subject
        if isinstance(k, ast.NoneLit):
            if isinstance(subject, T.OptionalT) or subject is T.ANY:
                self.types[id(k)] = T.NONE
                return (None,)
            self.error(k.span, f"this match is over {_a(subject)}, which is never none",
                       f"its type would be `{subject}?` if it could be")
            return ()
        if isinstance(base, T.EnumT):
            name = _enum_value_name(k, base)
            if name is not None:            # `Pair`, `Hand.Pair`: the subject's type says which enum
                if name in base.values:
                    index = base.values.index(name)
                    self.refs[id(k)] = EnumValueSym(base, index)
                    self.types[id(k)] = base
                    return (index,)
                if isinstance(k, ast.Name) and k.id not in self.enum_values and not isinstance(self.globals.get(k.id), TeamValue):
                    self.error(k.span, f"'{name}' is not a value of {base.name}",
                               did_you_mean(name, base.values) or f"its values are {', '.join(base.values)}")
                    return ()
        if isinstance(k, ast.RangeLit):
            typ = T.INT if isinstance(self.expr(k), T.ListT) else T.ANY
            values = tuple(range(k.lo, k.hi + 1))
        else:
            value = _written_value(k)
            if value is _NOT_WRITTEN:
                typ = self.expr(k)
                sym = self.refs.get(id(k))
                if isinstance(sym, EnumValueSym):
                    value = sym.index
                elif isinstance(sym, TeamValue):
                    value = sym.index
                elif typ is not T.ANY:
                    self.error(k.span, f"a case of a match is a value written out: {WRITTEN}",
                               "for a value computed when the rules run, compare with `if … then … else …`")
                    return ()
                else:
                    return ()
            else:
                typ = self.expr(k)
            values = (value,)
        if subject is not T.ANY and typ is not T.ANY and not T.assignable(typ, base):
            self.error(k.span, f"this match is over {_a(subject)}, and this case is {_a(typ)}",
                       f"its cases are {subject} values written out")
            return ()
        return values


def _every_value(subject, teams):
    """Every stored value the subject can hold, when there are few enough to list (else None)."""
    base = subject.inner if isinstance(subject, T.OptionalT) else subject
    if isinstance(base, T.EnumT):
        values = list(range(len(base.values)))
    elif base is T.BOOL:
        values = [False, True]
    elif base is T.TEAM:
        values = list(range(len(teams)))
    else:
        return None
    return values + ([None] if isinstance(subject, T.OptionalT) else [])


_NOT_WRITTEN = object()


def _written_value(k):
    """The value of a number, a negative number, a text without `{…}`, true or false; else _NOT_WRITTEN."""
    if isinstance(k, ast.IntLit):
        return k.value
    if isinstance(k, ast.Neg) and isinstance(k.operand, ast.IntLit):
        return -k.operand.value
    if isinstance(k, ast.BoolLit):
        return k.value
    if isinstance(k, ast.Template) and all(isinstance(p, str) for p in k.parts):
        return "".join(k.parts)
    return _NOT_WRITTEN


def _enum_value_name(k, enum):
    """`Pair` or `Hand.Pair` (this enum's name only): the value's name; else None."""
    if isinstance(k, ast.Name):
        return k.id
    if isinstance(k, ast.Attr) and isinstance(k.obj, ast.Name) and k.obj.id == enum.name:
        return k.name
    return None


def _value_text(v, base, teams) -> str:
    if v is None:
        return "none"
    if isinstance(base, T.EnumT) and type(v) is int:
        return f"'{base.values[v]}'"
    if type(v) is bool:
        return "true" if v else "false"
    if type(v) is str:
        return f'"{v}"'
    if base is T.TEAM and 0 <= v < len(teams):
        return teams[v]
    return str(v)


def _subject_hint(base) -> str:
    if base is T.PLAYER:
        return "match the player's seat: `match p.seat:`"
    if isinstance(base, T.CardT) or base is T.ANYCARD:
        return "match one of the card's fields: `match c.rank:`"
    return f"match an Int, a Str, a Bool, an enum value or a team ({WRITTEN})"
