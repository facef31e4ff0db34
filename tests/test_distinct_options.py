"""A choice offers each value once: over a list that may repeat one, the rules' code removes the
repeats (compile/distinct.py says, before any rule is written, where none can be, so that no set
is made at each decision). Here the lists it now knows to be free of repeats — a local bound once
by a `let` of such a list, the top cards of each player's own zone, a list of one value — and lists
made to look like them that do repeat a value: each is offered once, in order, whether the dedup is
written or not."""
from __future__ import annotations

import pytest

from rulecraft.engine import machine
from rulecraft.loader import load_file

RULES = '''game "Distinct"
players 3
card Chip(n: 1..9) named "chip {n}"
cards chips = [Chip(n) for n in 1..9]
zone heap of Chip
zone shown of Chip per player
zone pool of Chip per team
teams Odd, Even
var picked: Int = 0
rule setup:
    move chips to heap
    for p in players:
        move top(heap) to p.shown
        move top(heap) to p.team.pool
rule play:
    let mine = [top(p.shown) for p in players_from(player(2))]
    player(1) chooses c in mine as "{c}":
        picked += 1
    let same = [top(heap) for p in players]
    player(1) chooses c in same as "{c}":
        picked += 1
    let pooled = [top(p.team.pool) for p in players]
    player(1) chooses c in pooled as "{c}":
        picked += 1
    let grown = [top(p.shown) for p in players]
    add top(player(1).shown) to grown
    player(1) chooses c in grown as "{c}":
        picked += 1
    let changed = [top(p.shown) for p in players]
    changed = changed + [top(player(3).shown)]
    player(1) chooses c in changed as "{c}":
        picked += 1
    let one = [top(heap)]
    player(1) chooses c in one as "{c}":
        picked += 1
'''


def test_each_value_is_offered_once(rules_file):
    m = machine.new_game(load_file(rules_file(RULES)), 3, None, 0)
    offered = []
    while m.result is None:
        options = machine.legal_options(m)
        offered.append([o.label for o in options])
        machine.decide(m, options[0].id)
    # setup: the heap is 9 (top) .. 1; players 1, 2, 3 are shown 9, 7, 5; the pools of Odd (1, 3) and
    # Even (2) take 8, 6, then 4
    assert offered == [
        ["chip 7", "chip 5", "chip 9"],       # from player 2 on: three zones, three cards
        ["chip 3"],                           # the heap's top three times: once
        ["chip 4", "chip 6"],                 # players 1 and 3 share their team's pool: once
        ["chip 9", "chip 7", "chip 5"],       # player 1's top added again: once
        ["chip 9", "chip 7", "chip 5"],       # player 3's top added again: once
        ["chip 3"],
    ], offered


@pytest.mark.parametrize("name, kept", [("mine", False), ("same", True), ("pooled", True), ("grown", True),
                                        ("changed", True), ("one", False)])
def test_the_dedup_is_left_out_only_where_no_repeat_can_be(rules_file, monkeypatch, name, kept):
    """Each list's `let` and its choice alone in `play`: is the dedup written there?"""
    from rulecraft.compile import codegen

    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    head, cases = RULES.split("rule play:\n")
    lines = cases.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"    let {name} "))
    end = next(i for i in range(at, len(lines)) if lines[i].strip() == "picked += 1")
    body = head + "rule play:\n" + "\n".join(lines[at:end + 1]) + "\n"
    sources = []
    original = codegen.Namespace.define

    def define(self, fname, head, lines, label, span=None):
        sources.append("".join(text for _ind, text, _span in lines))
        return original(self, fname, head, lines, label, span)
    monkeypatch.setattr(codegen.Namespace, "define", define)
    load_file(rules_file(body))
    assert any("dict.fromkeys(_xs)" in s for s in sources) is kept


DEFS = '''game "Through a def"
players 2
card Chip(n: 1..9) named "chip {n}"
cards chips = [Chip(n) for n in 1..9]
zone heap of Chip
zone shown of Chip per player
def same(xs: List[Player]): List[Player] = xs
def tops(ps: List[Player]): List[Chip] = [top(p.shown) for p in ps]
rule setup:
    move chips to heap
    for p in players:
        move top(heap) to p.shown
rule play:
    let all = players_from(player(1))
    player(1) chooses q in same([player(2), player(2)]) as "point at {q}":
        say "{q}"
    player(1) chooses c in tops([player(2), player(2)]) as "take {c}":
        say "{c}"
'''


def test_a_def_s_parameter_is_not_the_rule_s_local_of_its_slot(rules_file):
    """In a def's body a local is the def's parameter, whatever the rule's local of the same slot holds
    (here `all`, a list free of repeats): a def's result over its parameter keeps its dedup (a regression)."""
    m = machine.new_game(load_file(rules_file(DEFS)), 2, None, 0)
    offered = []
    while m.result is None:
        offered.append([o.label for o in machine.legal_options(m)])
        assert len(set(machine.legal_ids(m))) == len(machine.legal_ids(m))
        machine.decide(m, machine.legal_ids(m)[0])
    assert offered == [["point at Player 2"], ["take chip 8"]], offered
