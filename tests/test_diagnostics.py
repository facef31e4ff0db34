"""Diagnostics: broken rule files with the expected errors written beside them.

Each file in tests/diagnostics/ states, in a comment on the line concerned,

    ### error: MESSAGE            the message, exactly, on this line
    ### error@COL: MESSAGE        ... and at this column
    ### warning: MESSAGE          a warning (also warning@COL): the rules load all the same
    ### hint: TEXT                the hint of the error or warning before it contains TEXT

(several may share a line). A first line `# xfail: REASON` marks a known
defect: the test is expected to fail, strictly, until it is fixed.

Loading must raise RulesError (never another exception), every expectation must
be met, no error may appear on a line that expects none, and the rendering must
show `file:line:col: error: message`, the source line, a caret and the hint. A file
that expects only warnings must load, its program carrying exactly those warnings.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecraft.diagnostics import RulesError
from rulecraft.loader import load_file

HERE = Path(__file__).resolve().parent
CORPUS = sorted((HERE / "diagnostics").glob("*.rules"))
MARK = re.compile(r"###\s*((?:error|warning)(?:@(\d+))?|hint):\s*(.*?)\s*(?=###|$)")


def expectations(path: Path):
    """[(line, col or None, message, [hints], severity)] and the xfail reason, if any."""
    lines = path.read_text(encoding="utf-8").splitlines()
    xfail = lines[0][len("# xfail:"):].strip() if lines and lines[0].startswith("# xfail:") else None
    out = []
    for no, text in enumerate(lines, 1):
        for kind, col, body in MARK.findall(text):
            if kind != "hint":
                out.append([no, int(col) if col else None, body, [], kind.split("@")[0]])
            else:
                assert out and out[-1][0] == no, f"{path.name}:{no}: a hint must follow an error on its line"
                out[-1][3].append(body)
    return out, xfail


def warns_only(path: Path) -> bool:
    expected, _ = expectations(path)
    return all(e[4] == "warning" for e in expected)


def params():
    for path in CORPUS:
        _, xfail = expectations(path)
        marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
        yield pytest.param(path, id=path.stem, marks=marks)


def test_the_corpus_is_there():
    assert len(CORPUS) >= 25
    for path in CORPUS:
        expected, _ = expectations(path)
        assert expected, f"{path.name} states no expected diagnostic"


def load_errors(path: Path) -> RulesError:
    with pytest.raises(RulesError) as info:
        load_file(path)
    return info.value


def load_diagnostics(path: Path) -> RulesError:
    """Every diagnostic of a file, as a RulesError: raised by loading, or made of a loaded program's warnings."""
    if not warns_only(path):
        return load_errors(path)
    program = load_file(path)
    return RulesError(program.warnings, program.sources)


@pytest.mark.parametrize("path", list(params()))
def test_diagnostics(path: Path):
    expected, _ = expectations(path)
    err = load_diagnostics(path)
    mine = [d for d in err.diagnostics if Path(d.span.file).name == path.name]
    errors = [d for d in err.diagnostics if d.severity == "error"]
    assert errors or warns_only(path), "RulesError without any error"
    assert all(d.severity in ("error", "warning") for d in err.diagnostics), \
        [d.severity for d in err.diagnostics]
    problems = []
    for line, col, message, hints, severity in expected:
        found = [d for d in mine if d.span.line == line and d.message == message and d.severity == severity]
        if col is not None:
            found = [d for d in found if d.span.col == col]
        if not found:
            got = [f"{d.span.line}:{d.span.col}: {d.message}" for d in mine if d.span.line == line]
            problems.append(f"line {line}: expected {message!r}" + (f" at col {col}" if col else "") + f", got {got}")
            continue
        for hint in hints:
            if not any(hint in d.hint for d in found):
                problems.append(f"line {line}: hint {hint!r} missing (hints: {[d.hint for d in found]})")
    expected_lines = {e[0] for e in expected}
    for d in errors + [d for d in err.diagnostics if d.severity == "warning"]:
        if Path(d.span.file).name != path.name or d.span.line not in expected_lines:
            problems.append(f"unexpected diagnostic {d.span}: {d.message}")
    assert not problems, "\n".join(problems) + "\n\n" + err.render()


@pytest.mark.parametrize("path", list(params()))
def test_rendering(path: Path):
    """`file:line:col: error: message`, then the source line, then a caret under the column."""
    expected, _ = expectations(path)
    err = load_diagnostics(path)
    text = err.render()
    assert str(err) == text
    source = path.read_text(encoding="utf-8").splitlines()
    lines = text.splitlines()
    for line, col, message, hints, severity in expected:
        head = re.compile(rf"^(\S*{re.escape(path.name)}):{line}:(\d+): {severity}: {re.escape(message)}$")
        at = [i for i, t in enumerate(lines) if head.match(t)]
        assert at, f"no heading for line {line} ({message!r}) in:\n{text}"
        i = at[0]
        c = int(head.match(lines[i]).group(2))
        assert lines[i + 1] == f"{line:5d} | {source[line - 1]}".replace("\t", " ").rstrip() or \
            lines[i + 1].rstrip() == f"{line:5d} | {source[line - 1]}".rstrip(), lines[i + 1]
        caret = lines[i + 2]
        assert caret.startswith("      | "), caret
        assert caret[len("      | "):].index("^") == c - 1, caret
        following = lines[i + 3:i + 3 + 1 + len(hints)]
        for hint in hints:
            assert any(t.startswith("hint: ") and hint in t for t in following), (hint, following)


def test_errors_from_every_phase_are_collected_together(tmp_path):
    """The checker does not stop at the first error: all of them come back, sorted by line."""
    path = tmp_path / "many.rules"
    path.write_text(
        'game "Many"\nplayers 2\nzone deck of Card\n\nrule play:\n'
        "    let a = nope1\n    let b = size(deck, deck)\n    let c = nope2\n    first = 3\n",
        encoding="utf-8")
    err = load_errors(path)
    lines = [d.span.line for d in err.diagnostics]
    assert lines == sorted(lines)
    assert [d.message for d in err.diagnostics] == [
        "unknown name 'nope1'",
        "'size' takes 1 argument(s), not 2",
        "unknown name 'nope2'",
        "unknown variable 'first'",
    ]


def test_an_empty_file_is_a_diagnostic_not_a_crash(tmp_path):
    path = tmp_path / "empty.rules"
    path.write_text("", encoding="utf-8")
    err = load_errors(path)
    assert err.diagnostics


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.rules"
    path.write_bytes('game "Caf\xe9"\nplayers 2\nrule play:\n    pass\n'.encode("latin-1"))
    err = load_errors(path)
    assert "not UTF-8" in err.diagnostics[0].message


def test_a_missing_file():
    from rulecraft.loader import load
    with pytest.raises(RulesError) as info:
        load("no/such/game.rules")
    assert "no game or file named" in info.value.diagnostics[0].message
    with pytest.raises(RulesError) as info:
        load("blackmoor")
    assert info.value.diagnostics[0].hint == "did you mean 'blackmore'?"


def test_an_import_cycle(tmp_path):
    (tmp_path / "a.rules").write_text('import "b.rules"\ngame "A"\nplayers 2\nrule play:\n    pass\n', encoding="utf-8")
    (tmp_path / "b.rules").write_text('import "a.rules"\n', encoding="utf-8")
    err = load_errors(tmp_path / "a.rules")
    assert any("a cycle" in d.message for d in err.diagnostics), err.render()


def test_bundled_games_and_stdlib_load_cleanly():
    from rulecraft.check.modules import bundled_games, stdlib_modules
    assert "blackmore" in bundled_games()
    assert "cards" in stdlib_modules()
    for path in bundled_games().values():
        program = load_file(path)
        assert program.title
