"""Table updates for local clients: each subscriber gets the latest state of every changed table.

Sources are functions that build a :class:`TableUpdate` on demand, so a node with no client
builds none, and a slow client is sent the newest state of each table, not a backlog.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import trio

from fairtable.node.service import TableUpdate


@dataclass
class _Subscriber:
    dirty: dict[str, None]
    event: trio.Event = field(default_factory=trio.Event)


class Updates:
    def __init__(self) -> None:
        self._sources: dict[str, Callable[[], TableUpdate]] = {}
        self._subscribers: list[_Subscriber] = []
        self._touched = trio.Event()

    def set(self, key: str, source: Callable[[], TableUpdate]) -> None:
        """``key`` (a lobby id) is now described by ``source``; subscribers get it."""
        self._sources[key] = source
        self.touch(key)

    def touch(self, key: str) -> None:
        for subscriber in self._subscribers:
            subscriber.dirty[key] = None
            subscriber.event.set()
        self.wake()

    def wake(self) -> None:
        """Wake whoever waits in :meth:`changed` for something that is no table (a tournament's progress)."""
        self._touched.set()
        self._touched = trio.Event()

    def current(self) -> tuple[TableUpdate, ...]:
        """Every table's current update, in the order the tables appeared."""
        return tuple(source() for source in self._sources.values())

    def next_change(self) -> trio.Event:
        """An event set at the next change: take it before looking, wait on it after, and no change slips between."""
        return self._touched

    async def changed(self) -> None:
        """Return at the next change of any table (for waiting on a condition without polling)."""
        await self._touched.wait()

    async def stream(self) -> AsyncIterator[TableUpdate]:
        """Every table's current update first, then each change as it happens."""
        subscriber = _Subscriber(dict.fromkeys(self._sources))
        self._subscribers.append(subscriber)
        try:
            while True:
                while subscriber.dirty:
                    key = next(iter(subscriber.dirty))
                    del subscriber.dirty[key]
                    yield self._sources[key]()
                await subscriber.event.wait()
                subscriber.event = trio.Event()
        finally:
            self._subscribers.remove(subscriber)
