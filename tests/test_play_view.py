"""`rulecraft play` for people (issue 15, item 2): answers by label prefix in any case, a forced
option taken without asking, `rules`, `log` and `undo`, and the screen's parts (cli/screen.py).
The checks at a real terminal (sizes, colour) are in test_terminal.py."""
from __future__ import annotations

import re

import pytest

from rulecraft.agents.human import match
from rulecraft.cli import screen
from rulecraft.cli.main import main
from helpers import Keyboard


def play(capsys, monkeypatch, answers, *argv, then=None):
    kb = Keyboard(answers, then)
    monkeypatch.setattr("builtins.input", kb)
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err, kb


class Option:
    def __init__(self, label):
        self.label = label
        self.id = label


OPTIONS = [Option(x) for x in ("play Blue 7", "play Blue 8", "put Red 4 on the trump stack", "keep the trump")]


@pytest.mark.parametrize("answer, chosen", [
    ("2", "play Blue 8"), ("play Blue 7", "play Blue 7"), ("PLAY BLUE 7", "play Blue 7"),
    ("put", "put Red 4 on the trump stack"), ("Keep", "keep the trump"), ("play blue 8", "play Blue 8"),
])
def test_an_answer_names_one_option(answer, chosen):
    found, why = match(answer, OPTIONS)
    assert [o.label for o in found] == [chosen] and why == ""


@pytest.mark.parametrize("answer, why", [
    ("play", "'play' starts 2 options ('play Blue 7', 'play Blue 8')"), ("9", "there is no option 9"),
    ("fold", ""), ("", ""),
])
def test_an_answer_that_names_no_single_option(answer, why):
    found, said = match(answer, OPTIONS)
    assert len(found) != 1 and said == why


def test_an_ambiguous_prefix_is_explained_and_asked_again(capsys, monkeypatch):
    code, out, _, kb = play(capsys, monkeypatch, ["PLAY", "quit"], "blackmore", "--seed", "2", "-n", "3")
    assert code == 0 and "'PLAY' starts 6 options ('play " in out and len(kb.prompts) == 2


def test_a_label_prefix_in_any_case_is_taken(capsys, monkeypatch, tmp_path):
    code, out, _, _ = play(capsys, monkeypatch, ["PLAY B", "quit"], "examples/nim.rules", "--seed", "1",
                           "--agents", "random,random", "--seat", "1")
    # Nim: "take 1", "take 2", "take 3": a prefix that fits none is asked again
    assert "please answer with a number" in out
    code, out, _, _ = play(capsys, monkeypatch, ["TAKE 2", "quit"], "examples/nim.rules", "--seed", "1",
                           "--agents", "random,random", "--seat", "1")
    assert "  Player 1: take 2" in out


def test_a_forced_decision_is_taken_and_said(capsys, monkeypatch):
    code, out, _, kb = play(capsys, monkeypatch, [], "blackmore", "--seed", "3", "-n", "2", "--set", "hand_size=1",
                            then="1")
    assert code == 0 and "  (your only option, taken for you)" in out
    asked = len(kb.prompts)
    code, out, _, kb = play(capsys, monkeypatch, [], "blackmore", "--seed", "3", "-n", "2", "--set", "hand_size=1",
                            "--ask-forced", then="1")
    assert code == 0 and "your only option" not in out and len(kb.prompts) > asked


def test_rules_tells_the_game_from_its_file(capsys, monkeypatch):
    code, out, _, _ = play(capsys, monkeypatch, ["rules", "rules all", "quit"], "blackmore", "--seed", "2",
                           "--set", "wheel=ascending")
    assert code == 0
    # the file's path is where the game is installed (games/ in a checkout)
    assert re.search(r"^The Witches of Blackmore \(2 to 6 players\) — \S*blackmore\.rules$", out, re.M)
    assert "  wheel = ascending  (one of descending | ascending; default descending) — the side of" in out
    assert "components: 54 cards; zones: deck (face down), trump stack (face up), each player's hand (seen by its owner)" in out
    assert re.search(r"^sections of \S*blackmore\.rules: Components · Card ranking · Setup · Gameplay", out, re.M)
    assert "(… 'rules all' prints the whole opening comment)" in out
    assert " 7. The winner may put any card of the contest" in out               # `rules all`


def test_log_repeats_what_the_seat_was_told(capsys, monkeypatch):
    code, out, _, _ = play(capsys, monkeypatch, ["1", "log", "quit"], "blackmore", "--seed", "2", "-n", "2")
    assert code == 0 and "The trump is " in out.split("=== your decision")[-1]    # the log, after the last screen


def test_undo_takes_back_a_hot_seat_decision(capsys, monkeypatch, tmp_path):
    argv = ["blackmore", "--seed", "5", "--seat", "all", "-n", "2", "--log", "game.yaml"]
    monkeypatch.chdir(tmp_path)
    code, out, _, kb = play(capsys, monkeypatch, ["1", "undo", "2"], *argv, then="1")
    assert code == 0 and "undone: 1 decision taken back; Player 2 decides again" in out
    first_three = kb.prompts[:3]
    assert first_three[0] == first_three[2] != first_three[1]      # asked again, the same player
    from ruamel.yaml import YAML
    decisions = YAML(typ="safe").load((tmp_path / "game.yaml").read_text())["decisions"]
    assert decisions[0]["label"] == out.split("=== Player 2, your decision ===")[1].split("\n   2. ")[1].split("\n")[0]


def test_undo_refuses_when_hidden_cards_were_seen(capsys, monkeypatch):
    code, out, _, _ = play(capsys, monkeypatch, ["1", "1", "undo", "quit"], "blackmore", "--seed", "5", "-n", "3")
    assert "cannot undo: since that decision Player 1 has seen cards that were hidden" in out


def test_undo_with_nothing_to_undo(capsys, monkeypatch):
    code, out, _, _ = play(capsys, monkeypatch, ["undo", "quit"], "blackmore", "--seed", "5", "-n", "3")
    assert "nothing to undo: no decision was made at this keyboard yet" in out


# ------------------------------------------------------------------ the screen's parts
def test_decisions_fold_to_the_width_and_narration_stays():
    news = [("decision", "  Player 2: let it pass", False), ("decision", "  Player 4: let it pass", False),
            ("say", "  an indented line of narration", False), ("decision", "  Player 6: let it pass", False)]
    assert screen.fold_decisions(news, 60) == [("  Player 2: let it pass · Player 4: let it pass", False),
                                                ("  an indented line of narration", False),
                                                ("  Player 6: let it pass", False)]
    assert screen.fold_decisions(news, 30)[:2] == [("  Player 2: let it pass", False), ("  Player 4: let it pass", False)]
    assert screen.fold_decisions(news, None) == [(line, False) for _, line, _ in news]
    pinned = [news[0], ("decision", "  Player 4: let it pass", True), news[1]]
    assert screen.fold_decisions(pinned, 50) == [("  Player 2: let it pass · Player 4: let it pass", True),
                                                  ("  Player 4: let it pass", False)]


def test_news_is_cut_to_its_latest_lines():
    news = [(f"line {i}", False) for i in range(10)]
    assert screen.fit_news(news, 4) == [("… 7 earlier lines: type 'log' to read them", False),
                                        ("line 7", False), ("line 8", False), ("line 9", False)]
    assert screen.fit_news(news, None) == news == screen.fit_news(news, 10)


def test_what_was_decided_for_the_person_stays_when_the_news_is_cut():
    news = [(f"line {i}", i in (2, 3)) for i in range(10)]
    assert screen.fit_news(news, 6) == [("… 2 earlier lines: type 'log' to read them", False), ("line 2", True),
                                        ("line 3", True), ("… 4 more lines: type 'log' to read them", False),
                                        ("line 8", False), ("line 9", False)]
    assert [line for line, _ in screen.fit_news(news, 4)] == [        # room for one of them only: the latest
        "… 3 earlier lines: type 'log' to read them", "line 3", "… 5 more lines: type 'log' to read them", "line 9"]


def test_many_options_are_laid_out_in_columns_read_down():
    lines = screen.option_lines([f"take {k}" for k in range(1, 9)], 40)
    assert lines == ["   1. take 1   4. take 4   7. take 7", "   2. take 2   5. take 5   8. take 8",
                     "   3. take 3   6. take 6"]
    assert len(screen.option_lines([f"take {k}" for k in range(1, 9)], None)) == 8      # a pipe: one a line


def test_words_most_options_start_with_are_written_once():
    labels = [f"shed action: fill {item} box 1 of 2" for item in ("Mason Jars", "Shovel", "Pie Safe", "Mulch")]
    labels.append("decline the shed action")
    labels.append("shed action: fill Hive Tool box 1 of 2")
    assert screen.shared_start(labels) == "shed action: fill "
    lines = screen.option_lines(labels, 60)
    assert lines[0] == "  shed action: fill …"
    assert "1. …Mason Jars box 1 of 2" in lines[1] and any("5. decline the shed action" in ln for ln in lines)
    assert screen.shared_start(["take 1", "take 2", "give 3"]) == ""          # too short, too few


def test_changed_lines_are_marked_from_the_second_screen_on():
    s = screen.Screen()
    assert s.view(0, ["a", "b"], None) == [("  a", False), ("  b", False)]
    assert s.view(0, ["a", "c"], None) == [("  a", False), ("» c", True)]
    assert s.view(1, ["a", "c"], None) == [("  a", False), ("  c", False)]     # each seat its own


STEPS = """game "Steps"
players 2
var total: Int = 0
rule play:
    player(1) chooses k in 1..2 as "pick {k}":
        total += k
    player(1) chooses k in 1..1 as "confirm {k}":
        total += k
    player(2) chooses k in 1..2 as "answer {k}":
        total += k
    player(1) chooses k in 1..2 as "again {k}":
        total += k
score p = total
"""


def test_undo_goes_back_past_decisions_taken_for_the_person(capsys, monkeypatch, tmp_path):
    (tmp_path / "steps.rules").write_text(STEPS)
    code, out, _, kb = play(capsys, monkeypatch, ["2", "undo", "1", "quit"], str(tmp_path / "steps.rules"),
                            "--seed", "1")
    assert code == 0 and "  Player 1: confirm 1  (your only option, taken for you)" in out
    assert "undone: 3 decisions taken back; Player 1 decides again" in out       # pick, confirm and the answer
    assert out.count("   1. pick 1") == 2 and "  Player 1: pick 1" in out


def test_lines_that_never_changed_fold_into_one():
    s = screen.Screen()
    first = ["legend a", "legend b", "legend c", "score 1"]
    assert s.remember(0, first) == set()                              # nothing to fold on a first screen
    assert s.remember(0, ["legend a", "legend b", "legend c", "score 2"]) == set(first)
    later = ["legend a", "legend b", "legend c", "score 3"]
    unchanging = s.remember(0, later)
    assert unchanging == {"legend a", "legend b", "legend c"}
    assert screen.Screen.fold_unchanging(later, unchanging) == [
        "(3 lines that have not changed since your first decision: 'view')", "score 3"]
    assert screen.Screen.fold_unchanging(later, {"legend a"}) == later   # one line: not worth a note


PINNED = """game "Pinned"
players 2
var total: Int = 0
rule play:
    player(1) chooses k in 1..2 as "pick {k}":
        total += k
    player(1) chooses k in 1..1 as "confirm {k}":
        say "the pick is confirmed"
    repeat 40:
        say "a line of news"
    player(1) chooses k in 1..2 as "again {k}":
        total += k
score p = total
"""


def test_a_decision_taken_for_the_person_is_said_before_and_stays_on_screen(capsys, monkeypatch, tmp_path):
    """Issue 29, point 1: the option shows what it commits to, and at 100 × 30 the decision taken for the
    person and what came of it are not cut from the news however long it is."""
    (tmp_path / "pinned.rules").write_text(PINNED)
    monkeypatch.setattr("rulecraft.cli.play._Game._size", lambda self: (100, 30))
    code, out, _, _ = play(capsys, monkeypatch, ["1", "quit"], str(tmp_path / "pinned.rules"), "--seed", "1")
    assert code == 0 and "   1. pick 1 → confirm 1" in out
    second = out.split("   2. pick 2 → confirm 1")[1]
    assert second.startswith("\n  Player 1: pick 1 · Player 1: confirm 1  (your only option, taken for you)\n"
                             "the pick is confirmed\na line of news\na line of news\na line of news\n")
    # all of it came of the person's own choice (no other seat decided since): its first lines stay
    assert "more lines (with some of what came of your decision): type 'log' to read them" in second
    assert max(map(len, out.splitlines())) <= 100


def test_a_choice_asks_its_prompt_above_the_options(capsys, monkeypatch, tmp_path):
    """Issue 29, point 4: `prompt "…"` on a choice is its question, shown to the chooser above the options."""
    (tmp_path / "prompted.rules").write_text(PROMPTED)
    code, out, _, _ = play(capsys, monkeypatch, ["2", "1", "quit"], str(tmp_path / "prompted.rules"), "--seed", "1",
                           "--seat", "all")
    assert code == 0 and "  How many steps toward 5?\n   1. take 1\n" in out
    assert "  Answer 2?\n   1. answer 1\n   2. answer 2\n   3. let it pass\n" in out


PROMPTED = """game "Prompted"
players 2
var total: Int = 0
rule play:
    let goal = 5
    player(1) chooses k in 1..3 prompt "How many steps toward {goal}?" as "take {k}":
        total += k
    player(2) may choose k in 1..2 prompt "Answer {total}?" as "answer {k}" or "let it pass":
        total += k
score p = total
"""


PARTS = """game "Parts"
players 2
var coins: Int per player
var debt: Int per player
rule play:
    for p in players:
        p chooses k in 1..3 as "take {k}":
            p.coins = k
            p.debt = 1
score p = double(p.coins) + p.coins * 10 - p.debt
def double(n: Int): Int = 2 * n
"""


def test_the_final_screen_says_what_each_score_is_made_of(capsys, monkeypatch, tmp_path):
    """Issue 29, point 5: the parts come from the `score` expression's terms (named by their def or
    their text), or from the elements a `sum(… for x in L)` adds."""
    (tmp_path / "parts.rules").write_text(PARTS)
    code, out, _, _ = play(capsys, monkeypatch, ["2", "3"], str(tmp_path / "parts.rules"), "--seed", "1",
                           "--seat", "all")
    assert code == 0 and "What the scores are made of:\n" in out
    assert "  Player 1    23 = double 4 + p.coins * 10 20 - p.debt 1\n" in out
    assert "  Player 2    35 = double 6 + p.coins * 10 30 - p.debt 1\n" in out
    code, out, _, _ = play(capsys, monkeypatch, [], "blackmore", "--seed", "3", "-n", "2", "--set", "hand_size=1",
                           then="1")
    parts = out.split("What the scores are made of:\n")[1].splitlines()
    assert re.fullmatch(r"  Player 1 +\d+ = (nothing|\w+ \d+( \+ \w+ \d+)*)", parts[0])


@pytest.mark.parametrize("wheel", ["descending", "ascending"])
def test_blackmore_shows_the_rank_order_the_wheel_gives(wheel):
    """Issue 29, point 3: the sheet says what the table shows beside the trump: the ranks strongest first,
    and which card on the table would win now (so 'wins with Black 3' over a Black 8 needs no working out)."""
    from rulecraft.cli import plaintext
    from rulecraft.engine import views
    from rulecraft.engine.session import Session
    from rulecraft.loader import load
    from helpers import cards_in
    program = load("blackmore")
    session = Session.start(program, "blackmore", 3, seed=2, options=Session.parse_options(program, [f"wheel={wheel}"]))
    trump = int(cards_in(session.state, "trump_stack")[-1].split()[1])
    step = -1 if wheel == "descending" else 1
    order = [(trump - 1 + step * k) % 9 + 1 for k in range(9)]
    lines = plaintext.view_lines(views.view(session.state, 0), session.state.names[0])
    assert f"ranks, strongest first: {' > '.join(map(str, order))} · " in "\n".join(lines)
    session.take(session.legal()[0].id)
    lines = plaintext.view_lines(views.view(session.state, 0), session.state.names[0])
    assert any(line.startswith("on the table: ") and " · winning now: " in line for line in lines)


def test_a_long_view_shows_what_changed_and_marks_only_real_changes():
    """Issue 29, point 6: lines as at the last screen fold into a note ('view' shows all), the seat's own
    cards stay; a line shown again after it was folded is not marked as changed, nor is a note."""
    s = screen.Screen()
    s.view(0, ["a", "b", "c", "your hand: x"], None, full=["a", "b", "c", "your hand: x"])
    now = ["a", "b2", "c", "your hand: x"]
    folded = s.fold_unchanged(0, now)
    assert folded == ["(2 lines as at your last decision: 'view' shows them)", "b2", "your hand: x"]
    assert s.view(0, folded, None, full=now) == [
        ("  (2 lines as at your last decision: 'view' shows them)", False), ("» b2", True), ("  your hand: x", False)]
    assert s.view(0, now, None, full=now) == [(f"  {line}", False) for line in now]      # shown again: not changed
    folded_first = screen.Screen.fold_unchanging(now, {"a", "c"})
    assert s.view(0, folded_first, None, full=now)[0] == ("  (2 lines that have not changed since your first "
                                                          "decision: 'view')", False)
