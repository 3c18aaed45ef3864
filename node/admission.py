"""Admitting connections: budgets of connection slots, and an accept loop that survives running out.

A :class:`Budget` counts connections of one kind (peers in their handshake, API clients
before they authenticate, ...) in groups (a source address, a key). Admission is a plain
synchronous call, so connections arriving at the same moment can never pass a limit
together. When a budget that may evict is full, the newcomer is admitted and the **oldest
connection of the fullest group** is closed: a flood of connections that never finish
their handshake delays a newcomer by at most one handshake, never locks it out, and a
group with fewer connections than the flooder's is never the one to give way.

:func:`serve` accepts connections like ``trio.serve_listeners``, but when the process is
out of descriptors (or memory) it logs once per window, makes room by evicting one
connection of the process's fullest *evictable* budget (descriptors are the process's, so
the client API's accept may close a stranger's peer handshake, and the other way round),
or backs off when there is none, and keeps accepting; nothing propagates out of it.
"""

from __future__ import annotations

import errno
import logging
import os
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import partial

import trio
import trio.lowlevel

from fairtable.node.loglimit import LogLimiter

MIN_BACKOFF = 0.01
MAX_BACKOFF = 1.0
OUT_OF_CAPACITY = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})


class Ticket:
    """One admitted connection, whose work runs inside :attr:`scope`; eviction cancels it."""

    def __init__(self, budget: Budget, group: Hashable, scope: trio.CancelScope) -> None:
        self.budget: Budget | None = budget
        self.group = group
        self.scope = scope
        self.evicted = False

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        if self.budget is not None:
            self.budget._remove(self)
            self.budget = None

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


class Budget:
    """At most ``total`` connections, at most ``per_group`` of one group (None: no limit).

    An ``evictable`` budget holds connections that may be closed when the process runs out
    of descriptors (:func:`make_room`).
    """

    def __init__(self, total: int | None, per_group: int | None = None, *, evictable: bool = False) -> None:
        self.total = total
        self.per_group = per_group
        self.count = 0
        self._groups: dict[Hashable, deque[Ticket]] = {}
        if evictable:
            _EVICTABLE.add(self)

    def admit(self, group: Hashable, scope: trio.CancelScope, *, per_group: int | None = None) -> Ticket:
        """A slot for a connection of ``group`` running in ``scope``, evicting the oldest of the
        fullest group if full. ``per_group`` overrides the budget's group limit for this group.
        """
        limit = self.per_group if per_group is None else per_group
        queue = self._groups.get(group)
        if queue and limit is not None and len(queue) >= limit:
            self._evict(queue[0])
        elif self.total is not None and self.count >= self.total:
            self.evict_one()
        return self._add(group, scope)

    def try_admit(self, scope: trio.CancelScope, group: Hashable = None) -> Ticket | None:
        """A slot for a connection of ``group`` if one is free; None when full (nobody is evicted)."""
        queue = self._groups.get(group)
        if (self.total is not None and self.count >= self.total) or (
                queue and self.per_group is not None and len(queue) >= self.per_group):
            return None
        return self._add(group, scope)

    def evict_one(self) -> Ticket | None:
        """Close the oldest connection of the fullest group to make room; None if there is none."""
        if not self._groups:
            return None
        fullest = max(self._groups.values(), key=len)
        victim = fullest[0]
        self._evict(victim)
        return victim

    def _add(self, group: Hashable, scope: trio.CancelScope) -> Ticket:
        ticket = Ticket(self, group, scope)
        self._groups.setdefault(group, deque()).append(ticket)
        self.count += 1
        return ticket

    def _evict(self, ticket: Ticket) -> None:
        ticket.evicted = True
        ticket.scope.cancel()
        ticket.release()

    def _remove(self, ticket: Ticket) -> None:
        queue = self._groups[ticket.group]
        queue.remove(ticket)
        if not queue:
            del self._groups[ticket.group]
        self.count -= 1


_EVICTABLE: weakref.WeakSet[Budget] = weakref.WeakSet()
_ACCEPT_FAILURES = LogLimiter(logging.getLogger("fairtable.node"), per_subject=1)
"""One limiter for every accept loop of the process: running out of descriptors is the process's condition."""


def make_room() -> Ticket | None:
    """Close one connection of the process's fullest evictable budget; None if none holds any."""
    fullest = max(_EVICTABLE, key=lambda budget: budget.count, default=None)
    return fullest.evict_one() if fullest is not None else None


async def serve(listeners: Sequence[trio.abc.Listener[trio.SocketStream]], handler: Callable[[trio.SocketStream], Awaitable[None]],
                *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Accept on every listener and run ``handler(stream)`` for each connection, closing the stream after."""
    async with trio.open_nursery() as nursery:
        for listener in listeners:
            nursery.start_soon(_accept, listener, nursery, handler)
        task_status.started()


async def _accept(listener: trio.abc.Listener[trio.SocketStream], nursery: trio.Nursery,
                  handler: Callable[[trio.SocketStream], Awaitable[None]]) -> None:
    delay = MIN_BACKOFF
    async with listener:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:
                reason = os.strerror(exc.errno) if exc.errno else str(exc)
                _ACCEPT_FAILURES.log(logging.ERROR, "node", "failed accepts",
                                     f"cannot accept a connection ({reason}); retrying with back-off")
                if exc.errno in OUT_OF_CAPACITY and make_room() is not None:
                    await trio.lowlevel.checkpoint()  # let the evicted connection close and free its descriptor
                else:
                    await trio.sleep(delay)
                    delay = min(2 * delay, MAX_BACKOFF)
                continue
            delay = MIN_BACKOFF
            nursery.start_soon(partial(_handle, stream, handler))


async def _handle(stream: trio.SocketStream, handler: Callable[[trio.SocketStream], Awaitable[None]]) -> None:
    try:
        await handler(stream)
    finally:
        await trio.aclose_forcefully(stream)
