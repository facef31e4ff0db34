"""Issue 27, output and determinism (cases 16-19)."""
from __future__ import annotations

from limited import rulecraft

CONTROLS = "\x1b\x07\u202e"


def test_control_characters_are_escaped_in_a_document(tmp_path):
    """Case 16: `doc --out x.html` wrote raw ESC, BEL and right-to-left overrides from titles, options
    and comments into the page."""
    (tmp_path / "h.rules").write_text(
        f'game "Evil\x1b[2J\x07 \u202etitle"\nplayers 2\n'
        f'# a comment\x1b]0;owned\x07 with \u202e in it\noption rounds "rounds\x1b[31m": 1..3 = 2\n'
        'rule play:\n    say "x"\nscore p: Player = 0\n')
    for out in ("x.html", "x.md"):
        code, _out, err = rulecraft("doc", "h.rules", "--out", out, cwd=tmp_path)
        assert code == 0, err
        page = (tmp_path / out).read_text(encoding="utf-8")
        assert not any(c in page for c in CONTROLS), out
        assert "Evil\\x1b[2J\\x07 \\u202etitle" in page


def test_a_failing_narration_fails_the_same_shown_or_not(tmp_path):
    """Case 17: with `say "{10 / n}"` and n = 0, `run` ended with a runtime error and `run -q` finished
    the game. A narration is computed only when shown, so its failure is told and the game goes on in
    both; `rulecraft test` still finds it."""
    (tmp_path / "h.rules").write_text('game "Hostile"\nplayers 2\nvar n: Int = 0\nrule play:\n'
                                      '    player(1) chooses k in 1..2 as "take {k}":\n        say "{10 / n}"\n'
                                      "score p: Player = 0\n")
    shown = rulecraft("run", "h.rules", "--seed", "1", cwd=tmp_path)
    quiet = rulecraft("run", "h.rules", "--seed", "1", "-q", cwd=tmp_path)
    assert shown[0] == quiet[0] == 0, (shown, quiet)
    assert "(a narration fails here: division by zero)" in shown[1]
    assert shown[1].endswith(quiet[1])                     # the same final scores
    code, out, _err = rulecraft("test", "h.rules", "--explore", "2", "--out", "failures", cwd=tmp_path)
    assert code == 1 and "division by zero" in out, out
