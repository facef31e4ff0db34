"""Progress on long work: a live bar with counts, elapsed time and time left, on a terminal only.

    with progress.bar("exploring", total=400) as bar:
        for ...:
            bar.describe("3 players, wheel=ascending")     # what is being done now
            bar.advance()                                  # one more unit done
            bar.print("ok  3 players — 20 games")          # a line of output, printed above the bar

At a terminal the bar is drawn on standard error and vanishes when the work is done, leaving
only the lines printed; `bar.print` goes through the sanitizer like every other line. When
standard error is not a terminal (a pipe, a CI log, a test) nothing is drawn, and `bar.print`
is plain `print`: the output is the same as without a bar, byte for byte.
"""
from __future__ import annotations

import contextlib
import sys

from . import terminal


class _Quiet:
    """The bar where none is drawn: counts are kept (for callers that read them), lines printed plainly."""

    def __init__(self, total):
        self.total = total
        self.done = 0

    def advance(self, n: int = 1) -> None:
        self.done += n

    def describe(self, description: str) -> None:
        pass

    def print(self, line: str = "", style: str | None = None) -> None:
        terminal.echo(line, style)


class _Live(_Quiet):
    def __init__(self, progress, task, total):
        super().__init__(total)
        self._progress = progress
        self._task = task

    def advance(self, n: int = 1) -> None:
        super().advance(n)
        self._progress.update(self._task, completed=min(self.done, self.total or self.done))

    def describe(self, description: str) -> None:
        self._progress.update(self._task, description=terminal.safe(description))

    def print(self, line: str = "", style: str | None = None) -> None:
        # above the bar, on the terminal standard output goes to
        out = terminal.console()
        if out.is_terminal:
            self._progress.console.print(terminal.text(line, style if out.color_system else None))
        else:
            print(line)


@contextlib.contextmanager
def bar(description: str, total: int | None, unit: str | None = None):
    """A progress bar for `total` units of work (None: unknown, a spinner), while the block runs;
    with `unit` ("games"), also how many are done a second."""
    err = terminal.console(stderr=True)
    if not err.is_terminal:
        yield _Quiet(total)
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    class Rate(ProgressColumn):
        def render(self, task):
            return terminal.text(f"{task.speed:.1f} {unit}/s" if task.speed else f"– {unit}/s")

    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn()] \
        + ([Rate()] if unit else []) + [TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn()]
    progress = Progress(*columns, console=err, transient=True, redirect_stdout=False, redirect_stderr=False)
    with progress:
        task = progress.add_task(terminal.safe(description), total=total)
        yield _Live(progress, task, total)
    sys.stderr.flush()
