"""`rulecraft doc GAME`: every bundled game and example becomes a document with all its parts."""
from __future__ import annotations

import html.parser
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.check.modules import bundled_games, display_path, load_declarations, stdlib_modules
from rulecraft.document import document
from rulecraft.document.render import html_page, markdown
from rulecraft.syntax import ast

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(bundled_games().values()) + sorted((ROOT / "examples").glob("*.rules"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_part_of_the_game_is_in_its_document(path):
    blocks = document(path)
    md = markdown(blocks)
    stdlib = {display_path(p) for p in stdlib_modules().values()}
    decls = [d for d in load_declarations(path).decls if d.span.file not in stdlib
             and "@original" not in str(getattr(d, "name", ""))]
    title = next(d.title for d in decls if isinstance(d, ast.GameDecl))
    assert md.startswith(f"# {title}\n")
    for d in decls:
        if isinstance(d, (ast.RuleDecl, ast.DefDecl)):
            assert f"#### {'rule' if isinstance(d, ast.RuleDecl) else 'def'} {d.name}\n" in md, d.name
        elif isinstance(d, ast.OptionDecl):
            assert f"| {d.name} |" in md and d.doc in md
        elif isinstance(d, ast.ZoneDecl):
            assert f"| {d.name} |" in md
        elif isinstance(d, ast.ScenarioDecl):
            assert f"scenario {d.name}" in md
    assert md.count("```") % 2 == 0
    _check_html(html_page(blocks), title)


class _Balanced(html.parser.HTMLParser):
    VOID = {"meta", "br"}

    def __init__(self):
        super().__init__()
        self.stack, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, (tag, self.stack[-3:])

    def handle_data(self, data):
        self.text.append(data)


def _check_html(page: str, title: str):
    parser = _Balanced()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    assert f"<title>{__import__('html').escape(title)}</title>" in page


def test_blackmore_document_reads_like_its_rulebook():
    md = markdown(document(bundled_games()["blackmore"]))
    assert "Players: 2–6." in md
    assert "| hand | Witch | player | its owner |" in md                     # who sees a zone
    assert "### Card ranking" in md and "### Setup" in md                      # the file's own sections
    assert "Changing the Trump: the winner may put one contest card on the trump stack." in md
    assert "7. The winner may put any card of the contest" in md               # the completions header
    assert "#### rule deal\n" not in md                                        # the stdlib is named, not copied
    assert "### Card Ranking: trump Blue 7" in md                              # a scenario as a worked example


def test_a_variant_documents_the_merged_game(tmp_path):
    md = markdown(document(ROOT / "examples" / "blackmore-lowest-wins.rules"))
    assert "A variant of blackmore" in md and "#### rule contest" in md


def test_cli(tmp_path):
    out = tmp_path / "blackmore.html"
    result = subprocess.run([sys.executable, "-m", "rulecraft", "doc", "blackmore", "--out", str(out)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    broken = tmp_path / "broken.rules"
    broken.write_text('game "B"\nplayers 2\nrule play:\n    move nothing to here\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "rulecraft", "doc", str(broken)], capture_output=True, text=True)
    assert result.returncode == 1 and "broken.rules:4" in result.stderr and result.stdout == ""
