"""Two comparisons of one number joined by `and` (`x > 0 and x < h`), in each of four shapes (the
shared side left or right in each comparison), computed for x from -1 to 6 against the truth worked
out here; a shared part that can fail (`top` of an empty zone) fails as written. (They were written
as Python's chained comparison, `0 < x < h`, until that was measured and removed: under 2 % on every
bundled game.)"""
from __future__ import annotations

import pytest

from rulecraft.engine import machine
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError

RULES = '''game "Chains"
players 2
card Chip(n: 1..9) named "chip {n}"
cards chips = [Chip(n) for n in 1..3]
zone heap of Chip
var h: Int = 4
var x: Int per player
rule play:
    for k in -1..6:
        player(1).x = k
        let p = player(1)
        say "{k}: {p.x > 0 and p.x < h} {p.x >= 1 and 5 > p.x} {0 < p.x and p.x <= h} {2 <= p.x and h >= p.x} {[c for c in 1..6 if c > 1 and c < p.x]}"
    if top(heap).n > 0 and top(heap).n < 3:
        h = 0
'''


def _run(path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    program = load_file(path)
    said = []
    with pytest.raises(RulesRuntimeError) as failed:
        machine.new_game(program, 2, None, 0, sink=said)
    lines = ["".join(part if isinstance(part, str) else str(part) for part in segments) for _k, _a, segments in said]
    return lines, str(failed.value)


def test_two_comparisons_of_one_number_give_what_both_give(rules_file, monkeypatch):
    lines, failure = _run(rules_file(RULES), monkeypatch)

    def b(v):
        return "yes" if v else "no"
    expected = [f"{k}: {b(0 < k < 4)} {b(1 <= k < 5)} {b(0 < k <= 4)} {b(2 <= k <= 4)} "
                f"{', '.join(str(c) for c in range(2, k)) if k > 2 else 'nothing'}" for k in range(-1, 7)]
    assert [line.rstrip() for line in lines] == expected
    assert "top" in failure and "game.rules:13:" in failure            # the zone is empty: it fails as written
