"""A non-editable install ships the grammar, the stdlib and the games, and works from any folder.

The wheel is built from a copy of the sources (so the checkout gets no build/
folder). Without build tools or a package index the build test is skipped, not
failed; any other build failure fails.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NEEDED = [
    "rulecraft/grammar/rulecraft.lark",
    "rulecraft/stdlib/cards.rules",
    "rulecraft/games/blackmore.rules",
    "rulecraft/loader.py",
    "rulecraft/engine/machine.py",
    "rulecraft/web/static/index.html",        # the web table's page (rulecraft serve)
    "rulecraft/web/static/app.js",
    "rulecraft/web/static/style.css",
]
OFFLINE_SIGNS = ("Could not find a version", "No matching distribution", "NewConnectionError", "Network is unreachable",
                 "Temporary failure in name resolution", "No module named pip", "ProxyError")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in ("interpreter", "grammar", "stdlib", "games"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    out = tmp / "dist"
    # with build isolation, as `pip install .` does: pip fetches setuptools>=68 for the build
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-w", str(out), "-q"]
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp)
    if done.returncode != 0:
        text = done.stdout + done.stderr
        if any(sign in text for sign in OFFLINE_SIGNS):
            pytest.skip(f"cannot build a wheel here (no pip or package index): {text.strip().splitlines()[-1]}")
        pytest.fail(f"building the wheel failed:\n{text}")
    wheels = list(out.glob("rulecraft-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_the_wheel_ships_grammar_stdlib_and_games(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [n for n in NEEDED if n not in names]
    assert not missing, f"not in the wheel: {missing}"
    for package in ("rulecraft/grammar", "rulecraft/stdlib", "rulecraft/games"):
        assert f"{package}/__init__.py" in names
    for folder, pattern in (("stdlib", "*.rules"), ("games", "*.rules")):
        for path in (ROOT / folder).glob(pattern):
            assert f"rulecraft/{folder}/{path.name}" in names
    entry = [n for n in names if n.endswith("entry_points.txt")]
    assert entry, "no console script"
    points = zipfile.ZipFile(wheel).read(entry[0]).decode()
    assert "rulecraft = rulecraft.cli.main:main" in points
    assert "[pygments.lexers]\nrulecraft = rulecraft.highlight.pygments_lexer:RulecraftLexer" in points


def test_the_wheel_ships_every_module(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = sorted("rulecraft/" + str(p.relative_to(ROOT / "interpreter")) for p in (ROOT / "interpreter").rglob("*.py")
                     if "__pycache__" not in p.parts)
    missing = [n for n in sources if n not in names]
    assert not missing, f"in interpreter/ but not in the wheel (add the package to pyproject.toml): {missing}"


def test_the_installed_files_work_from_another_folder(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import rulecraft.loader as L, sys\n"
        "assert L.__file__.startswith(sys.argv[1]), L.__file__\n"
        "p = L.load('blackmore')\n"
        "from rulecraft.engine.session import Session\n"
        "s = Session.start(p, 'blackmore', 4, seed=1)\n"
        "while not s.over: s.take(s.legal()[0].id)\n"
        "print(p.title, sorted(s.scores()['scores']) != [])\n"
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True, text=True, env=env,
                          cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "The Witches of Blackmore True"


def readme_test_command() -> str:
    """The README's command line that runs the tests (in a fenced block, the one with pytest)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    lines = [line.strip() for b in blocks for line in b.splitlines() if "pytest" in line]
    assert len(lines) == 1, f"README.md should give one test command, found {lines}"
    return lines[0]


def test_readme_test_command_installs_non_editable_with_test_extras():
    command = readme_test_command()
    assert re.search(r"""pip install ["']?\.\[test\]["']?""", command), command
    assert " -e " not in command and "--editable" not in command
    assert command.endswith("python -m pytest -q")


def test_ci_script_runs_the_readme_test_command():
    script = ROOT / ".ci" / "run"
    assert script.is_file()
    assert os.access(script, os.X_OK), ".ci/run is not executable"
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash")
    assert f"README_TEST_COMMAND='{readme_test_command()}'" in text
    assert 'bash -ec "$README_TEST_COMMAND"' in text
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
