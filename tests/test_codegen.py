"""The generated code on view (issue 33): `rulecraft show GAME --python` (both paths) and `--ir` for a
small corpus, held to the text stored beside each rules file (`.py`, `.fast.py`, `.ir`), so a change in
what the checker hands the compiler, or in what the compiler writes, shows in review.

    RULECRAFT_UPDATE_CODEGEN=1 python -m pytest tests/test_codegen.py     rewrites the stored texts
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.loader import generated_ir, generated_python

CORPUS_DIR = Path(__file__).parent / "codegen"
CORPUS = sorted(CORPUS_DIR.glob("*.rules"))
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


@pytest.mark.parametrize("rules", CORPUS, ids=[p.stem for p in CORPUS])
def test_the_ir_is_as_stored(rules):
    stored = rules.with_suffix(".ir")
    made = generated_ir(str(rules))
    if UPDATE:
        stored.write_text(made, encoding="utf-8")
    assert body(made) == body(stored.read_text(encoding="utf-8")), (
        f"the typed IR of {rules.name} changed: review the difference, then rewrite the stored text "
        "with RULECRAFT_UPDATE_CODEGEN=1")


def test_a_change_of_one_character_shows(tmp_path):
    """The stored texts see a one-character change: Nim taking 1 to 4 stones, not 1 to 3, gives
    another IR and other Python than stored (what the comparisons above would then report)."""
    nim = CORPUS_DIR / "nim.rules"
    changed = tmp_path / "nim.rules"
    changed.write_text(nim.read_text(encoding="utf-8").replace("k in 1..3", "k in 1..4"), encoding="utf-8")
    for made, stored in ((generated_ir, ".ir"), (generated_python, ".py")):
        assert body(made(str(nim))) == body(nim.with_suffix(stored).read_text(encoding="utf-8"))
        assert body(made(str(changed))) != body(nim.with_suffix(stored).read_text(encoding="utf-8"))


def test_show_ir_prints_the_ir(capsys):
    assert main(["show", str(CORPUS_DIR / "nim.rules"), "--ir"]) == 0
    out = capsys.readouterr().out
    assert "Choose " in out and "Var slot=1 (left) : Int @15" in out and "0x" not in out
    assert main(["show", str(CORPUS_DIR / "nim.rules"), "--ir", "--fast"]) == 1     # the fast path's is Python
    assert "goes with --python" in capsys.readouterr().err


def test_show_prints_the_module(capsys):
    assert main(["show", str(CORPUS[0]), "--python"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ") and "def " in out and "0x" not in out        # no addresses: the same text each time
