"""Issue 29: a table that teaches the game, checked as a person at a 100 × 30 terminal sees it.

The play loop is run with its terminal size fixed at 100 columns and 30 rows (`_Game._size`), a person
answering 1 at every decision of their seat, through whole games of every bundled game. Every
screen (what is printed between two prompts, and after the last) fits 30 rows of 100 columns, and
every decision taken for the person (their only option) is said on the screen that follows it.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.check.places import bundled_dir, display_path
from rulecraft.cli import play as play_module
from rulecraft.cli import screen
from rulecraft.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = 100, 30
MARK = "@@ the prompt @@"


def whole_game(capsys, monkeypatch, *argv, answers=(), size=(COLUMNS, ROWS)):
    """Play a whole game at a terminal of `size`; the screens (lines between prompts) and, for each,
    how many decisions were taken for the person before it."""
    taken: list[int] = [0]
    answers = list(answers)

    def keyboard(prompt=""):
        print(MARK)
        taken.append(0)
        return answers.pop(0) if answers else "1"
    forced = play_module._Game._forced

    def counted(self, options):
        said = forced(self, options)
        if said and options:
            taken[-1] += 1
        return said
    monkeypatch.setattr("builtins.input", keyboard)
    monkeypatch.setattr(play_module._Game, "_size", lambda self: size)
    monkeypatch.setattr(play_module._Game, "_forced", counted)
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err, err
    return [part.strip("\n").split("\n") for part in out.split(MARK + "\n")], taken


def said_taken(shown: str) -> int:
    """How many decisions taken for the person the screen says: on their own lines, or named in a note."""
    shown = " ".join(shown.split())         # a line wrapped within what it says is read whole
    count = shown.count(screen.TAKEN_FOR_YOU)
    for note in re.findall(re.escape(screen.TAKEN_NOTE) + r" (.*?)\): type 'log'", shown):
        count += sum(int(x.group(1) or 1) for x in re.finditer(r"[^,]+?(?: ×(\d+))?(?:,|$)", note))
    return count


GAMES = [("blackmore", "--players", "3", "--seed", "5"), ("weird-sisters", "--seat", "2", "--seed", "4"),
         ("three-sisters-solo", "--seed", "3"), ("three-sisters", "--players", "3", "--seed", "2"),
         ("three-sisters-weather", "--players", "2", "--seed", "6"), ("three-sisters-solo-weather", "--seed", "1")]


@pytest.mark.parametrize("argv", GAMES, ids=lambda a: a[0])
def test_whole_games_at_100_by_30_show_everything_decided_for_the_person(capsys, monkeypatch, argv):
    screens, taken = whole_game(capsys, monkeypatch, *argv)
    assert len(screens) > 5
    for k, lines in enumerate(screens):
        shown = "\n".join(lines)
        assert max(map(len, lines)) <= COLUMNS, shown
        if 0 < k < len(screens) - 1:            # the first holds the opening, the last the result
            assert len(lines) <= ROWS, shown
        assert said_taken(shown) == taken[k], (k, taken[k], shown)
    assert "Final scores" in "\n".join(screens[-1])


def test_help_is_wrapped_to_the_terminal(capsys, monkeypatch):
    screens, _ = whole_game(capsys, monkeypatch, "blackmore", "--players", "2", "--seed", "1",
                            answers=["help", "quit"], size=(60, 30))
    helped = screens[1]
    assert max(map(len, helped)) <= 60 and "  save FILE   save the game to FILE (resume with: rulecraft" in helped
    assert "              play --load FILE); a save is the whole game:" in helped      # under its description


def test_a_wrong_player_count_is_said_once():
    result = subprocess.run([sys.executable, "-m", "rulecraft", "test", "weird-sisters", "--players", "3"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1 and "Weird Sisters is for 6 players, not 3" in result.stderr


def test_a_bundled_game_is_shown_by_its_bundled_name(monkeypatch):
    """Not by the folder it is installed in, even when that lies under the current one (a virtualenv)."""
    games = bundled_dir("rulecraft.games")
    monkeypatch.chdir(games.parent.parent)
    assert display_path(games / "blackmore.rules") == "games/blackmore.rules"
    assert display_path(ROOT / "examples" / "nim.rules") == str((ROOT / "examples" / "nim.rules").relative_to(
        Path.cwd().resolve())) if (ROOT / "examples").resolve().is_relative_to(Path.cwd().resolve()) else True


@pytest.mark.parametrize("game", ["blackmore", "weird-sisters", "three-sisters", "three-sisters-solo"])
def test_a_document_in_html_shows_code_not_backticks(game, tmp_path):
    out = tmp_path / f"{game}.html"
    result = subprocess.run([sys.executable, "-m", "rulecraft", "doc", game, "--out", str(out)],
                            capture_output=True, text=True, cwd=tmp_path, env={**os.environ})
    page = out.read_text(encoding="utf-8")
    assert result.returncode == 0 and "`" not in page and "<code>" in page


def test_help_lines_wrap_under_their_description():
    line = "  undo        take back the last decision made at this keyboard (and the agents' after it)"
    assert screen.wrap_help(line, 50) == ["  undo        take back the last decision made at",
                                          "              this keyboard (and the agents' after",
                                          "              it)"]


@pytest.mark.parametrize("game", ["blackmore", "weird-sisters", "three-sisters", "three-sisters-solo",
                                  "three-sisters-weather", "three-sisters-solo-weather"])
def test_rules_section_prints_each_section_of_every_bundled_game(capsys, monkeypatch, game):
    """Issue 29, point 2: `rules SECTION` (the start of its name, any case) prints the section as written."""
    from rulecraft.cli import rulesummary
    from rulecraft.loader import load
    sources = load(game).sources
    heads = [h for text in sources.values() for h in rulesummary.headings(text)]
    assert heads, f"{game} has no section headings"
    asked = [f"rules {h[:5].lower()}" for h in heads]
    screens, _ = whole_game(capsys, monkeypatch, game, "--seed", "1", answers=["rules", *asked, "quit"])
    listed = " ".join(" ".join(screens[1]).split())                 # wrapped to the width: words rejoined
    assert all(" ".join(h.split()) in listed for h in heads)          # `rules` lists the sections
    for k, head in enumerate(heads, 2):
        shown = "\n".join(screens[k])
        first = next(h for h in heads if h.lower().startswith(head[:5].lower()))
        at = re.search(r"^#\s*[-=]{3,}\s*(.*)", shown, re.M)          # the heading as written (wrapped)
        assert at and " ".join(shown[at.start(1):].split()).startswith(" ".join(first.split())), (head, shown[:300])
        assert len(shown.splitlines()) > 1


def test_a_score_breakdown_wraps_between_its_parts():
    import random
    from rulecraft.cli import plaintext
    from rulecraft.engine.session import Session
    from rulecraft.loader import load
    session = Session.start(load("blackmore"), "blackmore", 3, seed=1)
    rng = random.Random(1)
    while not session.over:
        options = session.legal()
        session.take(options[rng.randrange(len(options))].id)
    lines = plaintext.score_parts_lines(session, 60)
    assert lines[0] == "What the scores are made of:" and max(map(len, lines)) <= 60
    for line in lines[1:]:
        assert re.fullmatch(r"(  Player \d +\d+ = | +\+ )(nothing|\w+ \d( \+ \w+ \d)*)", line), line
    assert sum(line.startswith(" " * 19 + "+ ") for line in lines) > 3


def test_weird_sisters_asks_with_the_spells_in_hand_their_cost_and_effect(capsys, monkeypatch):
    """Issue 29, points 3 and 4: what a witch holds is said where she decides (the prompt is hers alone)."""
    screens, _ = whole_game(capsys, monkeypatch, "weird-sisters", "--seat", "2", "--seed", "11")
    shown = " ".join(" ".join(" ".join(lines).split()) for lines in screens)
    assert re.search(r"First Witch of Cavern's actions\. Your spells: [^:]+: .+?; the teammates pay an? ", shown)
    assert re.search(r"(casts a spell|takes a pile|adds ingredients|stirs the cauldron): answer with a spell\?", shown)


def test_log_all_prints_the_whole_log_and_log_says_how(capsys, monkeypatch):
    """Play-tested: 'log' and 'log all' printed only the last 60 lines, saying nothing of how to see more."""
    screens, _ = whole_game(capsys, monkeypatch, "weird-sisters", "--seat", "2", "--seed", "4",
                            answers=["1"] * 12 + ["log", "log all", "quit"])
    latest, whole = screens[13], screens[14]
    told = int(re.search(r"of (\d+) lines: 'log all' prints them all", latest[-1]).group(1))
    assert told > play_module.LOG_LINES and len(latest) < told
    assert len(whole) >= told and not any("the last" in line for line in whole)


def test_what_came_of_the_persons_own_choice_stays_on_the_next_screen(capsys, monkeypatch):
    """Play-tested: after 'answer with Sticky Spoon' the teammate's failure to pay was folded into
    '… N earlier lines'. What follows a decision the person chose, through the first answer of another
    seat, is pinned like a decision taken for them."""
    screens, _ = whole_game(capsys, monkeypatch, "weird-sisters", "--seat", "2", "--seed", "2")
    after = next(lines for before, lines in zip(screens, screens[1:])
                 if any(line.endswith("1. answer with Sticky Spoon") for line in before))
    shown = "\n".join(lines for lines in after)
    assert "  Player 2: answer with Sticky Spoon\nFirst Witch of Cavern casts Sticky Spoon" in shown, shown
    assert "  Player 4: cannot pay for Sticky Spoon\nFirst Witch of Cavern's teammates cannot pay" in shown, shown


def test_the_own_choice_is_cut_only_when_it_alone_does_not_fit():
    own = screen.PINNED_OWN
    news = [("  Player 2: answer", own), ("it is cast", own), ("  Player 4: cannot pay", own)] + \
        [(f"line {k}", False) for k in range(10)] + [("  Player 2: pass  (your only option, taken for you)", True)] + \
        [(f"line {k}", False) for k in range(10, 20)]
    kept = [line for line, _ in screen.fit_news(news, 5, 100)]
    assert kept[:3] == ["  Player 2: answer", "it is cast", "  Player 4: cannot pay"], kept
    assert kept[3:] == ["… 20 more lines (taken for you: pass): type 'log' to read them", "line 19"], kept
    cut = [line for line, _ in screen.fit_news(news, 2, 100)]
    assert len(cut) == 2 and "(with some of what came of your decision)" in cut[0], cut


def test_a_decision_taken_for_the_person_says_what_was_asked(capsys, monkeypatch):
    """Play-tested: "let it pass (your only option, taken for you)" did not say what was passed on."""
    screens, _ = whole_game(capsys, monkeypatch, "weird-sisters", "--seat", "2", "--seed", "2")
    lines = [line for shown in screens for line in shown]
    assert "  Player 2: let it pass  (asked: answer with a spell? — your only option, taken for you)" in lines
    assert screen.taken_for_you("A long one: and a longer clause after it, about a great many things. More")\
        == "  (asked: and a longer clause after it, about a great man… — your only option, taken for you)"
    assert screen.taken_for_you(None) == "  (your only option, taken for you)"


def test_the_reply_to_an_unknown_word_is_wrapped_to_the_terminal(capsys, monkeypatch):
    """Play-tested: typing 'xyz' at the prompt printed a 109-column reply, broken mid-word by the terminal."""
    screens, _ = whole_game(capsys, monkeypatch, "weird-sisters", "--seat", "2", "--seed", "2",
                            answers=["xyz", "quit"])
    replied = screens[1]
    assert max(map(len, replied)) <= COLUMNS and "please answer with a number" in " ".join(replied), replied


def test_the_header_says_truly_where_the_secret_seed_is(capsys, monkeypatch, tmp_path):
    """Play-tested: 'seed kept secret (it is in the save)' was said with no save written."""
    screens, _ = whole_game(capsys, monkeypatch, "blackmore", "--players", "2", "--seed", "3", answers=["quit"])
    assert screens[0][0] == "The Witches of Blackmore: 2 players, seed kept secret"
    save = tmp_path / "game.save"
    screens, _ = whole_game(capsys, monkeypatch, "blackmore", "--players", "2", "--seed", "3", "--save", str(save),
                            answers=["quit"])
    said = " ".join(" ".join(screens[0][:2]).split())          # wrapped at 100 columns
    assert said.startswith(f"The Witches of Blackmore: 2 players, seed kept secret (it is in {save})")
    assert save.exists()


def test_a_changed_continuation_line_is_shown_with_its_label_lines():
    """Play-tested (Three Sisters solo): "»          z4 C··· …" was shown without "garden z1 …" and
    "Player 1 (you):", the lines that say whose row it is."""
    before = ["round 5", "legend a", "legend b", "Player 1 (you):", "  goods 1", "  garden z1 C1",
              "         z4 C2", "Player 2:", "  goods 3"]
    now = before[:6] + ["         z4 C3"] + before[7:]
    table = screen.Screen()
    table.view(1, before, 100)
    assert table.fold_unchanged(1, now) == [
        "(6 lines as at your last decision: 'view' shows them)", "Player 1 (you):", "  garden z1 C1", "         z4 C3"]


def test_three_sisters_garden_action_is_asked_truly(capsys, monkeypatch):
    """Play-tested: the garden action was headed 'plant corn …' (the words most labels share) while it
    offered 'plant pumpkin 1 in zone 5' and 'water zone 5'. It asks its own question now, and options
    that fit in a few rows whole are not headed."""
    screens, _ = whole_game(capsys, monkeypatch, "three-sisters-solo", "--seed", "3")
    asked = [shown for shown in screens
             if "  Garden zone 5: plant (up to 2 crops), or water the crops planted there?" in shown]
    assert asked and all("  plant corn …" not in shown for shown in asked)
    assert "   6. water zone 5" in " ".join(asked[0])
    labels = [f"plant corn {k} in zone 5" for k in range(1, 5)] + ["plant pumpkin 1 in zone 5", "water zone 5"]
    assert not any(line.endswith("…") for line in screen.option_lines(labels, 100))


def test_a_score_breakdown_names_no_card_the_seat_may_not_see(tmp_path):
    """A breakdown lists the cards a score adds; one in a zone seen by nobody is counted, not named,
    unless the game shows it (Blackmore turns its won cards over at the end)."""
    import random
    from rulecraft.cli import plaintext
    from rulecraft.engine.session import Session
    from rulecraft.loader import load, load_file
    rules = tmp_path / "hidden.rules"
    rules.write_text('''game "Hidden piles"
players 2
card Chip(n: 1..4) named "chip {n}"
cards chips = [Chip(n) for n in 1..4]
zone pile of Chip
zone won of Chip per player, seen by nobody
rule setup:
    move chips to pile
rule play:
    for p in players:
        p chooses c in pile as "take {c}":
            move c to p.won
score p: Player = sum(c.n for c in p.won)
''')
    session = Session.start(load_file(rules), str(rules), 2, seed=1)
    while not session.over:
        session.take(session.legal()[0].id)
    assert "chip 1" in "".join(plaintext.score_parts_lines(session))          # everything, for a referee
    for viewer in (0, 1):
        lines = plaintext.score_parts_lines(session, viewer=viewer)
        assert "chip" not in "".join(lines) and "1 card not shown" in lines[1], lines
    blackmore = Session.start(load("blackmore"), "blackmore", 3, seed=1)
    rng = random.Random(1)
    while not blackmore.over:
        options = blackmore.legal()
        blackmore.take(options[rng.randrange(len(options))].id)
    assert "not shown" not in "".join(plaintext.score_parts_lines(blackmore, viewer=0))
