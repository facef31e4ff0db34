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


def _logged(tmp_path, **changes) -> str:
    """A transcript of a game of Nim (a copy of examples/nim.rules beside it), with top lines changed."""
    shutil.copy(EXAMPLES / "nim.rules", tmp_path / "nim.rules")
    code, _out, err = rulecraft("run", "nim.rules", "--seed", "3", "-q", "--log", "t.yaml", cwd=tmp_path)
    assert code == 0, err
    lines = (tmp_path / "t.yaml").read_text().splitlines()
    for key, value in changes.items():
        lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in lines]
    (tmp_path / "t.yaml").write_text("\n".join(lines) + "\n")
    return "t.yaml"


def test_a_transcript_names_only_a_bundled_game_or_a_rules_file_beside_it(tmp_path):
    """Case 14: `game: /etc/passwd` was read and parsed; an absolute path to any .rules file played."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(EXAMPLES / "nim.rules", elsewhere / "far.rules")
    here = tmp_path / "y" / "here"
    here.mkdir(parents=True)
    name = _logged(here, game="/etc/passwd")
    refused(rulecraft("replay", name, cwd=here), "names the game '/etc/passwd', which is not a .rules file")
    for game in (elsewhere / "far.rules", "../../elsewhere/far.rules"):     # (not in here, y or the current folder)
        _logged(here, game=game)
        refused(rulecraft("replay", name, cwd=here), "which is not in its folder, the one above it or this one")
    _logged(here, game="passwd")
    refused(rulecraft("replay", name, cwd=here), "which is no bundled game")
    # named on the command line, the game is the user's choice (the rules digest still matches)
    _logged(here, game=elsewhere / "far.rules", rulecraft="save")
    code, _out, err = rulecraft("play", "nim.rules", "--load", name, cwd=here, input="")
    assert "names the game" not in err and "Traceback" not in err, err
    # a transcript beside its game replays from another folder
    _logged(here)
    code, _out, err = rulecraft("replay", "y/here/t.yaml", "-q", cwd=tmp_path)
    assert code == 0, err


def test_a_record_finds_its_game_through_a_folder_the_user_linked_in(tmp_path):
    """The README's `rulecraft test examples/X.rules` then `replay rulecraft-failures/X.failure.yaml`
    was refused when `examples` was a link to another folder: the check resolved the link first."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(EXAMPLES / "nim.rules", elsewhere / "nim.rules")
    work = tmp_path / "work"
    (work / "records").mkdir(parents=True)
    (work / "examples").symlink_to(elsewhere)
    code, _out, err = rulecraft("run", "examples/nim.rules", "--seed", "3", "-q", "--log", "records/t.yaml", cwd=work)
    assert code == 0, err
    assert "game: ../examples/nim.rules" in (work / "records" / "t.yaml").read_text()
    code, _out, err = rulecraft("replay", "records/t.yaml", "-q", cwd=work)
    assert code == 0, err


def test_a_large_transcript_is_refused_by_its_shape_before_it_is_read(tmp_path):
    """Case 15: a 900 KB transcript took about 10 s of CPU to refuse (read as YAML first)."""
    _logged(tmp_path)
    head = (tmp_path / "t.yaml").read_text().split("decisions:\n")[0]
    (tmp_path / "long.yaml").write_text(head + "decisions:\n" + "- {player: 2, id: 1, label: take 2}\n" * 25_000)
    refused(rulecraft("replay", "long.yaml", cwd=tmp_path, cpu=3), "long.yaml has 25,010 lines")
    (tmp_path / "wide.yaml").write_text(head + "decisions:\n- [" + "1, " * 300_000 + "1]\n")
    refused(rulecraft("replay", "wide.yaml", cwd=tmp_path, cpu=3), "has a line of 900,005 characters")
