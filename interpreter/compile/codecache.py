"""Python's own compile() of the generated source, remembered between runs.

Compiling the generated source is most of a game's load time. The code objects
depend only on that source, so they are kept (marshal) in the cache folder
beside the parsed rules, one file per game, and reused when the source is the
same. A missing or damaged cache only means compiling again.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys

from ..cachedir import cache_dir

_VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"


class CodeCache:
    def __init__(self, key: str | None):
        self.path = None
        self.codes: dict = {}
        self.used: set = set()
        self.dirty = False
        folder = cache_dir("code")
        if key and folder is not None:
            self.path = folder / f"{key}-py{_VERSION}.marshal"
            try:
                with open(self.path, "rb") as f:
                    loaded = marshal.load(f)
                if isinstance(loaded, dict):
                    self.codes = loaded
            except Exception:   # missing or damaged: compile again
                self.codes = {}

    def compile(self, source: str, filename: str, mode: str):
        key = hashlib.sha1(f"{mode}\0{filename}\0{source}".encode()).digest()
        self.used.add(key)
        code = self.codes.get(key)
        if code is None:
            code = compile(source, filename, mode)
            self.codes[key] = code
            self.dirty = True
        return code

    def save(self) -> None:
        """Write the code this load used (dropping what an older version of the rules needed)."""
        if self.path is None or not (self.dirty or len(self.used) < len(self.codes)):
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                marshal.dump({k: v for k, v in self.codes.items() if k in self.used}, f)
            os.replace(tmp, self.path)
        except Exception:   # a read-only home is fine
            pass
