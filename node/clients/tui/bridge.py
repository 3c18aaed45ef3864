"""The trio side of the terminal client: one client API connection, kept open across node restarts.

Textual runs on asyncio and the API client on trio, so trio runs as asyncio's guest
(:func:`trio.lowlevel.start_guest_run`) in the same thread, and a :class:`Portal` runs trio
functions for asyncio code. The app asks through :meth:`Bridge.call`; the bridge hands every
pushed ``table`` event, and every change of the connection, to the callbacks the app sets.
When the node goes away the bridge says so and dials again every ``retry`` seconds; once back
it subscribes again, so the node's current state of every table arrives first and the
screens carry on where they were.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from fairtable.node.clients.apiclient import ApiClient, ApiError, connect

EventHandler = Callable[[dict], None]
StatusHandler = Callable[[str | None], None]
"""None: connected; else why not, in words."""


class Portal:
    """Runs trio functions on behalf of asyncio code, inside one trio guest run."""

    def __init__(self) -> None:
        self._token: trio.lowlevel.TrioToken | None = None
        self._nursery: trio.Nursery | None = None

    async def serve(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Host the tasks :meth:`run` starts, until cancelled."""
        self._token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    def run(self, function: Callable[..., Awaitable[Any]], *args: Any) -> asyncio.Future[Any]:
        """Start ``function(*args)`` in trio; the future gets its result or its exception."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        assert self._token is not None and self._nursery is not None, "the portal is not serving"

        async def task() -> None:
            try:
                outcome = await function(*args)
            except Exception as exc:
                loop.call_soon_threadsafe(_settle, future, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, outcome, None)

        self._token.run_sync_soon(self._nursery.start_soon, task)
        return future


def _settle(future: asyncio.Future[Any], value: Any, error: Exception | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


def guest_run(main: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
    """Run ``main`` as asyncio's trio guest; the future completes (with trio's outcome) when it returns."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()
    trio.lowlevel.start_guest_run(main, run_sync_soon_threadsafe=loop.call_soon_threadsafe,
                                  done_callback=lambda outcome: loop.call_soon_threadsafe(_settle, done, outcome, None),
                                  host_uses_signal_set_wakeup_fd=True)
    return done


class Bridge:
    """The app's connection to its node; :meth:`run` in trio, :meth:`call` from asyncio."""

    def __init__(self, url: str, token: str | None, portal: Portal, retry: float = 1.0) -> None:
        self.url = url
        self.token = token
        self.portal = portal
        self.retry = retry
        self.on_event: EventHandler = lambda event: None
        self.on_status: StatusHandler = lambda status: None
        self.client: ApiClient | None = None

    async def run(self) -> None:
        """Keep the connection (dialling again whenever it drops) until cancelled."""
        while True:
            try:
                async with connect(self.url, self.token) as client:
                    await client.request("subscribe")
                    self.client = client
                    self.on_status(None)
                    async for event in client.events:
                        self.on_event(event)
                why = "the node closed the connection"
            except ApiError as exc:
                why = str(exc)
            self.client = None
            self.on_status(f"{why}; trying again (the node keeps your seat)")
            await trio.sleep(self.retry)

    def call(self, op: str, **fields: Any) -> asyncio.Future[dict]:
        """One request; the future holds the response, or the :class:`ApiError` refusing it."""
        return self.portal.run(self._request, op, fields)

    async def _request(self, op: str, fields: dict) -> dict:
        if self.client is None:
            raise ApiError("closed", "not connected to the node right now; trying again")
        return await self.client.request(op, **fields)
