"""Issue 27, internal errors (cases 6-11): each is one plain sentence naming the cause, and exit 1."""
from __future__ import annotations

from limited import refused, rulecraft

HEAD = 'game "Hostile"\nplayers 2\n'
TAIL = "score p: Player = 0\n"


def _write(tmp_path, body: str, name: str = "h.rules"):
    (tmp_path / name).write_text(HEAD + body + TAIL)
    return name


def test_a_number_of_thousands_of_digits(tmp_path):
    """Case 6: 4,301 digits and more went past Python's int() limit (4,300 said 'too large')."""
    for digits in (4301, 100_000):
        name = _write(tmp_path, 'rule play:\n    say "{' + "9" * digits + '}"\n')
        refused(rulecraft("check", name, cwd=tmp_path), "this number is too large")
    name = _write(tmp_path, "limit decisions " + "9" * 5000 + '\nrule play:\n    say "x"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "this number is too large")
