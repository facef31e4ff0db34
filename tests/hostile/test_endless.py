"""Issue 27, running without end (cases 1-5): rules that would run for ever, or take long to check,
stop with a sentence within the limits of limited.py."""
from __future__ import annotations

from limited import refused, rulecraft

HEAD = 'game "Hostile"\nplayers 2\n'
TAIL = "score p: Player = 0\n"


def _write(tmp_path, body: str, name: str = "h.rules"):
    (tmp_path / name).write_text(HEAD + body + TAIL)
    return name


def test_a_def_calling_itself_twice_spends_the_step_budget(tmp_path):
    """Case 1: recursion that is not deep but wide was never charged."""
    name = _write(tmp_path, "def f(n: Int): Int = if n == 0 then 0 else f(n - 1) + f(n - 1)\n"
                            'rule play:\n    let x = f(40)\n    say "{x}"\n')
    refused(rulecraft("run", name, cwd=tmp_path), "steps without a decision")


def test_chained_defs_each_calling_the_previous_twice(tmp_path):
    """Case 1: 64 defs, each calling the one before twice: 2^64 calls, read through when shown."""
    defs = "def f0(n: Int): Int = n\n" + "".join(f"def f{i}(n: Int): Int = f{i - 1}(n) + f{i - 1}(n)\n"
                                                  for i in range(1, 65))
    name = _write(tmp_path, defs + 'rule play:\n    let x = f64(1)\n    say "{f64(1)} {x}"\n')
    refused(rulecraft("run", name, cwd=tmp_path), "steps without a decision")


def test_shuffles_spend_the_step_budget(tmp_path):
    """Case 2: 30 shuffles of 100,000 cards are 3M swaps, past the 2M budget."""
    name = _write(tmp_path, "card Chip(n: 1..100000)\ncards chips = [Chip(n) for n in 1..100000]\nzone pile of Chip\n"
                            "rule play:\n    move chips to pile\n    repeat 30:\n        shuffle pile\n")
    refused(rulecraft("run", name, cwd=tmp_path), "steps without a decision")


def test_doubling_consts_check_quickly(tmp_path):
    """Case 3: 40 consts each adding the one before to itself, shown in a text."""
    consts = "const K0 = 1000000000000\n" + "".join(f"const K{i} = K{i - 1} + K{i - 1}\n" for i in range(1, 41))
    name = _write(tmp_path, consts + 'rule play:\n    say "{K40}"\n')
    code, out, err = rulecraft("check", name, cwd=tmp_path)
    assert (code, err) == (0, ""), err


def test_a_const_after_one_that_failed_is_no_internal_error(tmp_path):
    """Case 3 (found with it): a const that uses one that could not be computed."""
    consts = "const K0 = [1]\n" + "".join(f"const K{i} = K{i - 1} + K{i - 1}\n" for i in range(1, 20))
    name = _write(tmp_path, consts + 'rule play:\n    say "x"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "the const 'K17' cannot be computed")


def test_a_huge_decision_limit_is_refused(tmp_path):
    """Case 4: `limit decisions 999999999999` would let a game that never ends run for days."""
    name = _write(tmp_path, "limit decisions 999999999999\nrule play:\n    while true:\n"
                            '        player(1) chooses k in 1..2 as "take {k}":\n            say "{k}"\n')
    refused(rulecraft("run", name, cwd=tmp_path), "at most 100,000 decisions")


def test_many_parts_in_one_text_are_refused(tmp_path):
    """Case 5: 300,000 `{1}` in one text (900 KB: too large a file); 20,000 (60 KB) are too many parts."""
    name = _write(tmp_path, 'rule play:\n    say "' + "{1}" * 300_000 + '"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "larger than 512 KB")
    name = _write(tmp_path, 'rule play:\n    say "' + "{1}" * 20_000 + '"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "{…}")


def test_many_lines_are_refused(tmp_path):
    """Case 5: 300,000 `say` lines; 100,000 `var` lines."""
    name = _write(tmp_path, "rule play:\n" + '    say "x"\n' * 300_000)
    refused(rulecraft("check", name, cwd=tmp_path), "larger than 512 KB")
    name = _write(tmp_path, "".join(f"var v{i}: Int = 0\n" for i in range(100_000)) + 'rule play:\n    say "x"\n',
                  "vars.rules")
    refused(rulecraft("check", name, cwd=tmp_path), "larger than 512 KB")


def test_deep_brackets_are_refused(tmp_path):
    """Case 5: 100,000 nested `[`, in a statement and inside a text."""
    name = _write(tmp_path, "rule play:\n    let x = " + "[" * 100_000 + "]" * 100_000 + '\n    say "x"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "nested more than 100 deep")
    name = _write(tmp_path, 'rule play:\n    say "{' + "(" * 100_000 + "1" + ")" * 100_000 + '}"\n', "text.rules")
    refused(rulecraft("check", name, cwd=tmp_path), "nested more than 100 deep")


def test_the_games_of_one_folder_share_the_size_limit(tmp_path):
    """Case 5: three imported files of 200 KB each are as much as one file of 600 KB."""
    for i in range(3):
        (tmp_path / f"part{i}.rules").write_text(f"var v{i}: Int = 0\n" + "# a comment of some length\n" * 8000)
    name = _write(tmp_path, "".join(f'import "part{i}.rules"\n' for i in range(3)) + 'rule play:\n    say "x"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "part2.rules, with the files read before it, is larger than 512 KB")


def test_many_words_are_refused(tmp_path):
    """Case 5: `1+1+…+1` in 110 KB is 110,000 tokens and a tree too deep to build."""
    name = _write(tmp_path, "rule play:\n    let x = 1" + "+1" * 55_000 + '\n    say "{x}"\n')
    refused(rulecraft("check", name, cwd=tmp_path), "more than 100,000 words and signs")


def test_loops_in_loops_over_known_lists_spend_the_step_budget(tmp_path):
    """A `for` over a list known at load, straight in another's body, is spent by the enclosing loop
    up front (StatementGen.nat_For): three such loops of 2,000 turns each still stop."""
    name = _write(tmp_path, "const L = [n for n in 1..2000]\nvar x: Int = 0\nrule play:\n"
                            "    for a in L:\n        for b in L:\n            for c in L:\n                x += 1\n"
                            '    say "{x}"\n')
    refused(rulecraft("run", name, cwd=tmp_path), "steps without a decision")
