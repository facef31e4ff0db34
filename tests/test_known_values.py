"""Guards left out where the compiler knows the values (issue 25, point 2): a comprehension over a list
known at load reads its items and a table's keys without a check when every value is in range, and keeps
the check, with its sentence, when one is not."""
from __future__ import annotations

import re

import pytest

import rulecraft
from rulecraft.loader import generated_python
from rulecraft.runtime.errors import RulesRuntimeError

GAME = '''game "Lines"
players 2
var cell: Int by 0..8 = 0
var hit: Bool = false
const lines = LINES
rule play:
    player(1) chooses k in 0..8 where cell[k] == 0 as "mark {k}":
        cell[k] = 1
    hit = any(cell[l[0]] == 1 and cell[l[1]] == 1 for l in lines)
score p: Player = if hit then 1 else 0
'''


def load(tmp_path, lines: str):
    path = tmp_path / "lines.rules"
    path.write_text(GAME.replace("LINES", lines))
    return path, rulecraft.load(str(path), players=2)


def test_items_and_keys_known_in_range_need_no_guard(tmp_path):
    path, game = load(tmp_path, "[[0, 1], [4, 4], [7, 8]]")
    source = generated_python(str(path))
    # (the table's row read once before the loop: StatementGen.rows_before)
    assert re.search(r"if \(\(\(\(\((_r\d+)\[v1\[0\]\]\) == \(1\)\)\) and \(\(\(\1\[v1\[1\]\]\) == \(1\)\)\)\)\):", source)
    assert "rt_slot(v1" not in source and "rt_index(v1" not in source
    match = game.new(seed=1)
    match.apply("mark 4")
    assert match.over and match.view(1)["vars"]["hit"] == "yes"


@pytest.mark.parametrize("lines, said", [
    ("[[0, 1], [5, 9]]", "9 is outside the table's keys 0..8"),     # a key out of range: checked, as before
    ("[[0, 1], [5]]", "index 1 is outside a list of 1"),                                        # a row too short: checked, as before
])
def test_a_value_out_of_range_keeps_its_check_and_its_sentence(tmp_path, lines, said):
    _path, game = load(tmp_path, lines)
    match = game.new(seed=1)
    with pytest.raises(RulesRuntimeError, match=None) as failure:
        match.apply("mark 5")
    assert said in str(failure.value)


def test_a_for_whose_local_is_assigned_keeps_its_checks(tmp_path):
    path = tmp_path / "assigned.rules"
    path.write_text('game "A"\nplayers 2\nvar t: Int by 0..8 = 0\nrule play:\n'
                    '    for l in [[0, 1], [2, 3]]:\n        t[l[1]] = 1\n        l = [0, 20]\n        t[l[1] * l[0]] = 2\n'
                    '        t[l[1]] = 3\n')
    source = generated_python(str(path))
    assert "rt_slot(" in source                                   # l is assigned in the body: nothing known of it
    with pytest.raises(Exception) as failure:
        rulecraft.load(str(path), players=2).new(seed=1)
    assert "runtime error: 20 is outside the table's keys 0..8" in str(failure.value)     # not an internal error


def test_a_for_over_rows_known_at_load_reads_and_multiplies_plainly(tmp_path):
    path = tmp_path / "rows.rules"
    path.write_text('game "R"\nplayers 2\nvar t: Int by 0..8 = 0\nrule play:\n'
                    '    for d in [[0, 1], [1, 1], [2, -1]]:\n        for s in [1, -1]:\n'
                    '            t[4 + s * d[1]] += d[0]\n')
    source = generated_python(str(path))
    assert "rt_mul" not in source and "rt_index(v" not in source
    match = rulecraft.load(str(path), players=2).new(seed=1)
    assert match.over and "3: 3, 4: 0, 5: 3" in match.view(1)["vars"]["t"]      # t[3] and t[5] got 0 + 1 + 2
