#!/usr/bin/env python3
"""Load time per bundled game: parse + check + compile, in milliseconds.

    python benchmarks/load_time.py [--loads 20] [--game NAME ...]

Four figures per game:
  * import + load -- issue 8's figure: a fresh process with the caches filled, from before
                    `import rulecraft.loader` to after `load(name)` (Python's own start-up not
                    counted), best of the fresh processes, in wall-clock and in CPU time;
  * first ever   -- a fresh process with an empty temp folder and an empty rulecraft
                    cache folder (XDG_CACHE_HOME pointed at a new empty folder), so
                    Lark builds its LALR tables, the game and its imports are parsed
                    and Python compiles the generated code: what a brand-new install
                    pays once, and what the first load after editing a game pays
                    apart from Lark's tables;
  * cold         -- a fresh process with the caches in place (Lark's grammar in the
                    temp folder, the parsed rules and compiled code in rulecraft's
                    cache folder, the checked game in its check cache; one unrecorded
                    process fills them first): the first `load()` after importing rulecraft;
  * warm         -- the median of N further parse + check + compile in one process, as
                    after an edit (the check cache not used), split into parse / check / compile.
The fresh processes may write Python's own .pyc files (PYTHONDONTWRITEBYTECODE is dropped from
their environment), as an installed rulecraft has them.
The floor from the issues (import + load under 100 ms) is printed beside, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import LOAD_FLOOR_MS, machine_line, pin_to_one_core, table  # noqa: E402

CHILD = r"""
import json, sys, time
c0, t0 = time.process_time(), time.perf_counter()
from rulecraft.loader import load
t1 = time.perf_counter()
load(sys.argv[1])
c2, t2 = time.process_time(), time.perf_counter()
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "load_ms": (t2 - t1) * 1e3, "total_ms": (t2 - t0) * 1e3,
                  "total_cpu_ms": (c2 - c0) * 1e3}))
"""


def fresh_process(name: str, empty: str | None = None) -> dict:
    """`load(name)` in a new Python process; with `empty` (an empty folder), with no cache at all."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)    # Python keeps its .pyc files, as an installed rulecraft has them
    if empty is not None:
        tmp, cache = os.path.join(empty, "tmp"), os.path.join(empty, "cache")
        os.mkdir(tmp)
        os.mkdir(cache)
        env["TMPDIR"] = tmp             # Lark keeps its grammar cache in tempfile.gettempdir()
        env["XDG_CACHE_HOME"] = cache   # rulecraft keeps parsed rules and compiled code in $XDG_CACHE_HOME/rulecraft
    out = subprocess.run([sys.executable, "-c", CHILD, name], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def cache_line() -> str:
    """Where the cold processes find rulecraft's cache (they inherit this process's environment)."""
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return "rulecraft's cache is off (RULECRAFT_NO_CACHE): cold loads parse and compile every time"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return f"cold loads use rulecraft's cache in {os.path.join(base, 'rulecraft')}"


def phases(name: str) -> dict:
    """One parse + check + compile, timed by phase, as after an edit (rulecraft.loader.load_file without its check cache)."""
    from rulecraft.check.checker import check
    from rulecraft.check.modules import load_declarations, resolve_game
    from rulecraft.compile.compiler import Compiler

    c0 = time.process_time()
    t0 = time.perf_counter()
    loaded = load_declarations(resolve_game(name))
    t1 = time.perf_counter()
    diags = list(loaded.diagnostics)
    checked = check(loaded.decls, loaded.originals, diags)
    t2 = time.perf_counter()
    Compiler(checked, diags).compile()
    t3 = time.perf_counter()
    c3 = time.process_time()
    return {"parse": (t1 - t0) * 1e3, "check": (t2 - t1) * 1e3, "compile": (t3 - t2) * 1e3, "total": (t3 - t0) * 1e3,
            "cpu": (c3 - c0) * 1e3}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=20, help="warm loads per game (median shown; default 20)")
    ap.add_argument("--cold", type=int, default=5, help="fresh processes per game (best shown; default 5)")
    ap.add_argument("--game", action="append", help="only this bundled game (repeatable)")
    ap.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (default: the lowest allowed)")
    args = ap.parse_args(argv)

    from rulecraft.check.modules import bundled_games
    from rulecraft.loader import load

    print(machine_line() + "; " + pin_to_one_core(args.cpu) + " (child processes inherit it)")
    print(cache_line())
    print(f"floor: under {LOAD_FLOOR_MS:.0f} ms from before `import rulecraft.loader` to after load(), caches filled\n")
    rows = []
    for name in args.game or list(bundled_games()):
        with tempfile.TemporaryDirectory(prefix="rulecraft-bench-") as empty:
            first = fresh_process(name, empty)
        fresh_process(name)                                 # fill the caches for this game, not counted
        cold = [fresh_process(name) for _ in range(max(1, args.cold))]
        cold_load = min(c["load_ms"] for c in cold)
        cold_import = min(c["import_ms"] for c in cold)
        total = min(c["total_ms"] for c in cold)
        total_cpu = min(c["total_cpu_ms"] for c in cold)
        phases(name)                                        # build the grammar in this process, not counted
        runs = [phases(name) for _ in range(max(1, args.loads))]
        med = {k: statistics.median(r[k] for r in runs) for k in ("parse", "check", "compile", "total", "cpu")}
        verdict = "under" if total < LOAD_FLOOR_MS else "OVER"
        verdict_cpu = "under" if total_cpu < LOAD_FLOOR_MS else "OVER"
        rows.append([name, f"{total:.1f}", f"{total_cpu:.1f}", f"{LOAD_FLOOR_MS:.0f} ({verdict}; CPU {verdict_cpu})",
                     f"{cold_import:.1f}", f"{cold_load:.1f}", f"{first['load_ms']:.0f}", f"{med['total']:.1f}",
                     f"{med['parse']:.1f}", f"{med['check']:.1f}", f"{med['compile']:.1f}", f"{med['cpu']:.1f}"])
    print(table(rows, ["game", "import + load ms", "(CPU ms)", "floor ms", "import", "cold load", "first ever ms",
                       "warm ms", "parse", "check", "compile", "warm CPU ms"]))
    print("\nimport + load: `import rulecraft.loader` then load() in a fresh process with the caches filled, best of the"
          "\nfresh processes (CPU ms: in that process's CPU time, the figure with other processes' share taken out);"
          "\nimport, cold load: the two parts of it (best of each); first ever: load() with no cache at all (empty TMPDIR and XDG_CACHE_HOME);"
          "\nwarm: median of in-process parse + check + compile as after an edit, by phase (warm CPU: in CPU time).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
