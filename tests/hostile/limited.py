"""Run the command line on hostile input in a subprocess held to the limits of issue 27.

Each case of tests/hostile runs `rulecraft` with at most CPU_SECONDS of CPU and MEMORY bytes of
address space (`resource.setrlimit` before the program starts), and a wall-clock timeout for
what blocks without using CPU (a FIFO): a regression fails its test instead of hanging CI.
When the fix holds, a case takes a second or two.
"""
from __future__ import annotations

import resource
import subprocess
import sys

CPU_SECONDS = 10            # issue 27's line between slow and endless
MEMORY = 2 << 30            # 2 GB
WALL_SECONDS = 30


def _limit(cpu: int = CPU_SECONDS, memory: int | None = MEMORY):
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    if memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def rulecraft(*argv, cwd, input: str | bytes | None = None, env=None, wall: float = WALL_SECONDS,
              cpu: int = CPU_SECONDS, memory: int | None = MEMORY):
    """`rulecraft *argv` under the limits: (exit status, stdout, stderr). A run killed by a limit
    gets a negative status (the signal); one that outlives `wall` is killed and reported as 'hang'."""
    text = not isinstance(input, bytes)
    try:
        done = subprocess.run([sys.executable, "-m", "rulecraft", *map(str, argv)], cwd=cwd, input=input,
                              capture_output=True, text=text, env=env, preexec_fn=lambda: _limit(cpu, memory),
                              timeout=wall)
    except subprocess.TimeoutExpired:
        return "hang", "", ""
    out, err = done.stdout, done.stderr
    if not text:
        out, err = out.decode(errors="replace"), err.decode(errors="replace")
    return done.returncode, out, err


def refused(result, *words: str) -> str:
    """Assert `result` is a refusal: exit 1, one sentence on stderr naming `words`, no internal error."""
    code, _out, err = result
    assert code == 1, result
    assert "Traceback" not in err and "internal error" not in err, err
    for w in words:
        assert w in err, (w, err)
    return err
