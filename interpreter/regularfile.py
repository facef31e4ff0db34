"""Reading a file a stranger named: a regular file only, opened without blocking, up to a size.

`open(path).read()` waits for ever on a FIFO and reads a device without end; a file swapped for
one of those between a test of its path and its reading would be too. Here the file is opened
non-blocking and tested on the opened handle (fstat), so what is read is what was tested.
"""
from __future__ import annotations

import os
import stat


class NotRegular(OSError):
    """The path names a pipe, a device, a folder: no file rulecraft reads."""


def read_regular(path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of the regular file `path` (one more than the limit: the caller tells a
    file too large by its length). Raises OSError (NotRegular for a pipe, a device or a folder)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(0, "not a regular file (a pipe, a device or a folder)")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
