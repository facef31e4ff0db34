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


def test_comprehensions_within_comprehensions_spend_the_budget(tmp_path):
    """Case 8: the first `for` of a comprehension was not charged, so one inside another made
    99,999 lists of 99,999 numbers: MemoryError."""
    name = _write(tmp_path, "rule play:\n    let l = [[[j for j in 1..99999] for i in 1..99999]]\n"
                            '    say "{size(l)}"\n')
    refused(rulecraft("run", name, cwd=tmp_path), "steps without a decision")


def test_a_rule_file_of_15_mb(tmp_path):
    """Case 8: a 15 MB rule file (under the old 16 MB cap) ran out of memory at 1.8 GB."""
    (tmp_path / "h.rules").write_text(HEAD + "rule play:\n" + '    say "x"\n' * 1_300_000 + TAIL)
    refused(rulecraft("run", "h.rules", cwd=tmp_path), "h.rules is larger than 512 KB")


def _transcript(tmp_path, **changes) -> str:
    """A transcript of a game of Nim (examples/), with some of its top lines changed."""
    import shutil
    from pathlib import Path
    shutil.copy(Path(__file__).resolve().parents[2] / "examples" / "nim.rules", tmp_path / "nim.rules")
    code, _out, err = rulecraft("run", "nim.rules", "--seed", "3", "-q", "--log", "t.yaml", cwd=tmp_path)
    assert code == 0, err
    lines = (tmp_path / "t.yaml").read_text().splitlines()
    for key, value in changes.items():
        lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in lines]
    (tmp_path / "t.yaml").write_text("\n".join(lines) + "\n")
    return "t.yaml"


def test_a_seed_of_100000_hex_digits(tmp_path):
    """Case 9: `seed: 0xfff…` (100,000 f's) was a ValueError in `replay` (too long to print)."""
    name = _transcript(tmp_path, seed="0x" + "f" * 100_000)
    refused(rulecraft("replay", name, cwd=tmp_path), "has a line of 100,008 characters")      # (case 15)
    name = _transcript(tmp_path, seed="0x" + "f" * 4_000)                # 16,000 bits: 4,817 digits
    refused(rulecraft("replay", name, cwd=tmp_path), "its 'seed' is larger than a seed can be")


def test_a_save_of_a_trillion_players(tmp_path):
    """Case 10: `players: 999999999999` in a save: MemoryError in `play --load` (seats made first)."""
    name = _transcript(tmp_path, players="999999999999", rulecraft="save")
    for argv in (("play", "--load", name), ("replay", name)):
        refused(rulecraft(*argv, cwd=tmp_path, input=""), "it says 999999999999 players")
