"""Highlighting: the Pygments lexer and the VS Code grammar agree with grammar/rulecraft.lark.

The words come from the grammar (highlight/words.py); these tests check that reading
against Lark's own terminals, that the committed TextMate grammar is the generator's
output, and that the lexer reads every bundled file without an error token.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lark.lexer import PatternRE, PatternStr
from pygments.token import Error, Keyword, Name, Operator, String

from rulecraft.builtins import REGISTRY
from rulecraft.highlight import textmate, words
from rulecraft.highlight.pygments_lexer import RulecraftLexer
from rulecraft.syntax.parser import _lark

ROOT = Path(__file__).resolve().parent.parent
VSCODE = ROOT / "editors" / "vscode"
BUNDLED = sorted([*ROOT.glob("games/*.rules"), *ROOT.glob("games/*/*.rules"), *ROOT.glob("examples/*.rules"),
                  *ROOT.glob("stdlib/*.rules")])


def lark_words() -> set[str]:
    """The words Lark's lexer matches as anything but a NAME: string terminals and `(?:a|b)` alternatives."""
    out = set()
    for t in _lark().terminals:
        if isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier():
            out.add(t.pattern.value)
        elif isinstance(t.pattern, PatternRE):
            m = re.fullmatch(r"\(\?:([A-Za-z_|]+)\)", t.pattern.value)
            if m:
                out.update(m.group(1).split("|"))
    return out


def test_the_keywords_are_the_grammars():
    assert set(words.keywords()) == lark_words()
    assert {"rule", "chooses", "seen", "override", "true", "mod"} <= set(words.keywords())
    assert set(words.declaring_keywords()) >= {"rule", "def", "zone", "card", "enum", "var", "scenario"}


def test_the_committed_textmate_grammar_is_generated():
    committed = (VSCODE / "syntaxes" / "rulecraft.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == textmate.render(), \
        "regenerate it: python -m rulecraft.highlight.textmate > editors/vscode/syntaxes/rulecraft.tmLanguage.json"


def _patterns(node):
    if isinstance(node, dict):
        for key in ("match", "begin", "end"):
            if key in node:
                yield node[key]
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_the_textmate_grammar_matches_every_keyword():
    grammar = json.loads((VSCODE / "syntaxes" / "rulecraft.tmLanguage.json").read_text(encoding="utf-8"))
    compiled = [re.compile(p) for p in _patterns(grammar)]        # the regexes are in the subset Python shares
    keyword_res = [re.compile(p["match"]) for p in grammar["repository"]["code"]["patterns"]
                   if p.get("name", "").startswith(("keyword", "constant.language"))]
    for word in words.keywords():
        assert any(r.fullmatch(word) for r in keyword_res), word
    assert not any(r.fullmatch("players_from") for r in keyword_res)
    assert len(compiled) > 10


def test_the_vscode_extension_folder():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    language = package["contributes"]["languages"][0]
    assert language["extensions"] == [".rules"]
    assert (VSCODE / language["configuration"]).exists()
    assert (VSCODE / package["contributes"]["grammars"][0]["path"]).exists()
    assert (VSCODE / package["main"]).exists() and package["activationEvents"] == ["onLanguage:rulecraft"]
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert re.search(config["indentationRules"]["increaseIndentPattern"], "rule play:   # the game")
    assert not re.search(config["indentationRules"]["increaseIndentPattern"], "    say \"x\"  # a: b")


def kinds(text: str) -> list:
    return [(t, v) for t, v in RulecraftLexer().get_tokens(text) if v.strip()]


def test_lexer_kinds():
    toks = dict((v, t) for t, v in kinds('rule play:\n    p chooses c in p.hand where not c.owner as "play {c}":\n'
                                         '        move top(deck) to p.hand\n'))
    assert toks["rule"] in Keyword and toks["play"] in Name.Function
    assert toks["chooses"] in Keyword and toks["not"] in Operator.Word
    assert toks["owner"] in Name.Attribute           # a keyword of the grammar, but here a card's field
    assert toks["top"] in Name.Builtin
    assert toks["{"] in String.Interpol


@pytest.mark.parametrize("word", words.keywords())
def test_every_keyword_is_highlighted(word):
    t, v = kinds(word + "\n")[0]
    assert v == word and (t in Keyword or t in Operator.Word)


def test_builtins_come_from_the_registry():
    assert set(words.builtin_functions()) == set(REGISTRY)


@pytest.mark.parametrize("path", BUNDLED, ids=[p.name for p in BUNDLED])
def test_bundled_files_lex_without_errors(path):
    text = path.read_text(encoding="utf-8")
    toks = list(RulecraftLexer().get_tokens(text))
    assert "".join(v for _, v in toks) == text
    assert not [v for t, v in toks if t in Error]


def test_pygmentize_finds_the_plugin():
    result = subprocess.run([sys.executable, "-m", "pygments", "-l", "rulecraft", "-f", "html",
                             str(ROOT / "games" / "blackmore.rules")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert '<span class="kd">rule</span>' in result.stdout and '<span class="nb">top</span>' in result.stdout
