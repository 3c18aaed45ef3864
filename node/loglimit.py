"""Log lines about connections, rate-limited and summarised, so a flood cannot flood the log.

An attacker opening 20,000 connections must not write 20,000 lines (nor spend the CPU to
format them). Each line names a *subject* (whom it is about, e.g. ``peer 192.0.2.7``) and a
*kind* (what happened, as a plural noun, e.g. ``connections refused``). Within a window, a
few lines per subject and kind, and a few dozen overall, are logged; the rest are counted,
and when the window ends one line per subject and kind says how many were left out:
``peer 192.0.2.7: 1,234 more connections refused in the last 10 s``. Summaries are limited
too; the rest are folded into one line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import trio

WINDOW = 10.0
PER_SUBJECT = 5
TOTAL = 40
SUMMARIES = 10
MAX_TRACKED = 1024
"""Subjects and kinds counted one by one in a window; beyond that they are only counted together."""


@dataclass
class _Count:
    level: int
    logged: int = 0
    left_out: int = 0


class LogLimiter:
    """Rate-limited logging to ``logger``; call :meth:`run` in a task to get summaries on time."""

    def __init__(self, logger: logging.Logger, *, window: float = WINDOW, per_subject: int = PER_SUBJECT,
                 total: int = TOTAL) -> None:
        self.logger = logger
        self.window = window
        self.per_subject = per_subject
        self.total = total
        self._start: float | None = None
        """When the current window began (set at first use, so this can be made outside trio)."""
        self._counts: dict[tuple[str, str], _Count] = {}
        self._logged = 0
        self._untracked = 0

    def log(self, level: int, subject: str, kind: str, message: str, *, exc_info: bool = False) -> None:
        """Log ``"{subject}: {message}"`` unless this window has had enough of them."""
        self.flush()
        if not self.logger.isEnabledFor(level):
            return
        count = self._counts.get((subject, kind))
        if count is None:
            if len(self._counts) >= MAX_TRACKED:
                self._untracked += 1
                return
            count = self._counts[subject, kind] = _Count(level)
        if count.logged >= self.per_subject or self._logged >= self.total:
            count.left_out += 1
            count.level = max(count.level, level)
            return
        count.logged += 1
        self._logged += 1
        self.logger.log(level, "%s: %s", subject, message, exc_info=exc_info)

    def flush(self) -> None:
        """End the window if it is over: log what was left out of it."""
        now = trio.current_time()
        if self._start is None:
            self._start = now
        if 0 <= now - self._start < self.window:  # (a clock that went back, e.g. another trio run's, ends it too)
            return
        left_out = sorted(((count.left_out, subject, kind, count.level)
                           for (subject, kind), count in self._counts.items() if count.left_out),
                          key=lambda item: (-item[0], item[1], item[2]))
        for number, subject, kind, level in left_out[:SUMMARIES]:
            self.logger.log(level, "%s: %s more %s in the last %s s", subject, f"{number:,}", kind, f"{self.window:g}")
        rest = sum(item[0] for item in left_out[SUMMARIES:]) + self._untracked
        if rest:
            others = len(left_out) - min(len(left_out), SUMMARIES)
            level = max((item[3] for item in left_out), default=logging.WARNING)
            self.logger.log(level, "%s more lines like these (about %s other subjects or more) left out in the last %s s",
                            f"{rest:,}", f"{others:,}", f"{self.window:g}")
        self._start = now
        self._counts.clear()
        self._logged = 0
        self._untracked = 0

    async def run(self) -> None:
        """Summarise every window, also when the lines stop coming (until cancelled)."""
        while True:
            self.flush()
            assert self._start is not None
            await trio.sleep_until(self._start + self.window)
