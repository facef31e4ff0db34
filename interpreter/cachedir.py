"""Where rulecraft keeps its caches, and how an entry is written and trusted again.

One folder per user, never the shared temp folder: `$XDG_CACHE_HOME/rulecraft/<kind>`
(else `~/.cache/rulecraft/<kind>`); `RULECRAFT_NO_CACHE=1` turns every cache off. The parser
keeps parsed rules under `ast` (as data: see syntax/astdata.py), the compiler Python's
compiled code under `code`.

A folder is used only if it and the base folder belong to this user and no one else may write
in them (it is made so, mode 0700), checked on handles opened once (cache_dir); otherwise
rulecraft works without a cache. Each entry starts with the
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
    """This user's cache folder for `kind`, made if needed; None when caching is off or unsafe.

    The base folder ($XDG_CACHE_HOME or ~/.cache), then `rulecraft`, then `kind` are each opened once and
    checked on the opened handle (fstat: this user's, no one else may write), the last two without
    following a link (O_NOFOLLOW); the folder returned names that handle (/proc/self/fd/N where the
    system has it), so a folder swapped for another between the check and the use is not followed."""
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return None
    base = Path(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"))
    key = (str(base), kind)
    held = _HELD.get(key)
    if held is not None:
        try:
            if _private(os.fstat(held[1])):     # still this user's alone (checked at every use)
                return held[0]
        except OSError:
            pass
        return None
    fd = -1
    try:
        base.mkdir(parents=True, exist_ok=True)
        fd = os.open(base, os.O_RDONLY | _DIRECTORY)          # (a link the user made to the base is followed)
        for name in ("rulecraft", kind):
            if not _private(os.fstat(fd)):
                raise OSError("not private")
            try:
                os.mkdir(name, 0o700, dir_fd=fd)
            except FileExistsError:
                pass
            inner = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        if not _private(os.fstat(fd)):
            raise OSError("not private")
    except (OSError, NotImplementedError):       # (dir_fd is not on every system)
        if fd >= 0:
            os.close(fd)
        return None
    handle = Path(f"/proc/self/fd/{fd}")
    folder = handle if handle.is_dir() else base / "rulecraft" / kind
    _HELD[key] = (folder, fd)
    return folder


_HELD: dict = {}        # (base, kind) -> (the folder, its handle, kept open for the process)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _private(st) -> bool:
    """Owned by this user and writable by no one else (where the system has owners)."""
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
