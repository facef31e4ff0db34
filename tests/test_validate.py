"""`rulecraft test` and `rulecraft replay --step`: validating rules with scenarios and exploration.

Every bundled game and every example passes `rulecraft test` with a bounded
exploration; the planted bug (examples/blackmore-no-refill.rules) is found,
shrunk to a short transcript, and that transcript replays to the same failure.
The front door holds: corrupt transcripts and saves give one sentence and exit
status 1, never a traceback.

Most tests call `main(argv)` in-process (fast) and read stdout/stderr with
capsys; each works in its own folder, where the failing games are written.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from rulecraft.check.modules import bundled_games
from rulecraft.cli.main import main
from rulecraft.loader import load, load_file
from rulecraft.validate import explore

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rules"))
# examples that carry a bug on purpose, and the property `rulecraft test` must find broken
PLANTED = {"blackmore-no-refill.rules": "invariant 'full_hands' breaks"}
BOUNDED = ["--explore", "3", "--shallow"]


@pytest.fixture(autouse=True)
def _own_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "internal error" not in err, err
    return code, out, err


def summary(out: str) -> tuple[int, int]:
    m = re.search(r"^(\d+) passed, (\d+) failed$", out.strip().splitlines()[-1])
    assert m, f"no summary line at the end of:\n{out}"
    return int(m.group(1)), int(m.group(2))


# ------------------------------------------------------------ bundled games and examples
@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_every_bundled_game_passes(capsys, game):
    code, out, err = run(capsys, "test", game, *BOUNDED)
    assert code == 0, out + err
    program = load(game)
    configs = explore.configurations(program)
    assert summary(out) == (len(program.scenarios) + len(configs), 0)
    for sc in program.scenarios:
        assert re.search(rf"^ok  {sc.name}( — |$)", out, re.M), out
    assert "FAIL" not in out


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name not in PLANTED], ids=lambda p: p.name)
def test_every_example_passes(capsys, path):
    code, out, err = run(capsys, "test", path, *BOUNDED)
    assert code == 0, out + err
    passed, failed = summary(out)
    assert failed == 0 and passed >= 1


def test_blackmore_states_invariants_and_a_bound():
    program = load("blackmore")
    assert {name for name, *_ in program.invariants} >= {"full_hands", "always_a_trump"}
    assert program.limit == 108


# ------------------------------------------------------------------ the planted bug
@pytest.fixture
def planted(capsys, tmp_path):
    """`rulecraft test` on the planted bug: (exit code, output, transcript path). The game is copied into
    the folder the transcript is written to: a transcript names only a game in its folder (or the current one)."""
    shutil.copy(ROOT / "examples" / "blackmore-no-refill.rules", tmp_path)
    code, out, err = run(capsys, "test", tmp_path / "blackmore-no-refill.rules", "--explore", "5",
                         "--out", tmp_path)
    return code, out, tmp_path / "blackmore-no-refill.failure.yaml"


def test_the_planted_bug_is_found_and_shrunk(planted):
    code, out, path = planted
    assert code == 1
    assert f"FAIL 2 players, wheel=descending, hand_size=6: {PLANTED['blackmore-no-refill.rules']}" in out
    assert "invariant full_hands:" in out                       # the invariant's source line is shown
    assert f"rulecraft replay {path} --step" in out
    # its scenarios pass: only the exploration finds the bug
    assert not re.search(r"^FAIL (?!\d+ players)", out, re.M)
    assert summary(out) == (6, 1)
    data = YAML(typ="safe").load(path.read_text())
    assert data["rulecraft"] == "transcript" and data["players"] == 2
    assert data["failure"]["property"] == "invariant full_hands"
    # the bug shows at the first contest's end: two cards played and one trump decision
    assert len(data["decisions"]) == 3 == data["failure"]["after"]
    assert [d["label"].split()[0] for d in data["decisions"]] == ["play", "play", data["decisions"][2]["label"].split()[0]]
    assert f"shrunk to a game of 3 decisions" in out


def test_the_shrunk_transcript_replays_to_the_failure(planted, capsys):
    _, _, path = planted
    code, out, err = run(capsys, "replay", path)
    assert code == 1
    assert "3 decisions replayed, each legal; then invariant 'full_hands' breaks after decision 3" in out


def test_replay_step_shows_each_decision_as_a_player_sees_it(planted, capsys):
    _, _, path = planted
    code, out, err = run(capsys, "replay", path, "--step")
    assert code == 1
    for k in (1, 2, 3):
        assert f"── decision {k} of 3 · as Player " in out
    assert "your hand: " in out and "(you): 6 cards in hand" in out     # the own hand shown; the others' counted
    assert "deck 41 cards" in out                                        # the game's sheet
    assert "── after decision 3, where it fails" in out
    assert out.rstrip().splitlines()[-1].startswith("FAILURE: invariant 'full_hands' breaks after decision 3")


def test_replay_step_omniscient_and_fixed_seat(planted, capsys):
    _, _, path = planted
    code, out, _ = run(capsys, "replay", path, "--step", "--omniscient")
    assert code == 1 and "showing everything, hidden cards included" in out
    assert "hidden cards" not in out.split("── decision 1")[1]
    code, out, _ = run(capsys, "replay", path, "--step", "--seat", "2")
    assert out.count("· as Player 2 sees it") == 4
    code, out, err = run(capsys, "replay", path, "--step", "--seat", "5")
    assert code == 1 and "there is no seat 5" in err


def test_the_fixed_variant_passes(capsys):
    code, out, _ = run(capsys, "test", ROOT / "examples" / "blackmore-trump-sweep.rules", "--explore", "5",
                       "--players", "2")
    assert code == 0 and summary(out) == (6 + 4, 0)


def test_the_same_seed_gives_the_same_run(capsys):
    args = ("test", ROOT / "examples" / "blackmore-no-refill.rules", "--explore", "4", "--seed", "11")
    first = run(capsys, *args)
    assert first == run(capsys, *args)
    code, out, _ = first
    assert code == 1 and "invariant 'full_hands' breaks" in out and "game seed " in out    # the same failure found


# ------------------------------------------------------ failures of every kind, small games
FRAGILE = '''\
game "Fragile"
players 2..3
var total: Int
rule play:
    repeat 3:
        for p in players:
            p chooses k in 1..3 as "take {k}":
                total += 12 / (3 - k)
score p = total
'''

ENDLESS = '''\
game "Endless"
players 2
limit decisions 6
var left: Int = 10
rule play:
    while left > 0:
        for p in players:
            p chooses k in 1..2 as "take {k}":
                left -= k
score p = 0
'''

SCENARIOS = '''\
game "Sums"
players 2
var total: Int
rule play:
    for p in players:
        p chooses k in 1..3 as "take {k}":
            total += k
score p = total
invariant small: total <= 6
scenario good "two threes make six":
    take "take 3"
    take "take 3"
    expect total == 6
scenario bad "a wrong sum":
    take "take 1"
    take "take 2"
    expect total == 4
scenario illegal "no fours":
    expect legal "take 4"
'''


def test_a_failing_decision_is_written_before_it_and_named(capsys, tmp_path):
    (tmp_path / "fragile.rules").write_text(FRAGILE)
    code, out, _ = run(capsys, "test", "fragile.rules", "--explore", "5")
    assert code == 1
    assert "FAIL 2 players: 'no runtime error' breaks" in out
    assert "at decision 1: Player 1 takes 'take 3' and the rules fail:" in out
    assert "fragile.rules:8:17: runtime error: division by zero" in out
    assert "1 more configuration not explored" in out
    assert "wrote rulecraft-failures/fragile.failure.yaml" in out     # the default folder, made for it
    data = YAML(typ="safe").load((tmp_path / "rulecraft-failures" / "fragile.failure.yaml").read_text())
    assert data["decisions"] == []
    assert data["failure"]["decision"] == {"number": 1, "player": 1, "id": 2, "label": "take 3"}
    assert data["game"] == "../fragile.rules"                          # from the transcript's own folder
    code, out, _ = run(capsys, "replay", "rulecraft-failures/fragile.failure.yaml")
    assert code == 1 and "then decision 1 (Player 1: take 3) makes the rules fail" in out
    code, out, _ = run(capsys, "replay", "rulecraft-failures/fragile.failure.yaml", "--step")
    assert "── before decision 1, the one that fails" in out and "→ Player 1: take 3" in out
    assert "FAILURE: decision 1 (Player 1: take 3) makes the rules fail" in out


def test_keep_going_explores_every_configuration(capsys, tmp_path):
    (tmp_path / "fragile.rules").write_text(FRAGILE)
    code, out, _ = run(capsys, "test", "fragile.rules", "--explore", "5", "--keep-going")
    assert code == 1 and summary(out) == (0, 2)
    out_dir = tmp_path / "rulecraft-failures"
    assert (out_dir / "fragile.failure.yaml").is_file() and (out_dir / "fragile.failure-2.yaml").is_file()


def test_a_game_longer_than_its_limit_fails(capsys, tmp_path):
    (tmp_path / "endless.rules").write_text(ENDLESS)
    code, out, _ = run(capsys, "test", "endless.rules", "--explore", "5")
    assert code == 1 and "'the game ends' breaks" in out and "has not ended after 6 decisions" in out
    assert "the limit its rules set (`limit decisions 6`): if these rules do end, raise the limit" in out
    code, out, _ = run(capsys, "replay", "rulecraft-failures/endless.failure.yaml")
    assert code == 1 and "'the game ends' breaks after decision 6" in out


def test_scenario_failures_name_the_file_and_line(capsys, tmp_path):
    (tmp_path / "sums.rules").write_text(SCENARIOS)
    code, out, _ = run(capsys, "test", "sums.rules", "--explore", "5")
    assert code == 1
    assert "ok  good — two threes make six" in out
    assert "FAIL bad: sums.rules:17:5: expectation not met" in out
    assert "     17 |     expect total == 4" in out
    assert re.search(r"FAIL illegal: sums.rules:19:5: 'take 4' should be legal; the options are: 'take 1'", out)
    # the invariant holds (two picks of at most 3): the one configuration passes
    # issue 11: the count is of different games played to the end, never more than announced
    (count,) = re.findall(r"^ok  2 players — (\d+) different games?, ", out, re.M)
    assert 1 <= int(count) <= 5 and "exploring: up to 5 random games" in out
    assert summary(out) == (2, 2)


def test_explore_hands_back_the_decisions_taken(tmp_path):
    (tmp_path / "fragile.rules").write_text(FRAGILE)
    report = explore.explore(load_file(tmp_path / "fragile.rules"), 5)
    (failure,) = report.failures
    assert failure.decisions == [2] and failure.failed_decision and failure.step == 1


def test_errors_in_the_rules_are_diagnostics(capsys, tmp_path):
    (tmp_path / "bad.rules").write_text('game "Bad"\nplayers 2\nzone hnd of Foo\nrule play:\n    say "x"\n')
    code, out, err = run(capsys, "test", "bad.rules")
    assert code == 1 and "bad.rules:3:" in err and "error:" in err and out == ""


@pytest.mark.parametrize("argv,message", [
    (["--players", "9"], "is for 2 to 6 players, not 9"),
    (["--set", "colour=red"], "has no option 'colour'"),
    (["--explore", "-1"], "--explore takes a number of games"),
    (["--out", "/dev/null"], "it is a file, not a folder"),
])
def test_bad_arguments_are_one_sentence(capsys, argv, message):
    code, out, err = run(capsys, "test", "blackmore", *argv)
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1


def test_set_and_players_narrow_the_exploration(capsys):
    code, out, _ = run(capsys, "test", "blackmore", "--explore", "1", "--shallow", "--players", "3",
                       "--set", "hand_size=2")
    assert code == 0
    explored = re.findall(r"^ok  (\d players, .*) — 1 different game, \d+ decisions each$", out, re.M)
    assert explored == ["3 players, wheel=descending, hand_size=2", "3 players, wheel=ascending, hand_size=2"]


def test_the_installed_command(tmp_path):
    """One run through the real command: exit status and output, no traceback."""
    proc = subprocess.run([sys.executable, "-m", "rulecraft", "test", str(ROOT / "examples" / "nim.rules"),
                           "--explore", "2", "--shallow"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    # Nim for 2 to 4 players and each of its three stone counts: nine configurations, each explored
    configurations = [line.split(" — ")[0] for line in lines if line.startswith("ok  ")]
    assert sorted(configurations) == sorted(f"ok  {n} players, stones={s}" for n in (2, 3, 4) for s in (5, 15, 30))
    assert lines[-1] == "9 passed, 0 failed" and "Traceback" not in proc.stderr


# ------------------------------------------------- the front door: corrupt transcripts and saves
TINY = '''\
game "Tiny"
players 2
card Chip(n: 1..4) named "chip {n}"
cards chips = [Chip(n) for n in 1..4]
zone pile of Chip
zone hand of Chip per player, seen by owner
rule setup:
    move chips to pile
    shuffle pile
rule play:
    repeat 2:
        for p in players:
            p chooses c in pile as "take {c}":
                move c to p.hand
score p = sum(c.n for c in p.hand)
'''


@pytest.fixture
def tiny(tmp_path, capsys):
    """A finished transcript and a save (after two decisions) of Tiny; returns their texts."""
    (tmp_path / "tiny.rules").write_text(TINY)
    assert main(["run", "tiny.rules", "--seed", "3", "--log", "tiny.yaml", "-q"]) == 0
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    s = Session.start(load_file(tmp_path / "tiny.rules"), "tiny.rules", 2, 3)
    for _ in range(2):
        s.take(s.legal()[0].id)
    records.write(tmp_path / "tiny.save", s, "save")
    capsys.readouterr()
    return (tmp_path / "tiny.yaml").read_text(), (tmp_path / "tiny.save").read_text()


def refused(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert "Traceback" not in out + err and "internal error" not in err, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("rulecraft: warning: the rules changed")]
    assert len(lines) == 1 and lines[0].startswith("rulecraft: error: "), err
    return lines[0]


READERS = [["replay"], ["replay", "--step"], ["play", "--load"]]


@pytest.mark.parametrize("reader", READERS, ids=" ".join)
@pytest.mark.parametrize("damage", ["truncated", "wrong types", "id out of range", "other rules",
                                    "random bytes", "empty", "a list", "negative seed type", "bad label"])
def test_corrupt_transcripts_and_saves_are_one_sentence(capsys, tmp_path, tiny, reader, damage):
    transcript, save = tiny
    text = save if reader[0] == "play" else transcript
    path = tmp_path / "damaged.yaml"
    if damage == "truncated":
        path.write_text(text[: len(text) // 2] + "\n- {player: [")
    elif damage == "wrong types":
        path.write_text(text.replace("players: 2", "players: two"))
    elif damage == "id out of range":
        path.write_text(re.sub(r"id: \d+, label: take chip \d", "id: 999999, label: take chip 9", text, count=1))
    elif damage == "other rules":
        (tmp_path / "tiny.rules").write_text(TINY.replace("players 2", "players 3..4"))
        path.write_text(text)
    elif damage == "random bytes":
        path.write_bytes(bytes(range(256)) * 3)
    elif damage == "empty":
        path.write_text("")
    elif damage == "a list":
        path.write_text("- 1\n- 2\n")
    elif damage == "negative seed type":
        path.write_text(text.replace("seed: 3", "seed: [3]"))
    elif damage == "bad label":
        path.write_text(re.sub(r"label: take chip \d", "label: take chip 9", text, count=1))
    sentence = refused(capsys, reader + [str(path)])
    expected = {
        "truncated": "not a valid transcript or save", "wrong types": "'players' is missing or wrong",
        "id out of range": "is not legal at that point",
        "other rules": "it says 2 players, but Tiny is for 3 to 4",
        "random bytes": "cannot read", "empty": "is not a rulecraft transcript or save",
        "a list": "is not a rulecraft transcript or save", "negative seed type": "'seed' is missing or wrong",
        "bad label": "says 'take chip 9'",
    }[damage]
    assert expected in sentence, sentence


def test_a_transcript_with_a_damaged_failure_record(capsys, tmp_path, tiny):
    transcript, _ = tiny
    path = tmp_path / "odd.yaml"
    path.write_text(transcript.replace("result:", "failure: 12\nresult:", 1))
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err and "damaged form" in out


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_mutated_transcripts_never_crash(data, tmp_path_factory):
    """Lines of a real transcript deleted, repeated or edited: a sentence or a clean replay, never a traceback."""
    folder = tmp_path_factory.mktemp("mutated")
    (folder / "tiny.rules").write_text(TINY)
    lines = TRANSCRIPT.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["delete", "repeat", "number", "text", "indent"]))
        if kind == "delete":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "number":
            lines[i] = re.sub(r"\d+", str(data.draw(st.sampled_from([0, -1, 7, 10**20]))), lines[i], count=1)
        elif kind == "text":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))] + data.draw(st.text(max_size=6))
        else:
            lines[i] = "  " + lines[i]
        if not lines:
            lines = [""]
    path = folder / "t.yaml"
    path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    import os
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for argv in (["replay", "-q", str(path)], ["replay", "--step", str(path)]):
            import contextlib
            import io
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
            assert code in (0, 1)
            assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue(), err.getvalue()
            if code == 1:
                assert len(err.getvalue().strip().splitlines()) <= 1 or "runtime error" in err.getvalue()
    finally:
        os.chdir(cwd)


def _tiny_transcript() -> str:
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "tiny.rules").write_text(TINY)
        from rulecraft.engine import records
        from rulecraft.engine.session import Session
        s = Session.start(load_file(Path(d) / "tiny.rules"), "tiny.rules", 2, 3, narrate=False)
        while not s.over:
            s.take(s.legal()[-1].id)
        return records.dump(records.session_record(s, "transcript"))


TRANSCRIPT = _tiny_transcript()


def test_the_tutorial_quotes_the_real_files():
    """docs/validating.md: each ```rules block headed `# examples/NAME.rules` is a verbatim part of that file."""
    text = (ROOT / "docs" / "validating.md").read_text(encoding="utf-8")
    quoted = re.findall(r"^```rules\n# (examples/[\w.-]+\.rules)\n(.*?)^```$", text, re.M | re.S)
    assert len(quoted) >= 3
    for name, body in quoted:
        assert body in (ROOT / name).read_text(encoding="utf-8"), f"docs/validating.md quotes {name} wrongly"
    for name in PLANTED:
        assert f"rulecraft test examples/{name}" in text


@pytest.mark.parametrize("shown", ['    say "the top is {top(pile)}"\n', '    player(1) chooses k in 1..2 as "take {top(pile)}":\n        pass\n'],
                         ids=["narration", "label"])
def test_what_fails_only_when_shown_is_found(tmp_path, capsys, shown):
    """A `say` or a label that fails is found by `rulecraft test`, though `run -q` never evaluates it."""
    path = tmp_path / "shown.rules"
    path.write_text('game "Shown"\nplayers 1\nzone pile of Card\nrule play:\n' + shown, encoding="utf-8")
    assert main(["test", str(path), "--explore", "2", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "top of an empty zone" in out


def test_a_variant_failing_an_inherited_scenario_is_told_about_drop_scenario(capsys, tmp_path):
    """Issue 11: a variant that changes a rule inherits scenarios that now fail: say where they come from."""
    (tmp_path / "upside.rules").write_text("extends blackmore\noverride def strength(c: Witch): Int = 10 - original(c)\n")
    code, out, _ = run(capsys, "test", "upside.rules", "--explore", "0")
    assert code == 1
    assert "hint: this scenario comes from games/blackmore.rules, which these rules extend" in out
    assert "`drop scenario wheel_descending`" in out


def test_check_says_what_a_module_is_and_checks_a_variant_as_a_game(capsys, tmp_path):
    (tmp_path / "helper.rules").write_text("def two: Int = 2\n")
    (tmp_path / "variant.rules").write_text("extends blackmore\noverride def strength(c: Witch): Int = 1\n")
    code, out, _ = run(capsys, "check", "helper.rules", "variant.rules")
    assert code == 0
    assert "helper.rules: ok (a module: declarations for games to `import`" in out
    assert "variant.rules: ok\n" in out
