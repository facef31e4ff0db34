"""Broken rule files never crash the loader.

Hypothesis mutates the bundled rule files (delete, repeat or swap a token, put
one name for another, huge numbers, random text and bytes, deep nesting, odd
indentation) and loads the result: `load_file` must either give a program or
raise RulesError whose rendering works; never any other exception.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.check.modules import bundled_games, stdlib_modules
from rulecraft.diagnostics import RulesError
from rulecraft.loader import load_file

TOKEN = re.compile(r'[A-Za-z_][A-Za-z_0-9]*|[0-9]+|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\n[ \t]*|[ \t]+|\S')
NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")

SMALL = '''game "Small"
players 1..3
option rounds: 1..5 = 2
enum Suit: Cups, Coins
card Chip(suit: Suit, value: 1..3) named "{suit} {value}"
cards chips = [Chip(s, v) for s in Suit for v in 1..3]
zone bag of Chip, seen by nobody
zone hand of Chip per player, seen by owner
var turns: Int per player = 0

def worth(c: Chip): Int = if c.suit == Cups then c.value * 2 else c.value

rule play:
    move chips to bag
    shuffle bag
    repeat rounds:
        for p in players:
            if size(bag) > 0:
                move top(bag) to p.hand
            p may choose c in p.hand where worth(c) > 1 as "keep {c}" or "skip":
                p.turns += 1
            else:
                pass

score p = sum(worth(c) for c in p.hand)
'''


def _sources():
    out = [("small.rules", SMALL)]
    for path in list(bundled_games().values()) + list(stdlib_modules().values()):
        out.append((path.name, path.read_text(encoding="utf-8")))
    return out


SOURCES = _sources()


def tokens(text: str) -> list[str]:
    toks = TOKEN.findall(text)
    assert "".join(toks) == text
    return toks


@st.composite
def mutated(draw):
    """A bundled source with one to three mutations, as bytes."""
    name, text = draw(st.sampled_from(SOURCES))
    toks = tokens(text)
    names = sorted({t for t in toks if NAME.match(t)})
    raw_inserts = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "repeat", "swap", "rename", "number", "text", "bytes",
                                     "parens", "nots", "blocks", "indent", "truncate"]))
        i = draw(st.integers(0, max(0, len(toks) - 1)))
        if not toks:
            toks = [""]
        if kind == "delete":
            del toks[i]
        elif kind == "repeat":
            toks.insert(i, toks[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif kind == "rename":
            k = [j for j, t in enumerate(toks) if NAME.match(t)]
            if k:
                j = k[i % len(k)]
                toks[j] = draw(st.sampled_from(names + ["x", "original", "players", "Int", "List", "Zone", "if",
                                                        "override", "by", "may", "choose", "chooses"]))
        elif kind == "number":
            k = [j for j, t in enumerate(toks) if t.isdigit()]
            if k:
                toks[k[i % len(k)]] = str(draw(st.sampled_from([0, 1, 10**12, 10**12 + 1, 10**30, 2**63, 10**400])))
        elif kind == "text":
            toks.insert(i, draw(st.text(max_size=12)))
        elif kind == "bytes":
            raw_inserts.append((i, draw(st.binary(min_size=1, max_size=8))))
            toks.insert(i, "\x00RAW\x00")
        elif kind == "parens":
            n = draw(st.sampled_from([50, 400, 3000]))
            j = draw(st.integers(i, len(toks)))
            toks.insert(j, ")" * n)
            toks.insert(i, "(" * n)
        elif kind == "nots":
            n = draw(st.sampled_from([50, 400, 3000]))
            toks.insert(i, "not " * n + "-" * n)
        elif kind == "blocks":
            n = draw(st.sampled_from([20, 120, 400]))
            toks.append("\nrule deep:\n" + "".join("  " * (d + 1) + "if true:\n" for d in range(n)) + "  " * (n + 1) + "pass\n")
        elif kind == "indent":
            nl = [j for j, t in enumerate(toks) if t.startswith("\n")]
            if nl:
                toks[nl[i % len(nl)]] = "\n" + draw(st.sampled_from(["", " ", "   ", "\t", "        ", " \t "]))
        elif kind == "truncate":
            toks = toks[:i]
    out = "".join(toks).encode("utf-8", "surrogatepass")
    for _, blob in raw_inserts:
        out = out.replace(b"\x00RAW\x00", blob, 1)
    return name, out


def load_bytes(data: bytes, name: str = "game.rules"):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_bytes(data)
        try:
            return load_file(path)
        except RulesError as e:
            text = e.render()
            assert isinstance(text, str) and text
            assert e.diagnostics, "RulesError without diagnostics"
            for diag in e.diagnostics:
                assert diag.message and diag.span.line >= 0
            return e


@settings(max_examples=max(40, settings.default.max_examples * 2))
@given(mutated())
def test_mutated_rules_never_crash_the_loader(case):
    name, data = case
    load_bytes(data, "game.rules" if name != "cards.rules" else "cards.rules")


def test_the_sources_load_unmutated():
    """Each source, unmutated, loads where it lives (a game may extend or import its neighbours)."""
    assert load_bytes(SMALL.encode(), "small.rules") is not None
    for path in bundled_games().values():
        load_file(path)     # a RulesError here fails the test with its diagnostics


def nesting_cases():
    for shape in ["parens", "neg", "not", "sum", "list", "call", "if"]:
        for depth in [20, 100, 150, 300, 2000]:
            yield pytest.param(shape, depth, id=f"{shape}-{depth}")


@pytest.mark.parametrize("shape,depth", list(nesting_cases()))
def test_deep_nesting_is_a_diagnostic(shape, depth):
    body = {
        "parens": "(" * depth + "1" + ")" * depth,
        "neg": "-" * depth + "1",
        "not": "not " * depth + "true",
        "sum": "1" + " + 1" * depth,
        "list": "[" * depth + "1" + "]" * depth,
        "call": "abs(" * depth + "1" + ")" * depth,
    }
    if shape == "if":
        src = 'game "D"\nplayers 2\nrule play:\n' + "".join(" " * (i + 1) + "if true:\n" for i in range(depth)) \
            + " " * (depth + 1) + "pass\n"
    else:
        src = f'game "D"\nplayers 2\ndef x = {body[shape]}\nrule play:\n    pass\n'
    result = load_bytes(src.encode())
    if depth <= 20:
        assert not isinstance(result, RulesError), result.render()
    if isinstance(result, RulesError):
        (d,) = result.diagnostics
        assert "nested" in d.message and "recursion" not in result.render(), result.render()
