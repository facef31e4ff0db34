"""`rulecraft simulate` (issue 13): the same figures for any number of workers or backend, a JSON
object of a known shape, one CSV row per game, a comparison on the same seeds, a plot."""
from __future__ import annotations

import csv
import json

import attrs
import pytest

from rulecraft.cli.main import main
from rulecraft.simulate import metrics
from rulecraft.simulate.games import GameResult


def simulate(capsys, *args) -> str:
    assert main(["simulate", *args]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_the_figures_do_not_depend_on_the_workers(capsys):
    one = simulate(capsys, "blackmore", "-n", "24", "--players", "3", "--json", "--workers", "1", "--seed", "4")
    two = simulate(capsys, "blackmore", "-n", "24", "--players", "3", "--json", "--workers", "2", "--seed", "4")
    assert one == two
    other = simulate(capsys, "blackmore", "-n", "24", "--players", "3", "--json", "--workers", "1", "--seed", "5")
    assert other != one                           # the seed matters


def test_the_json_object(capsys):
    out = json.loads(simulate(capsys, "examples/nim.rules", "-n", "30", "--agents", "greedy,random", "--json",
                              "--workers", "1", "--set", "stones=9", "--standings"))
    assert out["games"] == 30 and out["players"] == 2 and out["agents"] == ["greedy", "random"]
    assert out["options"] == {"stones": "9"}
    seat = out["seats"][0]
    assert set(seat) == {"seat", "wins", "ties", "win_rate", "ci", "score_mean", "score_sd"}
    assert seat["ci"][0] <= seat["win_rate"] <= seat["ci"][1]
    assert sum(s["wins"] for s in out["seats"]) == out["finished"] == 30
    assert set(out["lengths"]) == {"mean", "sd", "min", "max"}
    for key in ("balance", "advantage", "completion", "drawishness", "timeouts", "duration", "decision_moves",
                "branching_factor", "outcome_uniformity", "lead_change", "stability", "decisiveness_threshold",
                "drama"):
        assert key in out["metrics"], key
    assert out["seats"][0]["win_rate"] > out["seats"][1]["win_rate"]      # greedy takes the last stone


def test_standings_are_followed_only_when_asked(capsys):
    """The metrics from standings (the game scored after every decision) need --standings; the games and
    every other figure are the same without it."""
    args = ["blackmore", "-n", "20", "--players", "3", "--json", "--workers", "1"]
    plain = json.loads(simulate(capsys, *args))
    followed = json.loads(simulate(capsys, *args, "--standings"))
    late = {"lead_change", "stability", "decisiveness_threshold", "drama"}
    assert not late & set(plain["metrics"]) and late <= set(followed["metrics"])
    assert followed["metrics"]["lead_change"] > 0
    for key in late:
        del followed["metrics"][key]
    assert plain == followed


def test_random_and_first_decide_directly_as_through_their_seat(monkeypatch):
    """simulate calls `pick` of the random and first agents with the legal ids (no Seat per decision):
    the same games as the same agents handed their seat."""
    from rulecraft.agents.basic import FirstLegalAgent, RandomAgent
    from rulecraft.simulate.games import Job, play
    jobs = [Job("games/blackmore.rules", 3, (), ("random", "first", "random"), 7, i, measure=True) for i in range(6)]
    direct = [play(job) for job in jobs]
    monkeypatch.delattr(RandomAgent, "pick")
    monkeypatch.delattr(FirstLegalAgent, "pick")
    through_seats = [play(job) for job in jobs]
    strip = lambda r: attrs.evolve(r, seconds=())          # noqa: E731 (time spent choosing differs)
    assert [strip(r) for r in direct] == [strip(r) for r in through_seats]
    assert len({r.scores for r in direct}) > 1


def test_csv_rows_and_a_comparison(capsys, tmp_path):
    path = tmp_path / "games.csv"
    out = simulate(capsys, "blackmore", "-n", "12", "--players", "2", "--workers", "1", "--csv", str(path),
                   "--compare", "examples/blackmore-lowest-wins.rules")
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 24 and {r["rules"] for r in rows} == {"blackmore", "examples/blackmore-lowest-wins.rules"}
    assert [r["seed"] for r in rows[:12]] == [r["seed"] for r in rows[12:]]          # the same seeds on both
    assert "compared on the same seeds" in out and "seat 1 win rate" in out


def test_a_plot_is_drawn(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "games.png"
    simulate(capsys, "blackmore", "-n", "10", "--players", "2", "--workers", "1", "--plot", str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


@pytest.mark.parametrize("args, message", [
    (["-n", "0"], "-n must be at least 1"), (["--agents", "human"], "plays without people"),
    (["--plot", "x.gif"], "ending in .png or .svg"), (["--set", "wheel=sideways"], "option 'wheel'"),
    (["--workers", "0"], "--workers must be at least 1")])
def test_bad_requests_are_one_sentence(capsys, args, message):
    assert main(["simulate", "blackmore", *args]) == 1
    assert message in capsys.readouterr().err


def test_ray_gives_the_same_figures(capsys):
    """The same job on a local Ray started by the test with 2 CPUs."""
    ray = pytest.importorskip("ray")
    try:
        via_ray = simulate(capsys, "blackmore", "-n", "16", "--players", "2", "--json", "--workers", "2",
                           "--backend", "ray")
    finally:
        ray.shutdown()
    assert via_ray == simulate(capsys, "blackmore", "-n", "16", "--players", "2", "--json", "--workers", "1")


def result(winners, scores=(1, 0), decisions=10):
    return GameResult(0, 0, scores, winners, decisions, decisions, 2 * decisions)


def test_the_metrics_on_known_games():
    games = [result((0,)), result((0,)), result((1,), (0, 1)), result((0, 1), (1, 1))]
    s = metrics.summarise(games, 2)
    assert [x["wins"] for x in s["seats"]] == [2, 1] and [x["ties"] for x in s["seats"]] == [1, 1]
    assert s["seats"][0]["win_rate"] == pytest.approx(2.5 / 4)
    assert s["metrics"]["balance"] == pytest.approx(1 - (2.5 - 1.5) / 4)
    assert s["metrics"]["drawishness"] == pytest.approx(0.25) and s["metrics"]["completion"] == pytest.approx(0.75)
    assert s["metrics"]["branching_factor"] == 2 and s["metrics"]["decision_moves"] == 1
    teams = metrics.summarise([result((0, 2), (3, 1, 3, 1))], 4, teams=2)    # a team wins together
    assert [x["wins"] for x in teams["seats"]] == [1, 0, 1, 0] and teams["metrics"]["drawishness"] == 0
    lo, hi = metrics.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)


def test_a_tournament_rates_the_agents(capsys):
    out = json.loads(simulate_cmd(capsys, "tournament", "examples/nim.rules", "--agents", "random,greedy,first",
                                  "-n", "6", "--json", "--workers", "2"))
    assert out["games"] == 3 * 2 * 6 and [row["games"] for row in out["agents"]] == [24, 24, 24]
    ratings = {row["agent"]: row["rating"] for row in out["agents"]}
    assert ratings["greedy"] > ratings["random"] and sum(ratings.values()) / 3 == pytest.approx(1500, abs=1)
    greedy = next(row for row in out["agents"] if row["agent"] == "greedy")
    assert set(greedy["against"]) == {"random", "first"}
    again = json.loads(simulate_cmd(capsys, "tournament", "examples/nim.rules", "--agents", "random,greedy,first",
                                    "-n", "6", "--json", "--workers", "1"))
    assert again == out


def test_tournament_results_follow_their_games():
    """Each game's result is read with the seats it was played at (jobs repeat game numbers across orders)."""
    from rulecraft.simulate import tournament
    jobs = tournament.jobs("x", ["a", "b"], 2, (), 1, 0)
    assert [j.agents for j in jobs] == [("a", "b"), ("b", "a")]
    won_by_first_seat = [result((0,)), result((0,))]          # the first seat wins both: a and b once each
    table = tournament.standings(["a", "b"], jobs, won_by_first_seat)
    assert [row["win_rate"] for row in table["agents"]] == [0.5, 0.5]
    swept = tournament.standings(["a", "b"], jobs, [result((0,)), result((1,))])     # a wins both
    assert swept["agents"][0]["agent"] == "a" and swept["agents"][0]["rating"] > 1600


@pytest.mark.parametrize("args, message", [
    (["--agents", "random"], "at least two different agents"),
    (["--agents", "random,random"], "at least two different agents"),
    (["--agents", "random,first", "--players", "3"], "need at least 3 different agents"),
    (["--agents", "random,first", "-n", "0"], "-n must be at least 1")])
def test_bad_tournaments_are_one_sentence(capsys, args, message):
    assert main(["tournament", "blackmore", *args]) == 1
    assert message in capsys.readouterr().err


def simulate_cmd(capsys, *args) -> str:
    assert main(list(args)) == 0, capsys.readouterr().err
    return capsys.readouterr().out
