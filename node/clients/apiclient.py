"""A client of the local client API, for the bundled terminal client.

It speaks only the documented WebSocket protocol (``spec/client-api.md``), as any third
party would: requests are answered by ``id`` while ``table`` events arrive in between,
so one reader task sorts the messages into waiting requests and the event channel.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, open_websocket_url

API_VERSION = 1
MAX_MESSAGE = 64 << 20
"""Transcripts come in one message; allow large ones."""


class ApiError(Exception):
    """A request the node refused, or a connection that failed; ``code`` as in the spec."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class ApiClient:
    """One open connection: :meth:`request` for ops, :attr:`events` for pushed ``table`` events."""

    def __init__(self, websocket: WebSocketConnection) -> None:
        self.websocket = websocket
        self._next_id = 1
        self._waiting: dict[int, trio.MemorySendChannel[dict]] = {}
        self._events_in, self.events = trio.open_memory_channel[dict](math.inf)
        self._closed: str | None = None

    async def request(self, op: str, **fields: Any) -> dict:
        """Send one request and return its successful response; :class:`ApiError` otherwise."""
        if self._closed is not None:
            raise ApiError("closed", self._closed)
        request_id, self._next_id = self._next_id, self._next_id + 1
        send, receive = trio.open_memory_channel[dict](1)
        self._waiting[request_id] = send
        try:
            await self.websocket.send_message(json.dumps({"id": request_id, "op": op, **fields}))
            response = await receive.receive()
        except (ConnectionClosed, trio.EndOfChannel):
            raise ApiError("closed", self._closed or "the node closed the connection") from None
        finally:
            del self._waiting[request_id]
        if not response.get("ok"):
            raise ApiError(str(response.get("code")), str(response.get("error")))
        return response

    async def _read(self) -> None:
        try:
            while True:
                message = json.loads(await self.websocket.get_message())
                if not isinstance(message, dict):
                    continue
                if isinstance(message.get("id"), int) and message["id"] in self._waiting:
                    self._waiting[message["id"]].send_nowait(message)
                elif message.get("event") == "table":
                    self._events_in.send_nowait(message)
        except ConnectionClosed as closed:
            reason = closed.reason
            detail = f" ({reason.code} {reason.reason or reason.name})" if reason else ""
            self._closed = f"the node closed the connection{detail}"
        except ValueError:
            self._closed = "the node sent a message that is not JSON"
        finally:
            self._events_in.close()
            for waiting in self._waiting.values():
                waiting.close()


@asynccontextmanager
async def connect(url: str, token: str | None) -> AsyncIterator[ApiClient]:
    """An authenticated connection to the API at ``url`` (``ws://127.0.0.1:PORT``)."""
    async with open_websocket_url(url, max_message_size=MAX_MESSAGE) as websocket:
        hello = json.loads(await websocket.get_message())
        if hello.get("event") != "hello" or hello.get("api") != API_VERSION:
            raise ApiError("version", f"expected a client API version {API_VERSION} hello, got {hello!r}")
        if hello.get("auth") and token is None:
            raise ApiError("unauthorized", "the node requires its API token (the api-token file in its data directory)")
        client = ApiClient(websocket)
        async with helper_tasks() as nursery:
            nursery.start_soon(client._read)
            if hello.get("auth"):
                await client.request("auth", token=token)
            yield client


@asynccontextmanager
async def helper_tasks() -> AsyncIterator[trio.Nursery]:
    """A nursery for helper tasks that never fail, cancelled when the body ends.

    The body's own error (a refusal, Ctrl-C) comes out as itself rather than inside an
    exception group, so callers catch it with a plain ``except``.
    """
    try:
        async with trio.open_nursery() as nursery:
            yield nursery
            nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
