"""Issue 27, files that are not files (cases 12-15): a pipe, a device, a file elsewhere on the
machine or one too large is refused in a sentence, never waited on or read."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from limited import refused, rulecraft

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_fifo_named_as_a_transcript(tmp_path):
    """Case 12: `mkfifo t.yaml; rulecraft replay t.yaml` blocked for ever (nothing writes to the pipe)."""
    os.mkfifo(tmp_path / "t.yaml")
    refused(rulecraft("replay", "t.yaml", cwd=tmp_path, wall=20), "cannot read t.yaml: not a regular file")
    refused(rulecraft("play", "--load", "t.yaml", cwd=tmp_path, wall=20), "not a regular file")


def test_an_import_replaced_by_a_fifo_after_the_game_was_cached(tmp_path):
    """Case 13: the check cache opened the files it lists without the loader's regular-file test."""
    (tmp_path / "lib.rules").write_text("def two: Int = 2\n")
    (tmp_path / "g.rules").write_text('game "G"\nplayers 2\nimport "lib.rules"\nrule play:\n    say "{two}"\n'
                                      "score p: Player = 0\n")
    code, _out, err = rulecraft("check", "g.rules", cwd=tmp_path)       # fills the check cache
    assert code == 0, err
    (tmp_path / "lib.rules").unlink()
    os.mkfifo(tmp_path / "lib.rules")
    for command in ("check", "run"):
        refused(rulecraft(command, "g.rules", cwd=tmp_path, wall=20), "lib.rules")
