"""Chance as recorded events: every shuffle's order and every random draw is in the transcript,
replay checks each one, and a transcript in which one was changed is refused with the outcome named."""
from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from rulecraft.cli.main import main
from rulecraft.engine.session import Session
from rulecraft.loader import load_file
from rulecraft.runtime.errors import RulesRuntimeError

yaml = YAML()
yaml.default_flow_style = None


def logged(tmp_path, capsys, *argv):
    log = tmp_path / "game.yaml"
    assert main(["run", *argv, "--log", str(log), "-q"]) == 0
    capsys.readouterr()
    return log, YAML(typ="safe").load(log.read_text())


def replay(path, capsys):
    code = main(["replay", str(path), "-q"])
    return code, capsys.readouterr().err


def rewrite(path, data):
    with open(path, "w") as f:
        yaml.dump(data, f)


def test_a_transcript_lists_the_deal_and_every_draw(tmp_path, capsys):
    _log, data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    shuffle, draw = data["chance"]
    assert shuffle["after"] == 0 and shuffle["shuffle"] == "deck" and len(shuffle["order"]) == 54
    assert draw["after"] == 0 and draw["random"] in data["names"] and draw["of"] == 3


def test_a_changed_shuffle_is_refused_by_name(tmp_path, capsys):
    log, data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    order = data["chance"][0]["order"]
    order[0], order[1] = order[1], order[0]
    rewrite(log, data)
    code, err = replay(log, capsys)
    assert code == 1
    assert "chance outcome 1" in err and "the shuffle of deck after decision 0" in err and "not what the rules give" in err
    assert "Traceback" not in err


def test_a_changed_draw_is_refused_by_name(tmp_path, capsys):
    log, data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    draw = data["chance"][1]
    others = [n for n in data["names"] if n != draw["random"]]
    draw["random"] = others[0]
    rewrite(log, data)
    code, err = replay(log, capsys)
    assert code == 1 and "chance outcome 2" in err and "random draw" in err


def test_a_missing_or_an_extra_outcome_is_refused(tmp_path, capsys):
    log, data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    complete = list(data["chance"])
    data["chance"] = complete[:1]
    rewrite(log, data)
    code, err = replay(log, capsys)
    assert code == 1 and "the rules give more" in err
    data["chance"] = complete + [dict(complete[1], after=5)]
    rewrite(log, data)
    code, err = replay(log, capsys)
    assert code == 1 and "never give" in err


def test_draws_during_play_are_recorded_after_their_decision(tmp_path, capsys):
    """Three Sisters rolls dice every round: each roll is listed after the decision that led to it."""
    log, data = logged(tmp_path, capsys, "three-sisters", "--seed", "2", "--players", "2")
    afters = [c["after"] for c in data["chance"]]
    assert afters == sorted(afters) and afters[-1] > 0 and len(afters) > 10
    assert replay(log, capsys)[0] == 0


def test_a_decision_that_fails_leaves_no_chance_outcome_behind(rules_file):
    """A decision is atomic: the draws its failing rules made are taken back with it."""
    path = rules_file('game "Fails"\nplayers 1\nzone pile of Card\nvar x: Int = 0\n\nrule play:\n'
                      '    player(1) chooses k in 1..2 as "pick {k}":\n'
                      '        x = random([1, 2, 3])\n        let c = top(pile)\n')
    s = Session.start(load_file(path), "fails", 1)
    assert s.chance == []
    with pytest.raises(RulesRuntimeError, match="empty zone"):
        s.take(s.legal_ids()[0])
    assert s.chance == [] and s.state.decisions == 0


ROLL = '''game "Roll"
players 1
var got: Int
rule play:
    got = random(1..6)
'''


def scenario_result(rules_file, text):
    from rulecraft.engine.scenarios import run_all
    return run_all(load_file(rules_file(ROLL + text)))[0]


def test_a_scenario_fixes_the_next_draw(rules_file):
    result = scenario_result(rules_file, 'scenario six "a six":\n    next random is 6\n    expect got == 6\n')
    assert result.ok, result.message


def test_a_fixed_draw_that_cannot_come_fails_the_scenario(rules_file):
    result = scenario_result(rules_file, 'scenario seven "no seven":\n    next random is 7\n    expect got == 7\n')
    assert not result.ok and "the next random draw is 7, but it can only be one of 1, 2, 3, 4, 5, 6" in result.message


def test_a_fixed_draw_that_never_comes_fails_the_scenario(rules_file):
    result = scenario_result(rules_file, 'scenario two "one draw only":\n    next random is 2\n'
                                         '    next random is 3\n    expect got == 2\n')
    assert not result.ok and "never came" in result.message


def test_fixed_draws_are_recorded_like_any_other(rules_file):
    """A fixed draw is still a chance outcome of the game: it goes into the chance log."""
    from rulecraft.engine import machine
    program = load_file(rules_file(ROLL))
    log: list = []
    m = machine.new_game(program, 1, chance=log, forced=[("random", lambda m: 4)])
    assert m.vars[0] == 4 and log == [("random", 0, 6, 3, "4")]


CHIPS = '''game "Chips"
players 1
card Chip(n: 1..3) named "chip {n}"
cards chips = [Chip(n) for n in 1..3]
zone pile of Chip
var got: Int
rule setup:
    move chips to pile
    shuffle pile
rule play:
    got = random([c.n for c in pile])
'''


@pytest.mark.parametrize("steps, ok, words", [
    ('    next shuffle is [Chip("chip 3"), Chip("chip 1"), Chip("chip 2")]\n    expect list(pile) == [Chip("chip 3"), Chip("chip 1"), Chip("chip 2")]\n', True, ""),
    ('    next shuffle is [Chip("chip 3"), Chip("chip 1")]\n', False, "holds other ones"),
    ('    next random is 2\n    next shuffle is [Chip("chip 1"), Chip("chip 2"), Chip("chip 3")]\n', False,
     "fixes a random next, but the rules shuffle first"),
    ('    next shuffle is [Chip("chip 2"), Chip("chip 1"), Chip("chip 3")]\n    next random is 3\n    expect got == 3\n', True, ""),
], ids=["stacked", "other-cards", "wrong-kind-first", "shuffle-then-draw"])
def test_a_scenario_stacks_the_next_shuffle(rules_file, steps, ok, words):
    from rulecraft.engine.scenarios import run_all
    result = run_all(load_file(rules_file(CHIPS + 'scenario s "s":\n' + steps + "    expect true\n")))[0]
    assert result.ok == ok, result.message
    assert words in result.message


def test_a_record_without_its_rules_digest_is_refused(tmp_path, capsys):
    """Without the digest, a transcript could pass as one of other rules (issue 10, item 5)."""
    log, data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    for missing in ("", None):
        if missing is None:
            del data["rules_sha256"]
        else:
            data["rules_sha256"] = missing
        rewrite(log, data)
        code, err = replay(log, capsys)
        assert code == 1 and "does not say which rules it was made with" in err


# ------------------------------------------------------------------ hostile records (issue 10, item 8)
@pytest.mark.parametrize("extra, words", [
    ('a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n',
     "anchors and aliases"),
    ("x: &x [*x]\n", "anchors and aliases"),
    ("deep: " + "[" * 5000 + "]" * 5000 + "\n", "deeper than a record does"),
], ids=["billion-laughs", "recursive-alias", "deep-nesting"])
def test_a_hostile_record_is_refused_in_one_sentence(tmp_path, capsys, extra, words):
    log, _data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    log.write_text(log.read_text() + extra)
    code, err = replay(log, capsys)
    assert code == 1 and words in err and len(err.strip().splitlines()) == 1


def test_a_record_is_read_only_up_to_its_size_limit(tmp_path, capsys):
    code, err = replay("/dev/zero", capsys)
    assert code == 1 and "cannot read /dev/zero: not a regular file" in err
    big = tmp_path / "big.yaml"
    big.write_text("rulecraft: transcript\n" + "# padding\n" * 120_000)
    code, err = replay(big, capsys)
    assert code == 1 and "larger than 1 MB" in err


def test_a_record_with_an_impossible_player_count_is_refused(tmp_path, capsys):
    log, data = logged(tmp_path, capsys, "blackmore", "--seed", "4", "--players", "3")
    data["players"] = 0
    rewrite(log, data)
    code, err = replay(log, capsys)
    assert code == 1 and "it says 0 players" in err
