"""A small mutation check (issue 34): plausible bugs planted one at a time, each run against the
tests that should catch it. Do the tests pin what they claim?

    python benchmarks/mutants.py                  # every mutant: the kill rate and the survivors
    python benchmarks/mutants.py --only simulate/ # the mutants of modules whose path holds this text
    python benchmarks/mutants.py --list           # the mutants, none run

Not a test and not in CI's time budget: it runs on demand and takes about ten minutes on one
core (the tests run niced). Each mutant is one text substitution in one module of interpreter/,
found there exactly once (a mutant whose text is gone is reported *stale*: the code moved on
and the mutant wants rewriting, not counting). It is applied to a copy of the working tree in a
temporary folder, never to the tree itself, and rulecraft is imported from that copy
(PYTHONPATH comes before the editable install's finder). A mutant is *killed* when its tests fail
(or run past --timeout: a hang is a failure too), and *survives* when they pass. Before any mutant,
each selection of tests runs on the unmutated copy and must pass, or nothing is counted.

Why not mutmut: it mutates every operator of a module and runs the tests it is given for each,
which over these modules is thousands of mutants, mostly of formatting or of code paths a
test names no behaviour for; a short list of bugs a person could write, each aimed at the tests
that promise the behaviour it breaks, says more per CPU second on a shared machine and needs no
new dependency.

A surviving mutant is either turned into a test, or kept with `exception`: why no test can
tell it (an equivalent mutant) — listed as such in the report.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"rulecraft": "interpreter", "rulecraft/games": "games", "rulecraft/grammar": "grammar",
            "rulecraft/stdlib": "stdlib"}      # as pyproject.toml's package-dir maps them


@dataclass(frozen=True)
class Mutant:
    module: str            # under interpreter/
    old: str               # found exactly once
    new: str
    about: str             # the bug, in words
    tests: tuple           # pytest arguments: the tests that should catch it
    exception: str = ""    # for a mutant no test can tell: why


# ------------------------------------------------------------------ the tests each area is pinned by
def tests(*files: str, k: str = "") -> tuple:
    """pytest's arguments: the test files, and a -k expression (which applies to every file)."""
    return (*files, "-k", k) if k else files


ENGINE = tests("tests/test_engine.py", "tests/test_loop_counts.py")
VIEWS = tests("tests/test_observe.py", "tests/test_api.py", "tests/test_play_view.py")
SAMPLES = tests("tests/test_agents.py", "tests/test_openspiel.py", k="resampler or sample or cannot_tell or seat")
OPENSPIEL = tests("tests/test_openspiel.py", k="not weird-sisters-6 and not the_examples")
RL = tests("tests/test_rl.py")
SIMULATE = tests("tests/test_simulate.py", k="not ray and not plot")
AGENTS = tests("tests/test_agents.py")

MUTANTS = [
    # -------------------------------------------------------------- engine/
    Mutant("engine/machine.py", "if (scores[i], ties[i]) == best]", "if scores[i] == best[0]]",
           "the tiebreak is ignored when the winners are picked", ENGINE),
    Mutant("engine/machine.py", "best = max(zip(scores, ties))", "best = max(zip(ties, scores))[::-1]",
           "the tiebreak counts before the score", ENGINE),
    Mutant("engine/machine.py", "if action_id not in ids:", "if action_id not in ids and False:",
           "an illegal option id is not refused", ENGINE),
    Mutant("engine/machine.py", "        m.decisions += 1\n", "        m.decisions += 2\n",
           "each decision is counted twice", ENGINE),
    Mutant("engine/machine.py", "stack[-1][1] = info.else_pc", "stack[-1][1] = info.body_pc",
           "the pass of a `may choose` runs the option's block, not its else", ENGINE),
    Mutant("engine/machine.py", "return o.values[0] <= value <= o.values[1]", "return o.values[0] <= value < o.values[1]",
           "a range option refuses its top value", tests(*ENGINE, "tests/test_api.py")),
    Mutant("engine/machine.py", "        except RuleFailure:\n            ok = False", "        except RuleFailure:\n            ok = True",
           "an invariant that fails to evaluate is taken to hold", ENGINE),
    Mutant("engine/views.py", "return _among(m.seen[instance], m.n, viewer)",
           "return _among(((1 << m.n) - 1) * (m.seen[instance] & 1), m.n, viewer)",
           "every seat sees the zones seat 1 sees", VIEWS),
    Mutant("engine/views.py", "if viewer is None or viewer == who:", "if True:",
           "a view shows the options to seats that are not deciding", VIEWS),
    Mutant("engine/views.py", "return viewer is None or _among(rt_value_seen(m, var.seen_base, owner), m.n, viewer)",
           "return True", "every value is shown to every seat", VIEWS),
    Mutant("compile/layout.py", "if team is not None and p % self.team_count == team)",
           "if team is not None and p // self.team_count == team)",
           "a team's secret is seen by the wrong seats (seats paired in order, not around the table)",
           tests("tests/test_team_secrets.py")),
    Mutant("engine/observe.py", "out.append(name if viewer >= 0 and mask >> viewer & 1 else hidden)",
           "out.append(name if viewer >= 0 and mask & 1 else hidden)",
           "a card named in a text is shown to whoever seat 1 is", VIEWS),
    Mutant("engine/observe.py", "return viewer >= 0 and bool(audience >> viewer & 1)", "return viewer >= 0",
           "a line said to some seats is told to all", VIEWS),
    Mutant("engine/observe.py", "        self.read = len(events)\n", "",
           "an observer tells the same news again", VIEWS),
    Mutant("engine/observe.py", "if viewer is None or (viewer >= 0 and not program.changes_seen and m.seen[zone] >> viewer & 1):",
           "if viewer is None or viewer >= 0:",
           "a shuffle's new order is told to seats that may not see the zone", VIEWS),
    Mutant("engine/determinize.py", "        self.cards = sorted(cards)\n",
           "        self.cards = list(cards)\n",
           "a sample depends on where the hidden cards truly are", SAMPLES),
    Mutant("engine/determinize.py", "if not views.can_see(m, inst, viewer) and not (unseen_only and masks[inst]):",
           "if not (unseen_only and masks[inst]):",
           "a sample deals again the cards the seat sees", SAMPLES),
    Mutant("engine/determinize.py", "    other.rng = rng.getrandbits(64)\n", "",
           "a sample keeps the game's own random generator: it knows the future", SAMPLES),
    Mutant("engine/determinize.py", "return not rt_value_seen(m, v.seen_base, owner) >> viewer & 1",
           "return rt_value_seen(m, v.seen_base, owner) >> viewer & 1",
           "a sample redraws the values the seat sees and keeps those it does not", SAMPLES),
    Mutant("engine/session.py", "            self.state = before\n            raise", "            raise",
           "a decision whose rules fail leaves the game half changed", ENGINE),
    Mutant("engine/session.py", "if viewer is None or viewer == decision.player:", "if True:",
           "every seat is told another's decision in full (a secret choice too)", VIEWS),
    Mutant("engine/limits.py", "return program.limit if program.limit is not None else DEFAULT_DECISION_LIMIT",
           "return DEFAULT_DECISION_LIMIT", "the rules' own `limit decisions` is ignored",
           tests("tests/test_decision_limit.py", "tests/test_simulate.py", "tests/test_openspiel.py",
                 k="limit and not weird-sisters-6")),
    # -------------------------------------------------------------- rl/
    Mutant("rl/openspiel.py", "return self._match.observation_tensor(seat)",
           "return self._match.observation_tensor(self._match.to_move or seat)",
           "every player is given the mover's observation tensor (issue 34's first survivor)", OPENSPIEL),
    Mutant("rl/openspiel.py", "lambda: self._match.information_state_text(seat))",
           "lambda: self._match.information_state_text(self._match.to_move or seat))",
           "every player is given the mover's information state string", OPENSPIEL),
    Mutant("rl/openspiel.py", "lambda: self._match.information_state_tensor(seat))",
           "lambda: self._match.information_state_tensor(self._match.to_move or seat))",
           "every player is given the mover's information state tensor", OPENSPIEL),
    Mutant("rl/openspiel.py", "while block * self.base < n:", "while block * self.base <= n:",
           "a large draw is split into blocks of the wrong size", OPENSPIEL),
    Mutant("rl/openspiel.py", "got = _UNIFORM[n] = [(k, 1.0 / n) for k in range(n)]",
           "got = _UNIFORM[n] = [(k, 1.0 / n) for k in range(n - 1)] + [(n - 1, 0.0)]",
           "a chance node never draws its last outcome", OPENSPIEL),
    Mutant("engine/outcomes.py", "each = total / players if total is not None else 0.0", "each = 0.0",
           "a game stopped by its decision limit pays nobody in a constant-sum game",
           tests("tests/test_openspiel.py", "tests/test_outcomes.py", k="limit or utility or returns")),
    Mutant("rl/openspiel.py", "            self.tensor[:] = state.observation_tensor_of(player)",
           "            self.tensor[:] = state.observation_tensor_of(state.current_player())",
           "the observer fills in the mover's tensor", OPENSPIEL),
    Mutant("rl/common.py", "    if match.to_move == seat:\n", "    if match.to_move is not None:\n",
           "every agent's action mask shows the mover's legal actions", RL),
    Mutant("rl/pettingzoo.py", "self.rewards[a] = float(returns[seat_of(a)])", "self.rewards[a] = float(returns[1])",
           "every agent is paid seat 1's return", RL),
    Mutant("rl/pettingzoo.py", "return {\"observation\": tensor(self.match, seat),",
           "return {\"observation\": tensor(self.match, self.match.to_move or seat),",
           "every agent observes the mover's tensor", RL),
    Mutant("rl/gymnasium.py", "while not match.over and match.to_move != self.seat and not self._limit_reached():",
           "while not match.over and match.to_move != self.seat and not self._limit_reached() and False:",
           "the opponents never play: the learner is left waiting at another seat's decision", RL),
    Mutant("rl/gymnasium.py", "reward = float(match.returns(self.reward_kind)[self.seat]) if terminated else 0.0",
           "reward = float(match.returns(self.reward_kind)[1]) if terminated else 0.0",
           "the learner is paid seat 1's return", RL),
    # -------------------------------------------------------------- simulate/
    Mutant("simulate/metrics.py", "first_won = sum(share(r, r.first, teams) for r in opened)",
           "first_won = sum(share(r, 0, teams) for r in opened)",
           "advantage read from seat 1, not the first mover (issue 34's second survivor)",
           tests("tests/test_simulate.py", "tests/test_outcomes.py", k="advantage or first")),
    Mutant("simulate/metrics.py", "losers = [s[1] for p, s in enumerate(r.standing) if p not in r.winners]",
           "losers = [s[1] for p, s in enumerate(r.standing)]",
           "the decisiveness threshold counts the winner's standing too", SIMULATE),
    Mutant("simulate/metrics.py", "\"completion\": decisive / n if n else 0.0", "\"completion\": len(done) / n if n else 0.0",
           "a tie counts as a completed game", SIMULATE),
    Mutant("simulate/metrics.py", "significant = bool(se and abs(pa - pb) / se > Z95) or (not se and pa != pb)",
           "significant = bool(se and abs(pa - pb) / se > 1.645) or (not se and pa != pb)",
           "win rates compared at 10 % (one-sided 5 %), not two-sided 5 %", SIMULATE),
    Mutant("simulate/metrics.py", "\"stability\": mean_sd(sum(s[3] for s in r.standing) for r in measured)[0]",
           "\"stability\": mean_sd(max(s[3] for s in r.standing) for r in measured)[0]",
           "stability is the largest seat's variance, not their sum", SIMULATE),
    Mutant("simulate/games.py", "if self.leaders is not None and now != self.leaders:", "if now != self.leaders:",
           "the first leader counts as a lead change", SIMULATE),
    Mutant("simulate/games.py", "digest = hashlib.sha256(f\"rulecraft-simulate:{run_seed}:{index}\".encode()).digest()",
           "digest = hashlib.sha256(f\"rulecraft-simulate:{run_seed}\".encode()).digest()",
           "every game of a run gets the same seed", SIMULATE),
    Mutant("engine/playout.py", "        if m.decisions >= stop:\n", "        if m.decisions > stop:\n",
           "a game runs one decision past its limit", tests(*SIMULATE[:1], "tests/test_decision_limit.py")),
    Mutant("simulate/tournament.py", "point = 1.0 if shares[p] > shares[q] else (0.0 if shares[p] < shares[q] else 0.5)",
           "point = 1.0 if shares[p] >= shares[q] else 0.0",
           "a shared result gives the point to the earlier seat", SIMULATE),
    # -------------------------------------------------------------- agents/
    Mutant("agents/search.py", "rival = max(others) if others else 0", "rival = min(others) if others else 0",
           "a position is judged against the weakest rival, not the strongest", AGENTS),
    Mutant("agents/search.py", "return [1.0 / len(sides) if p in winners else 0.0 for p in range(state.n)]",
           "return [1.0 if p in winners else 0.0 for p in range(state.n)]",
           "a shared win is worth a whole win", AGENTS),
    Mutant("agents/search.py", "score = (ch.total / ch.visits - lo) / spread + c * math.sqrt(",
           "score = (ch.total / ch.visits - lo) / spread - c * math.sqrt(",
           "UCB1 explores away from the least tried options", AGENTS),
    Mutant("agents/search.py", "most = max(root.children[a].visits for a in legal)",
           "most = min(root.children[a].visits for a in legal)",
           "the search takes its least visited option", AGENTS),
    Mutant("agents/search.py", "totals[a] -= 1.0            # an option", "totals[a] += 1.0            # an option",
           "greedy prefers an option its sampled world does not allow", AGENTS),
    Mutant("agents/seat.py", "seat = (OmniscientSeat if omniscient or getattr(agent, \"omniscient\", False) else Seat)",
           "seat = OmniscientSeat", "every agent is given the true game", AGENTS),
    Mutant("agents/seat.py", "return views.view(self.__session.state, self.seat)",
           "return views.view(self.__session.state, None)", "a seat's view shows everything", AGENTS),
    Mutant("agents/basic.py", "ids = session.legal_ids()\n        return ids[self.rng.randrange(len(ids))]",
           "ids = session.legal_ids()\n        return ids[self.rng.randrange(len(ids)) // 2]",
           "the random agent never takes the later half of its options", AGENTS),
]


# ------------------------------------------------------------------ running them
def tree_copy(dst: Path) -> Path:
    """The working tree's files (tracked, and untracked ones git does not ignore) copied to `dst`, and
    a folder to put on PYTHONPATH whose `rulecraft` package is the copy's interpreter/. Returns it."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)
    path = dst / ".mutants-path"
    package = path / "rulecraft"
    package.mkdir(parents=True)
    for entry in (dst / "interpreter").iterdir():
        (package / entry.name).symlink_to(entry)
    for name, folder in PACKAGES.items():
        if name != "rulecraft":
            (path / name).symlink_to(dst / folder)
    return path


def run_tests(copy: Path, path: Path, tests: tuple, timeout: float) -> tuple[str, float]:
    """'pass', 'fail' or 'timeout', and the seconds it took; the tests run niced, alone in their group."""
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="1", HYPOTHESIS_PROFILE="ci")
    env.pop("RULECRAFT_TEST_KEEP_CACHE", None)
    argv = ["nice", "-n", "10", sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=copy, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "timeout", time.monotonic() - start
    return ("pass" if code == 0 else "fail"), time.monotonic() - start


def imports_the_copy(copy: Path, path: Path) -> bool:
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run([sys.executable, "-c", "import rulecraft.engine.machine as m; print(m.__file__)"],
                         cwd=copy, env=env, capture_output=True, text=True).stdout.strip()
    return out.startswith(str(path))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="only the mutants of modules whose path holds this text")
    parser.add_argument("--about", default="", help="only the mutants whose description holds this text")
    parser.add_argument("--list", action="store_true", help="list the mutants; run none")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a mutant's tests may run (a hang is a kill)")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if args.only in m.module and args.about in m.about]
    if args.list:
        for m in chosen:
            print(f"{m.module:26} {m.about}")
        print(f"{len(chosen)} mutants")
        return 0
    with tempfile.TemporaryDirectory(prefix="rulecraft-mutants-") as tmp:
        copy = Path(tmp)
        path = tree_copy(copy)
        if not imports_the_copy(copy, path):
            print("the copy's rulecraft is not the one imported: stopped", file=sys.stderr)
            return 2
        for tests in sorted({m.tests for m in chosen}):
            status, seconds = run_tests(copy, path, tests, args.timeout)
            print(f"baseline {status:7} {seconds:5.0f} s  {' '.join(tests)}", flush=True)
            if status != "pass":
                print("the tests fail without a mutant: fix them first", file=sys.stderr)
                return 2
        killed, survived, stale, start = [], [], [], time.monotonic()
        for m in chosen:
            source = copy / "interpreter" / m.module
            text = source.read_text(encoding="utf-8")
            if text.count(m.old) != 1:
                stale.append(m)
                print(f"stale            {m.module}: {m.about} (its text is found {text.count(m.old)} times)", flush=True)
                continue
            source.write_text(text.replace(m.old, m.new), encoding="utf-8")
            try:
                status, seconds = run_tests(copy, path, m.tests, args.timeout)
            finally:
                source.write_text(text, encoding="utf-8")
            (survived if status == "pass" else killed).append(m)
            word = {"pass": "SURVIVED", "fail": "killed", "timeout": "killed (hang)"}[status]
            print(f"{word:14} {seconds:4.0f} s  {m.module}: {m.about}", flush=True)
    counted = len(killed) + len(survived)
    rate = 100.0 * len(killed) / counted if counted else 0.0
    print(f"\nkilled {len(killed)} of {counted} mutants ({rate:.1f} %) in {time.monotonic() - start:.0f} s; "
          f"{len(stale)} stale (not counted)")
    for m in survived:
        print(f"  survived: {m.module}: {m.about}" + (f" — an exception: {m.exception}" if m.exception else ""))
    return 0 if not [m for m in survived if not m.exception] else 1


if __name__ == "__main__":
    sys.exit(main())
