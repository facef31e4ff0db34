"""Where rulecraft keeps its caches: one folder per user, never the shared temp folder.

`$XDG_CACHE_HOME/rulecraft/<kind>` (else `~/.cache/rulecraft/<kind>`); `RULECRAFT_NO_CACHE=1`
turns every cache off. The parser keeps parsed rules under `ast`, the compiler Python's
compiled code under `code`.
"""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir(kind: str) -> Path | None:
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulecraft" / kind
