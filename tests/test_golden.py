"""Golden games: transcripts and printed games.

Each `tests/golden/NAME.yaml` is a transcript written by `rulecraft run … --log`, and
`NAME.out` what that run printed (the printed games were first written before the compiler's
redesign and have not changed since). Today's rulecraft must replay every transcript (each
decision and chance outcome checked, the result compared) and, given the same game, seed,
players and options, print the same game byte for byte and write the same transcript. A change
that moves a card, an option id, a label or a line of narration fails here.

`tests/golden/before-redesign/` keeps the transcripts (and a save) as the rulecraft of before
the typed IR wrote them, without chance outcomes: they must still replay, as long as their game's
rules are the ones they were made with. A game whose rules have changed since (issue 12 changed
Weird Sisters and Three Sisters) refuses them with one plain sentence, as it refuses any
transcript of other rules; they are kept, not rewritten, and that refusal is what is checked.

After an intended change of output, rewrite them with `RULECRAFT_UPDATE_GOLDEN=1 python -m pytest
tests/test_golden.py` and read the diff.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rulecraft.cli.main import main
from rulecraft.loader import load

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.yaml"))
BEFORE = sorted((ROOT / "tests" / "golden" / "before-redesign").glob("*.yaml"))
UPDATE = os.environ.get("RULECRAFT_UPDATE_GOLDEN") == "1"


def test_there_are_golden_games():
    for paths in (GOLDEN, BEFORE):
        games = {YAML(typ="safe").load(p.read_text())["game"] for p in paths}
        assert {"blackmore", "three-sisters", "three-sisters-solo", "weird-sisters"} <= games


def rules_changed_since(path) -> bool:
    data = YAML(typ="safe").load(path.read_text())
    return load(str(ROOT / data["game"]) if data["game"].endswith(".rules") else data["game"]).digest != data["rules_sha256"]


@pytest.mark.parametrize("path", GOLDEN + BEFORE, ids=lambda p: p.parent.name + "/" + p.stem)
def test_a_golden_transcript_replays(path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)           # example games are named by their path from the repository
    if path in BEFORE and rules_changed_since(path):
        assert main(["replay", str(path), "-q"]) == 1
        assert "was made with other rules than today's" in capsys.readouterr().err
        return
    assert main(["replay", str(path), "-q"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_golden_game_is_played_again_byte_for_byte(path, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(ROOT)
    data = YAML(typ="safe").load(path.read_text())
    log = tmp_path / "again.yaml"
    argv = ["run", data["game"], "--seed", str(data["seed"]), "--players", str(data["players"]), "--log", str(log)]
    for name, value in (data.get("options") or {}).items():
        argv += ["--set", f"{name}={value}"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    expected = path.with_suffix(".out")
    if UPDATE:
        expected.write_text(printed)
        path.write_text(log.read_text())
    assert printed == expected.read_text()
    assert log.read_text() == path.read_text()


def test_a_save_written_before_the_redesign_still_loads():
    """Its frames are laid out as the old compiled rules had them; the game they hold is checked, not those."""
    from rulecraft.engine import records
    from rulecraft.loader import load
    path = ROOT / "tests" / "golden" / "before-redesign" / "blackmore.save"
    data = records.read(path)
    session = records.restore(data, load, narrate=False)
    records.verify_state(data, session)
    assert session.state.decisions == len(data["decisions"]) and not session.over


def test_a_save_whose_stored_game_was_changed_is_still_refused():
    from rulecraft.diagnostics import UserError
    from rulecraft.engine import records
    from rulecraft.loader import load
    data = records.read(ROOT / "tests" / "golden" / "before-redesign" / "blackmore.save")
    session = records.restore(data, load, narrate=False)
    zones = data["state"]["zones"]
    source = next(z for z in zones if len(z) > 1)
    target = next(z for z in zones if z is not source)
    target.append(source.pop())                       # one card moved to another place
    with pytest.raises(UserError, match="damaged"):
        records.verify_state(data, session)
