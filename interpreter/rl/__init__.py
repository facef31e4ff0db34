"""Adapters to the frameworks researchers use: PettingZoo (`rulecraft.rl.pettingzoo`), Gymnasium
(`rulecraft.rl.gymnasium`) and OpenSpiel (`rulecraft.rl.openspiel`), each a thin layer over
rulecraft.api. They need the optional extras `rulecraft[rl]` and `rulecraft[openspiel]`; see docs/rl.md.
"""
from __future__ import annotations

import importlib


def require(extra: str, *modules: str) -> None:
    """Import the frameworks an adapter stands on, or say in one sentence which extra installs them."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as e:
            raise ImportError(f"this rulecraft adapter needs {name}: pip install 'rulecraft[{extra}]'") from e
