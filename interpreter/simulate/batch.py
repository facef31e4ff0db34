"""Playing many games at once: in this process, in K worker processes, or on a Ray cluster.

Results come back in the order of the jobs whatever the workers (`imap` keeps it), so a run's
figures depend only on its seed. Workers load the rules from the file path each job carries (a Program
holds compiled code and is not sent between processes). Ray is used as an existing engine for
more than one machine (`ray.util.multiprocessing.Pool`), never a home-made cluster.
"""
from __future__ import annotations

import gc
import os
import sys
from typing import Callable

from ..diagnostics import UserError
from .games import GameResult, Job, play

CHUNKS_PER_WORKER = 16    # a run is cut into about this many chunks per worker: few round trips, a smooth bar


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def run(jobs: list[Job], workers: int = 1, backend: str = "processes",
        on_done: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play every job; the results in the jobs' order. `on_done(k)` is called as games finish (k: how many so
    far; in this process, after every 1/256 of the run)."""
    if workers < 1:
        raise UserError("--workers must be at least 1")
    if backend == "ray":
        pool = _ray_pool(workers)
    elif workers == 1 or len(jobs) == 1:
        pool = None
    else:
        import multiprocessing
        pool = multiprocessing.get_context(_start_method()).Pool(workers)
    results: list[GameResult] = []
    try:
        if pool is None:
            return _here(jobs, on_done)
        chunk = max(1, min(256, len(jobs) // (workers * CHUNKS_PER_WORKER)))
        for result in pool.imap(play, jobs, chunksize=chunk):
            results.append(result)
            if on_done is not None:
                on_done(len(results))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return results                  # imap keeps the jobs' order, whichever worker finished first


def _here(jobs: list[Job], on_done) -> list[GameResult]:
    """The games played in this process, told every 1/256 of the run (a game of tic-tac-toe costs 30 µs).
    The cycle collector is off meanwhile, as for a load (loader.load_file): a batch keeps every game's
    result and makes no cyclic garbage (games random, first, greedy and ISMCTS, and games that fail,
    leave none: tests/test_batch_garbage.py), so its passes found nothing and cost 1.2 ms in 2000
    games of tic-tac-toe (4 % of a `simulate` of 2000)."""
    results: list[GameResult] = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        step = max(1, len(jobs) // 256)
        for k in range(0, len(jobs), step):
            results += map(play, jobs[k:k + step])
            if on_done is not None:
                on_done(len(results))
    finally:
        if enabled:
            gc.enable()
    return results


def _start_method() -> str:
    """fork where the system has it (workers start at once, sharing what is loaded), else spawn."""
    import multiprocessing
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def _ray_pool(workers: int):
    try:
        import ray
        from ray.util.multiprocessing import Pool
    except ImportError:
        raise UserError("--backend ray needs Ray: pip install 'rulecraft[ray]'") from None
    if not ray.is_initialized():
        # RAY_ADDRESS names a cluster; else a private local Ray in a temp folder of its own, so a cluster
        # file another process left in Ray's default folder is never joined (with num_cpus, Ray refuses)
        import logging
        address = os.environ.get("RAY_ADDRESS")
        if address:
            print(f"simulate: Ray: the cluster RAY_ADDRESS names ({address})", file=sys.stderr)
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        else:
            import atexit
            import shutil
            import tempfile
            folder = tempfile.mkdtemp(prefix="rulecraft-ray-")

            def stop():
                ray.shutdown()
                shutil.rmtree(folder, True)
            atexit.register(stop)
            print(f"simulate: Ray: a private local Ray with {workers} CPUs (in {folder})", file=sys.stderr)
            ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR, _temp_dir=folder)
    return Pool(processes=workers)
