"""Keeping a relay reservation for as long as a node runs: when to try again, and when to renew.

A node's relays come and go (a relay restarts, is down when the node starts, the route
changes), and a reservation ends at a term the relay sets. :func:`keep` looks at one relay's
reservation every :attr:`Schedule.every` seconds (no traffic), makes it again once it is gone
or a third of its term is left, and tries a relay that does not answer again after a doubling
wait, never longer than :attr:`Schedule.cap`, for as long as it runs. The libp2p calls are
passed in (:class:`~fairtable.node.peer.p2p.P2PHost`'s), so the timing is tested on a mock clock.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import trio

from fairtable.node.peer.errors import ChannelError

UNTOLD_TERM = 900.0
"""The term assumed for a reservation whose relay named no end (it is renewed after two thirds of it)."""

Term = tuple[float, float]
"""When a reservation was made and when it ends, in the clock's seconds."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Schedule:
    """How often a reservation is looked at, and the longest wait between tries at a relay that does not answer."""

    every: float = 5.0
    cap: float = 60.0

    def retry_after(self, failures: int) -> float:
        """The wait after ``failures`` (at least 1) failed tries in a row: ``every``, doubling, at most ``cap``."""
        return min(self.cap, self.every * 2 ** (failures - 1))

    def due(self, now: float, term: Term | None) -> bool:
        """Whether the reservation must be made now: none is held (``term`` None: never made, or its
        relay connection ended), or less than a third of its term is left (and at least two looks)."""
        if term is None:
            return True
        made, ends = term
        return ends - now < max((ends - made) / 3, 2 * self.every)


RESERVATIONS = Schedule()
"""A node's schedule: a look every 5 s; a relay that does not answer is tried again at most a minute apart."""


async def keep(relay: str, reserve: Callable[[str], Awaitable[None]], term: Callable[[str], Term | None],
               clock: Callable[[], float], schedule: Schedule) -> None:
    """Hold the reservation at ``relay`` until cancelled; ``reserve`` raises :class:`ChannelError` when it cannot.

    The first look is ``schedule.every`` seconds in: the node has just tried itself.
    """
    failures = 0
    while True:
        await trio.sleep(schedule.retry_after(failures) if failures else schedule.every)
        if not schedule.due(clock(), term(relay)):
            continue
        try:
            await reserve(relay)
        except ChannelError as exc:
            failures += 1
            if failures == 1:
                log.warning("relay %s: no reservation, trying again (waits doubling from %g s to %g s): %s",
                            relay, schedule.every, schedule.cap, exc)
            continue
        if failures:
            log.info("relay %s: reservation held again", relay)
        failures = 0
