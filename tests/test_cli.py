"""The `rulecraft` command: run, play, check, list, replay — and no traceback for any bad input.

Most tests call `main(argv)` in-process and read stdout/stderr with capsys; a
few run the installed command in a subprocess. Every test works in its own
folder (the rules' digest is taken from paths as shown from there).
"""
from __future__ import annotations

import re
from pathlib import Path
import subprocess
import sys

import pytest
from ruamel.yaml import YAML

from rulecraft.cli import main as cli_main
from rulecraft.cli.main import main
from helpers import Keyboard

TINY = '''\
game "Tiny"
players 2..3
option bonus: 0..5 = 0 "points added to every score"
card Chip(n: 1..4) named "chip {n}"
cards chips = [Chip(n) for n in 1..4]
zone pile of Chip
zone hand of Chip per player, seen by owner
rule setup:
    move chips to pile
    shuffle pile
    say "Chips are ready."
rule play:
    for p in players:
        p chooses c in pile as "take {c}":
            move c to p.hand
        say "{p} took a chip."
score p = sum(c.n for c in p.hand) + bonus
'''

BOOM = '''\
game "Boom"
players 2
card Chip(n: 1..2) named "chip {n}"
cards chips = [Chip(n) for n in 1..2]
zone pile of Chip
zone hand of Chip per player
rule play:
    for p in players:
        p chooses c in chips as "take {c}":
            move top(pile) to p.hand
score p = 0
'''

BROKEN = '''\
game "Bad"
players 2
zone hnd of Foo
rule play:
    say "hello"
'''


@pytest.fixture(autouse=True)
def _own_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULECRAFT_DEBUG", raising=False)


def call(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def one_sentence_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("rulecraft: error: "), err
    return lines[0]


def yaml_load(path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def yaml_dump(data, path):
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = None
    with path.open("w", encoding="utf-8") as f:
        y.dump(data, f)


# ---------------------------------------------------------------------- run
def test_run_prints_an_account_and_is_deterministic(capsys):
    code, out, err = call(capsys, "run", "blackmore", "--seed", "5", "--players", "3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "The Witches of Blackmore: 3 players, seed 5"
    assert lines[1] == "options: wheel=descending, hand_size=6"
    assert lines[2] == "seats: Player 1 random, Player 2 random, Player 3 random"
    assert lines[3].startswith("The trump is ")            # setup narration before any decision
    assert lines[4].startswith("  Player ") and ": play " in lines[4]
    # narration is interleaved: each contest's three plays come right before its winner is announced
    wins = [i for i, line in enumerate(lines) if " wins the contest with " in line]
    assert wins
    for i in wins:
        assert all(": play " in lines[j] for j in range(i - 3, i))
    assert "Final scores:" in lines
    assert lines[-1].startswith("Winner: ") or lines[-1].startswith("Winners (tied")
    code2, out2, _ = call(capsys, "run", "blackmore", "--seed", "5", "--players", "3")
    assert code2 == 0 and out2 == out
    _, out3, _ = call(capsys, "run", "blackmore", "--seed", "6", "--players", "3")
    assert out3 != out


def test_run_defaults_and_agents(capsys):
    code, out, _ = call(capsys, "run", "blackmore", "--seed", "1")
    assert code == 0 and out.startswith("The Witches of Blackmore: 4 players, seed 1\n")
    code, out, _ = call(capsys, "run", "blackmore", "--seed", "1", "--agents", "first,random,first")
    assert code == 0
    assert "3 players" in out.splitlines()[0]
    assert "seats: Player 1 first, Player 2 random, Player 3 first" in out
    # a first-legal agent always plays the first card its hand offers: runs agree whatever the seed of agents
    _, out_a, _ = call(capsys, "run", "blackmore", "--seed", "1", "--agents", "first", "-n", "2")
    _, out_b, _ = call(capsys, "run", "blackmore", "--seed", "1", "--agents", "first", "-n", "2")
    assert out_a == out_b


def test_run_quiet_prints_only_the_result(capsys):
    code, out, _ = call(capsys, "run", "blackmore", "--seed", "2", "--players", "2", "--quiet")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Final scores:"
    assert len(lines) == 4 and lines[1].startswith("  Player 1") and lines[2].startswith("  Player 2")
    # the quiet result is the tail of the full account
    _, full, _ = call(capsys, "run", "blackmore", "--seed", "2", "--players", "2")
    assert full.endswith(out)


def test_run_sets_options(capsys, tmp_path):
    (tmp_path / "tiny.rules").write_text(TINY)
    _, plain, _ = call(capsys, "run", "tiny.rules", "--seed", "4", "-n", "2", "-q")
    code, bonus, _ = call(capsys, "run", "tiny.rules", "--seed", "4", "-n", "2", "-q", "--set", "bonus=5")
    assert code == 0
    score = lambda text, who: int(next(l for l in text.splitlines() if l.strip().startswith(who)).split()[2])
    assert score(bonus, "Player 1") == score(plain, "Player 1") + 5
    assert score(bonus, "Player 2") == score(plain, "Player 2") + 5


def test_log_transcript_replays_identically(capsys, tmp_path):
    code, out, _ = call(capsys, "run", "blackmore", "--seed", "11", "-n", "3", "--set", "wheel=ascending",
                        "--log", "game.yaml")
    assert code == 0
    data = yaml_load(tmp_path / "game.yaml")
    assert data["rulecraft"] == "transcript" and data["seed"] == 11 and data["players"] == 3
    assert data["options"]["wheel"] == "ascending"
    assert len(data["decisions"]) == len(re.findall(r"^  Player \d: ", out, re.M))
    code, replayed, err = call(capsys, "replay", "game.yaml")
    assert code == 0 and err == ""
    body, _, last = replayed.rstrip("\n").rpartition("\n")
    assert body + "\n" == out
    assert last == f"game.yaml: verified, {len(data['decisions'])} decisions, each legal and the recorded result matches."


def test_edited_transcript_is_refused_naming_the_decision(capsys, tmp_path):
    call(capsys, "run", "blackmore", "--seed", "3", "-n", "2", "-q", "--log", "game.yaml")
    data = yaml_load(tmp_path / "game.yaml")
    # decision 5: swap in a card the player does not hold at that point
    from rulecraft.engine import records
    from rulecraft.loader import load
    k = 4
    before = records.restore(data, load, upto=k)
    legal = {o.id for o in before.legal()}
    bad = next(i for i in range(100) if i not in legal)
    data["decisions"][k]["id"] = bad
    del data["decisions"][k]["label"]
    yaml_dump(data, tmp_path / "edited.yaml")
    code, out, err = call(capsys, "replay", "edited.yaml")
    assert code == 1
    line = one_sentence_error(err)
    assert "decision 5 in edited.yaml" in line and "is not legal at that point" in line


def test_transcript_with_a_forged_result_is_refused(capsys, tmp_path):
    call(capsys, "run", "blackmore", "--seed", "3", "-n", "2", "-q", "--log", "game.yaml")
    data = yaml_load(tmp_path / "game.yaml")
    data["result"]["scores"]["Player 1"] += 1
    yaml_dump(data, tmp_path / "forged.yaml")
    code, _, err = call(capsys, "replay", "forged.yaml", "-q")
    assert code == 1
    assert "records the result" in one_sentence_error(err)


@pytest.mark.parametrize("argv, words", [
    (["run", "blackmore", "--set", "wheel=sideways"], "option 'wheel' is one of descending, ascending, not 'sideways'"),
    (["run", "blackmore", "--set", "colour=red"], "no option 'colour'"),
    (["run", "blackmore", "--set", "wheel"], "NAME=VALUE"),
    (["run", "blackmore", "--set", "hand_size=12"], "hand_size"),
    (["run", "blackmore", "--players", "9"], "2 to 6 players, not 9"),
    (["run", "blackmor"], "did you mean 'blackmore'"),
    (["run", "no/such/file.rules"], "no bundled game or file named"),
    (["run", "blackmore", "--agents", "robot"], "unknown agent 'robot'"),
    (["run", "blackmore", "-n", "2", "--agents", "random,first,random"], "3 agents for 2 players"),
    (["run", "blackmore", "--agents", "human"], "rulecraft play"),
    (["run", "blackmore", "--agents", "Human"], "rulecraft play"),
    (["play", "blackmore", "--seat", "7"], "no seat 7"),
    (["play", "blackmore", "--seat", "first"], "--seat takes seat numbers"),
    (["play"], "name a game"),
    (["replay", "missing.yaml"], "cannot read missing.yaml"),
])
def test_bad_input_is_one_sentence_and_exit_1(capsys, argv, words):
    code, _, err = call(capsys, *argv)
    assert code == 1
    assert words in one_sentence_error(err)


def test_the_agent_registry_drives_help_and_errors(capsys):
    from rulecraft.agents import AGENT_KINDS, make_agent
    _, out, _ = call(capsys, "run", "--help")
    help_text = " ".join(out.split())
    _, _, err = call(capsys, "run", "blackmore", "--agents", "robot")
    for name, kind in AGENT_KINDS.items():
        assert f"{name}: {kind.about}" in help_text
        assert name in err
    assert type(make_agent("FIRST")).__name__ == "FirstLegalAgent"


def test_corrupt_and_foreign_files_are_refused(capsys, tmp_path):
    (tmp_path / "junk.yaml").write_text("decisions: [1, 2\n")
    (tmp_path / "other.yaml").write_text("name: something else\nitems: [1, 2]\n")
    (tmp_path / "binary.yaml").write_bytes(b"\xff\xfe\x00garbage")
    for name, words in (("junk.yaml", "not a valid transcript"), ("other.yaml", "not a rulecraft transcript"),
                        ("binary.yaml", "cannot read")):
        for argv in (["replay", name], ["play", "--load", name]):
            code, _, err = call(capsys, *argv)
            assert code == 1 and words in one_sentence_error(err)


def test_usage_errors_exit_2(capsys):
    assert main(["run", "blackmore", "--seed", "x"]) == 2
    assert "invalid int value" in capsys.readouterr().err
    assert main(["frobnicate"]) == 2
    capsys.readouterr()
    assert main(["--help"]) == 0
    assert "rulecraft run blackmore" in capsys.readouterr().out


def test_runtime_failure_is_reported_without_traceback(capsys, tmp_path):
    (tmp_path / "boom.rules").write_text(BOOM)
    code, _, err = call(capsys, "run", "boom.rules", "--seed", "1", "--log", "boom.yaml")
    assert code == 1
    assert err.startswith("boom.rules:10:13: runtime error")
    assert "runtime error: top of an empty zone" in err and "in rule 'play'" in err
    assert (tmp_path / "boom.yaml").exists()


def test_internal_errors_and_interrupts_are_caught(capsys, monkeypatch):
    def bug(args):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(cli_main, "_command", lambda name: bug)
    code, _, err = call(capsys, "list")
    assert code == 1
    assert "internal error: ZeroDivisionError: division by zero" in one_sentence_error(err)

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli_main, "_command", lambda name: interrupted)
    code, out, err = call(capsys, "list")
    assert code == 130 and out == "" and err.strip() == ""


# -------------------------------------------------------------------- check
def test_check_clean_and_broken_files(capsys, tmp_path):
    (tmp_path / "tiny.rules").write_text(TINY)
    (tmp_path / "broken.rules").write_text(BROKEN)
    code, out, err = call(capsys, "check", "tiny.rules", "blackmore")
    assert (code, out, err) == (0, "tiny.rules: ok\nblackmore: ok\n", "")
    code, out, err = call(capsys, "check", "tiny.rules", "broken.rules")
    assert code == 1
    assert out == "tiny.rules: ok\n"
    assert "broken.rules:3:13: error: unknown type 'Foo'" in err
    assert "    3 | zone hnd of Foo" in err and "^^^" in err
    code, _, err = call(capsys, "check", "nothing.rules")
    assert code == 1 and "no bundled game or file named 'nothing.rules'" in err


def test_a_name_of_a_rules_file_beside_you_is_pointed_to_its_path(capsys, tmp_path, monkeypatch):
    """`rulecraft show nim --python` in the repository: nim is an example, not a bundled game."""
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "tiny.rules").write_text("x")
    monkeypatch.chdir(tmp_path)
    code, _, err = call(capsys, "run", "tiny")
    assert code == 1 and "did you mean the file examples/tiny.rules?" in err
    code, _, err = call(capsys, "run", "other")
    assert code == 1 and "bundled games: blackmore" in err


def test_check_and_test_show_warnings_and_pass(capsys, tmp_path):
    """A declaration that hides a built-in is a warning: shown by check and test, which still pass."""
    (tmp_path / "hides.rules").write_text('game "Hides"\nplayers 2\nvar first: Player\nrule play:\n    say "{first}"\n')
    code, out, err = call(capsys, "check", str(tmp_path / "hides.rules"))
    assert code == 0 and out.endswith("hides.rules: ok (1 warning)\n")
    assert "hides.rules:3:1: warning: the variable 'first' hides the built-in function first(…)" in err
    assert "    3 | var first: Player" in err and "rename it, e.g. 'first_player'" in err
    code, out, err = call(capsys, "test", str(tmp_path / "hides.rules"), "--explore", "1")
    assert code == 0 and "warning: the variable 'first' hides" in err


def test_run_of_a_broken_file_prints_diagnostics(capsys, tmp_path):
    (tmp_path / "broken.rules").write_text(BROKEN)
    code, out, err = call(capsys, "run", "broken.rules")
    assert code == 1 and out == ""
    assert err.startswith("broken.rules:3:13: error: unknown type 'Foo'")


# --------------------------------------------------------------------- list
def test_list_shows_games_counts_and_options(capsys, tmp_path):
    code, out, _ = call(capsys, "list")
    assert code == 0
    assert "blackmore: The Witches of Blackmore (2-6 players)" in out
    assert "--set wheel=<descending | ascending>  (default descending) - the side of the Witches' Wheel" in out
    assert "--set hand_size=<1..8>  (default 6)" in out
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "tiny.rules").write_text(TINY)
    code, out, _ = call(capsys, "list", "variants")
    assert code == 0
    assert "Tiny (2-3 players)" in out and "--set bonus=<0..5>  (default 0) - points added to every score" in out


# --------------------------------------------------------------------- play
def play(capsys, monkeypatch, keyboard, *argv):
    monkeypatch.setattr("builtins.input", keyboard)
    return call(capsys, "play", *argv)


def test_play_save_and_load_finish_like_an_uninterrupted_game(capsys, monkeypatch, tmp_path):
    table = ("blackmore", "--seat", "2", "--players", "3", "--seed", "21")
    # uninterrupted: three chosen answers, then always the first option
    code, whole, _ = play(capsys, monkeypatch, Keyboard(["1", "3", "2"], then="1"), *table, "--log", "whole.yaml")
    assert code == 0 and "Final scores:" in whole

    # the same choices, with commands between them, then `save` and `quit` at the fourth decision
    kb = Keyboard(["1", "view", "help", "3", "2", "save mid.yaml", "quit"])
    code, out, _ = play(capsys, monkeypatch, kb, *table, "--save", "auto.yaml")
    assert code == 0
    assert "Answer with an option's number" in out            # help
    assert "saved to mid.yaml" in out
    assert "resume with: rulecraft play --load auto.yaml" in out
    assert kb.prompts[0] == "Player 2> "
    mid = yaml_load(tmp_path / "mid.yaml")
    assert mid["rulecraft"] == "save" and mid["agents"] == ["random", "human", "random"]
    assert yaml_load(tmp_path / "auto.yaml")["decisions"] == mid["decisions"]

    code, rest, _ = play(capsys, monkeypatch, Keyboard([], then="1"), "--load", "mid.yaml", "--log", "resumed.yaml")
    assert code == 0
    assert f"resumed from mid.yaml after {len(mid['decisions'])} decisions" in rest.splitlines()[0]
    a, b = yaml_load(tmp_path / "whole.yaml"), yaml_load(tmp_path / "resumed.yaml")
    assert a["decisions"] == b["decisions"] and a["result"] == b["result"]
    assert rest[rest.index("Final scores:"):] == whole[whole.index("Final scores:"):]


def test_play_shows_only_what_the_seat_may_see(capsys, monkeypatch):
    kb = Keyboard([], then="1")
    code, out, _ = play(capsys, monkeypatch, kb, "blackmore", "--seat", "all", "-n", "2", "--seed", "8")
    assert code == 0 and "Final scores:" in out
    blocks = out.split("=== ")[1:]
    assert len(blocks) == len(kb.prompts)
    first = blocks[0]
    me = first.split(",")[0]                                  # "Player 1" or "Player 2"
    other = "Player 2" if me == "Player 1" else "Player 1"
    assert "\n  your hand: " in first and f"\n  {me} (you): 6 cards in hand · 0 cards won" in first
    assert f"\n  {other}: 6 cards in hand · 0 cards won" in first      # the others' hands: only how many
    assert "trump " in first and "deck 41 cards" in first             # the game's sheet
    # at a hot seat a forced decision is asked too: that a player had no choice is not shown to the table
    assert "your only option" not in out
    # the seed would let anyone replay the shuffle: players at the table are not shown it
    assert out.startswith("The Witches of Blackmore: 2 players, seed kept secret") and "seed 8" not in out
    # hot seat: both seats are asked
    assert {p for p in kb.prompts} == {"Player 1> ", "Player 2> "}


def test_play_end_of_input_leaves_quietly_with_exit_1(capsys, monkeypatch, tmp_path):
    code, out, err = play(capsys, monkeypatch, Keyboard(["1"]), "blackmore", "--seed", "2", "--save", "g.yaml")
    assert code == 1
    assert "input ended before the game did" in one_sentence_error(err)
    assert len(yaml_load(tmp_path / "g.yaml")["decisions"]) >= 1


def test_play_rejects_a_damaged_save(capsys, monkeypatch, tmp_path):
    play(capsys, monkeypatch, Keyboard(["1", "save s.yaml", "quit"]), "blackmore", "--seed", "2")
    data = yaml_load(tmp_path / "s.yaml")
    data["state"]["rng"] += 1
    yaml_dump(data, tmp_path / "s2.yaml")
    code, _, err = play(capsys, monkeypatch, Keyboard([]), "--load", "s2.yaml")
    assert code == 1 and "damaged" in one_sentence_error(err)
    code, _, err = play(capsys, monkeypatch, Keyboard([]), "--load", "s.yaml", "--seed", "0")
    assert code == 1 and "--seed cannot be used with --load" in one_sentence_error(err)


def test_play_interrupt_exits_130(capsys, monkeypatch):
    def ctrl_c(prompt=""):
        raise KeyboardInterrupt
    code, _, _ = play(capsys, monkeypatch, ctrl_c, "blackmore", "--seed", "2")
    assert code == 130


# --------------------------------------------------------------- subprocess
def _cli(*argv, cwd):
    return subprocess.run([sys.executable, "-m", "rulecraft", *argv], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_command_line_in_a_subprocess(tmp_path):
    a = _cli("run", "blackmore", "--seed", "9", "-n", "5", cwd=tmp_path)
    b = _cli("run", "blackmore", "--seed", "9", "-n", "5", cwd=tmp_path)
    assert a.returncode == 0 and a.stdout == b.stdout and a.stderr == ""
    (tmp_path / "broken.rules").write_text(BROKEN)
    c = _cli("check", "broken.rules", cwd=tmp_path)
    assert c.returncode == 1 and "broken.rules:3:13: error:" in c.stderr and "Traceback" not in c.stderr
    d = _cli("run", "blackmore", "--set", "wheel=up", cwd=tmp_path)
    assert d.returncode == 1 and d.stdout == ""
    assert d.stderr.strip().splitlines() == ["rulecraft: error: option 'wheel' is one of descending, ascending, not 'up'"]
    e = _cli("play", "blackmore", "--seat", "1", cwd=tmp_path)     # no input at all
    assert e.returncode == 1 and "Traceback" not in e.stderr


def test_check_a_module_through_the_games_that_import_it(capsys, tmp_path):
    from rulecraft.check.modules import bundled_dir
    code, out, _ = call(capsys, "check", str(bundled_dir("rulecraft.games") / "three-sisters" / "weather.rules"))
    assert code == 0
    assert "a module, checked through" in out and "three-sisters-weather.rules" in out
    module = tmp_path / "helpers.rules"
    module.write_text("rule give(p: Player):\n    move top(hnd) to p.hand\n")
    code, _, err = call(capsys, "check", str(module))
    assert code == 1
    assert "helpers.rules:2:14: error: unknown name 'hnd'" in err
    (tmp_path / "game.rules").write_text('game "G"\nplayers 1\nimport "helpers.rules"\nrule play:\n    pass\n')
    code, _, err = call(capsys, "check", str(module))
    assert code == 1 and "unknown name 'hnd'" in err


def test_no_control_character_from_a_file_reaches_the_terminal(tmp_path, capsys):
    """A title, narration or source line holding escape sequences is printed with them shown escaped."""
    evil = tmp_path / "evil.rules"
    evil.write_text('game "Evil\x1b]0;pwned\x07"\nplayers 1\nrule play:\n    say "clear\x1b[2J then\r a fake prompt> "\n',
                    encoding="utf-8")
    assert main(["run", str(evil), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "Evil\\x1b]0;pwned\\x07" in out and "clear\\x1b[2J then\\x0d a fake prompt> " in out
    broken = tmp_path / "broken.rules"
    broken.write_text('game "B"\nplayers 1\nrule play:\n    say "{nothing\x1b[2J}"\n', encoding="utf-8")
    assert main(["check", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b[2J" in err


def test_the_sanitizer_leaves_text_alone():
    from rulecraft.cli.terminal import safe
    assert safe("Player 1: play Blue 7 — ok\n\tindented é ü ✓") == "Player 1: play Blue 7 — ok\n\tindented é ü ✓"
    assert safe("a\u202eb") == "a\\u202eb"


# ------------------------------------------------------------------ hostile command lines (issue 10, items 4 and 9)
def test_a_player_count_far_too_large_is_a_sentence(capsys):
    code, _out, err = call(capsys, "run", "blackmore", "--players", "99999999999999999999")
    assert code == 1 and "is for 2 to 6 players, not 99999999999999999999" in one_sentence_error(err)


def test_a_digit_that_is_not_a_number_is_refused(capsys, monkeypatch):
    code, _out, err = call(capsys, "play", "blackmore", "--seat", "²")
    assert code == 1 and "not '²'" in one_sentence_error(err)
    kb = Keyboard(["²"])                     # typed at the prompt: asked again, then the input ends
    code, out, err = play(capsys, monkeypatch, kb, "blackmore", "--seat", "1", "--seed", "1")
    assert code == 1 and "please answer with a number" in out and len(kb.prompts) == 2


def test_a_closed_standard_input_ends_the_game_politely(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", None)
    code, _out, err = call(capsys, "play", "blackmore", "--seat", "1", "--seed", "1")
    assert code == 1 and "input ended before the game did" in one_sentence_error(err)


def test_output_that_cannot_be_written_is_a_sentence(capsys, monkeypatch):
    class Full:
        def write(self, text):
            raise OSError(28, "No space left on device")

        def flush(self):
            pass
    monkeypatch.setattr("sys.stdout", Full())
    monkeypatch.setattr("rulecraft.cli.main._silence_stdout", lambda: None)
    code = main(["run", "blackmore", "--seed", "1"])
    assert code == 1 and "cannot write the output: No space left on device" in capsys.readouterr().err


def test_list_skips_what_is_not_a_regular_file(tmp_path, capsys):
    os = pytest.importorskip("os")
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    os.mkfifo(tmp_path / "x.rules")
    (tmp_path / "y.rules").write_text('game "Y"\nplayers 1\nrule play:\n    pass\n')
    code, out, _err = call(capsys, "list", str(tmp_path))
    assert code == 0 and "Y (1 player)" in out and "x.rules" not in out


@pytest.mark.parametrize("ref, words", [("secret.txt", "is not a .rules file"), ("a" * 5000 + ".rules", "is not a file name"),
                                        ("pipe.rules", "there is no file")],
                         ids=["not-rules", "name-too-long", "named-pipe"])
def test_an_import_names_a_rules_file(tmp_path, capsys, ref, words):
    import os
    (tmp_path / "secret.txt").write_text("password = hunter2\n")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.rules")
    game = tmp_path / "game.rules"
    game.write_text(f'game "I"\nplayers 1\nimport "{ref}"\nrule play:\n    pass\n')
    code, _out, err = call(capsys, "check", str(game))
    assert code == 1 and words in err and "hunter2" not in err


def test_replay_step_lists_every_option_when_asked(capsys, tmp_path):
    """Issue 11: the stepper cut a long list of options at 10 with no way to see the rest."""
    (tmp_path / "wide.rules").write_text('game "Wide"\nplayers 1\nrule play:\n'
                                         '    player(1) chooses k in 1..12 as "bid {k}":\n        pass\n')
    assert call(capsys, "run", "wide.rules", "-q", "--log", "wide.yaml")[0] == 0
    code, out, _ = call(capsys, "replay", "wide.yaml", "--step", "--omniscient")
    assert code == 0 and "bid 10 and 2 more (--all-options lists them all)" in out
    code, out, _ = call(capsys, "replay", "wide.yaml", "--all-options")
    assert code == 0 and "bid 11, bid 12" in out and "more" not in out


def test_play_takes_several_numbers_in_one_prompt(capsys, monkeypatch):
    """Issue 11: re-roll several dice in one answer; the others follow by their labels, unasked."""
    kb = Keyboard(["1 2 6"], then="1")
    code, out, _ = play(capsys, monkeypatch, kb, str(Path(__file__).resolve().parent.parent / "examples" / "yacht-dice.rules"),
                        "--players", "1", "--seed", "3", "--set", "rerolls=1")
    assert code == 0 and "Final scores:" in out
    first = out.index("Player 1: re-roll die 1")
    assert out.index("Player 1: re-roll die 2", first) < out.index("Player 1: keep these", first)
    # the first turn asks twice: once for the re-rolls (three taken from one answer), once for the box
    assert out[:out.index(" writes ")].count("=== your decision") == 2
