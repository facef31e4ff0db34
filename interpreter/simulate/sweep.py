"""Which setting is best: the games of `rulecraft sweep`, their figures, and the racing that stops bad settings.

A sweep plays every setting (a combination of option values, on one or more rule files) on the
same seeds: game i of every setting has the same seed (simulate.games.game_seed), so two
settings are compared game by game, and luck cancels out. Every figure of `simulate` (win
rates, first-player win rate, length, the design metrics) gets its interval, and its difference
from the reference setting (the defaults, with any --set) its significance, from one paired
bootstrap: the same resampled game indices for every setting. The p-values of the settings are
corrected with Holm's method for the number of settings compared.

Racing: with a target figure, the games are played in rounds, and after each round a setting
clearly worse than the best so far (a one-sided paired bootstrap test, Holm-corrected over the
settings still racing) stops; the reference plays every round. The report says how many games
each setting got. Every decision depends only on the games' results, which depend only on their
seeds, so the figures are the same for any number of workers or backend.
"""
from __future__ import annotations

import itertools
import math
import random

import attrs

from ..diagnostics import UserError
from . import metrics

ALPHA = 0.05
RESAMPLES = 200          # bootstrap resamples: enough for 5 % tests and intervals on a few hundred games

# which way each figure is better, for --target (figures with no natural direction take :max or :min)
DIRECTIONS = {"balance": 1, "completion": 1, "drawishness": -1, "timeouts": -1, "errors": -1,
              "decision_moves": 1, "lead_change": 1, "drama": 1, "first_player_gap": -1, "skill_trace": 1}


@attrs.frozen
class Setting:
    label: str               # "hand_size=5" (and the rules file, when several are swept)
    path: str                # the rules file
    settings: tuple          # ("name=value", ...) as --set takes them
    reference: bool = False  # the setting the others are compared with


def parse_vary(program, text: str) -> tuple[str, list[str]]:
    """--vary NAME=a..b, NAME=v1,v2,… or NAME=all → (name, the values as --set takes them)."""
    if "=" not in text:
        raise UserError(f"write --vary as NAME=LOW..HIGH or NAME=V1,V2,…, not '{text}'")
    name, _, spec = (part.strip() for part in text.partition("="))
    opt = program.option(name)
    if opt is None:
        known = ", ".join(o.name for o in program.options) or "none"
        raise UserError(f"{program.title} has no option '{name}' to vary (its options: {known})")
    if spec == "all":
        if opt.kind == "range":
            values = [str(v) for v in range(opt.values[0], opt.values[1] + 1)]
        else:
            values = [opt.shown(v) for v in (range(len(opt.values)) if opt.kind == "choice" else (False, True))]
    elif ".." in spec and opt.kind == "range":
        low, _, high = spec.partition("..")
        try:
            lo, hi = int(low), int(high)
        except ValueError:
            raise UserError(f"--vary {name}={spec}: write a range of whole numbers, e.g. {name}=4..8") from None
        if lo > hi:
            raise UserError(f"--vary {name}={spec}: the range is empty")
        values = [str(v) for v in range(lo, hi + 1)]
    else:
        values = [v.strip() for v in spec.split(",")]
    for v in values:
        try:
            opt.parse(v)
        except ValueError as e:
            raise UserError(f"--vary {name}: {e}") from None
    if len(set(values)) != len(values):
        raise UserError(f"--vary {name}={spec} names a value twice")
    return name, values


def settings_of(program, path: str, varies: list[str], base: list[str], others: list[tuple[str, str]] = ()) -> list[Setting]:
    """Every combination of the varied values (on each rules file), the reference first if it is not among them.

    `base` is --set (kept in every setting unless varied); `others` are (label, path) of --compare files."""
    from ..engine.session import Session
    axes = [parse_vary(program, v) for v in varies]
    names = [name for name, _ in axes]
    if len(set(names)) != len(names):
        raise UserError("--vary names the same option twice; give all its values in one --vary")
    kept = [s for s in base if s.partition("=")[0].strip() not in names]
    reference_values = Session.parse_options(program, base)
    files = [("", path)] + list(others)
    out = []
    for label, where in files:
        for combo in itertools.product(*[values for _, values in axes]):
            chosen = [f"{n}={v}" for n, v in zip(names, combo)]
            parts = ([label] if label else []) + chosen
            is_ref = not label and all(
                program.option(n).parse(v) == reference_values.get(n, program.option(n).default)
                for n, v in zip(names, combo))
            out.append(Setting(", ".join(parts) or "default", where, tuple(kept + chosen), is_ref))
    if not any(s.reference for s in out):
        out.insert(0, Setting("default" + (f" ({', '.join(base)})" if base else ""), path, tuple(base), True))
    return out


# ------------------------------------------------------------------ figures of a batch
def figures(results, players: int, teams: int) -> dict:
    """The figures a sweep reports of one setting's games, by name."""
    s = metrics.summarise(results, players, teams)
    out = {f"seat {seat['seat']} win rate": seat["win_rate"] for seat in s["seats"]}
    fpa = s["first_player_advantage"]
    out["first player win rate"] = fpa["win_rate"]
    out["first_player_gap"] = abs(fpa["win_rate"] - fpa["fair_share"])
    out.update(s["metrics"])
    return out


def direction(target: str) -> tuple[str, int]:
    """--target NAME[:max|:min] → (figure name, +1 to maximise or −1 to minimise)."""
    name, _, way = target.partition(":")
    name = name.strip().replace(" ", "_")
    if way:
        if way not in ("max", "min"):
            raise UserError(f"--target {target}: say :max or :min after the figure's name")
        return name, 1 if way == "max" else -1
    if name not in DIRECTIONS:
        raise UserError(f"--target {name}: say whether more is better ({name}:max) or less ({name}:min)")
    return name, DIRECTIONS[name]


def _resamples(n: int, seed: int, count: int) -> list[list[int]]:
    rng = random.Random(f"rulecraft-sweep:{seed}:{n}")
    return [[rng.randrange(n) for _ in range(n)] for _ in range(count)]


def _holm(pvalues: dict) -> dict:
    """Holm's step-down correction: {key: p} → {key: significant at ALPHA}."""
    order = sorted(pvalues, key=lambda k: pvalues[k])
    out, m, stop = {}, len(order), False
    for rank, key in enumerate(order):
        stop = stop or pvalues[key] > ALPHA / (m - rank)
        out[key] = not stop
    return out


def _p_two_sided(diffs: list[float]) -> float:
    below = sum(1 for d in diffs if d <= 0)
    above = sum(1 for d in diffs if d >= 0)
    return min(1.0, 2 * (min(below, above) + 1) / (len(diffs) + 1))


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


class Bootstrap:
    """Figures of resampled games, made once per setting and number of games: resample b draws the same
    game indices for every setting of that size, so settings are compared pair by pair (game i of each
    has the same seed) at the cost of one set of resamples per setting."""

    def __init__(self, players: int, teams: int, seed: int, count: int = RESAMPLES):
        self.players, self.teams, self.seed, self.count = players, teams, seed, count
        self.memo: dict = {}

    def of(self, setting, results: list, n: int) -> list[dict]:
        key = (setting, n)
        if key not in self.memo:
            self.memo[key] = [figures([results[i] for i in idx], self.players, self.teams)
                              for idx in _resamples(n, self.seed, self.count)] if n > 1 else []
        return self.memo[key]


def analyse(played: dict, players: int, teams: int, seed: int) -> dict:
    """Figures with intervals for each setting, and which differ significantly from the reference.

    `played` maps each Setting to its results (game i of each at the same seed); settings with
    fewer games (stopped by racing) are compared on the games they share with the reference."""
    ref = next(s for s in played if s.reference)
    boot = Bootstrap(players, teams, seed)
    rows = {}
    for s, results in played.items():
        boots = boot.of(s, results, len(results))
        rows[s] = {"games": len(results), "differs": {},
                   "figures": {k: {"value": v, "ci": _ci([b[k] for b in boots if k in b], v)}
                               for k, v in figures(results, players, teams).items()}}
    names = list(rows[ref]["figures"])
    pvalues: dict = {name: {} for name in names}
    for s, results in played.items():
        n = min(len(results), len(played[ref]))
        if s is ref or n < 2:
            continue
        pairs = list(zip(boot.of(s, results, n), boot.of(ref, played[ref], n)))
        for name in names:
            diffs = [a[name] - b[name] for a, b in pairs if name in a and name in b]
            if diffs:
                pvalues[name][s] = _p_two_sided(diffs)
    for name, by_setting in pvalues.items():
        for s, significant in _holm(by_setting).items():
            rows[s]["differs"][name] = significant
    return {"reference": ref, "rows": rows}


def _ci(values: list[float], value: float) -> list[float]:
    if not values:
        return [value, value]
    return [_percentile(values, 0.025), _percentile(values, 0.975)]


RACE_RESAMPLES = 100     # racing tests after every round: fewer resamples, the same pairing


def worse_than_best(played: dict, alive: list, target: str, way: int, players: int, teams: int, seed: int) -> set:
    """The settings still racing that are clearly worse than the best by the target (never the reference)."""
    value = {s: figures(played[s], players, teams).get(target) for s in alive}
    if any(v is None for v in value.values()):
        raise UserError(f"--target {target}: no such figure (the figures: "
                        f"{', '.join(sorted(figures(played[alive[0]], players, teams)))})")
    best = max(alive, key=lambda s: way * value[s])
    boot = Bootstrap(players, teams, seed, RACE_RESAMPLES)
    pvalues = {}
    for s in alive:
        if s is best or s.reference:
            continue
        n = min(len(played[s]), len(played[best]))
        diffs = [way * (b[target] - a[target])
                 for a, b in zip(boot.of(s, played[s], n), boot.of(best, played[best], n))]
        pvalues[s] = (sum(1 for d in diffs if d <= 0) + 1) / (len(diffs) + 1)     # one-sided: s is no worse
    return {s for s, significant in _holm(pvalues).items() if significant}


def rank(analysis: dict, target: str, way: int) -> list:
    """The settings, best first by the target."""
    rows = analysis["rows"]
    return sorted(rows, key=lambda s: -way * rows[s]["figures"][target]["value"])


# ------------------------------------------------------------------ skill trace
def skill_trace(curve: list[float]) -> float:
    """Ludii's skill trace from y_k, the strong agent's mean utility in match k (1 for a win, 0 for its fair
    share, −1/(P−1) for a loss; docs/simulating.md): a line fitted to (k, y_k) predicts the next match's
    ŷ (clamped to 0..1); with the area term Ā = the mean over matches of max(y_k, 0)², the trace is
    ŷ + (1 − ŷ)·Ā. A game of pure chance scores near 0; one where a little more thinking always wins, near 1."""
    k = len(curve)
    if k == 0:
        return 0.0
    if k == 1:
        predicted = curve[0]
    else:
        xs = range(1, k + 1)
        mx, my = sum(xs) / k, sum(curve) / k
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, curve)) / sxx
        predicted = my + slope * (k + 1 - mx)
    predicted = min(1.0, max(0.0, predicted))
    area = sum(max(y, 0.0) ** 2 for y in curve) / k
    return predicted + (1 - predicted) * area


def skill_agents(agent: str, matches: int, players: int, game: int, match: int) -> tuple:
    """The agents of game `game` of skill match `match` (1-based): one strong seat searching twice the
    weak seats' iterations, 2^(match−1) of them; the strong seat rotates game by game."""
    weak = 2 ** (match - 1)
    strong_seat = game % players
    return tuple(f"{agent}:iterations={2 * weak if seat == strong_seat else weak}" for seat in range(players))


def strong_utility(result, players: int, teams: int) -> float | None:
    """The strong agent's utility in one skill game: its share of the win, rescaled so that a win is 1,
    its fair share 0 and a loss −1/(sides − 1) (None when the game did not finish)."""
    if not result.scores:
        return None
    sides = len({seat % teams for seat in range(players)}) if teams else players
    if sides < 2:
        return None           # a game of one side has nobody to beat
    fair = 1 / sides
    return (metrics.share(result, result.index % players, teams) - fair) / (1 - fair)


# ------------------------------------------------------------------ playing a sweep
ROUNDS = 8               # a sweep plays in about this many rounds: racing looks after each, the record grows by each


def play(settings: list, players: int, agents: tuple, seed: int, games: int, workers: int = 1,
         backend: str = "processes", target: tuple | None = None, race: bool = True, record=None,
         skill: tuple | None = None, teams: int = 0, on_done=None, standings: bool = False) -> dict:
    """Play a sweep: {"played": {Setting: [GameResult]}, "stopped": {Setting: round}, "skill": {Setting: curve}}.

    `target` is (figure, way); `record` a Record that already-played games are read from and new ones
    written to; `skill` is (agent, matches, games a match); `on_done(k)` counts games as they finish;
    `standings` follows each seat's standing (lead change, stability, drama… as simulate --standings)."""
    from .batch import run
    from .games import Job
    played = {s: [] for s in settings}
    alive = list(settings)
    stopped: dict = {}
    chunk = max(10, math.ceil(games / ROUNDS))
    counted = 0

    def batch(keyed_jobs):
        """Play the jobs not in the record (all at once, on the workers); {key: result}."""
        nonlocal counted
        found = {key: record.get(key) for key, _ in keyed_jobs} if record else {}
        todo = [(key, job) for key, job in keyed_jobs if found.get(key) is None]
        base = counted + len(keyed_jobs) - len(todo)
        results = run([job for _, job in todo], workers, backend,
                      (lambda k: on_done(base + k)) if on_done else None) if todo else []
        counted += len(keyed_jobs)
        if on_done and not todo:
            on_done(counted)
        out = {key: found[key] for key, _ in keyed_jobs if found.get(key) is not None}
        for (key, _), result in zip(todo, results):
            out[key] = result
            if record:
                record.add(key, result)
        return out

    for round_no, start in enumerate(range(0, games, chunk), 1):
        stop = min(games, start + chunk)
        jobs = [((s.label, "games", i), Job(s.path, players, s.settings, agents, seed, i, standings))
                for s in alive for i in range(start, stop)]
        got = batch(jobs)
        for s in alive:
            played[s].extend(got[(s.label, "games", i)] for i in range(start, stop))
        if target and race and stop < games and round_no >= 2 and len(alive) > 1:
            for s in worse_than_best(played, alive, target[0], target[1], players, teams, seed):
                alive.remove(s)
                stopped[s] = stop
    curves: dict = {}
    if skill:
        agent, matches, per_match = skill
        for s in alive:
            jobs = [((s.label, f"skill{k}", g),
                     Job(s.path, players, s.settings, skill_agents(agent, matches, players, g, k), seed, g, False))
                    for k in range(1, matches + 1) for g in range(per_match)]
            got = batch(jobs)
            curve = []
            for k in range(1, matches + 1):
                shares = [strong_utility(got[(s.label, f"skill{k}", g)], players, teams) for g in range(per_match)]
                shares = [x for x in shares if x is not None]
                curve.append(sum(shares) / len(shares) if shares else 0.0)
            curves[s] = curve
    return {"played": played, "stopped": stopped, "skill": curves}


class Record:
    """A sweep's games as JSON lines, so an interrupted sweep resumes: a header naming the sweep, then one
    line a game. A record of another sweep (other rules, players, agents, seed or settings) is refused."""

    def __init__(self, path: str, header: dict):
        import json
        from .games import GameResult
        self.path, self.games = path, {}
        self._json, self._result = json, GameResult
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            lines = []
        except (OSError, UnicodeDecodeError) as e:
            raise UserError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        if lines:
            try:
                if json.loads(lines[0]) != header:
                    raise UserError(f"{path} records another sweep (other rules, players, agents, seed or settings); "
                                    "name another --out file, or delete it to start again")
                for line in lines[1:]:
                    entry = json.loads(line)
                    self.games[tuple(entry["key"])] = GameResult(**_tuples(entry["result"]))
            except (ValueError, TypeError, KeyError):
                raise UserError(f"{path} is not a sweep record rulecraft wrote (or it was damaged); "
                                "name another --out file") from None
        try:
            self._file = open(path, "a", encoding="utf-8")
        except OSError as e:
            raise UserError(f"cannot write {path}: {e.strerror or e}") from None
        if not lines:
            self._write(header)

    def get(self, key):
        return self.games.get(key)

    def add(self, key, result) -> None:
        self.games[key] = result
        self._write({"key": list(key), "result": attrs.asdict(result)})

    def _write(self, entry) -> None:
        self._file.write(self._json.dumps(entry, sort_keys=True) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _tuples(value):
    """JSON's lists back to the tuples a GameResult holds."""
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value
