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
