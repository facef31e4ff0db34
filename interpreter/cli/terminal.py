"""Everything the CLI prints goes through one sanitizer: text from a rule file, a save or a
transcript (titles, narration, labels, player names) may hold control characters — an escape
sequence can clear the screen, set the window title or fake a prompt. Each control character
except newline and tab is shown escaped instead (`\\x1b`), so what reaches the terminal is
only ever text.

Colour, panels and progress bars come from `rich`, whose consoles write to the stream *under*
the sanitizer (its own escape sequences must pass) and are only ever given `rich.text.Text`
built from sanitized strings (`text`), never markup. A console styles nothing when its stream
is not a terminal (pipes and CI logs stay plain), when `NO_COLOR` is set, or after `--no-color`.
"""
from __future__ import annotations

import os
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


# ------------------------------------------------------------------ rich consoles
_colour = True
_consoles: dict = {}


def set_colour(on: bool) -> None:
    """`--no-color`: no console made from now on styles anything."""
    global _colour
    _colour = on
    _consoles.clear()


def raw(stream):
    """The stream under the sanitizer (where a rich console writes its own escapes)."""
    return stream._raw if isinstance(stream, SafeStream) else stream


def console(stderr: bool = False):
    """A rich console on standard output (or error), as it is now (tests swap the streams)."""
    from rich.console import Console
    stream = raw(sys.stderr if stderr else sys.stdout)
    plain = not _colour or bool(os.environ.get("NO_COLOR"))      # NO_COLOR (no-color.org): as --no-color
    key = (id(stream), plain)
    found = _consoles.get(key)
    if found is None or found[0] is not stream:
        c = Console(file=stream, markup=False, emoji=False, highlight=False, soft_wrap=True,
                    color_system=None if plain else "auto", no_color=plain or None)
        found = _consoles[key] = (stream, c)
    return found[1]


def is_terminal(stderr: bool = False) -> bool:
    return not surely_plain(stderr) and console(stderr).is_terminal


def clear_screen() -> None:
    """Clear the terminal and its scrollback (`ESC[3J`), cursor home: a hot seat's hand must not stay
    above the next player's screen, nor be scrolled back to. Written under the sanitizer (it is ours)."""
    stream = raw(sys.stdout)
    stream.write("\x1b[H\x1b[2J\x1b[3J")
    stream.flush()


def surely_plain(stderr: bool = False) -> bool:
    """Is the output plain without asking a console? Not a terminal, and nothing that makes rich treat it
    as one (FORCE_COLOR, TTY_COMPATIBLE): then `rich` is not even imported (a pipe, a file, `run -q`)."""
    if os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE"):
        return False
    try:
        return not raw(sys.stderr if stderr else sys.stdout).isatty()
    except (AttributeError, ValueError, OSError):
        return False


def text(line: str, style: str | None = None):
    """A rich Text of `line`, sanitized: the only way a string from a file reaches a console."""
    from rich.text import Text
    return Text(safe(line), style=style or "")


def echo(line: str = "", style: str | None = None, stderr: bool = False) -> None:
    """Print one line, styled when the console may: `print` with a style."""
    if style is None or surely_plain(stderr):
        print(line, file=sys.stderr if stderr else sys.stdout)
        return
    c = console(stderr)
    if c.no_color and c.color_system is None or not c.is_terminal:
        print(line, file=sys.stderr if stderr else sys.stdout)
        return
    c.print(text(line, style))
