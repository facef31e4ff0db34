"""Exploring random games with hypothesis, and shrinking a failure to a short game.

Hypothesis draws the seed and every option index; when a property fails it
shrinks those draws, which shrinks the game: fewer decisions, earlier options.
The smallest failing game is handed back as (players, options, seed, decisions),
ready to be written as a transcript and replayed step by step.
"""
from __future__ import annotations

import itertools

import attrs

from . import properties as P


@attrs.define
class Failure:
    prop: str
    message: str
    step: int
    players: int
    options: dict
    seed: int
    decisions: list


@attrs.define
class Report:
    runs: int = 0
    failures: list = attrs.Factory(list)


def configurations(program, players=None, fixed=None):
    """(players, options) to explore: every player count, and each value of each option in turn."""
    fixed = dict(fixed or {})
    counts = [players] if players else list(range(program.min_players, program.max_players + 1))
    base = {o.name: o.default for o in program.options}
    base.update(fixed)
    variants = [dict(base)]
    for o in program.options:
        if o.name in fixed:
            continue
        if o.kind == "choice":
            values = range(len(o.values))
        elif o.kind == "bool":
            values = (False, True)
        else:
            lo, hi = o.values
            values = sorted({lo, o.default, hi})
        for v in values:
            if v != base[o.name]:
                opts = dict(base)
                opts[o.name] = v
                variants.append(opts)
    return [(n, opts) for n, opts in itertools.product(counts, variants)]


def explore(program, examples: int, seed: int = 0, players=None, fixed=None, deep=True) -> Report:
    """Explore `examples` random games per configuration; stop at the first failure (shrunk)."""
    from hypothesis import HealthCheck, Phase, given, settings, strategies as st
    from hypothesis import seed as hyp_seed

    report = Report()
    for n, opts in configurations(program, players, fixed):
        last: dict = {}

        @hyp_seed(seed)
        @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                  suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                  report_multiple_bugs=False, print_blob=False)
        @given(game_seed=st.integers(0, 2**31 - 1), data=st.data())
        def run(game_seed, data):
            report.runs += 1
            picks = []

            def pick(k):
                if k <= 1:
                    return 0
                i = data.draw(st.integers(0, k - 1))
                picks.append(i)
                return i
            taken = []
            try:
                outcome = P.play_checked(program, n, opts, game_seed, _recording(pick, taken), deep=deep)
                final = P.replay_ids(program, n, opts, game_seed, outcome.decisions)
                if not final.same_as(outcome.final):
                    raise P.PropertyFailure("same seed and decisions, same game",
                                            "replaying the decisions gave another game", outcome.steps)
            except P.PropertyFailure as f:
                last["failure"] = Failure(f.prop, str(f), f.step, n, opts, game_seed, list(taken))
                raise

        try:
            run()
        except P.PropertyFailure:
            report.failures.append(last["failure"])
            return report
    return report


def _recording(pick, taken):
    """Wrap `pick` so that decisions actually taken can be recovered: play_checked calls
    pick for probes too, so we record ids through the outcome instead."""
    return pick
