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


def test_a_label_that_spends_the_step_budget(tmp_path):
    """Case 7: `internal error: StepBudgetSpent` in `run`, `run -q` and `play`."""
    name = _write(tmp_path, 'rule play:\n    player(1) chooses k in 1..2 as "take {sum([i * j for i in 1..2000 '
                            'for j in 1..2000])}":\n        say "x"\n')
    for argv in (("run", name), ("run", "-q", name), ("play", name, "--seat", "1")):
        refused(rulecraft(*argv, cwd=tmp_path, input="1\n"), "h.rules:4:5: runtime error: the label of an option: "
                "it ran out of steps")
