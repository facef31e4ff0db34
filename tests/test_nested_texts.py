"""Texts inside `{…}` may hold `{…}` of their own (issue 28), and a line of unclosed braces is refused at
once: the text's pattern backtracked through every way to split `{{{…`, 36 braces took 51 s to check."""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

import rulecraft


def play(tmp_path, body: str) -> list[str]:
    path = tmp_path / "texts.rules"
    path.write_text('game "Texts"\nplayers 3\nvar shown: Int = 3\nrule play:\n' + body)
    match = rulecraft.load(str(path), players=3).new(seed=1)
    return match.told(1)


def test_a_text_inside_braces_has_braces_of_its_own(tmp_path):
    told = play(tmp_path, '    say "{join(["{p}!" for p in players], ", ")}"\n'
                          '    say "{if shown > 2 then "big {shown + 1}" else ""} and {{braces}}"\n'
                          '    say "{if shown > 5 then "" else "x {shown}"}"\n')
    assert told == ["Player 1!, Player 2!, Player 3!", "big 4 and {braces}", "x 3"]


def test_three_levels_are_refused_with_a_diagnostic(tmp_path):
    path = tmp_path / "deep.rules"
    path.write_text('game "Deep"\nplayers 2\nrule play:\n    say "{join(["{join(["{p}" for p in players], "")}"], "")}"\n')
    out = subprocess.run([sys.executable, "-m", "rulecraft", "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 1 and "deep.rules:4:" in out.stderr and "Traceback" not in out.stderr


def _limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (20, 20))


@pytest.mark.parametrize("braces", [40, 5000])
def test_a_line_of_unclosed_braces_is_refused_at_once(tmp_path, braces):
    path = tmp_path / "braces.rules"
    path.write_text('game "B"\nplayers 2\nrule play:\n    say "' + "{" * braces + "x\n")
    out = subprocess.run([sys.executable, "-m", "rulecraft", "check", str(path)], capture_output=True, text=True,
                         preexec_fn=_limit_cpu, timeout=120, env={"RULECRAFT_NO_CACHE": "1", "PATH": ""})
    assert out.returncode == 1 and "braces.rules:4:9: error:" in out.stderr
