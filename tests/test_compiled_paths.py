"""What a resumed rule leaves out stores nothing new (compile/rules.py, RuleGen.block_lines).

Along the path a decision runs on after a rule resumes, a local loaded from the frame and not
assigned since is not stored again when the rule next waits. Were the compiler to miss an
assignment, a game would go wrong with no error at all; so here every bundled game and
example is compiled with each store left out replaced by a check that the frame already holds
that value, and random games of the smallest and largest player counts, and every scenario
(which plays the twin compiled for `take "…":`), are played through it.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile import codegen
from rulecraft.compile.options import DEFAULT
from rulecraft.engine import machine
from rulecraft.engine.playout import playout
from rulecraft.engine.scenarios import run_scenario
from rulecraft.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))
CHECKED = DEFAULT.with_(check_clean=True)
PLANTED = "blackmore-no-refill"        # its scenario fails on purpose (the bug `rulecraft test` finds)


@pytest.fixture
def checked(monkeypatch):
    """Compile with the checks in place of the stores left out; collect the generated sources."""
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    sources = []
    define = codegen.Namespace.define

    def keep(self, name, head, lines, label, span=None):
        sources.append("".join(text for _ind, text, _span in lines if isinstance(text, str)))
        return define(self, name, head, lines, label, span)

    monkeypatch.setattr(codegen.Namespace, "define", keep)
    return sources


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_stores_left_out_store_nothing_new(ref, checked):
    program = load(ref, options=CHECKED)
    for players in sorted({program.min_players, program.max_players}):
        for seed in range(3):
            m = machine.new_game(program, players, None, seed)
            agent = random.Random(seed)
            while m.result is None:
                ids = machine.legal_ids(m)
                machine.decide(m, ids[agent.randrange(len(ids))])
            # the fast path's twin, cut short every few decisions (its stores then count)
            m = machine.new_game(program, players, None, seed)
            while m.result is None:
                playout(m, lambda m, who, ids: ids[agent.randrange(len(ids))], 7)
    for sc in program.scenarios:
        if PLANTED not in ref:
            assert run_scenario(program, sc).ok, sc.name


def test_the_checks_are_there(checked):
    """Blackmore's contest stores its order of play when it first asks, not again at each card; nor its
    pc, which the frame holds already when the next card is asked where the last one was."""
    load("blackmore", options=CHECKED)
    assert any("a store left out" in src for src in checked)
    assert any(re.search(r"if fr\[1\] != \d+: raise AssertionError\('a store left out'\)", src) for src in checked)
