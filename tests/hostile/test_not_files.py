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
