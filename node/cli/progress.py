"""Progress bars for long commands (verifying many files, selfplay, benches), on a terminal only.

The bar goes to stderr and only when stderr is a terminal, so piped or redirected output is
exactly what it was; it disappears when the work is done. ``rich`` draws it: a well-kept
library that measures the terminal, redraws in place and keeps lines printed meanwhile
above the bar. It redraws only when the work advances (no refresh thread), so a benchmark's
timing is not disturbed by a drawing thread.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

Advance = Callable[[], None]


@contextmanager
def progress(total: int, what: str) -> Iterator[Advance]:
    """A function to call once per item done; a bar of ``total`` items while on a terminal."""
    if not sys.stderr.isatty() or total < 2:
        yield lambda: None
        return
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    # Lines printed meanwhile go above the bar when stdout is the same terminal; to their file otherwise.
    with Progress(*columns, console=Console(stderr=True), transient=True, auto_refresh=False,
                  redirect_stdout=sys.stdout.isatty(), redirect_stderr=False) as bar:
        task = bar.add_task(what, total=total)

        def advance() -> None:
            bar.advance(task)
            bar.refresh()

        yield advance
