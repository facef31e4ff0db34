"""One call from a file to a runnable game: parse, check, compile (cel-go style).

`load(ref)` returns a Program or raises RulesError carrying every diagnostic.

A Program holds compiled Python functions, which cannot be pickled; it pickles as
the place of its rules file and their digest instead, and unpickles by loading
that file again (from the same folder, or the bundled games of this installation),
refusing rules that changed since (`_reduce_program`). So games, states and
sessions pickle, as multiprocessing and Ray need.
"""
from __future__ import annotations

import copyreg
import gc
import weakref
from pathlib import Path

from .check.places import bundled_dir, display_path, resolve_game
from .compile.compiler import Compiler
from .compile.options import DEFAULT, CompileOptions
from .compile.program import Program
from .diagnostics import Diagnostic, RulesError, Span


def load_file(path: str | Path, module: bool = False, options: CompileOptions = DEFAULT):
    """Parse, check and compile; `module` checks a file meant to be imported (it needs no players or play).
    `options`: the optimisations to compile with (compile.options; tests compare them off and on)."""
    path = Path(path)
    enabled = gc.isenabled()
    gc.disable()        # a load makes many objects and frees few: the collector's passes would find nothing
    try:
        return _module(path) if module else _game(path, options)
    finally:
        if enabled:
            gc.enable()


def _module(path: Path):
    """A file meant to be imported, checked as such (never cached: `rulecraft check` of a module)."""
    from .check.checker import check
    from .check.modules import load_declarations
    loaded = load_declarations(path)
    diags = list(loaded.diagnostics)
    if any(d.severity == "error" for d in diags):
        raise RulesError(diags, loaded.sources)
    try:
        checked = check(loaded.decls, loaded.originals, diags, Span(display_path(path), 1, 1), True)
    except (RecursionError, SyntaxError, MemoryError) as e:
        raise _too_large(path, diags, loaded.sources, e) from None
    if checked is None:
        raise RulesError(diags, loaded.sources)
    return None


def _game(path: Path, options: CompileOptions = DEFAULT):
    from .check.checkcache import check_game
    diags: list = []
    try:
        loaded = check_game(path, diags)    # the typed IR, from the check cache when the files are the same
        compiler = Compiler(loaded.program, diags, loaded.digest, options=options)
        program = compiler.compile()
        compiler.ns.cache.save()
    except (RecursionError, SyntaxError, MemoryError) as e:
        raise _too_large(path, diags, {}, e) from None
    if any(d.severity == "error" for d in diags):
        raise RulesError(diags, loaded.sources)
    program.entry = display_path(path)
    program.path = str(loaded.entry)
    program.digest = loaded.digest
    program.sources = loaded.sources
    program.warnings = sorted((d for d in diags if d.severity == "warning"), key=Diagnostic.sort_key)
    program.watched = _watched(loaded.program, program, options)
    program.fast = _fast(loaded.program, program, options)
    return program


def generated_python(ref: str, fast: bool = False, options: CompileOptions = DEFAULT) -> str:
    """The Python the rules compile to (`rulecraft show GAME --python`), as one module: the constants
    the functions share, then each function, under a comment naming the rule it runs. With `fast`, the
    twin the fast path plays (engine.playout). Compiled afresh, without the code cache."""
    from .check.checkcache import check_game
    path = game_path(ref)
    diags: list = []
    loaded = check_game(path, diags)
    if loaded.program is None or any(d.severity == "error" for d in diags):
        raise RulesError(diags, loaded.sources)
    compiler = Compiler(loaded.program, diags, None, fast=fast, options=options, keep_source=True)
    compiler.compile()
    ns = compiler.ns
    out = [f"# {display_path(path)}: the Python its rules compile to{' (the fast path' + chr(39) + 's twin)' if fast else ''}",
           "# m is the game's State; K… are constants, rt_… the runtime's helpers (rulecraft.runtime.helpers)", ""]
    for name in ns.const_names.values():
        value = ns.env[name]
        text = f"<function {getattr(value, '__qualname__', type(value).__name__)}>" if callable(value) else repr(value)
        if " at 0x" in text:          # an object without a repr of its own: no address, the same text each run
            text = f"<{type(value).__qualname__}>"
        out.append(f"{name} = {text if len(text) <= 100 else text[:96] + ' …'}")
    for filename, source in ns.sources:
        out += ["", "", f"# {filename[1:-1]}", source.rstrip("\n")]
    return "\n".join(out) + "\n"


def generated_ir(ref: str) -> str:
    """The typed IR the rules check to (`rulecraft show GAME --ir`), as text to read and diff
    (ir.dump): what the compiler is given."""
    from .check.checkcache import check_game
    from .ir.dump import dump
    path = game_path(ref)
    diags: list = []
    loaded = check_game(path, diags)
    if loaded.program is None or any(d.severity == "error" for d in diags):
        raise RulesError(diags, loaded.sources)
    return f"# {display_path(path)}: the typed IR its rules check to\n" + dump(loaded.program, display_path(path))


def _too_large(path: Path, diags: list, sources: dict, e: Exception) -> RulesError:
    """A last guard: rules so large or deep that Python cannot compile what we generate."""
    if not sources:
        try:
            sources = {display_path(path): path.read_text(encoding="utf-8")}
        except (OSError, UnicodeDecodeError):
            pass
    diags.append(Diagnostic(Span(display_path(path), 1, 1),
                            f"these rules are too large or too deeply nested to compile ({type(e).__name__})",
                            "split long expressions with `let` steps or `def`s"))
    return RulesError(diags, sources)


def _watched(checked, program, options: CompileOptions = DEFAULT):
    """The same game compiled again with the calls a scenario's `take "…":` needs (compile.rules), when a
    scenario first asks: the rules compiled for play have none, so play pays nothing for them."""
    made: list = []

    def watched():
        if not made:
            compiler = Compiler(checked, [], program.digest + "-watched", watched=True, options=options)
            twin = compiler.compile()
            compiler.ns.cache.save()
            twin.entry, twin.path, twin.digest, twin.sources = program.entry, program.path, program.digest, program.sources
            twin.warnings = program.warnings
            twin.watched = watched
            made.append(twin)
        return made[0]
    return watched


def _fast(checked, program, options: CompileOptions = DEFAULT):
    """The same game compiled again for the fast path (engine.playout), when a playout first asks:
    the same layout, choices and frames, its choices calling the playout's `choose`. Its functions'
    lines are added to the game's, so a failure on the fast path names the same rule and line."""
    made: list = []

    def fast():
        if not made:
            compiler = Compiler(checked, [], program.digest + "-fast", fast=True, options=options)
            twin = compiler.compile()
            compiler.ns.cache.save()
            program.lines.update(twin.lines)
            made.append(twin)
        return made[0]
    return fast


def game_path(ref: str) -> Path:
    """The file a game reference names: a bundled game's name (`blackmore`) or a path to a .rules file.

    The one place a reference is resolved, for `load` and for every command; raises UnknownGame."""
    from .check.places import bundled_games
    from .diagnostics import UnknownGame, did_you_mean
    try:
        return resolve_game(ref)
    except FileNotFoundError:
        games = bundled_games()
        raise UnknownGame(ref, _rules_file_named(ref) or did_you_mean(ref, games)
                          or f"bundled games: {', '.join(games) or 'none'}") from None


def _rules_file_named(ref: str) -> str | None:
    """`rulecraft run nim` beside `nim.rules` or `examples/nim.rules`: a file is named by its path, so say it."""
    if not ref or "/" in ref or "\\" in ref or ref.endswith(".rules") or ref.startswith("."):
        return None
    for place in (Path(f"{ref}.rules"), Path("examples") / f"{ref}.rules"):
        try:
            if place.is_file():
                return f"did you mean the file {place.as_posix()}? A file is named by its path"
        except OSError:            # a name too long for the system
            return None
    return None


def load(ref: str, options: CompileOptions = DEFAULT):
    """A bundled game name or a path, loaded; a missing game too is a RulesError here, for callers that catch only that."""
    from .diagnostics import UnknownGame
    try:
        path = game_path(ref)
    except UnknownGame as e:
        raise RulesError([Diagnostic(Span(ref, 0, 0), f"no game or file named '{ref}'", e.hint)]) from None
    return load_file(path, options=options)


# ------------------------------------------------------------------ pickling
_KNOWN: "weakref.WeakValueDictionary[tuple, Program]" = weakref.WeakValueDictionary()   # (place, digest) -> Program


def _place(program) -> tuple[str, str]:
    """Where a program's rules are found again: ("bundled", path inside the bundled games) or ("file", path)."""
    entry = Path(program.path)
    try:
        return "bundled", entry.relative_to(bundled_dir("rulecraft.games").resolve()).as_posix()
    except ValueError:
        return "file", str(entry)


def _reduce_program(program):
    place = _place(program)
    _KNOWN[place + (program.digest,)] = program      # unpickled in this process: the same object, no reload
    return _unpickle_program, place + (program.digest,)


def _unpickle_program(kind: str, where: str, digest: str):
    known = _KNOWN.get((kind, where, digest))
    if known is not None:
        return known
    from .diagnostics import UserError
    path = bundled_dir("rulecraft.games") / where if kind == "bundled" else Path(where)
    if not path.is_file():
        raise UserError(f"a pickled game's rules are not found here: {where}")
    program = load_file(path)
    if program.digest != digest:
        raise UserError(f"the rules in {where} changed since the game was pickled (their SHA-256 differs)")
    _KNOWN[(kind, where, digest)] = program
    return program


copyreg.pickle(Program, _reduce_program)
