"""Where rulecraft keeps its caches, and how an entry is written and trusted again.

One folder per user, never the shared temp folder: `$XDG_CACHE_HOME/rulecraft/<kind>`
(else `~/.cache/rulecraft/<kind>`); `RULECRAFT_NO_CACHE=1` turns every cache off. The parser
keeps parsed rules under `ast` (as data: see syntax/astdata.py), the compiler Python's
compiled code under `code`.

A folder is used only if it belongs to this user and no one else may write in it (it is
made so, mode 0700); otherwise rulecraft works without a cache. Each entry starts with the
SHA-256 of the rest, checked before anything is read from it: a damaged or half-written
entry is a miss, never a crash. Entry names hash everything the content depends on (the
rules' text, rulecraft's own sources, the Python version).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

_HEADER = 64            # hex digits of the SHA-256 at the start of every entry


def cache_dir(kind: str) -> Path | None:
    """This user's cache folder for `kind`, made if needed; None when caching is off or unsafe."""
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return None
    base = Path(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"))
    folder = base / "rulecraft" / kind
    try:
        base.mkdir(parents=True, exist_ok=True)
        folder.parent.mkdir(mode=0o700, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
        for f in (folder.parent, folder):
            if not _private(f):
                return None
    except OSError:
        return None
    return folder


def _private(folder: Path) -> bool:
    """Owned by this user and writable by no one else (where the system has owners)."""
    st = folder.stat()
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & 0o022


def read_entry(path: Path) -> bytes | None:
    """The payload of a cache entry whose checksum holds, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    payload = data[_HEADER:]
    if data[:_HEADER] != hashlib.sha256(payload).hexdigest().encode():
        return None
    return payload


def write_entry(path: Path, payload: bytes) -> None:
    """Write an entry atomically (a reader sees the old one or the new one, whole)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(hashlib.sha256(payload).hexdigest().encode() + payload)
        os.replace(tmp, path)
    except OSError:      # a read-only or full disk: run without this entry
        try:
            tmp.unlink()
        except OSError:
            pass
