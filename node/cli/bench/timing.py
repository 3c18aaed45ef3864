"""CPU-time measurement the benchmarks share: on a shared machine a wait for the CPU is not the work's."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def timed(function: Callable[[], T]) -> tuple[float, T]:
    """CPU seconds of this process for one call of ``function``, and its result."""
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def best_time(function: Callable[[], object], rounds: int) -> float:
    """The least CPU seconds of ``rounds`` calls of ``function``."""
    return min(timed(function)[0] for _ in range(rounds))
