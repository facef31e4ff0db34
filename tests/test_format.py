"""`rulecraft fmt`: one canonical layout, idempotent, comments kept, meaning unchanged.

The corpus is every bundled game, example and stdlib module and every rule example
in docs/language.md. Properties, driven by hypothesis:
- fmt(fmt(x)) == fmt(x), and x and fmt(x) parse to the same syntax tree (positions aside);
- a text laid out at random (spaces between tokens, indentation unit, blank lines,
  continuation indents, trailing spaces, CRLF) formats to the same text as the original;
- a broken text (the fuzzer's mutations) either gives a diagnostic or formats with
  the same two properties — never a traceback, never a changed meaning.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.diagnostics import RulesError
from rulecraft.format import MEANING_CHANGED, format_text, shape
from rulecraft.format.whitespace import tokens_with_parents
from rulecraft.syntax.parser import parse_module

from test_mutations import mutated

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted([*ROOT.glob("games/*.rules"), *ROOT.glob("games/*/*.rules"), *ROOT.glob("examples/*.rules"),
                  *ROOT.glob("stdlib/*.rules")])
FENCE = re.compile(r"^```(?:rules|rules-error)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def _doc_examples():
    out = []
    for doc in (ROOT / "docs" / "language.md", ROOT / "README.md"):
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            try:
                parse_module(m.group(1), "example.rules")
            except RulesError:
                continue                   # an example of a syntax error
            out.append((f"{doc.name}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1)))
    return out


CORPUS = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in BUNDLED] + _doc_examples()


def same_meaning(a: str, b: str) -> bool:
    return shape(parse_module(a, "x.rules")) == shape(parse_module(b, "x.rules"))


def test_corpus_is_large():
    assert len(BUNDLED) >= 15 and len(CORPUS) > len(BUNDLED) + 20


@pytest.mark.parametrize("name,text", CORPUS, ids=[n for n, _ in CORPUS])
def test_idempotent_and_meaning_kept(name, text):
    once = format_text(text, name)
    assert format_text(once, name) == once
    assert same_meaning(text, once)
    assert _comments(once) == _comments(text)


def _comments(text: str) -> list[str]:
    """Every comment of a text, in order (from the gaps between the parser's tokens)."""
    toks = [t for t, _ in tokens_with_parents(text if text.endswith("\n") else text + "\n")
            if t.type not in ("_NL", "_INDENT", "_DEDENT")]
    out, pos = [], 0
    for t in toks + [None]:
        gap = text[pos:t.start_pos if t is not None else len(text)]
        out += [line[line.index("#"):].strip() for line in gap.split("\n") if "#" in line]
        if t is not None:
            pos = t.end_pos
    return out


def test_bundled_files_are_formatted():
    files = [str(p.relative_to(ROOT)) for p in BUNDLED]
    result = subprocess.run([sys.executable, "-m", "rulecraft", "fmt", "--check", *files],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------ a random layout of the same tokens
def random_layout(text: str, rnd: random.Random) -> str:
    """The same tokens and comments as `text`, laid out at random where whitespace carries no meaning."""
    if not text.endswith("\n"):
        text += "\n"
    unit = rnd.choice([1, 2, 3, 4, 6, 8])
    items = tokens_with_parents(text)
    out: list[str] = []
    depth, delta, pending_nl, prev, brackets = 0, 0, False, None, 0
    for tok, _parent in items:
        if tok.type == "_NL":
            pending_nl = True
            continue
        if tok.type in ("_INDENT", "_DEDENT"):
            delta += 1 if tok.type == "_INDENT" else -1
            continue
        gap = text[prev.end_pos if prev is not None else 0:tok.start_pos]
        if prev is None or pending_nl:
            depth += delta
            out.append(_random_gap(gap, rnd, lambda col: unit * (col // 4), unit * depth, blanks=False))
            pending_nl, delta = False, 0
        elif "\n" in gap:
            cont = " " * rnd.randint(0, 12)
            out.append(_random_gap(gap, rnd, lambda col: rnd.randint(0, 12), len(cont), blanks=brackets > 0))
        else:
            out.append(_random_spaces(rnd, need=_word(str(prev)[-1]) and _word(str(tok)[0])))
        out.append(str(tok))
        brackets += str(tok) in "([" and 1 or 0
        brackets -= str(tok) in ")]" and 1 or 0
        prev = tok
    out.append(_random_gap(text[prev.end_pos:] if prev is not None else text, rnd, lambda col: unit * (col // 4),
                           0, blanks=False))
    result = "".join(out)
    return result.replace("\n", "\r\n") if rnd.random() < 0.2 else result


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _random_spaces(rnd: random.Random, need: bool) -> str:
    return "".join(rnd.choice(" \t") for _ in range(rnd.randint(1 if need else 0, 3)))


def _random_gap(gap: str, rnd: random.Random, comment_indent, indent: int, blanks: bool) -> str:
    lines = gap.split("\n")
    if len(lines) == 1:
        return gap
    head = lines[0]
    if "#" in head:
        head = " " * (len(head) - len(head.lstrip())) + head.strip()      # keep the trailing comment's column
    elif head.strip() == "\\":
        head = _random_spaces(rnd, False) + "\\"
    else:
        head = " " * rnd.randint(0, 2)
    middle = []
    for line in lines[1:-1]:
        body = line.strip()
        if body.startswith("#"):
            col = len(line) - len(line.lstrip())
            middle.append(" " * comment_indent(col) + body + " " * rnd.randint(0, 2))
        else:                                    # a blank line: maybe several
            middle.extend(" " * rnd.randint(0, 3) for _ in range(rnd.choice([1, 1, 2, 3])))
        if blanks and rnd.random() < 0.1:          # inside brackets, blank lines are dropped
            middle.append("")
    return "\n".join([head, *middle, " " * indent])


def _trailing_comments_loose(text: str) -> str:
    """The column of a trailing comment is the author's: compare texts without it."""
    return "\n".join(_loose_line(line) for line in text.split("\n"))


def _loose_line(line: str) -> str:
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted and line[:i].strip():
            return line[:i].rstrip() + "  " + line[i:]
    return line


@given(st.sampled_from(CORPUS), st.randoms(use_true_random=False))
def test_any_layout_formats_to_the_canonical_one(item, rnd):
    name, text = item
    canonical = format_text(text, name)
    scrambled = random_layout(canonical, rnd)
    assert same_meaning(scrambled, canonical)                     # the scrambler itself kept the meaning
    result = format_text(scrambled, name)
    assert _trailing_comments_loose(result) == _trailing_comments_loose(canonical)
    assert format_text(result, name) == result


@given(mutated())
def test_broken_texts_give_a_diagnostic_or_keep_their_meaning(item):
    name, data = item
    text = data.decode("utf-8", "replace")
    try:
        once = format_text(text, name)
    except RulesError as e:
        assert all(d.message != MEANING_CHANGED for d in e.diagnostics), e.render()
        assert e.render()
        return
    assert format_text(once, name) == once
    assert same_meaning(text, once)


# ------------------------------------------------------------------ the layout itself, case by case
@pytest.mark.parametrize("before,after", [
    ('game   "x"\nrule  setup :\n  say   "hi"\n', 'game "x"\nrule setup:\n    say "hi"\n'),
    ("def f( a : Int ) : Int = - a + f ( a ) * ( 2 - 1 )\n", "def f(a: Int): Int = -a + f(a) * (2 - 1)\n"),
    ("def xs: List[ Int ] = [ 1 , 2 ] [ 0 ]\n", "def xs: List[Int] = [1, 2][0]\n"),
    ("extends  weird - sisters\n", "extends weird-sisters\n"),
    ("option n: 1 .. 5 = 2\n", "option n: 1..5 = 2\n"),
    ("def b: Bool = 1  not   in [2]\n", "def b: Bool = 1 not in [2]\n"),
    # blank lines: at most one, none at the start of a file or a block
    ("\n\ngame \"x\"\n\n\n\nrule a:\n\n    pass\n\n\n", 'game "x"\n\nrule a:\n    pass\n'),
    # comments: own-line ones indented with their block, trailing ones keep their column
    ("rule a:\n  # inside\n  pass   # trailing\n# after\n", "rule a:\n    # inside\n    pass  # trailing\n# after\n"),
    ("rule a:\n    pass\n    # end of the block\n\nrule b:\n    pass\n",
     "rule a:\n    pass\n    # end of the block\n\nrule b:\n    pass\n"),
    # continuation lines: four spaces per line of open brackets; a closing bracket goes back
    ("def xs: List[Int] = [\n        1,   # one\n  2\n]\n", "def xs: List[Int] = [\n    1,       # one\n    2\n]\n"),
    ("def xs: List[Int] = f([\n1,\n2])\n", "def xs: List[Int] = f([\n    1,\n    2])\n"),
    ("enum E: A, \\\n  B\n", "enum E: A, \\\n        B\n"),
    # the settled style (docs/language.md, "Style"): `else if`, and an option's help after its name
    ("rule a:\n    if x:\n        pass\n    elif y:  # why\n        pass\n    else:\n        pass\n",
     "rule a:\n    if x:\n        pass\n    else if y:  # why\n        pass\n    else:\n        pass\n"),
    ('option n: 1..5 = 2 "how many"\n', 'option n "how many": 1..5 = 2\n'),
    ('option w: a | b = a   "which"  # c\noption v "h": Bool = true\n', 'option w "which": a | b = a  # c\noption v "h": Bool = true\n'),
    ('option d: 1..5 = (\n    2) "moved"\n', 'option d "moved": 1..5 = (\n    2)\n'),
    ('option d: 1..5 = 2 \\\n  "kept: a line break stands before it"\n',
     'option d: 1..5 = 2 \\\n        "kept: a line break stands before it"\n'),
    ("score p: Player = 1\nsheet p: Player:\n    \"x\"\n", "score p: Player = 1\nsheet p: Player:\n    \"x\"\n"),
])
def test_layout_cases(before, after):
    assert format_text(before) == after
    assert format_text(after) == after
