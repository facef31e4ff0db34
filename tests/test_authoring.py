"""Authoring gaps from twelve games written from the docs (issue 28), each as its author met it."""
from __future__ import annotations

import resource
import subprocess
import sys

import rulecraft


def load(tmp_path, text: str, players: int = 2):
    path = tmp_path / "game.rules"
    path.write_text(text)
    return rulecraft.load(str(path), players=players)


def test_a_choice_over_bool_offers_true_then_false(tmp_path):
    game = load(tmp_path, 'game "B"\nplayers 2\nvar said: Bool = false\nrule play:\n'
                          '    player(1) chooses b in Bool as "{if b then "aye" else "nay"}":\n        said = b\n'
                          '    for b in Bool:\n        say "{b}"\n')
    match = game.new(seed=1)
    assert [a.label for a in match.legal()] == ["aye", "nay"]
    match.apply(match.legal()[1].id)
    assert match.over and match.told(1)[-2:] == ["yes", "no"]


def test_a_const_bounds_a_choice(tmp_path):
    game = load(tmp_path, 'game "C"\nplayers 2\nconst base = 4\nconst start_coins = base * 4\nvar x: Int = 0\n'
                          'rule play:\n    player(1) chooses k in start_coins - 2..start_coins as "take {k}":\n'
                          '        x = k\n')
    assert [a.label for a in game.new(seed=1).legal()] == ["take 14", "take 15", "take 16"]


def _limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (20, 20))


def test_a_chain_of_doubling_consts_as_a_bound_is_refused_at_once(tmp_path):
    consts = "const k0 = 1\n" + "".join(f"const k{i} = k{i - 1} + k{i - 1}\n" for i in range(1, 61))
    path = tmp_path / "chain.rules"
    path.write_text('game "D"\nplayers 2\n' + consts + 'var x: Int = 0\nrule play:\n'
                    '    player(1) chooses k in 1..k60 as "take {k}":\n        x = k\n')
    out = subprocess.run([sys.executable, "-m", "rulecraft", "check", str(path)], capture_output=True, text=True,
                         preexec_fn=_limit_cpu, timeout=120)
    assert out.returncode == 1 and "too many options" in out.stderr, out.stderr


def test_expect_deciding_and_legal_on_a_bare_pass(capsys):
    from pathlib import Path
    from rulecraft.cli.main import main
    path = Path(__file__).parent / "authoring" / "bare-pass-deciding.rules"
    assert main(["test", str(path), "--explore", "2"]) == 0, capsys.readouterr().out
    assert "ok  knock" in capsys.readouterr().out


def test_a_zone_counted_through_a_def_is_public_but_a_filtered_count_is_not():
    from pathlib import Path
    match = rulecraft.load(str(Path(__file__).parent / "authoring" / "counted.rules"), players=2).new(seed=1)
    others = match.view(2)["sheet"]["players"]["Player 1"]
    own = match.view(1)["sheet"]["players"]["Player 1"]
    assert others == ["2 via def; 2 direct; (hidden) spades"]     # was "(hidden) via def; …; 1 spades"
    assert own == ["2 via def; 2 direct; 1 spades"]


def test_a_long_enum_goes_on_after_its_first_line(tmp_path):
    game = load(tmp_path, 'game "E"\nplayers 2\nenum Act: Play "play", Discard,\n    Clue, Pass\n'
                          'enum Other: Up, Down\nrule play:\n    say "{[a for a in Act]} then {[o for o in Other]}"\n')
    match = game.new(seed=1)
    assert match.over and match.told(1)[-1] == "play, Discard, Clue, Pass then Up, Down"


def test_an_enum_value_two_enums_share_is_fixed_by_the_other_side(tmp_path):
    """`c.suit == Spades` where Spades is a Suit and an Other: the left side says which, as a match's subject does."""
    game = load(tmp_path, 'game "E"\nplayers 2\nenum Suit: Spades, Hearts\nenum Other: Spades, Clubs\n'
                          'card Card(suit: Suit)\ncards all_cards = [Card(s) for s in Suit]\nzone deck of Card\n'
                          'var s: Suit = Hearts\nvar t: Other = Spades\n'
                          'def other_of(x: Suit): Other = if x == Hearts then Clubs else Spades\n'
                          'rule play:\n    move all_cards to deck\n    s = Spades\n'
                          '    say "{[c for c in deck if c.suit == Spades]} {[c for c in deck if Spades != c.suit]}"\n'
                          '    say "{s == Spades} {t == Other.Spades} {other_of(Spades) == Spades} {Hearts in [c.suit for c in deck]}"\n'
                          '    say "{[c for c in deck if c.suit in [Spades, Hearts]]}"\n')
    match = game.new(seed=1)
    assert match.told(1)[-3:] == ["Card Spades Card Hearts", "yes yes yes yes", "Card Spades, Card Hearts"]
