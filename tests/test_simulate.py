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
    """simulate calls `index` of the random and first agents with the number of options (no Seat per
    decision), taken from their makers' `reseedable` without making the agents: the same games as the
    same agents made and called by `index`, and as the same agents handed their seat."""
    from rulecraft.agents.basic import FirstLegalAgent, RandomAgent
    from rulecraft.simulate import games
    from rulecraft.simulate.games import Job, play
    jobs = [Job("games/blackmore.rules", 3, (), ("random", "first", "random"), 7, i, measure=True) for i in range(6)]
    direct = [play(job) for job in jobs]
    monkeypatch.setattr(games, "_PLANS", {})
    monkeypatch.delattr(RandomAgent, "reseedable")
    monkeypatch.delattr(FirstLegalAgent, "reseedable")
    by_index = [play(job) for job in jobs]
    strip = lambda r: attrs.evolve(r, seconds=())          # noqa: E731 (time spent choosing differs)
    assert [strip(r) for r in direct] == [strip(r) for r in by_index]
    made = RandomAgent.__init__

    def without_index(self, seed=0):
        made(self, seed)
        del self.index
    monkeypatch.setattr(RandomAgent, "__init__", without_index)
    monkeypatch.delattr(FirstLegalAgent, "index")
    through_seats = [play(job) for job in jobs]
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


def measured(winners, scores, decisions, choices, options, lead_changes=0, standing=(), trail=0.0, **kw):
    return GameResult(0, 0, scores, winners, decisions, choices, options, lead_changes=lead_changes,
                      standing=standing, trail=trail, **kw)


# Six hand-made games of three seats (seat 1 moves first in each): standing is per seat (lowest, highest,
# mean, variance) of its evaluation over the game, as games.play records it.
SIX_GAMES = [
    measured((0,), (5, 1, 2), 10, 6, 25, 2, ((.2, .9, .5, .04), (.1, .6, .4, .02), (0., .7, .3, .05)), .1),
    measured((0,), (4, 3, 0), 20, 10, 40, 5, ((.3, .8, .6, .01), (.2, .85, .5, .03), (.1, .4, .2, .02)), .3),
    measured((1,), (0, 6, 2), 16, 16, 48, 4, ((.1, .5, .3, .02), (.3, .9, .7, .06), (.2, .3, .25, 0.)), .2),
    measured((0, 2), (3, 1, 3), 30, 15, 60, 0, ((.4, .6, .5, .01), (.1, .45, .3, .01), (.4, .6, .5, .01)), 0.),
    measured((), (), 40, 20, 80, timeout=True),
    measured((), (), 4, 2, 8, error="the rules failed"),
]


def test_every_metric_on_hand_made_games():
    """Issue 34: each figure's value, by its definition in docs/simulating.md, on games worked by hand.
    Seat 1 wins 2 games and ties 1 (2.5 of 4 finished), seat 2 wins 1, seat 3 ties 1 (0.5)."""
    s = metrics.summarise(SIX_GAMES, 3)
    m = s["metrics"]
    assert (s["games"], s["finished"], s["players"]) == (6, 4, 3)
    assert [x["wins"] for x in s["seats"]] == [2, 1, 0] and [x["ties"] for x in s["seats"]] == [1, 0, 1]
    assert [x["win_rate"] for x in s["seats"]] == pytest.approx([2.5 / 4, 1 / 4, 0.5 / 4])
    assert s["seats"][0]["ci"] == pytest.approx(list(metrics.wilson(2.5, 4)))
    assert s["seats"][0]["score_mean"] == pytest.approx(3.0)                    # 5, 4, 0, 3
    assert s["seats"][0]["score_sd"] == pytest.approx((14 / 3) ** 0.5)           # sample sd
    assert s["lengths"]["mean"] == pytest.approx(20.0) and s["lengths"]["sd"] == pytest.approx((872 / 5) ** 0.5)
    assert (s["lengths"]["min"], s["lengths"]["max"]) == (4, 40)
    assert m["advantage"] == pytest.approx(0.625)                               # seat 1, not the last seat
    assert s["first_player_advantage"]["win_rate"] == pytest.approx(0.625)
    assert s["first_player_advantage"]["fair_share"] == pytest.approx(1 / 3)
    assert m["balance"] == pytest.approx(1 - (0.625 - 0.125))
    assert m["completion"] == pytest.approx(3 / 6)                # one winning side: games 1-3
    assert m["drawishness"] == pytest.approx(1 / 6)
    assert m["timeouts"] == pytest.approx(1 / 6) and m["errors"] == pytest.approx(1 / 6)
    assert m["duration"] == pytest.approx(120 / 6)
    assert m["decision_moves"] == pytest.approx(69 / 120)
    assert m["branching_factor"] == pytest.approx(261 / 120)
    # per seat the population variance of (1, 1, 0, .5), (0, 0, 1, 0), (0, 0, 0, .5)
    assert m["outcome_uniformity"] == pytest.approx(1 - (0.171875 + 0.1875 + 0.046875) / 3)
    assert m["lead_change"] == pytest.approx((2 / 10 + 5 / 20 + 4 / 16 + 0 / 30) / 4)
    assert m["stability"] == pytest.approx((0.11 + 0.06 + 0.08 + 0.03) / 4)
    # the highest standing of a seat that did not win: .7 (seat 3), .85 (seat 2), .5 (seat 1), .45 (seat 2)
    assert m["decisiveness_threshold"] == pytest.approx((0.7 + 0.85 + 0.5 + 0.45) / 4)
    assert m["drama"] == pytest.approx((0.1 + 0.3 + 0.2) / 3)                  # the tie is not counted
    assert s["errors"] == ["the rules failed"]


def test_advantage_is_the_first_seats_share_with_ties():
    """Seat 1 (the seat that moves first here) wins 3 of 4 and ties 1: 3.5 / 5; the last seat has 0.3."""
    games = [measured((0,), (1, 0), 5, 5, 10)] * 3 + [measured((1,), (0, 1), 5, 5, 10),
                                                       measured((0, 1), (1, 1), 5, 5, 10)]
    s = metrics.summarise(games, 2)
    assert s["metrics"]["advantage"] == pytest.approx(0.7)
    assert s["metrics"]["balance"] == pytest.approx(1 - (0.7 - 0.3))


def batch(first_wins: int, games: int = 100, score=lambda k: (1, 0)):
    """`games` games of two seats in which seat 1 wins the first `first_wins`; seat k's scores by `score`."""
    return metrics.summarise([measured((0,) if k < first_wins else (1,), score(k), 10, 5, 20)
                              for k in range(games)], 2)


def test_compare_flags_a_planted_difference_and_only_that():
    """Two-proportion z at 5 % (two-sided, |z| > 1.96): 50 against 64 wins of 100 is z = 2.00,
    significant; 50 against 63 is z = 1.86, not. Welch on the means the same way."""
    def row(rows, name):
        return next(r for r in rows if r["figure"] == name)
    a = batch(50)
    for b, flag in ((batch(64), True), (batch(63), False), (batch(50), False), (batch(90), True)):
        rows = metrics.compare(a, b)
        rate = row(rows, "seat 1 win rate")
        assert rate["significant"] is flag, (b["seats"][0]["win_rate"], rate)
        assert rate["difference"] == pytest.approx(b["seats"][0]["win_rate"] - 0.5)
        assert row(rows, "seat 2 win rate")["significant"] is flag
        assert row(rows, "game length")["significant"] is False        # every game 10 decisions long
        assert row(rows, "advantage")["significant"] is None           # metrics are shown, not tested
    # scores: seat 1 scores 0 or 2 (mean 1, sd ~1) in both; then 0.3 higher (z ~ 2.1) or 0.2 (z ~ 1.4)
    base = batch(50, score=lambda k: (2 * (k % 2), 0))
    for shift, flag in ((0.3, True), (0.2, False), (0.0, False)):
        other = batch(50, score=lambda k, shift=shift: (2 * (k % 2) + shift, 0))
        scores = row(metrics.compare(base, other), "seat 1 score")
        assert scores["significant"] is flag, (shift, scores)
        assert scores["difference"] == pytest.approx(shift)


LEADS = '''game "Leads"
players 2
var pts: Int per player
rule play:
    for gain in [[1, 2], [2, 0]]:
        for p in players:
            p chooses k in 0..2 where k == gain[p.seat - 1] as "gain {k}":
                p.pts += k
score p = p.pts
'''


def test_a_game_is_measured_decision_by_decision(tmp_path):
    """games.play's own measurements on a game whose scores go (1, 0), (1, 2), (3, 2), then (3, 2) at the
    end: the leader is seat 1, seat 2, seat 1 (two changes; the first leader is no change); each
    standing is 0.5 + 0.5 (own - rival) / (|own| + |rival| + 1); seat 1 wins having trailed once by
    0.625 - 0.375."""
    from rulecraft.simulate.games import Job, play
    path = tmp_path / "leads.rules"
    path.write_text(LEADS)
    r = play(Job(str(path), 2, (), ("first", "first"), 0, 0, measure=True))   # standings: --standings
    assert (r.scores, r.winners, r.decisions, r.choices, r.options) == ((3, 2), (0,), 4, 0, 4)
    assert r.lead_changes == 2
    one = [0.75, 0.375, 0.5 + 0.5 / 6]
    two = [0.25, 0.625, 0.5 - 0.5 / 6]
    for got, track in zip(r.standing, (one, two)):
        mean = sum(track) / 3
        assert got == pytest.approx((min(track), max(track), mean, sum((x - mean) ** 2 for x in track) / 3))
    assert r.trail == pytest.approx(0.625 - 0.375)
    assert r.asked == (2, 2)


def test_a_shared_result_splits_the_point_between_two_agents():
    """a and b share game 1 (a at seat 1), b wins game 2 (b at seat 1): a scores 0.5 of 2 against b."""
    from rulecraft.simulate import tournament
    jobs = tournament.jobs("x", ["a", "b"], 2, (), 1, 0)
    table = tournament.standings(["a", "b"], jobs, [result((0, 1), (1, 1)), result((0,))])
    rows = {row["agent"]: row for row in table["agents"]}
    assert rows["a"]["against"] == {"b": 0.25} and rows["b"]["against"] == {"a": 0.75}
    assert rows["a"]["win_rate"] == pytest.approx(0.25) and rows["b"]["rating"] > rows["a"]["rating"]


def test_a_game_past_its_limit_stops_at_the_limit_as_a_timeout(tmp_path):
    """`limit decisions 6` on rules that never end: the game is stopped after its 6th decision, not a
    7th, and counted as a timeout without scores."""
    from rulecraft.simulate.games import Job, play
    path = tmp_path / "endless.rules"
    path.write_text('''game "Endless"
players 2
var turns: Int
limit decisions 6
rule play:
    while true:
        for p in players:
            p chooses k in 1..2 as "step {k}":
                turns += 1
''')
    r = play(Job(str(path), 2, (), ("first", "random"), 0, 0))
    assert r.timeout and r.decisions == 6 and r.scores == () and r.winners == ()
    s = metrics.summarise([r, result((0,))], 2)
    assert s["metrics"]["timeouts"] == 0.5 and s["finished"] == 1


def test_a_game_played_while_another_is_draws_from_agents_of_its_own():
    """The random agents a batch reseeds for each game (simulate.games' pool) are never shared by two
    games being played at once (a nested batch, a thread): a second game takes fresh ones, and each
    game draws as its agents made anew would."""
    from rulecraft.simulate import games
    from rulecraft.simulate.games import Job, play
    jobs = [Job("examples/tic-tac-toe.rules", 2, (), ("random", "random"), 3, i) for i in range(4)]
    alone = [play(job) for job in jobs]
    pool = games._plan(jobs[0])[3]
    held = pool.take()                                   # as a game still being played holds its agents
    assert all(held[1][seat] is not index for seat, index in enumerate(pool.take()[1]))
    assert [play(job) for job in jobs] == [attrs.evolve(r) for r in alone]
    pool.append(held)
    assert [play(job) for job in reversed(jobs)] == alone[::-1]
