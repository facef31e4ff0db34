"""A table (`var … by K`) is a value: holding it elsewhere and then writing one of its entries
leaves the other holder as it was. Its entries are written in place, so a table assigned whole, bound
or bound by a `let` is copied (StatementGen.held); before, `a = b` then `a[k] = 5` changed
`b[k]` too."""
from __future__ import annotations

from rulecraft.engine import machine
from rulecraft.loader import load_file

RULES = '''game "Tables"
players 2
enum K: A, B
var got: Int per player by K
var other: Int per player by K
var flat: Int by K
var flat2: Int by K
rule play:
    player(1).got = player(2).other
    flat = flat2
    player(1).got[A] = 5
    flat[A] = 7
    say "assigned: {player(2).other[A]} {flat2[A]}"
    let kept = flat
    flat[B] = 3
    say "let: {kept[B]} {flat[B]}"
    player(1) chooses k in K as "{k}":
        flat[A] = 9
        say "after a decision: {kept[A]} {flat[A]}"
'''


def test_a_table_held_elsewhere_is_not_changed_by_a_write(rules_file):
    said = []
    m = machine.new_game(load_file(rules_file(RULES)), 2, None, 0, sink=said)
    machine.decide(m, machine.legal_ids(m)[0])
    lines = ["".join(part if isinstance(part, str) else str(part) for part in segments) for _k, _a, segments in said]
    assert lines == ["assigned: 0 0", "let: 0 3", "after a decision: 7 9"], lines
