"""Slot classes: classes of named fields, made cheaply when a module is imported (attrs' job, on
the load path; not to be confused with engine/records.py, the saved games and transcripts).

What a load of a game needs (the typed IR, its types, spans and diagnostics, the compiled
Program), and what `rulecraft run` adds to it (engine.machine's Option, engine.session's Session
and Decision, the agents' registry), is declared as attrs would declare it — annotated fields in
order, defaults, `Factory`, frozen or not, compared by value or by identity — but made here, because `import attrs` alone
costs a load about 15 ms (it imports inspect, typing, platform, threading) and attrs makes each
class slowly. The syntax tree and the rest of rulecraft keep attrs; nothing here imports anything.

    @slotclasses.frozen                     # slots, immutable, compared and hashed by value
    @slotclasses.frozen(eq=False, repr=False)
    @slotclasses.define(eq=False)           # slots, mutable (compared by value unless eq=False)

A record class has `__slots__` (and a `__weakref__` slot), an `__init__` taking its fields in order
(a default may be a `Factory`), `__match_args__`, pickles and copies (slots and frozen alike), and
its fields in `fields(cls)` (each with `.name`, `.type` — the annotation as written, a string —,
`.default`, `.eq`). `has(cls)` tells a record class; `evolve(record, **changes)` is a copy with some
fields changed. A frozen record refuses `setattr` with `FrozenError` (an AttributeError).
"""
from __future__ import annotations

from operator import attrgetter

NOTHING = type("NOTHING", (), {"__repr__": lambda self: "NOTHING"})()


class FrozenError(AttributeError):
    """A field of a frozen record was assigned or deleted."""


class Factory:
    """A default made anew for each record: `Factory(list)`."""

    __slots__ = ("factory",)

    def __init__(self, factory):
        self.factory = factory


class Field:
    __slots__ = ("name", "type", "default", "eq")

    def __init__(self, name, type, default, eq):
        self.name, self.type, self.default, self.eq = name, type, default, eq

    def __repr__(self):
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, eq={self.eq!r})"


class _Spec:
    """What `field(...)` leaves in a class body until the class is made."""

    __slots__ = ("default", "eq")

    def __init__(self, default, eq):
        self.default, self.eq = default, eq


def field(*, default=NOTHING, factory=None, eq: bool = True):
    return _Spec(Factory(factory) if factory is not None else default, eq)


def has(cls) -> bool:
    return isinstance(cls, type) and "__record_fields__" in cls.__dict__


def fields(cls) -> tuple:
    try:
        return cls.__dict__["__record_fields__"]
    except (KeyError, AttributeError):
        raise TypeError(f"{cls!r} is not a record class") from None


def evolve(record, **changes):
    cls = type(record)
    for f in fields(cls):
        if f.name not in changes:
            changes[f.name] = getattr(record, f.name)
    return cls(**changes)


def frozen(cls=None, *, eq: bool = True, repr: bool = True):
    return _decorate(cls, True, eq, repr)


def define(cls=None, *, eq: bool = True, repr: bool = True):
    return _decorate(cls, False, eq, repr)


def _decorate(cls, is_frozen, eq, want_repr):
    if cls is None:
        return lambda c: _make(c, is_frozen, eq, want_repr)
    return _make(cls, is_frozen, eq, want_repr)


def _frozen_setattr(self, name, value):
    raise FrozenError(f"can't set '{name}': a {type(self).__name__} is frozen")


def _frozen_delattr(self, name):
    raise FrozenError(f"can't delete '{name}': a {type(self).__name__} is frozen")


def _repr(self) -> str:
    return f"{type(self).__qualname__}({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in type(self).__record_fields__)})"


def _getstate(self):
    return tuple(getattr(self, f.name) for f in type(self).__record_fields__)


def _setstate(self, state):
    if type(state) is dict:         # as attrs pickled its classes: by name
        for name, value in state.items():
            object.__setattr__(self, name, value)
        return
    for f, value in zip(type(self).__record_fields__, state):
        object.__setattr__(self, f.name, value)


def _make(cls, is_frozen: bool, eq: bool, want_repr: bool):
    inherited: tuple = ()
    for base in cls.__mro__[1:-1]:
        if "__record_fields__" in base.__dict__:
            inherited = base.__record_fields__      # the nearest record base has them all
            break
    body = dict(cls.__dict__)
    own = []
    for name, annotation in body.get("__annotations__", {}).items():
        if isinstance(annotation, str) and annotation.startswith(("ClassVar", "typing.ClassVar")):
            continue
        default, field_eq = body.pop(name, NOTHING), True
        if isinstance(default, _Spec):
            default, field_eq = default.default, default.eq
        own.append(Field(name, annotation, default, field_eq))
    names = {f.name for f in own}
    all_fields = tuple([f for f in inherited if f.name not in names] + own)
    slotted = {f.name for f in inherited}
    weak = any("__weakref__" in base.__dict__ for base in cls.__mro__[1:])    # a base has the slot (or a dict)
    body["__slots__"] = tuple(f.name for f in own if f.name not in slotted) + (() if weak else ("__weakref__",))
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__record_fields__"] = all_fields
    body["__match_args__"] = tuple(f.name for f in all_fields)
    if is_frozen:
        body["__setattr__"], body["__delattr__"] = _frozen_setattr, _frozen_delattr
    body["__getstate__"], body["__setstate__"] = _getstate, _setstate
    if want_repr and "__repr__" not in cls.__dict__:
        body["__repr__"] = _repr
    if eq:
        compared = tuple(f.name for f in all_fields if f.eq)
        body["__eq__"], body["__ne__"] = _equality(compared)
        body["__hash__"] = _hash(cls.__qualname__, compared) if is_frozen else None
    new = type(cls)(cls.__name__, cls.__bases__, body)
    new.__qualname__ = cls.__qualname__
    new.__init__ = _init(new, all_fields)
    return new


_TEMPLATES: dict = {}     # number of fields -> the code of an `__init__` storing that many, names to be given


def _init(cls, all_fields: tuple):
    """The `__init__` of a record class, each field stored through its slot's own descriptor (a frozen
    record's `__setattr__` refuses). Without a `Factory` default it is a template's code compiled once
    per number of fields, renamed for the class's fields (compiling one for each class cost most of a
    class's making); with one, its own short function."""
    env: dict = {"NOTHING": NOTHING}
    for i, f in enumerate(all_fields):
        env[f"_s{i}"] = getattr(cls, f.name).__set__
    names = tuple(f.name for f in all_fields)
    defaults = [f.default for f in all_fields if f.default is not NOTHING]
    if not any(isinstance(d, Factory) for d in defaults):
        n = len(all_fields)
        code = _TEMPLATES.get(n)
        if code is None:
            code = _TEMPLATES[n] = _compiled(
                [f"p{i}" for i in range(n)], [f"    _s{i}(self, p{i})" for i in range(n)], "record")
        code = code.replace(co_varnames=("self", *names), co_filename=f"<record {cls.__name__}>")
        return type(_init)(code, env, "__init__", tuple(defaults) or None)
    params, lines = [], []
    for i, f in enumerate(all_fields):
        if f.default is NOTHING:
            params.append(f.name)
        elif isinstance(f.default, Factory):
            env[f"_f{i}"] = f.default.factory
            params.append(f"{f.name}=NOTHING")
            lines.append(f"    if {f.name} is NOTHING: {f.name} = _f{i}()")
        else:
            env[f"_d{i}"] = f.default
            params.append(f"{f.name}=_d{i}")
        lines.append(f"    _s{i}(self, {f.name})")
    code = _compiled(params, lines, cls.__name__)
    exec(code, env)  # noqa: S102 - made from the class's field names
    return env["__init__"]


def _compiled(params: list, lines: list, name: str):
    """The code of `def __init__(self, params): lines`, as a function's code (or, with defaults
    written in, the module code that defines it)."""
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(lines) or "    pass") + "\n"
    module = compile(source, f"<record {name}>", "exec")
    if any("=" in p for p in params):
        return module
    return next(c for c in module.co_consts if type(c) is type(module))


def _equality(compared: tuple):
    get = attrgetter(*compared) if compared else (lambda record: ())

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or get(self) == get(other)

    def __ne__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is not other and get(self) != get(other)
    return __eq__, __ne__


def _hash(qualname: str, compared: tuple):
    get = attrgetter(*compared) if compared else (lambda record: ())

    def __hash__(self):
        return hash((qualname, get(self)))
    return __hash__
