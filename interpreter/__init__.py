"""rulecraft: board and card games written as text, checked, and run by one generic interpreter.

The Python API (rulecraft.api, docs/api.md) is re-exported here: `rulecraft.load("blackmore",
players=4)`. It is imported on first use, so `import rulecraft.syntax` and the CLI stay light.
"""
from __future__ import annotations


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rulecraft")
    except PackageNotFoundError:       # run from a source tree that is not installed
        return "0+unknown"


_API = ("load", "game_names", "Game", "Match", "Action", "IllegalAction", "RulesError", "RulesRuntimeError",
        "UserError", "agent", "agent_kinds", "load_match", "match_from_yaml")
__all__ = ["__version__", *_API]


def __dir__() -> list[str]:
    """What `dir(rulecraft)` lists: the API exported on first use, too."""
    return sorted({*globals(), *__all__})


def __getattr__(name: str):
    if name == "__version__":          # read from the installed metadata on first use: importing it costs ~15 ms
        global __version__
        __version__ = _version()
        return __version__
    if name in _API:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'rulecraft' has no attribute {name!r}")
