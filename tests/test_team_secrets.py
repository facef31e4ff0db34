"""Team-owned secrets (issue 34's third survivor): a `per team, seen by owner` var and zone are seen by
their team's seats and by no other, in views, news and the games a seat's agent samples. Checked to
fail with `viewer % teams` read as `viewer` in determinize.value_hidden."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.agents.seat import Seat
from rulecraft.engine.observe import Observer
from rulecraft.engine.session import Session
from rulecraft.loader import load_file
from rulecraft.validate import properties

from helpers import zone_instance

HERE = Path(__file__).resolve().parent / "memory"


@pytest.fixture(scope="module")
def team_secrets():
    return load_file(HERE / "team_secrets.rules")


def test_a_team_secret_is_its_teams_in_views_news_and_samples(team_secrets):
    program = team_secrets
    s = Session.start(program, "teams", 4, 2)
    observers = [Observer(s, seat) for seat in range(4)]
    plans = ["Scout", "Raid", "Feint", "Hold"]
    for seat in range(4):
        s.take_label(f"plan {plans[seat]}")
    # team North (seats 1 and 3) last planned Feint, South (seats 2 and 4) Hold
    news = [o.news() for o in observers]
    stash = [zone_instance(program, "stash", t) for t in range(2)]
    for seat in range(4):
        team, rival = seat % 2, 1 - seat % 2
        view = Seat(s, seat).view()
        names = ["North", "South"]
        assert view["vars"]["plan"][names[team]] == ("Feint" if team == 0 else "Hold")
        assert view["vars"]["plan"][names[rival]] == "hidden"
        assert isinstance(view["zones"]["stash"][names[team]], list)
        assert view["zones"]["stash"][names[rival]] == {"hidden": 2}
        said = [line for line in news[seat] if " plans " in line]
        assert len(said) == 4
        own = [line for line in said if line.startswith(names[team])]
        other = [line for line in said if line.startswith(names[rival])]
        top = program.card_names[s.state.zones[stash[team]][-1]]
        assert all("(hidden)" not in line and top in line for line in own)
        assert all(line == f"{names[rival]} plans (hidden) with a Chip." for line in other), other
    # samples: a seat keeps its own team's plan and stash, and draws the other team's again
    for seat in range(4):
        team, rival = seat % 2, 1 - seat % 2
        rng = random.Random(seat)
        slot = next(v.slot for v in program.vars if v.name == "plan")
        rival_plans, rival_stashes = set(), set()
        for _ in range(30):
            world = Seat(s, seat).sample(rng)
            assert world.vars[slot][team] == s.state.vars[slot][team]
            assert world.zones[stash[team]] == s.state.zones[stash[team]]
            rival_plans.add(world.vars[slot][rival])
            rival_stashes.add(tuple(sorted(world.zones[stash[rival]])))
        assert len(rival_plans) > 1 and len(rival_stashes) > 1


def test_the_observation_property_holds_for_the_team_fixture(team_secrets):
    for seed in range(4):
        pick = random.Random(seed)
        outcome = properties.play_checked(team_secrets, 4, {}, seed, lambda n: pick.randrange(n))
        assert outcome.final.result is not None       # a property that fails raises PropertyFailure
