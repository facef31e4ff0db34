"""Caches cannot run code or crash rulecraft (issue 10, items 1 and 2).

Lark keeps nothing in the shared temp folder; rulecraft's own caches live in a folder of the
user's that no one else may write, hold data (parsed rules as JSON) or checked code (a
checksum before anything is unmarshalled), and a planted, damaged or foreign entry is
ignored: the rules are parsed and compiled again.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft import cachedir
from rulecraft.loader import load_file
from rulecraft.syntax import parser

GAME = 'game "Cached"\nplayers 1\nvar n: Int = 0\nrule play:\n    n += 1\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache folder, and no parse kept in memory from other tests."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    monkeypatch.setattr(parser, "_MEMORY", {})
    return tmp_path / "cache" / "rulecraft"


def write_game(tmp_path, text=GAME):
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_lark_is_built_without_its_temp_folder_cache():
    assert not parser._lark().options.cache


def test_parsing_writes_nothing_in_the_temp_folder(tmp_path):
    temp, home = tmp_path / "tmp", tmp_path / "cache"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), XDG_CACHE_HOME=str(home))
    code = ("from rulecraft.syntax.parser import parse_module\n"
            "parse_module('game \"T\"\\nplayers 1\\nrule play:\\n    pass\\n', 'fresh.rules')\n")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    assert list(temp.iterdir()) == []
    assert list((home / "rulecraft" / "ast").iterdir())          # it went to the user's own cache


def test_the_cache_folders_are_private(cache, tmp_path):
    load_file(write_game(tmp_path))
    for folder in (cache, cache / "ast", cache / "code"):
        assert folder.stat().st_mode & 0o077 == 0, folder


def test_a_planted_pickle_is_never_loaded(cache, tmp_path):
    """A pickle planted under an entry's name (or left by an older rulecraft) is not read: it would run code."""
    path = write_game(tmp_path)
    load_file(path)
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))
    for entry in list((cache / "ast").iterdir()):
        planted = pickle.dumps(Payload())
        entry.with_suffix(".pickle").write_bytes(planted)
        entry.write_bytes(planted)
    parser._MEMORY.clear()
    program = load_file(path)
    assert program.title == "Cached" and not marker.exists()


@pytest.mark.parametrize("kind", ["ast", "code"])
def test_a_damaged_entry_is_a_miss_not_a_crash(cache, tmp_path, kind):
    path = write_game(tmp_path)
    load_file(path)
    entries = list((cache / kind).iterdir())
    assert entries
    for entry in entries:
        data = bytearray(entry.read_bytes())
        data[len(data) // 2] ^= 0x55                   # one flipped byte, checksum unchanged
        entry.write_bytes(bytes(data))
    parser._MEMORY.clear()
    assert load_file(path).title == "Cached"
    assert all(cachedir.read_entry(e) is not None for e in (cache / kind).iterdir())   # written again, whole


def test_a_folder_others_may_write_is_not_used(cache, tmp_path):
    load_file(write_game(tmp_path))
    (cache / "ast").chmod(0o777)
    assert cachedir.cache_dir("ast") is None
    parser._MEMORY.clear()
    assert load_file(write_game(tmp_path)).title == "Cached"


def test_an_entry_round_trips_as_data(cache, tmp_path):
    from rulecraft.syntax import astdata
    module = parser.parse_module(GAME, "game.rules")
    again = astdata.loads(astdata.dumps(module))
    assert astdata.dumps(again) == astdata.dumps(module)
    with pytest.raises(astdata.BadData):
        astdata.loads(b'[999, "x"]')
