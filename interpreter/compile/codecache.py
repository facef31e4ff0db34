"""Python's own compile() of the generated source, remembered between runs; and the tables made at load.

Compiling the generated source is most of a game's load time. The code objects
depend only on that source, so they are kept (marshal) in the cache folder
beside the parsed rules, one file per game, and reused when the source is the
same. Each file is checked against its checksum before it is unmarshalled
(cachedir.py), so a damaged file only means compiling again, never a crash.

The same file keeps the values of the tables made at load (compile/tabulate.py: tuples of
numbers, texts, booleans and None), each under a key that hashes what the table's value
depends on: the part's source, the values it is computed for, and the sources of the compiler
and the runtime (`_compiler_digest`; the file itself is the game's: its rules' digest). So a
table kept by another version of rulecraft is never found, and, unused, is dropped at the next save.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import sys
from pathlib import Path

from ..cachedir import cache_dir, read_entry, write_entry

# code objects are only valid for the bytecode they were compiled to
_VERSION = f"py{sys.version_info[0]}.{sys.version_info[1]}-{importlib.util.MAGIC_NUMBER.hex()}"

MISSING = object()      # no value kept under that key


@functools.lru_cache(maxsize=1)
def _compiler_digest() -> str:
    """What a table's value depends on besides the rules and the part: the compiler, the runtime's
    helpers, the IR's classes and types, the built-ins (asked only when a game has a table)."""
    package = Path(__file__).resolve().parent.parent
    files = sorted([*package.joinpath("compile").glob("*.py"), *package.joinpath("runtime").glob("*.py"),
                    *package.joinpath("ir").glob("*.py"), package / "slotclasses.py",
                    package / "builtins.py"])
    h = hashlib.sha256(_VERSION.encode())
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


class CodeCache:
    def __init__(self, key: str | None):
        self.path = None
        self.codes: dict = {}
        self.used: set = set()
        self.dirty = False
        self.partial = False        # some code is compiled later (Compiler.later): keep what this load did not use
        folder = cache_dir("code")
        if key and folder is not None:
            self.path = folder / f"{key}-{_VERSION}.marshal"
            payload = read_entry(self.path)     # checksum first: a damaged file is never unmarshalled
            try:
                loaded = marshal.loads(payload) if payload is not None else None
            except (ValueError, EOFError, TypeError):
                loaded = None
            if isinstance(loaded, dict):
                self.codes = loaded

    def compile(self, source: str, filename: str, mode: str):
        key = hashlib.sha1(f"{mode}\0{filename}\0{source}".encode()).digest()
        self.used.add(key)
        code = self.codes.get(key)
        if code is None:
            code = compile(source, filename, mode)
            self.codes[key] = code
            self.dirty = True
        return code

    def value(self, *parts: str):
        """(key, the value kept under the key made of `parts` and the compiler's digest, or MISSING)."""
        key = hashlib.sha256("\0".join(("value", _compiler_digest(), *parts)).encode()).digest()
        self.used.add(key)
        return key, self.codes.get(key, MISSING)

    def keep(self, key: bytes, value) -> None:
        """Keep `value` (numbers, texts, booleans, None, in tuples) under `key`, if marshal holds it."""
        try:
            marshal.dumps(value)
        except ValueError:
            return
        self.codes[key] = value
        self.dirty = True

    def save(self) -> None:
        """Write the code this load used (dropping what an older version of the rules needed); while some
        is still to be compiled later (`partial`), all of it, so that what is compiled later is found."""
        if self.path is None:
            return
        if self.partial:
            if self.dirty:
                write_entry(self.path, marshal.dumps(self.codes))
                self.dirty = False
            return
        if not (self.dirty or len(self.used) < len(self.codes)):
            return
        self.codes = {k: v for k, v in self.codes.items() if k in self.used}
        write_entry(self.path, marshal.dumps(self.codes))
        self.dirty = False
