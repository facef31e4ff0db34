"""`rulecraft sweep` (issue 32): every setting on the same seeds, a planted advantage flagged, racing that
spends fewer games on a clearly worse setting, the same figures for any number of workers, a sweep
resumed from its record, and the skill trace."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.simulate import sweep

HEAD_START = str(Path(__file__).parent / "sweep" / "head-start.rules")


def run(capsys, *args) -> dict:
    assert main(["sweep", HEAD_START, *args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def rows(data) -> dict:
    return {r["setting"]: r for r in data["settings"]}


def test_a_setting_that_favours_seat_1_is_flagged(capsys):
    data = rows(run(capsys, "--vary", "head_start=0,1,6", "-n", "60", "--workers", "1", "--seed", "3"))
    assert data["head_start=0"]["reference"] and not data["head_start=6"]["reference"]
    planted = data["head_start=6"]
    assert planted["figures"]["seat 1 win rate"]["value"] > 0.8
    assert planted["differs"]["seat 1 win rate"] is True
    lo, hi = planted["figures"]["seat 1 win rate"]["ci"]
    assert lo <= planted["figures"]["seat 1 win rate"]["value"] <= hi
    # one point never hurts seat 1, and on the same dice it turns a few games: paired, that is significant
    assert data["head_start=1"]["differs"]["seat 1 win rate"] is True
    assert "seat 1 win rate" not in data["head_start=0"]["differs"]     # the reference is not compared with itself


def test_the_same_rules_are_never_flagged(capsys):
    data = run(capsys, "--vary", "head_start=2", "--compare", HEAD_START, "--set", "head_start=2", "-n", "40",
               "--workers", "1")
    same = [r for r in data["settings"] if not r["reference"]]
    assert len(same) == 1 and not any(same[0]["differs"].values())
    assert same[0]["figures"] == data["settings"][0]["figures"]


def test_racing_spends_fewer_games_on_a_clearly_worse_setting(capsys):
    raced = rows(run(capsys, "--vary", "head_start=0,1,6", "-n", "80", "--workers", "1", "--seed", "3",
                     "--target", "first_player_gap"))
    assert raced["head_start=6"]["games"] < 80 and raced["head_start=6"]["stopped_after"]
    assert raced["head_start=0"]["games"] == 80                          # the reference plays every round
    full = rows(run(capsys, "--vary", "head_start=0,1,6", "-n", "80", "--workers", "1", "--seed", "3",
                    "--target", "first_player_gap", "--no-race"))
    assert all(r["games"] == 80 for r in full.values())


def test_the_target_ranks_the_settings(capsys):
    data = run(capsys, "--vary", "head_start=0,6", "-n", "40", "--workers", "1", "--target", "first_player_gap",
               "--no-race")
    assert data["target"]["best"] == "head_start=0" and data["target"]["better"] == "lower"
    assert data["target"]["ranking"] == ["head_start=0", "head_start=6"]
    assert data["target"]["margin"] > 0.3


def test_the_figures_do_not_depend_on_the_workers(capsys):
    args = ("--vary", "head_start=0..2", "-n", "30", "--seed", "5", "--target", "balance")
    assert run(capsys, *args, "--workers", "1") == run(capsys, *args, "--workers", "2")


def test_an_interrupted_sweep_resumes_from_its_record(capsys, tmp_path):
    out = tmp_path / "sweep.jsonl"
    args = ("--vary", "head_start=0,3", "-n", "30", "--workers", "1", "--out", str(out))
    whole = run(capsys, *args)
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 2 * 30                  # the header, then a line a game
    out.write_text("\n".join(lines[:21]) + "\n")      # stopped after 20 games
    assert run(capsys, *args) == whole
    assert len(out.read_text().splitlines()) == len(lines)     # only the 40 missing games were played again


def test_a_record_of_another_sweep_is_refused(capsys, tmp_path):
    out = tmp_path / "sweep.jsonl"
    run(capsys, "--vary", "head_start=0,3", "-n", "10", "--workers", "1", "--out", str(out))
    assert main(["sweep", HEAD_START, "--vary", "head_start=0,4", "-n", "10", "--out", str(out)]) == 1
    assert "records another sweep" in capsys.readouterr().err
    out.write_text("not json\n")
    assert main(["sweep", HEAD_START, "--vary", "head_start=0,4", "-n", "10", "--out", str(out)]) == 1
    assert "not a sweep record" in capsys.readouterr().err


@pytest.mark.parametrize("args, said", [
    (["--vary", "speed=1..3"], "has no option 'speed'"),
    (["--vary", "head_start=5..2"], "the range is empty"),
    (["--vary", "head_start=0..9"], "head_start"),
    (["--vary", "head_start"], "NAME=LOW..HIGH"),
    ([], "say what to sweep"),
    (["--vary", "head_start=0,1", "--target", "duration"], "say whether more is better"),
])
def test_a_bad_sweep_is_one_sentence(capsys, args, said):
    assert main(["sweep", HEAD_START, "-n", "4", "--workers", "1", *args]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_table_marks_the_reference_and_the_differences(capsys):
    assert main(["sweep", HEAD_START, "--vary", "head_start=0,6", "-n", "40", "--workers", "1",
                 "--target", "balance"]) == 0
    out = capsys.readouterr().out
    assert "head_start=0 (reference)" in out
    assert "*" in next(line for line in out.splitlines() if line.startswith("head_start=6"))
    assert "best by balance (higher is better): head_start=0" in out
    assert max(len(line) for line in out.splitlines()) <= 130


def test_the_skill_trace_of_a_sweep(capsys):
    data = rows(run(capsys, "--vary", "head_start=0,6", "-n", "10", "--workers", "1", "--skill", "2",
                    "--skill-games", "6"))
    for r in data.values():
        assert len(r["skill_curve"]) == 2 and all(-1 <= y <= 1 for y in r["skill_curve"])
        assert 0 <= r["figures"]["skill_trace"]["value"] <= 1


def test_the_skill_trace_formula():
    assert sweep.skill_trace([0.0] * 8) == 0.0                  # chance: thinking longer wins nothing
    assert sweep.skill_trace([1.0] * 8) == 1.0                  # the stronger always wins
    assert sweep.skill_trace([0.1, -0.1, 0.1, -0.1]) == pytest.approx(0.02 / 4)   # falling: ŷ clamped to 0
    rising = sweep.skill_trace([0.1, 0.2, 0.3, 0.4])            # predicts 0.5 for the next match
    assert rising == pytest.approx(0.5 + 0.5 * (0.01 + 0.04 + 0.09 + 0.16) / 4)
    assert sweep.skill_agents("ismcts", 3, 2, 1, 3) == ("ismcts:iterations=4", "ismcts:iterations=8")


def test_a_plot_is_drawn(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "sweep.png"
    assert main(["sweep", HEAD_START, "--vary", "head_start=0..2", "-n", "10", "--workers", "1",
                 "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_measures_the_skill_trace_on_request(capsys):
    assert main(["simulate", HEAD_START, "-n", "6", "--workers", "1", "--skill", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["skill_curve"]) == 2 and 0 <= out["metrics"]["skill_trace"] <= 1
    assert main(["simulate", HEAD_START, "-n", "6", "--workers", "1", "--json"]) == 0
    assert "skill_trace" not in json.loads(capsys.readouterr().out)["metrics"]     # it costs search games: asked for


@pytest.mark.parametrize("command", ["simulate", "sweep", "tournament"])
def test_the_help_says_percent_once(capsys, command):
    with pytest.raises(SystemExit):
        from rulecraft.cli.main import build_parser
        build_parser().parse_args([command, "--help"])
    out = capsys.readouterr().out
    assert "95 %" in out and "%%" not in out
