"""What people see at a real terminal (a pseudo-terminal, through pexpect), and what pipes get.

At a terminal: colour, and a live progress bar on long work. Through a pipe, with NO_COLOR or
with --no-color: no colour; through a pipe, not one escape sequence. Styled text still passes
the sanitizer: an escape sequence written in a rule file is shown escaped, never obeyed.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parent.parent
GREEN = "\x1b[32m"
ESC = "\x1b"


def terminal(argv, env=None, cwd=None, size=(30, 100), timeout=120) -> str:
    """Run `rulecraft ARGV` at a pseudo-terminal of `size` (rows, columns); all it showed."""
    environment = {**os.environ, "TERM": "xterm-256color", "RULECRAFT_DEBUG": "0"}
    environment.pop("NO_COLOR", None)
    environment.pop("FORCE_COLOR", None)
    environment.update(env or {})
    child = pexpect.spawn(sys.executable, ["-m", "rulecraft", *argv], env=environment, cwd=cwd,
                          dimensions=size, encoding="utf-8", timeout=timeout)
    child.expect(pexpect.EOF)
    child.close()
    return child.before


def piped(argv, env=None, cwd=None) -> subprocess.CompletedProcess:
    environment = {**os.environ, **(env or {})}
    environment.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "rulecraft", *argv], capture_output=True, text=True,
                          env=environment, cwd=cwd, timeout=300)


def test_colour_at_a_terminal_none_in_a_pipe():
    shown = terminal(["check", "games/blackmore.rules"], cwd=ROOT)
    assert GREEN in shown and "games/blackmore.rules: ok" in shown
    result = piped(["check", "games/blackmore.rules"], cwd=ROOT)
    assert result.stdout == "games/blackmore.rules: ok\n" and ESC not in result.stdout + result.stderr


@pytest.mark.parametrize("how", ["NO_COLOR", "--no-color"])
def test_no_color_is_honoured(how):
    env, flag = ({"NO_COLOR": "1"}, []) if how == "NO_COLOR" else ({}, ["--no-color"])
    shown = terminal(["check", "games/blackmore.rules", *flag], env=env, cwd=ROOT)
    assert "games/blackmore.rules: ok" in shown and "\x1b[3" not in shown      # no foreground colour
    over = terminal(["run", "blackmore", "--seed", "3", "-q", *flag], env=env, cwd=ROOT)
    assert "\x1b[1m" not in over and "─" not in over, over      # no bold, no box drawing: plain, both ways


def test_the_exploration_shows_a_progress_bar_at_a_terminal_only(tmp_path):
    argv = ["test", "blackmore", "--explore", "30", "--players", "2", "--shallow"]
    shown = terminal(argv, cwd=tmp_path)
    assert "exploring" in shown and "/120" in shown and "left" in shown          # the bar: counts, time left
    assert "ok  2 players, wheel=descending, hand_size=6" in shown and "10 passed, 0 failed" in shown
    result = piped(argv, cwd=tmp_path)
    assert result.returncode == 0 and ESC not in result.stdout + result.stderr
    assert "/120" not in result.stdout + result.stderr and result.stderr == ""


def test_styled_text_from_a_rule_file_is_still_sanitized(tmp_path):
    rules = tmp_path / "evil.rules"
    rules.write_text('game "Evil"\nplayers 2\nrule play:\n    pass\nscore p = 0\n'
                     'scenario clear "\x1b[2J\x1b]0;owned\x07":\n    players 2\n    expect true\n')
    shown = terminal(["test", str(rules), "--explore", "1"], cwd=tmp_path)
    assert "ok  clear — \\x1b[2J\\x1b]0;owned\\x07" in shown
    assert "\x1b[2J" not in shown and "\x1b]0;" not in shown


# ------------------------------------------------------------------ the play view (issue 15, item 2)
ANSI = __import__("re").compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
ROWS, COLUMNS = 30, 100


def screens(game: str, decisions: int, *argv) -> list[list[str]]:
    """Play `decisions` decisions of `game` at seat 1 of a 30 × 100 terminal (always option 1); the
    lines shown between one prompt and the next, without escape sequences."""
    environment = {**os.environ, "TERM": "xterm-256color"}
    environment.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulecraft", "play", game, "--seat", "1", "--seed", "4", *argv],
                          env=environment, dimensions=(ROWS, COLUMNS), encoding="utf-8", timeout=120)
    shown = []
    for _ in range(decisions):
        if child.expect([r"Player \d> ", pexpect.EOF]) == 1:
            break
        shown.append(ANSI.sub("", child.before).replace("\r", "").split("\n"))
        child.sendline("1")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    return shown


@pytest.mark.parametrize("game", ["blackmore", "weird-sisters", "three-sisters", "three-sisters-solo",
                                  "three-sisters-weather", "three-sisters-solo-weather"])
def test_every_decision_screen_fits_a_terminal_of_30_rows_and_100_columns(game):
    shown = screens(game, 10, *(["-n", "4"] if game in ("three-sisters", "three-sisters-weather", "blackmore") else []))
    assert len(shown) >= 5
    for lines in shown[1:]:                       # the first also holds the game's opening lines
        lines = lines[1:]                         # the answer typed at the last prompt, on its line
        assert len(lines) <= ROWS, "\n".join(lines)                # the last is the prompt's line
        assert max(len(line) for line in lines) <= COLUMNS, "\n".join(lines)
        assert any(line.startswith("=== your decision") for line in lines)


def test_the_play_view_marks_what_changed_and_folds_the_others_moves():
    shown = screens("blackmore", 4, "-n", "4")
    later = "\n".join(shown[1])
    assert "\n» " in later                                              # what changed since the last screen
    assert "\n  your hand: " in "\n".join(shown[0]) and "» " not in "\n".join(shown[0])
    assert "trump " in later and "on the table: " in later


def test_run_is_styled_at_a_terminal_and_byte_for_byte_the_golden_game_in_a_pipe():
    argv = ["run", "blackmore", "--seed", "11", "--players", "2"]
    shown = terminal(argv, cwd=ROOT)
    assert "\x1b[1mThe Witches of Blackmore: 2 players, seed 11" in shown       # the header in bold
    assert "\x1b[2m  Player 1: play " in shown                                 # decisions dimmed
    result = piped(argv, cwd=ROOT)
    assert result.stdout == (ROOT / "tests" / "golden" / "blackmore-2p.out").read_text()


def test_replay_step_is_styled_and_waits_at_a_terminal(tmp_path):
    environment = {**os.environ, "TERM": "xterm-256color"}
    environment.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulecraft", "replay", str(ROOT / "tests" / "golden" / "nim.yaml"),
                                           "--game", str(ROOT / "examples" / "nim.rules"), "--step"], env=environment, cwd=tmp_path, encoding="utf-8", timeout=60)
    child.expect(r"\[Enter: next decision, q: stop\] ")
    assert "\x1b[1m── decision 1 of 7" in child.before and "\x1b[1;36m  → Player 1: take " in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "stopped." in child.before


def test_rules_prints_a_section_and_the_hot_seat_clears_the_scrollback(tmp_path):
    environment = {**os.environ, "TERM": "xterm-256color"}
    environment.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulecraft", "play", "blackmore", "--seat", "all", "--players", "2",
                                           "--seed", "4"], env=environment, cwd=tmp_path, encoding="utf-8",
                          dimensions=(30, 100), timeout=60)
    child.expect(r"Player \d> ")
    child.sendline("rules scor")                              # a section by the start of its name, as written
    child.expect(r"> ")
    assert "# ------" in child.before and "Scoring" in child.before and "score p: Player" in child.before
    child.sendline("rules nothing")
    child.expect(r"> ")
    assert "no section starts with 'nothing'; the sections: Components" in child.before
    child.sendline("1")
    child.expect("Pass the keyboard to Player")
    child.sendline("")
    child.expect(r"> ")
    assert "\x1b[3J" in child.before                          # the scrollback cleared, not blank lines
    child.sendline("quit")
    child.expect(pexpect.EOF)
