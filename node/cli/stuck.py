"""``kill -USR1`` a running node and it logs every task and where each waits, then goes on.

A node that seems stuck (a table that never settles, an exit that never comes) can say where
without being stopped or restarted; the test harness asks a node that missed its deadline
before it kills it, so a rare hang leaves its own account in the log.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Iterator
from pathlib import Path

import trio

log = logging.getLogger(__name__)
TRIO = str(Path(trio.__file__).parent)
"""Frames inside trio itself (its nurseries, traps, epoll) are left out but the first, the call the task waits in."""


async def report_on_signal() -> None:
    """Log the task tree at every SIGUSR1, for as long as the node runs."""
    with trio.open_signal_receiver(signal.SIGUSR1) as signals:
        async for _ in signals:
            log.warning("tasks, as asked by SIGUSR1:\n%s", "\n".join(task_lines(trio.lowlevel.current_root_task())))


def task_lines(task: trio.lowlevel.Task | None, depth: int = 0) -> Iterator[str]:
    """One line per task, indented under its parent: its name and the frames it awaits in."""
    if task is None:
        return
    frames = list(task.iter_await_frames())
    inside = [frame.f_code.co_filename.startswith(TRIO) for frame, _ in frames]
    last = max((n for n, trio_frame in enumerate(inside) if not trio_frame), default=-1)
    ours = [f for f, trio_frame in zip(frames, inside) if not trio_frame] + frames[last + 1:last + 2]
    where = " > ".join(f"{frame.f_code.co_name} ({Path(frame.f_code.co_filename).name}:{line})" for frame, line in ours)
    yield f"{'  ' * depth}{task.name}: {where or 'running'}"
    for nursery in task.child_nurseries:
        for child in nursery.child_tasks:
            yield from task_lines(child, depth + 1)
