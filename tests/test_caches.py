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
from rulecraft.diagnostics import RulesError
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
    for folder in (cache, cache / "ast", cache / "check", cache / "code"):
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


@pytest.mark.parametrize("kind", ["check", "ast", "code"])
def test_a_damaged_entry_is_a_miss_not_a_crash(cache, tmp_path, kind):
    path = write_game(tmp_path)
    load_file(path)
    if kind == "ast":               # a checked game found in the check cache is not parsed again
        for entry in (cache / "check").iterdir():
            entry.unlink()
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


# ------------------------------------------------------------------ the check cache (check/checkcache.py)
def test_a_checked_game_round_trips_as_data(cache):
    """The IR read back is the IR written, sharing included (what the compiler names by identity)."""
    from rulecraft.check import irdata
    from rulecraft.ir import types as T
    from rulecraft.check.checker import check
    from rulecraft.check.modules import load_declarations, resolve_game
    loaded = load_declarations(resolve_game("three-sisters"))
    diags = list(loaded.diagnostics)
    program = check(loaded.decls, loaded.originals, diags)
    data = irdata.dumps((program, diags))
    again, _ = irdata.loads(data)
    import marshal      # the same data (marshal's bytes may differ: they mark which texts are interned)
    assert marshal.loads(irdata.dumps((again, diags))) == marshal.loads(data)
    assert again.score.type is T.INT and again.score.type is program.score.type
    for bad in (["x", 999], [(0,), "t"], 1.5, [1, "x"], [-1], [], [("f", "1", 1, 1, 1), "t"], [(1, 2), "t"],
                [compile("1", "planted", "eval"), "l"], [1.5, "l"], [frozenset(), "t"], [b"x", "l"], [[1], "="]):
        with pytest.raises(irdata.BadData):
            irdata.loads(marshal.dumps(bad))
    for bad in (b"", b"\x00garbage", data[: len(data) // 2]):
        with pytest.raises(irdata.BadData):
            irdata.loads(bad)


def generated(path, monkeypatch):
    """The Python the compiler writes for a game, function by function (not the functions that compute a
    table made at load: a table kept in the code cache is not computed again, compile/tabulate.py)."""
    from rulecraft.compile import codecache
    sources = []
    real = codecache.CodeCache.compile

    def record(self, source, filename, mode):
        if not filename.startswith("<rules table"):
            sources.append((filename, source))
        return real(self, source, filename, mode)
    monkeypatch.setattr(codecache.CodeCache, "compile", record)
    program = load_file(path)
    program.scenarios        # and what is compiled when first read (compiler.Compiler.later)
    monkeypatch.setattr(codecache.CodeCache, "compile", real)
    return program, sources


def test_a_game_from_the_check_cache_is_the_game_checked(cache, monkeypatch):
    """Same generated code, byte for byte, and the same digest and sources, from a checked game read back."""
    from rulecraft.check.places import resolve_game
    path = resolve_game("three-sisters-solo-weather")
    first, code = generated(path, monkeypatch)
    assert list((cache / "check").iterdir())
    second, again = generated(path, monkeypatch)
    assert again == code
    assert constants(second) == constants(first)


def constants(program) -> dict:
    """The constants the generated code names (K12) that are data (the tables made at load among them),
    and the names of the others (functions: a text's formatter)."""
    env = program.codes[0].entry.__globals__
    return {name: value if type(value) in (tuple, frozenset, int, str, bool, type(None)) else type(value).__name__
            for name, value in env.items() if name[0] == "K" and name[1:].isdigit()}


@pytest.mark.parametrize("game", ["weird-sisters", "three-sisters-solo-weather"])
def test_tables_made_at_load_come_back_from_the_code_cache_as_made(cache, monkeypatch, game):
    """The second load computes no table (each kept in the code cache, with the name its function
    took), and its constants and code are the first's; a kept table another compiler made is not used."""
    from rulecraft.check.places import resolve_game
    from rulecraft.compile import codecache, tabulate
    path = resolve_game(game)
    first, code = generated(path, monkeypatch)
    computed = []
    real = tabulate.Tabulator.cells

    def cells(self, *args):
        computed.append(args[1])
        return real(self, *args)
    monkeypatch.setattr(tabulate.Tabulator, "cells", cells)
    second, again = generated(path, monkeypatch)
    assert computed == [] and again == code and constants(second) == constants(first)
    assert any(type(v) is tuple and len(v) > 20 for v in constants(first).values())
    monkeypatch.setattr(codecache, "_compiler_digest", lambda: "another rulecraft")
    third, more = generated(path, monkeypatch)
    assert computed and more == code and constants(third) == constants(first)
    assert (second.digest, second.sources, second.title) == (first.digest, first.sources, first.title)


def test_warnings_come_back_from_the_check_cache(cache, tmp_path):
    path = write_game(tmp_path, 'game "Hides"\nplayers 2\nvar first: Player\nrule play:\n    say "{first}"\n')
    before = load_file(path).warnings
    assert [d.message for d in before] == [d.message for d in load_file(path).warnings]
    assert "hides the built-in function first" in before[0].message


def test_an_edited_import_is_seen(cache, tmp_path):
    """The entry lists every file read: a change in an imported one is a miss."""
    (tmp_path / "extra.rules").write_text("def bonus(): Int = 1\n", encoding="utf-8")
    path = write_game(tmp_path, GAME.replace("players 1\n", 'players 1\nimport "extra.rules"\n') + "score p = bonus()\n")
    assert load_file(path).title == "Cached"
    (tmp_path / "extra.rules").write_text("def bonus(): Int = true\n", encoding="utf-8")
    with pytest.raises(RulesError) as e:
        load_file(path)
    assert "extra.rules:1:" in str(e.value)


def test_a_broken_edit_after_a_cached_load_is_reported_with_its_place(cache, tmp_path):
    path = write_game(tmp_path)
    load_file(path)
    path.write_text(GAME.replace("n += 1", "n += "), encoding="utf-8")
    with pytest.raises(RulesError) as e:
        load_file(path)
    text = e.value.render() if hasattr(e.value, "render") else str(e.value)
    assert "game.rules:5:" in text and "error:" in text


def test_another_working_folder_shows_its_own_paths(cache, tmp_path, monkeypatch):
    """Spans hold paths as shown from the working folder: from another one, the entry is not used."""
    path = write_game(tmp_path)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    program = load_file(path)
    assert set(program.sources) == {"game.rules"} and program.codes[0].span.file == "game.rules"
    monkeypatch.chdir(tmp_path / "sub")
    program = load_file(path)
    assert set(program.sources) == {str(path)} and program.codes[0].span.file == str(path)


def test_a_load_from_the_check_cache_needs_no_parser(cache, tmp_path):
    """Lark and the parser are imported only when a file has to be parsed."""
    path = write_game(tmp_path)
    env = dict(os.environ, XDG_CACHE_HOME=str(cache.parent))
    code = ("import sys\nfrom rulecraft.loader import load_file\nload_file(sys.argv[1])\n"
            "print(sorted(m for m in ('lark', 'rulecraft.syntax.parser', 'rulecraft.check.checker') if m in sys.modules))\n")
    first = subprocess.run([sys.executable, "-c", code, str(path)], env=env, check=True, timeout=120,
                           capture_output=True, text=True)
    assert "lark" in first.stdout
    again = subprocess.run([sys.executable, "-c", code, str(path)], env=env, check=True, timeout=120,
                           capture_output=True, text=True)
    assert again.stdout.strip() == "[]"


def test_scenarios_and_sheets_are_compiled_when_first_read_with_the_names_of_an_eager_compile(cache, monkeypatch):
    """A load compiles neither; reading one compiles all three, after the rest, so the generated code
    is the same byte for byte (names, constants) whichever is read first, and found in the code cache."""
    from rulecraft.check.places import resolve_game
    from rulecraft.compile import codecache
    path = resolve_game("three-sisters-solo-weather")
    _, everything = generated(path, monkeypatch)
    sources, compiled = [], []
    real = codecache.CodeCache.compile

    def record(self, source, filename, mode):
        sources.append((filename, source))
        return real(self, source, filename, mode)

    def python_compile(*args):
        compiled.append(args[1])
        return compile(*args)
    monkeypatch.setattr(codecache.CodeCache, "compile", record)
    monkeypatch.setattr(codecache, "compile", python_compile, raising=False)
    program = load_file(path)
    at_load = list(sources)
    assert not any(name.startswith(("<rules scenario", "<rules sheet")) for name, _ in at_load)
    assert program.player_sheet                        # the player's sheet read first
    assert len(sources) > len(at_load) and sources == everything
    assert program.scenarios and program.table_sheet and sources == everything
    assert compiled == []                              # all of it from the code cache, compiled later too


def test_code_compiled_later_is_kept_by_loads_that_do_not_read_it(cache, tmp_path, monkeypatch):
    from rulecraft.compile import codecache
    path = write_game(tmp_path, GAME + "sheet:\n    \"n is {n}\"\nscenario one:\n    players 1\n    expect n == 0\n")
    load_file(path).scenarios          # all compiled and kept
    load_file(path)                    # reads neither: must not drop their code
    compiled = []

    def python_compile(*args):
        compiled.append(args[1])
        return compile(*args)
    monkeypatch.setattr(codecache, "compile", python_compile, raising=False)
    program = load_file(path)
    assert program.table_sheet and program.scenarios[0].name == "one"
    assert compiled == []


def test_a_card_named_wrongly_in_a_scenario_is_reported_at_load(cache, tmp_path):
    from rulecraft.check.places import resolve_game
    text = resolve_game("blackmore").read_text(encoding="utf-8")
    path = write_game(tmp_path, text + '\nscenario broken:\n    players 2\n    expect size(trump_stack) == 1 or Witch("Blue 10") in trump_stack\n')
    for _ in range(2):                  # checked, then from the check cache
        with pytest.raises(RulesError) as e:
            load_file(path)
        assert "there is no Witch named 'Blue 10'" in str(e.value)
