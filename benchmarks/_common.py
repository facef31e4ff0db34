"""Shared helpers for the benchmark scripts (not part of the rulecraft package)."""
from __future__ import annotations

import os
import platform
import random
import sys
import time

# Floors from the issues: random 4-player games per second on one core.
FLOORS = {("blackmore", 4): 2000, ("three-sisters", 4): 50}
LOAD_FLOOR_MS = 100.0


def pin_to_one_core(cpu: int | None = None) -> str:
    """Pin this process to one CPU (the lowest allowed, or `cpu`) where the OS allows it; say what happened."""
    if hasattr(os, "sched_setaffinity"):
        try:
            if cpu is None:
                cpu = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
        except OSError as e:  # pragma: no cover - containers may forbid it
            return f"not pinned ({e})"
    return "not pinned (no sched_setaffinity on this OS)"


def machine_line() -> str:
    cores = os.cpu_count() or "?"
    return f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}, {cores} cores"


def measure(play_one, seconds: float, warmup: float, rounds: int = 5) -> dict:
    """Run `play_one(seed) -> decisions` repeatedly for `seconds` of wall time after `warmup`.

    The time is cut into `rounds` equal slices and the figures are those of the
    fastest slice (other processes on the machine only ever slow a slice down);
    `median_games_per_s` is the median slice, `all_games_per_s` the whole run,
    `cpu_games_per_s` the fastest slice counted in this process's CPU time
    (what the figure would be if no other process shared the core).
    """
    clock = time.perf_counter
    seed = 0
    end = clock() + warmup
    while clock() < end:
        play_one(seed)
        seed += 1
    slices = []
    total_games = total_time = 0
    cpu_rates = []
    for _ in range(max(1, rounds)):
        games = decisions = 0
        cpu0 = time.process_time()
        start = now = clock()
        end = start + seconds / max(1, rounds)
        while now < end:
            decisions += play_one(seed)
            seed += 1
            games += 1
            now = clock()
        cpu = time.process_time() - cpu0
        slices.append((games / (now - start), games, decisions, now - start))
        cpu_rates.append(games / cpu if cpu > 0 else float("nan"))
        total_games += games
        total_time += now - start
    rate, games, decisions, elapsed = max(slices)
    rates = sorted(x[0] for x in slices)
    return {
        "games": games,
        "decisions": decisions,
        "seconds": elapsed,
        "games_per_s": rate,
        "decisions_per_s": decisions / elapsed,
        "us_per_decision": elapsed / decisions * 1e6 if decisions else float("nan"),
        "median_games_per_s": rates[len(rates) // 2],
        "all_games_per_s": total_games / total_time,
        "cpu_games_per_s": max(cpu_rates),   # games per second of this process's CPU time (fastest slice)
    }


def interpreter_player(program, players: int, options=None, agent_seed: int = 12345, record_chance: bool = False):
    """`play_one(seed)` for the interpreter: a random agent drives the engine API directly
    (with `record_chance`, every chance outcome is recorded as a session does for its transcript)."""
    from rulecraft.engine import machine

    new_game, legal_ids, decide = machine.new_game, machine.legal_ids, machine.decide
    rng = random.Random(agent_seed)
    randrange = rng.randrange

    def play_one(seed: int) -> int:
        m = new_game(program, players, options, seed, chance=[] if record_chance else None)
        while m.result is None:
            ids = legal_ids(m)
            decide(m, ids[randrange(len(ids))])
        return m.decisions

    return play_one


def add_common_args(ap) -> None:
    ap.add_argument("--seconds", type=float, default=3.0, help="wall time per measurement (default 3)")
    ap.add_argument("--warmup", type=float, default=1.0, help="warm-up before each measurement (default 1)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="cut each measurement into this many slices and report the fastest (default 5)")
    ap.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (default: the lowest allowed)")


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def table(rows, headers) -> str:
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    out = []
    for k, r in enumerate(cells):
        out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def flush():
    sys.stdout.flush()
