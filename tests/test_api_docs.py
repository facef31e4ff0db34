"""The examples in docs/api.md and docs/rl.md run, and print what the page says (doctest)."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("page", ["api.md", "rl.md"])
def test_the_examples_on_the_page_run(page, monkeypatch):
    path = ROOT / "docs" / page
    monkeypatch.chdir(ROOT)                      # the pages name examples/… by their path
    text = path.read_text(encoding="utf-8")
    assert ">>> " in text
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, page, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
