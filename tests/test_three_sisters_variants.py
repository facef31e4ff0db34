"""Three Sisters' variants: solo against Farmer Edith, and the Weather expansion (with and without solo).

games/three-sisters-solo.rules and games/three-sisters-weather.rules extend the base game;
games/three-sisters-solo-weather.rules extends the solo game and imports the same weather module
(games/three-sisters/weather.rules) as the multiplayer weather variant. Their scenarios are the
rulebook's solo and weather rules (Edith's crossing priorities, the alternating picks, each
weather effect, the marker's movement); the properties below play random games.
"""
from __future__ import annotations

import random
import re

import pytest

from helpers import get_var, matches_stored_game
from rulecraft.engine import machine, observe
from rulecraft.engine.scenarios import run_all
from rulecraft.loader import load
from rulecraft.validate.explore import explore

VARIANTS = ["three-sisters-solo", "three-sisters-weather", "three-sisters-solo-weather"]
CAREER = [(100, "You have been given your own TV show!"), (80, "You have become an internet-famous blogger!"),
          (65, "You have been crowned a state champ!"), (50, "Your skills have earned you a blue ribbon!"),
          (40, "You are ready for the county fair!"), (0, "You'll have better luck next time!")]
TALLY = re.compile(r"^(Player \d): garden (\d+), perennials (\d+), apiary (\d+), fruit (\d+), shed (\d+) = (\d+)")
CAREER_LINE = re.compile(r"^Gardening career \((\d+) points\): (.+)$")
# Boxes of each Row, in the order of the rule file (flowers, hive, fruits, shed items).
ROW_BOXES = [6] * 6 + [6, 3, 3, 4] + [6, 4, 7, 9] + [2, 3, 2, 3, 2, 2, 3, 2, 2, 3, 3, 2, 8, 3, 3]


@pytest.fixture(scope="module")
def programs():
    return {name: load(name) for name in VARIANTS}


def play(program, n, seed, agent_seed, each=None, sink=None):
    m = machine.new_game(program, n, None, seed, sink=sink)
    rnd = random.Random(agent_seed)
    limit = program.limit or 1500
    while m.result is None:
        ids = machine.legal_ids(m)
        assert ids, "a pending decision without options"
        machine.decide(m, ids[rnd.randrange(len(ids))])
        if each is not None:
            each(m)
        assert m.decisions <= limit, "the game does not end"
    if sink is not None:
        sink[:] = observe.narration(sink, None)     # the narration as text, everything shown
    return m


# ------------------------------------------------------------------ scenarios
@pytest.mark.parametrize("name", VARIANTS)
def test_every_scenario_passes(programs, name):
    results = run_all(programs[name])
    failed = [f"{r.name}: {r.message} ({r.span})" for r in results if not r.ok]
    assert not failed, "\n".join(failed)


def test_the_variant_scenarios_are_there(programs):
    solo = {r.name for r in run_all(programs["three-sisters-solo"])}
    for wanted in ["picks_odd_round", "picks_even_round", "edith_garden_priorities", "edith_beans_and_pass",
                   "edith_zone_full", "edith_plant_or_water", "edith_shed", "edith_stars",
                   "edith_fruit_and_apiary", "edith_market", "career_chart"]:
        assert wanted in solo
    weather = ["weather_starts_foggy", "weather_marker_moves", "lightning", "cold", "cloudy", "hot", "windy",
               "windy_nowhere_to_blow"]
    assert set(weather + ["weather_example"]) <= {r.name for r in run_all(programs["three-sisters-weather"])}
    assert set(weather + ["solo_weather_last_die", "picks_odd_round"]) <= {
        r.name for r in run_all(programs["three-sisters-solo-weather"])}


def test_the_weather_module_is_not_a_listed_game():
    from rulecraft.check.modules import bundled_games
    games = bundled_games()
    assert set(VARIANTS) <= set(games)
    assert "weather" not in games


# ------------------------------------------------------------------ random exploration (invariants + generic properties)
@pytest.mark.parametrize("name", VARIANTS)
def test_random_games_keep_every_property(programs, name):
    report = explore(programs[name], 3, seed=0, deep=False)
    assert not report.failures, report.failures[0]
    assert report.runs >= 3 * (3 if name == "three-sisters-weather" else 1)        # 2–4 players, or solo


# ------------------------------------------------------------------ solo
@pytest.mark.parametrize("seed", range(6))
def test_edith_never_crosses_what_the_player_filled(programs, seed):
    """After every decision: no crossed crop is planted, no row has more filled + crossed boxes than it has."""
    program = programs["three-sisters-solo"]

    def each(m):
        assert not machine.check_invariants(m)
        crossed, grown = get_var(m, "crossed"), get_var(m, "grown")[0]
        assert all(not x or g == 0 for x, g in zip(crossed, grown))
        struck, filled = get_var(m, "struck"), get_var(m, "filled")[0]
        assert all(s + f <= b for s, f, b in zip(struck, filled, ROW_BOXES))

    sink = []
    m = play(program, 1, seed, seed + 100, each=each, sink=sink)
    assert get_var(m, "round") == 8
    assert any(line.startswith("Farmer Edith crosses off") for line in sink)


@pytest.mark.parametrize("seed", range(4))
def test_edith_and_the_player_take_two_dice_each_round(programs, seed):
    sink = []
    play(programs["three-sisters-solo"], 1, seed, seed, sink=sink)
    rounds = "\n".join(sink).split("=== Round ")[1:]
    assert len(rounds) == 8
    for r, text in enumerate(rounds, 1):
        lines = text.splitlines()
        takes = [line for line in lines if re.match(r"^(Player 1|Farmer Edith) takes the \d from ", line)]
        who = ["E" if t.startswith("Farmer Edith") else "P" for t in takes]
        assert who == (["P", "E", "P", "E"] if r % 2 == 1 else ["E", "P", "E", "P"]), (r, takes)


@pytest.mark.parametrize("seed", range(4))
def test_the_solo_career_title_is_said(programs, seed):
    sink = []
    m = play(programs["three-sisters-solo"], 1, seed, seed, sink=sink)
    tally = [TALLY.match(line) for line in sink if TALLY.match(line)]
    assert len(tally) == 1
    total = int(tally[0].group(7))
    career = [CAREER_LINE.match(line) for line in sink if CAREER_LINE.match(line)]
    assert len(career) == 1
    assert int(career[0].group(1)) == total
    assert career[0].group(2) == next(title for low, title in CAREER if total >= low)
    assert m.result is not None


# ------------------------------------------------------------------ weather
@pytest.mark.parametrize("n", [2, 3, 4])
def test_weather_games_finish_and_the_marker_moves(programs, n):
    sink = []
    m = play(programs["three-sisters-weather"], n, 10 + n, n, each=lambda m: not machine.check_invariants(m) or
             pytest.fail(str(machine.check_invariants(m))), sink=sink)
    assert get_var(m, "round") == 8
    assert sum(1 for line in sink if line.startswith("=== Round ")) == 8
    assert sum(1 for line in sink if line.startswith("Weather: ")) == 8
    assert sink[sink.index("=== Round 1 of 8 (event: Shed) ===") + 1] == "Weather: Foggy: no effect."
    assert sum(1 for line in sink if line.startswith("The weather marker moves to ")) == 7
    assert len([line for line in sink if TALLY.match(line)]) == n


def test_solo_weather_games_finish(programs):
    for seed in range(3):
        sink = []
        m = play(programs["three-sisters-solo-weather"], 1, seed, seed,
                 each=lambda m: not machine.check_invariants(m) or pytest.fail(str(machine.check_invariants(m))),
                 sink=sink)
        assert get_var(m, "round") == 8
        assert sum(1 for line in sink if line.startswith("The weather marker moves to ")) == 7
        assert any(CAREER_LINE.match(line) for line in sink)


# ------------------------------------------------------------------ determinism
@pytest.mark.parametrize("name,n", [("three-sisters-solo", 1), ("three-sisters-weather", 3),
                                    ("three-sisters-solo-weather", 1)])
def test_a_seed_plays_the_stored_game(programs, name, n):
    """The game stored in tests/golden/seeded-games.json, not a second run compared with the first."""
    sink = []
    m = play(programs[name], n, 7, 7, sink=sink)
    matches_stored_game(f"{name} {n}p seed 7 agent 7", m, sink)


def test_headers_list_their_completions():
    from pathlib import Path
    games = Path(__file__).resolve().parent.parent / "games"
    solo = (games / "three-sisters-solo.rules").read_text(encoding="utf-8")
    for k in (3, 22, 23):
        assert re.search(rf"^# +{k}\. ", solo, flags=re.M), k
    weather = (games / "three-sisters" / "weather.rules").read_text(encoding="utf-8")
    for k in (4, 24, 25, 26, 27):
        assert re.search(rf"^# +{k}\. ", weather, flags=re.M), k


@pytest.mark.parametrize("name", VARIANTS)
def test_the_play_view_shows_what_the_variant_adds(programs, name):
    """The base game's sheets, with Edith's crossings (solo) and the weather line (weather)."""
    from rulecraft.cli.plaintext import view_lines
    from rulecraft.engine.views import view

    program = programs[name]
    n = 1 if "solo" in name else 2
    m = machine.new_game(program, n, None, 5)
    rnd = random.Random(5)
    for _ in range(80):
        machine.decide(m, rnd.choice(machine.legal_ids(m)))
    lines = view_lines(view(m, 0), m.names[0])
    text = "\n".join(lines)
    assert re.search(r"^round \d of 8 · event ", text, re.M)
    assert "garden z1 C" in text and "perennials tulip " in text
    assert len(lines) < 30
    if "solo" in name:
        assert "x crossed off by Edith" in text and re.search(r"(Edith|she) has crossed off [1-9]\d* boxes", text)
        assert "shed done: " in text and " · crossed: " in text
    if "weather" in name:
        assert re.search(r"^weather: (Foggy|Lightning|Cold|Cloudy|Hot|Windy): ", text, re.M)
