"""What else the machine did while a benchmark ran, and a way to make it busy on purpose.

A figure measured on a shared machine is only comparable with the load beside it: every
benchmark's output carries ``load`` (:class:`Load`), and ``--busy N`` runs it with ``N``
processes spinning on other cores (:func:`busy`), so "loaded" is a condition a reader can repeat.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event, Semaphore

STAT = Path("/proc/stat")


def _busy_ticks() -> int | None:
    """Clock ticks every core spent not idle since boot (Linux), or None where /proc/stat is missing."""
    try:
        fields = STAT.read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    ticks = [int(value) for value in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and iowait
    return sum(ticks[:8]) - idle


def _own_cpu() -> float:
    """CPU seconds of this process and of its children that have ended (user and system)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Load:
    """Measures, around a benchmark, how much of the machine's CPU went to other work."""

    def __enter__(self) -> Load:
        self._wall, self._ticks, self._cpu = time.monotonic(), _busy_ticks(), _own_cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        self._wall, self._ticks_end, self._cpu = time.monotonic() - self._wall, _busy_ticks(), _own_cpu() - self._cpu

    def figures(self) -> dict:
        """``cores``; ``load_1min`` (the kernel's run-queue average at the end); ``others_cpu_share``:
        the fraction of all cores' time that processes other than this benchmark used while it ran."""
        cores = os.cpu_count() or 1
        figures: dict = {"cores": cores, "load_1min": round(os.getloadavg()[0], 2)}
        if self._ticks is not None and self._ticks_end is not None and self._wall > 0:
            busy = (self._ticks_end - self._ticks) / os.sysconf("SC_CLK_TCK")
            figures["others_cpu_share"] = round(max(0.0, busy - self._cpu) / (self._wall * cores), 3)
        return figures


def _spin(started: Semaphore, stop: Event) -> None:
    started.release()
    while not stop.is_set():
        sum(range(10_000))


@contextmanager
def busy(processes: int) -> Iterator[None]:
    """Keep ``processes`` processes spinning on the CPU while the block runs: a loaded machine
    from its first line (the block starts once every spinner runs)."""
    if processes <= 0:
        yield
        return
    context = multiprocessing.get_context("spawn")
    started, stop = context.Semaphore(0), context.Event()
    spinners = [context.Process(target=_spin, args=(started, stop), daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    for _ in spinners:
        started.acquire()
    try:
        yield
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join()
