"""Exploring random games with hypothesis, and shrinking a failure to a short game.

Hypothesis draws the seed and every option index; when a property fails it
shrinks those draws, which shrinks the game: fewer decisions, earlier options.
The smallest failing game is handed back as (players, options, seed, decisions),
ready to be written as a transcript and replayed step by step.
"""
from __future__ import annotations

import contextlib
import itertools
import random
import tempfile

import attrs

from . import properties as P

# Hypothesis serves a test a few thousand draws at most (about 4,000, fewer in some of the
# examples it makes); a game that asks for more is abandoned, silently, and a game that never
# ends is then never reported. So hypothesis draws the first HYPOTHESIS_PICKS choices of a
# game, where it can shrink them, and a random source seeded by the game's seed (hypothesis's
# first draw) the rest: the same seed gives the same games, and every game reaches its end or
# its limit. 2,000 stays below what hypothesis serves even for wide draws (2,270 seen), and above
# what the bundled games' explored games mostly ask for.
HYPOTHESIS_PICKS = 2000


class _Endless(BaseException):
    """Stops hypothesis at a game that ran past its limit, without shrinking it: every such game is
    exactly as long, and each try at a smaller one would play the whole limit again. (A BaseException,
    like KeyboardInterrupt, hypothesis lets through instead of shrinking.)"""


@attrs.define
class Failure:
    """The smallest failing game found: replay `decisions` (option ids) from `seed`.

    `step` is the number of decisions taken when the property broke. When taking a
    decision made the rules fail (`failed_decision`), that decision is the last of
    `decisions`, so `decisions[:-1]` is the game up to the failure."""

    prop: str
    message: str
    step: int
    players: int
    options: dict
    seed: int
    decisions: list
    failed_decision: bool = False
    detail: str = ""


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


@contextlib.contextmanager
def _hypothesis_home():
    """Hypothesis keeps files of its own (a `.hypothesis/` folder in the current folder, by default):
    while rulecraft explores they go to its cache instead (a throw-away folder when caching is off)."""
    from hypothesis.configuration import set_hypothesis_home_dir, storage_directory
    from ..cachedir import cache_dir
    before = storage_directory(intent_to_write=False).home_directory
    folder = cache_dir("hypothesis")
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="rulecraft-hypothesis-"))
        set_hypothesis_home_dir(folder)
        try:
            yield
        finally:
            set_hypothesis_home_dir(before)


def explore_one(program, n: int, opts: dict, examples: int, seed: int = 0, deep: bool = True,
                lengths: list | None = None, on_game=None):
    """Explore `examples` random games of one configuration.

    Returns (games played, None) when every property held, or (games played, Failure)
    with the smallest failing game hypothesis could shrink to (a game past its decision limit:
    the first found, not shrunk). The same arguments give the same answer: hypothesis is seeded
    and keeps no database. Games played counts the different games played to their end
    (hypothesis repeats a few and, rarely, abandons one it cannot draw further); `lengths`, when
    given, receives the number of decisions of each.
    `on_game(shrinking)`, if given, is called after each game played (`shrinking` once a failure
    was found: the games then played are hypothesis's attempts at a smaller one), for a progress bar.
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings, strategies as st
    from hypothesis import seed as hyp_seed

    played = set()       # games played to their end: hypothesis also starts games it abandons (a draw
    last: dict = {}      # past its buffer) and replays some, which are not games explored

    @hyp_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
              report_multiple_bugs=False, print_blob=False, verbosity=Verbosity.quiet)
    @given(game_seed=st.integers(0, 2**31 - 1), data=st.data())
    def run(game_seed, data):
        drawn = 0
        rest = random.Random(f"rulecraft-explore:{game_seed}")     # past hypothesis's share of the draws

        def pick(k):
            nonlocal drawn
            if k <= 1:
                return 0
            if drawn >= HYPOTHESIS_PICKS:
                return rest.randrange(k)
            drawn += 1
            return data.draw(st.integers(0, k - 1))
        try:
            outcome = P.play_checked(program, n, opts, game_seed, pick, deep=deep)
            key = (game_seed, tuple(outcome.decisions))
            if lengths is not None and key not in played:
                lengths.append(len(outcome.decisions))
            played.add(key)
            final = P.replay_ids(program, n, opts, game_seed, outcome.decisions)
            if not final.same_as(outcome.final):
                f = P.PropertyFailure("same seed and decisions, same game",
                                      "replaying the decisions gave another game", outcome.steps)
                f.taken = list(outcome.decisions)
                raise f
        except P.PropertyFailure as f:
            if f.prop == P.ENDLESS and "failure" in last:
                return      # a try at shrinking another failure that ran to the limit instead: not that failure
            # hypothesis runs the shrunk example last, so this ends as the smallest failure
            played.add((game_seed, tuple(f.taken)))
            last["failure"] = Failure(f.prop, str(f), f.step, n, dict(opts), game_seed, list(f.taken),
                                      f.failed_decision, f.detail)
            if f.prop == P.ENDLESS:
                raise _Endless() from None
            raise
        finally:
            if on_game is not None:
                on_game("failure" in last)

    try:
        with _hypothesis_home():
            run()
    except (P.PropertyFailure, _Endless):
        return len(played), last["failure"]
    except Exception as e:      # hypothesis itself gave up (e.g. a failure that would not repeat)
        if "failure" in last:
            return len(played), last["failure"]
        raise RuntimeError(f"exploration stopped: {type(e).__name__}: {e}") from e
    return len(played), None


def explore(program, examples: int, seed: int = 0, players=None, fixed=None, deep=True) -> Report:
    """Explore `examples` random games per configuration; stop at the first failure (shrunk)."""
    report = Report()
    for n, opts in configurations(program, players, fixed):
        runs, failure = explore_one(program, n, opts, examples, seed, deep)
        report.runs += runs
        if failure is not None:
            report.failures.append(failure)
            return report
    return report
