"""The words highlighters need, read from the grammar and the builtin registry (never listed by hand)."""
from __future__ import annotations

import functools
import importlib.resources
import re

WORD_OPERATORS = ("and", "or", "not", "in", "mod")     # shown as operators when the grammar has them
CONSTANTS = ("true", "false")


def grammar_text() -> str:
    return importlib.resources.files("rulecraft.grammar").joinpath("rulecraft.lark").read_text(encoding="utf-8")


def _without_comments(text: str) -> str:
    return "\n".join(line.split("//", 1)[0] if not line.lstrip().startswith("/") else "" for line in text.splitlines())


@functools.lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every word the grammar spells out in quotes (`"rule"`, `"chooses"`, `"seen"` …), sorted."""
    return tuple(sorted(set(re.findall(r'"([A-Za-z_][A-Za-z_0-9]*)"', _without_comments(grammar_text())))))


@functools.lru_cache(maxsize=1)
def declaring_keywords() -> tuple[str, ...]:
    """The keywords a declaration puts before the name it declares (`rule NAME`, `zone NAME` …)."""
    out = set()
    for line in _without_comments(grammar_text()).splitlines():
        if re.match(r"\s*\w+_decl\s*:", line):
            out.update(re.findall(r'"([a-z]+)"\s+NAME', line))
    return tuple(sorted(out))


def word_operators() -> tuple[str, ...]:
    return tuple(w for w in WORD_OPERATORS if w in keywords())


def constants() -> tuple[str, ...]:
    return tuple(w for w in CONSTANTS if w in keywords())


def plain_keywords() -> tuple[str, ...]:
    return tuple(w for w in keywords() if w not in WORD_OPERATORS and w not in CONSTANTS)


@functools.lru_cache(maxsize=1)
def builtin_functions() -> tuple[str, ...]:
    from ..builtins import REGISTRY
    return tuple(sorted(REGISTRY))


def alternation(words) -> str:
    """A regular expression for any of `words`, longest first."""
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
