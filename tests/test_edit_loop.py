"""The author's loop (issue 15, item 4): find a bug with `rulecraft test`, fix the rules, replay the failure.

A record (transcript, failure transcript or save) made with other rules than today's is replayed
against the current file with a warning; it is refused — one sentence naming the decision — only
where a recorded decision is no longer legal or a chance outcome differs. Failure transcripts go
to `./rulecraft-failures/` (made when needed), hypothesis's files to rulecraft's cache, and a game
given by its path is recorded relative to the record, so `replay` works from any folder.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rulecraft.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
CHANGED = "rulecraft: warning: the rules changed since"

PICK = '''\
game "Pick"
players 2
var total: Int = 0
rule play:
    for p in players:
        p chooses k in 1..3 as "take {k}":
            total += k
            if k == 3:
                total = total / (total - 3 - BUG)
score p = total
'''


@pytest.fixture(autouse=True)
def _own_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    return code, out, err


def read(path):
    return YAML(typ="safe").load(Path(path).read_text())


def test_a_failure_is_found_fixed_and_replayed_against_the_fixed_rules(capsys, tmp_path):
    rules = tmp_path / "pick.rules"
    rules.write_text(PICK.replace("BUG", "0"))            # taking 3 first divides by zero
    code, out, _ = run(capsys, "test", "pick.rules", "--explore", "10")
    assert code == 1 and "wrote rulecraft-failures/pick.failure.yaml" in out
    assert not (tmp_path / ".hypothesis").exists()        # hypothesis's files live in rulecraft's cache
    failure = tmp_path / "rulecraft-failures" / "pick.failure.yaml"
    assert read(failure)["game"] == "../pick.rules"
    # from another folder, the failure replays and happens again
    (tmp_path / "elsewhere").mkdir()
    os.chdir(tmp_path / "elsewhere")
    code, out, err = run(capsys, "replay", "../rulecraft-failures/pick.failure.yaml")
    assert code == 1 and "makes the rules fail" in out and err == ""
    # the author fixes the bug: the same failure replays against the new rules, and no longer fails
    rules.write_text(PICK.replace("BUG", "1"))
    code, out, err = run(capsys, "replay", "../rulecraft-failures/pick.failure.yaml")
    assert err.startswith(CHANGED) and "replaying it against the current rules" in err
    assert code == 0 and "each legal; under the current rules, decision 1 ('take 3') no longer makes the rules fail" in out
    code, out, err = run(capsys, "replay", "../rulecraft-failures/pick.failure.yaml", "--step")
    assert code == 0 and err.startswith(CHANGED)
    assert "under the current rules, decision 1 ('take 3') no longer makes the rules fail" in out


def test_a_transcript_of_edited_rules_replays_with_a_warning(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    assert run(capsys, "run", "pick.rules", "--seed", "2", "--log", "logs/game.yaml", "-q")[0] == 0
    assert read("logs/game.yaml")["game"] == "../pick.rules"        # --log made its folder
    (tmp_path / "pick.rules").write_text("# a comment changes the digest\n" + PICK.replace("BUG", "1"))
    code, out, err = run(capsys, "replay", "logs/game.yaml")
    assert code == 0 and err.count("\n") == 1 and err.startswith(CHANGED)
    assert "verified, 2 decisions, each legal and the recorded result matches." in out


def test_a_different_result_under_new_rules_is_said_not_refused(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    run(capsys, "run", "pick.rules", "--seed", "2", "--log", "game.yaml", "-q", "--agents", "first")
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1").replace("score p = total", "score p = total + 1"))
    code, out, err = run(capsys, "replay", "game.yaml")
    assert code == 0 and err.startswith(CHANGED)
    assert re.search(r"game.yaml records the result .*; under the current rules it is ", out)


def test_a_decision_no_longer_legal_is_named(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    from rulecraft.loader import load_file
    s = Session.start(load_file("pick.rules"), "pick.rules", 2, 5)
    s.take_label("take 3")
    records.write("game.yaml", s, "transcript")
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1").replace("in 1..3", "in 1..2"))
    code, out, err = run(capsys, "replay", "game.yaml")
    lines = err.strip().splitlines()
    assert code == 1 and lines[0].startswith(CHANGED) and len(lines) == 2
    assert lines[1] == ("rulecraft: error: decision 1 in game.yaml ('take 3') is no longer legal under the current "
                        "rules: Player 1 could only choose 'take 1', 'take 2'")


def test_a_relabelled_option_is_taken_by_its_id_and_said(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    run(capsys, "run", "pick.rules", "--seed", "2", "--log", "game.yaml", "-q", "--agents", "first")
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1").replace('"take {k}"', '"pick {k}"'))
    code, out, err = run(capsys, "replay", "game.yaml")
    lines = err.strip().splitlines()
    assert code == 0 and lines[0].startswith(CHANGED) and "verified, 2 decisions, each legal" in out
    assert lines[1] == ("rulecraft: warning: decision 1 in game.yaml ('take 1') is taken as 'pick 1', the option "
                        "with its id: no option has its label under the current rules")


def test_options_renumbered_by_an_edit_are_found_by_their_labels(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    run(capsys, "run", "pick.rules", "--seed", "2", "--log", "game.yaml", "-q", "--agents", "first")
    # a new option first: every recorded id now names another option, the labels still the same ones
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1").replace("in 1..3", "in 0..3"))
    code, out, err = run(capsys, "replay", "game.yaml")
    assert code == 0 and err.startswith(CHANGED) and "verified, 2 decisions, each legal" in out


def test_a_changed_chance_outcome_is_refused(capsys, tmp_path):
    run(capsys, "run", "blackmore", "--seed", "4", "--players", "3", "--log", "game.yaml", "-q")
    mine = tmp_path / "mine.rules"
    text = (ROOT / "games" / "blackmore.rules").read_text()
    mine.write_text(text)
    data = read("game.yaml")
    data["game"] = "mine.rules"
    YAML(typ="safe").dump(data, open("game.yaml", "w"))
    mine.write_text(text.replace("    shuffle deck\n", "    shuffle deck\n    shuffle deck\n"))
    code, out, err = run(capsys, "replay", "game.yaml", "-q")
    assert code == 1 and err.startswith(CHANGED)
    assert re.search(r"rulecraft: error: chance outcome 2 in game.yaml \(.*\) is not what the rules give", err)


def test_a_save_of_edited_rules_resumes(capsys, tmp_path, monkeypatch):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    from rulecraft.loader import load_file
    s = Session.start(load_file("pick.rules"), "pick.rules", 2, 5)
    s.take(s.legal()[0].id)
    records.write("saves/pick.save", s, "save")
    (tmp_path / "pick.rules").write_text("# edited\n" + PICK.replace("BUG", "1"))
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("2\n"))
    code, out, err = run(capsys, "play", "--load", "saves/pick.save", "--seat", "all")
    assert code == 0 and err.startswith(CHANGED) and "Final scores" in out


def test_a_mismatched_id_and_label_is_called_damaged(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "1"))
    run(capsys, "run", "pick.rules", "--seed", "2", "--log", "game.yaml", "-q", "--agents", "first")
    text = Path("game.yaml").read_text()
    Path("game.yaml").write_text(text.replace("id: 0, label: take 1", "id: 7, label: take 1", 1))
    code, out, err = run(capsys, "replay", "game.yaml")
    assert code == 1 and err.strip() == ("rulecraft: error: decision 1 in game.yaml is damaged: its label 'take 1' "
                                         "is legal at that point, but its id 7 is not (the option's id is 0)")


def test_out_is_made_if_missing(capsys, tmp_path):
    (tmp_path / "pick.rules").write_text(PICK.replace("BUG", "0"))
    code, out, _ = run(capsys, "test", "pick.rules", "--explore", "10", "--out", "deep/er/folder")
    assert code == 1 and (tmp_path / "deep" / "er" / "folder" / "pick.failure.yaml").is_file()
    assert read(tmp_path / "deep" / "er" / "folder" / "pick.failure.yaml")["game"] == "../../../pick.rules"
