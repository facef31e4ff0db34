"""A checked game remembered between runs: its typed IR as data, trusted while its files are the same.

Checking a game gives the same IR from the same files, so after a game is checked without an
error the IR, its warnings and the list of files read (each file's resolved path, how it is
shown, the SHA-256 of its bytes) go to the cache folder (`check`, as marshal data: irdata.py). The next
load of that entry file reads every listed file again and uses the entry only if each file's
bytes and shown path are the same and the bundled games and stdlib modules (which `extends` and
`import` names resolve against) are the same names; otherwise, or for a damaged entry, the game is
parsed and checked as before. A hit needs neither the parser nor Lark, which are imported only on
a miss. The entry's name hashes the entry file's path and the sources of everything the IR depends
on (this package, ir/, syntax/, the grammar, builtins, diagnostics, slotclasses, Lark's version), so a change of
rulecraft is a miss too.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import sys
from pathlib import Path

from .. import slotclasses
from ..cachedir import cache_dir, read_entry, write_entry
from ..diagnostics import RulesError, Span
from ..ir import nodes as ir
from . import irdata
from .places import bundled_dir, read_rules, bundled_games, display_path, stdlib_modules


@slotclasses.define
class Checked:
    """A game's typed IR and what a load reports with it."""

    entry: Path              # the entry file, resolved
    program: object          # ir.Program
    sources: dict            # display path -> text, of every file read
    digest: str              # as modules.Loaded.digest
    diagnostics: list        # warnings (no error: a game with one raises RulesError)


def check_game(path: Path, diags: list) -> Checked:
    """The typed IR of the game in `path`, from the cache when its files are unchanged; its
    diagnostics are added to `diags`. Raises RulesError with every diagnostic when the game has an error."""
    folder = cache_dir("check")
    entry = path.resolve()
    name = folder / f"{_key(entry)}.marshal" if folder is not None else None
    hit = _read(name, entry) if name is not None else None
    if hit is not None:
        diags.extend(hit.diagnostics)
        return hit
    from .checker import check                     # the parser and Lark too: only on a miss
    from .modules import load_declarations
    loaded = load_declarations(path)
    diags.extend(loaded.diagnostics)
    if any(d.severity == "error" for d in diags):
        # syntax errors stop here: names in a half-read file would only add noise
        raise RulesError(diags, loaded.sources)
    program = check(loaded.decls, loaded.originals, diags, Span(display_path(path), 1, 1))
    if program is None:
        raise RulesError(diags, loaded.sources)
    if name is not None and loaded.files:
        _write(name, loaded.files, program, diags)
    return Checked(loaded.entry, program, loaded.sources, loaded.digest, list(diags))


@functools.lru_cache(maxsize=1)
def _sources_digest() -> str:
    """Everything the IR of given files depends on, apart from the files: rulecraft's checker and parser."""
    package = Path(__file__).resolve().parent.parent
    files = sorted([*package.joinpath("check").glob("*.py"), *package.joinpath("ir").glob("*.py"),
                    *package.joinpath("syntax").glob("*.py"),
                    package / "builtins.py", package / "diagnostics.py", package / "slotclasses.py"])
    h = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(bundled_dir("rulecraft.grammar").joinpath("rulecraft.lark").read_bytes())
    lark = importlib.util.find_spec("lark")        # its version, without importing it
    if lark is not None and lark.origin:
        h.update(Path(lark.origin).read_bytes())
    return h.hexdigest()


def _key(entry: Path) -> str:
    return hashlib.sha256(f"{_sources_digest()}\0{entry}".encode()).hexdigest()


def _names() -> list:
    return [sorted(bundled_games()), sorted(stdlib_modules())]


def _write(name: Path, files: list, program, diags: list) -> None:
    try:
        body = irdata.dumps((program, list(diags)))
    except (TypeError, RecursionError):        # something the format does not hold: check each time
        return
    try:
        entry = marshal.dumps((list(files), _names(), body))
    except ValueError:                         # a file's place that marshal does not hold: check each time
        return
    write_entry(name, entry)


def current_digest(path: Path) -> str | None:
    """The digest a load of the game in `path` would give (modules.Loaded.digest), when the cache holds the
    game and its files are the same, else None: a hit's checks, without reading the IR back (a command
    that kept the game loaded earlier in its process compares it with the kept program's)."""
    folder = cache_dir("check")
    if folder is None:
        return None
    entry = path.resolve()
    found = _entry(folder / f"{_key(entry)}.marshal", entry)
    return None if found is None else found[1]


def _read(name: Path, entry: Path) -> Checked | None:
    found = _entry(name, entry)
    if found is None:
        return None
    body, digest, sources = found
    try:
        program, diags = irdata.loads(body)
    except (ValueError, TypeError, KeyError, EOFError, irdata.BadData):
        return None
    if type(program) is not ir.Program or type(diags) is not list:
        return None
    return Checked(entry, program, sources, digest, diags)


def _entry(name: Path, entry: Path) -> tuple | None:
    """(the IR's bytes, the files' digest, their texts) of a cache entry for `entry` whose files are the
    same, else None."""
    payload = read_entry(name)       # checksum first: a damaged entry is a miss
    if payload is None:
        return None
    try:
        files, names, body = marshal.loads(payload)
        if type(files) is not list or type(body) is not bytes or names != _names():
            return None
        digest, sources = hashlib.sha256(), {}
        for path, shown, sha in files:
            data = read_rules(path)      # a file grown past the limit differs, one no longer a file fails: a miss
            if hashlib.sha256(data).hexdigest() != sha or display_path(Path(path)) != shown:
                return None
            digest.update(data + b"\0")
            sources[shown] = data.decode("utf-8")
        if not files or files[0][0] != str(entry):
            return None
    except (OSError, ValueError, TypeError, KeyError, EOFError):
        return None
    return body, digest.hexdigest(), sources
