"""The fast path (engine.playout) makes the games the resumable path makes, decision by decision.

A playout runs the rules compiled a second time (`Program.fast`), in which a choice calls the
agent where the resumable rules wait. Were the two to differ, every random game, `simulate` and
search rollout would go wrong with no error; so for every bundled game and example, at several
player counts and seeds, a random game is played both ways and compared at every decision (the
options offered, the chooser), and at the end (the state, the result, the generator); and a
playout cut short by `max_decisions` waits exactly where the resumable path waits.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.engine import machine
from rulecraft.engine.playout import playout, reference_playout
from rulecraft.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = rulecraft.game_names() + sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))


def recorder(seed: int):
    """A random chooser that writes down what it was offered."""
    rng = random.Random(seed)
    seen = []

    def choose(m, who, ids):
        seen.append((who, ids))
        return ids[rng.randrange(len(ids))]
    return choose, seen


def players_of(program) -> list:
    return sorted({program.min_players, (program.min_players + program.max_players) // 2, program.max_players})


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_the_fast_path_plays_the_games_the_resumable_path_plays(ref):
    program = load(ref)
    assert program.fast is not None and program.fast() is not None
    for players in players_of(program):
        for seed in range(3):
            fast, slow = (machine.new_game(program, players, None, seed) for _ in range(2))
            choose_fast, seen_fast = recorder(seed)
            choose_slow, seen_slow = recorder(seed)
            playout(fast, choose_fast)
            reference_playout(slow, choose_slow)
            assert seen_fast == seen_slow, (players, seed)
            assert fast.result is not None and fast.result == slow.result
            assert fast.same_as(slow, frames=False) and fast.rng == slow.rng and fast.stack == slow.stack == []


@pytest.mark.parametrize("ref", GAMES, ids=[Path(g).stem for g in GAMES])
def test_a_playout_cut_short_waits_where_the_resumable_path_waits(ref):
    program = load(ref)
    players = program.max_players
    for seed, steps in ((1, 1), (2, 3), (3, 17)):
        fast, slow = (machine.new_game(program, players, None, seed) for _ in range(2))
        choose_fast, seen_fast = recorder(seed)
        choose_slow, seen_slow = recorder(seed)
        playout(fast, choose_fast, steps)
        reference_playout(slow, choose_slow, steps)
        assert seen_fast == seen_slow
        assert fast.same_as(slow, frames=False), (seed, steps)
        # the frames wait at the same rules and points (a local the rules never read again may hold
        # an older value on the resumable path: it stored it at an earlier decision), so the
        # resumable path goes on from the fast path's state, copied or not, as from its own
        assert [fr[:2] for fr in fast.stack] == [fr[:2] for fr in slow.stack]
        if fast.result is None:
            assert fast.decisions == slow.decisions == steps
            for go_on in (fast.copy(), fast):
                choose_fast, seen_fast = recorder(seed + 100)
                choose_slow, seen_slow = recorder(seed + 100)
                after = slow.copy()
                reference_playout(go_on, choose_fast)
                reference_playout(after, choose_slow)
                assert seen_fast == seen_slow and go_on.same_as(after, frames=False)


class AgentQuits(Exception):
    """An agent's own error."""


@pytest.mark.parametrize("cut", [None, 50])
def test_an_agents_own_error_comes_out_as_it_is(cut):
    """An exception raised by `choose` in the middle of the fast path's rules is the agent's, not an
    internal error of rulecraft (as the reference loop, which never wraps `choose`, lets it out)."""
    program = load("blackmore")
    m = machine.new_game(program, 4, None, 1)
    seen = []

    def choose(m, who, ids):
        seen.append(ids)
        if len(seen) == 5:
            raise AgentQuits("enough")
        return ids[0]
    with pytest.raises(AgentQuits, match="enough"):
        playout(m, choose, cut)

    class Agent:            # a callable object, and a bound method
        def __call__(self, m, who, ids):
            raise AgentQuits("object")

        def pick(self, m, who, ids):
            raise AgentQuits("method")
    for agent in (Agent(), Agent().pick):
        m = machine.new_game(program, 4, None, 1)
        first = m.pending[2]
        calls = []

        def twice(m, who, ids, agent=agent):
            calls.append(ids)
            return ids[0] if len(calls) == 1 else agent(m, who, ids)
        with pytest.raises(AgentQuits):
            playout(m, twice, cut)
        assert calls[0] == first


def test_a_rules_failure_on_the_fast_path_names_the_rule_and_line(rules_file):
    """A rule that fails while the fast path runs it is a RulesRuntimeError with the same sentence, rule,
    line and chain as decide-by-decide gives."""
    from rulecraft.loader import load_file
    from rulecraft.runtime.errors import RulesRuntimeError
    path = rules_file('''game "Fails"
players 2
zone heap of Card
zone empty of Card
card Card(n: 1..3)
cards all = [Card(n) for n in 1..3]
var turns: Int = 0
rule setup:
    move all to heap
rule play:
    while true:
        turn()
rule turn:
    player(1) chooses c in heap as "take {c}":
        turns += 1
        if turns == 3:
            move top(empty) to heap
''')
    program = load_file(path)
    said = []
    for run in (playout, reference_playout):
        m = machine.new_game(program, 2, None, 0)
        with pytest.raises(RulesRuntimeError) as failed:
            run(m, lambda m, who, ids: ids[0])
        said.append(str(failed.value))
    assert said[0] == said[1] and "empty" in said[0] and ":17:" in said[0], said


def test_a_choice_with_no_option_is_skipped_on_the_fast_path_too(rules_file):
    """A choice the dispatch loop reaches with no option skips to what follows the loop, as the
    resumable path does; that path, copied under the choice's `if`, once fell back into the choice and
    called the agent with no option (the second contest: player 2's hand is empty)."""
    from rulecraft.loader import load_file
    adds = "".join(f"        total = total + {k}\n" for k in range(1, 18))
    path = rules_file(f'''game "Skipped"
players 2
card Chip(n: 1..9)
cards chips = [Chip(n) for n in 1..9]
zone pile of Chip
zone hand of Chip per player
zone played of Chip per player
var rounds: Int = 0
var total: Int = 0
rule setup:
    move chips to pile
    move top(pile) to player(1).hand
    move top(pile) to player(1).hand
    move top(pile) to player(1).hand
    move top(pile) to player(2).hand
rule play:
    while rounds < 3:
        contest()
rule contest:
    rounds = rounds + 1
    let order = [p for p in players]
    for p in order:
        p chooses c in p.hand:
            move c to p.played
    let table = [c for p in order for c in p.played]
    total = total + size(table)
    player(1) may choose c in table:
        total = total + c.n
{adds}    for p in order:
        move p.played to pile
score p: Player = total
''')
    program = load_file(path)
    for seed in range(4):
        fast, slow = (machine.new_game(program, 2, None, seed) for _ in range(2))
        choose_fast, seen_fast = recorder(seed)
        choose_slow, seen_slow = recorder(seed)
        playout(fast, choose_fast)
        reference_playout(slow, choose_slow)
        assert all(ids for _who, ids in seen_fast) and seen_fast == seen_slow, seed
        assert fast.result == slow.result and fast.same_as(slow, frames=False)
