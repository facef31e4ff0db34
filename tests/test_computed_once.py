"""What the compiler computes once (docs/impl.md, "Computed once") changes nothing a game does:
a def computed before a statement fails where it would have, a part computed before a loop
gives the same values, an index out of range still says so."""
from __future__ import annotations

import pytest

from rulecraft.engine import machine
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError

GAME = '''game "Once"
players 2
enum Colour: Red, Blue
card Chip(colour: Colour, value: 1..9)
cards chips = [Chip(c, v) for c in Colour for v in 1..3]
zone box of Chip
zone pile of Chip
var gold: Int per player by Colour
var total: Int = 0

def topv: Int = top(pile).value
# inlined in a loop, its argument and a part of its body are both the same for every chip
def over(n: Int, c: Chip): Bool = n * 2 + n * 3 > c.value

rule setup:
    move chips to box
    player(1).gold[Red] = 1

rule tally(p: Player):
    total = count(over(p.gold[Red], c) for c in box)

rule play:
    let a = if size(pile) > 0 then topv + topv else 0
    total = a
    tally(player(1))
'''


def total(m) -> int:
    return m.vars[next(v.slot for v in m.program.vars if v.name == "total")]


def test_a_def_computed_before_a_statement_does_not_fail_where_it_is_not_used(rules_file):
    """`topv` (the top of an empty pile) is computed before the `let`; it is not used, so nothing fails."""
    m = machine.new_game(load_file(rules_file(GAME)), 2)
    assert m.result is not None
    # tally: 1 * 2 + 1 * 3 = 5 is over every chip's value (1..3)
    assert total(m) == 6


def test_a_def_computed_before_a_statement_fails_where_it_is_used(rules_file):
    text = GAME.replace("    let a = if size(pile) > 0 then topv + topv else 0\n", "    let a = topv + topv\n")
    line = text.splitlines().index("    let a = topv + topv") + 1
    with pytest.raises(RulesRuntimeError, match="top of an empty zone") as failure:
        machine.new_game(load_file(rules_file(text)), 2)
    assert str(failure.value.span).split(":")[1] == str(line)


def test_a_def_computed_before_a_statement_gives_its_value(rules_file):
    # the pile gets the box's top chip, Blue 3; without the tally, total is topv + topv
    text = GAME.replace("    move chips to box\n", "    move chips to box\n    move top(box) to pile\n")
    m = machine.new_game(load_file(rules_file(text.replace("    tally(player(1))\n", ""))), 2)
    assert total(m) == 6


def test_a_part_computed_before_a_loop_follows_the_state(rules_file):
    """The value moved before the loop is read when the loop starts, not when the game loads."""
    text = GAME.replace("player(1).gold[Red] = 1", "player(1).gold[Red] = 0")
    m = machine.new_game(load_file(rules_file(text)), 2)
    assert total(m) == 0           # 0 is over no chip's value


def test_an_index_out_of_range_still_says_so(rules_file):
    text = GAME.replace("    let a = if size(pile) > 0 then topv + topv else 0\n",
                        "    let xs = [1, 2, 3]\n    let k = 5\n    let a = xs[k]\n")
    with pytest.raises(RulesRuntimeError, match="index 5 is outside a list of 3"):
        machine.new_game(load_file(rules_file(text)), 2)
