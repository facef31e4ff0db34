"""The generated code on view (issue 33): `rulecraft show GAME --python` for a small corpus, held to the
text stored beside each rules file, so a change in what the compiler writes shows in review.

    RULECRAFT_UPDATE_CODEGEN=1 python -m pytest tests/test_codegen.py     rewrites the stored texts
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.loader import generated_python

CORPUS = sorted((Path(__file__).parent / "codegen").glob("*.rules"))
UPDATE = os.environ.get("RULECRAFT_UPDATE_CODEGEN") == "1"


def body(text: str) -> str:
    return text.split("\n", 1)[1]          # the first line names the file as the user wrote its path


@pytest.mark.parametrize("fast", [False, True], ids=["resumable", "fast"])
@pytest.mark.parametrize("rules", CORPUS, ids=[p.stem for p in CORPUS])
def test_the_generated_python_is_as_stored(rules, fast):
    stored = rules.with_suffix(".fast.py" if fast else ".py")
    made = generated_python(str(rules), fast=fast)
    if UPDATE:
        stored.write_text(made, encoding="utf-8")
    assert body(made) == body(stored.read_text(encoding="utf-8")), (
        f"the generated code of {rules.name} changed: review the difference, then rewrite the stored text "
        "with RULECRAFT_UPDATE_CODEGEN=1")


def test_show_prints_the_module(capsys):
    assert main(["show", str(CORPUS[0]), "--python"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ") and "def " in out and "0x" not in out        # no addresses: the same text each time
