"""Everything the CLI prints goes through one sanitizer: text from a rule file, a save or a
transcript (titles, narration, labels, player names) may hold control characters — an escape
sequence can clear the screen, set the window title or fake a prompt. Each control character
except newline and tab is shown escaped instead (`\\x1b`), so what reaches the terminal is
only ever text.
"""
from __future__ import annotations

import sys

_CONTROLS = [c for c in range(0x20) if chr(c) not in "\n\t"] + [0x7F] + list(range(0x80, 0xA0)) \
    + [0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
_ESCAPED = {c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" for c in _CONTROLS}


def safe(text: str) -> str:
    """`text` with every control character (and bidirectional override) shown escaped."""
    return text.translate(_ESCAPED)


class SafeStream:
    """A text stream that writes through `safe`; everything else is the wrapped stream's."""

    def __init__(self, raw):
        self._raw = raw

    def write(self, text: str) -> int:
        return self._raw.write(safe(text))

    def __getattr__(self, name):
        return getattr(self._raw, name)


class sanitized_output:
    """`with sanitized_output(): ...` — sys.stdout and sys.stderr write through `safe` inside."""

    def __enter__(self):
        self.saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False
