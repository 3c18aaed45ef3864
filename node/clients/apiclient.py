"""A client of the local client API, for the bundled terminal client.

It speaks only the documented WebSocket protocol (``spec/client-api.md``), as any third
party would: requests are answered by ``id`` while ``table`` events arrive in between,
so one reader task sorts the messages into waiting requests and the event channel.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, HandshakeError, WebSocketConnection, connect_websocket_url

API_VERSION = 1
MAX_MESSAGE = 64 << 20
"""Transcripts come in one message; allow large ones."""
REFUSALS = frozenset({"refused", "not_found", "illegal", "storage"})
"""Error codes of a request the node refused (``spec/client-api.md``); the connection stays usable."""
REJECTIONS = {401: "unauthorized", 503: "too_many_connections"}
"""Error codes for the HTTP statuses with which a node refuses the upgrade (``spec/client-api.md``)."""
CONNECT_SECONDS = 5.0
"""Time for the connection, the upgrade and the node's hello: a wrong port fails fast."""


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
    """An authenticated connection to the API at ``url`` (``ws://127.0.0.1:PORT``).

    The token goes with the upgrade request, so the node counts the connection as its
    client's from the start; a node asking for it again in its hello gets it once more.
    Connecting (up to the node's hello) takes at most :data:`CONNECT_SECONDS`; any failure
    is an :class:`ApiError` saying why.
    """
    opened = False
    try:
        async with helper_tasks() as nursery:
            websocket, asks_token = await _open(nursery, url, token)
            opened = True
            try:
                client = ApiClient(websocket)
                nursery.start_soon(client._read)
                if asks_token:
                    await client.request("auth", token=token)
                yield client
            finally:
                with trio.move_on_after(CONNECT_SECONDS):
                    await websocket.aclose()
    except (ConnectionRejected, BaseExceptionGroup) as exc:
        # A refused upgrade fails the connection's reader task too, perhaps first.
        rejected = exc if isinstance(exc, ConnectionRejected) else _rejection(exc)
        if opened or rejected is None:
            raise
        raise _rejected(rejected) from None


def _rejection(group: BaseExceptionGroup) -> ConnectionRejected | None:
    """The refusal inside ``group``, if there is one."""
    for exc in group.exceptions:
        found = _rejection(exc) if isinstance(exc, BaseExceptionGroup) else exc
        if isinstance(found, ConnectionRejected):
            return found
    return None


def _rejected(rejected: ConnectionRejected) -> ApiError:
    reason = (rejected.body or b"").decode("utf-8", "replace") or f"HTTP status {rejected.status_code}"
    return ApiError(REJECTIONS.get(rejected.status_code, "refused"), f"the node refused the connection: {reason}")


async def _open(nursery: trio.Nursery, url: str, token: str | None) -> tuple[WebSocketConnection, bool]:
    """The upgraded connection and whether its hello still asks for the token; ApiError saying why not."""
    headers = [] if token is None else [(b"Authorization", f"Bearer {token}".encode("ascii"))]
    try:
        with trio.fail_after(CONNECT_SECONDS):
            websocket = await connect_websocket_url(nursery, url, extra_headers=headers, max_message_size=MAX_MESSAGE)
            return websocket, await _hello(websocket, token)
    except trio.TooSlowError:
        raise ApiError("timeout", f"no client API answered within {CONNECT_SECONDS:g} s") from None
    except ConnectionRejected as rejected:
        raise _rejected(rejected) from None
    except (OSError, HandshakeError, ConnectionClosed) as exc:
        raise ApiError("unreachable", _reason(exc)) from None
    except ValueError as exc:
        raise ApiError("bad_url", f"not a ws:// URL: {exc}") from None


def _reason(exc: BaseException) -> str:
    """Words for why a connection failed: the first system error inside, if there is one."""
    seen: list[BaseException] = [exc]
    while seen:
        current = seen.pop(0)
        if isinstance(current, OSError) and current.errno:
            return os.strerror(current.errno)
        if isinstance(current, ConnectionClosed):
            return "the connection was closed before the node's hello (is this a client API port?)"
        if isinstance(current, BaseExceptionGroup):
            seen.extend(current.exceptions)
        seen.extend(cause for cause in (current.__cause__, current.__context__) if cause is not None)
    return str(exc) or type(exc).__name__


async def _hello(websocket: WebSocketConnection, token: str | None) -> bool:
    """Read the node's hello; whether it still asks for the token."""
    text: str | bytes = ""
    with trio.move_on_after(CONNECT_SECONDS) as waiting:
        text = await websocket.get_message()
    if waiting.cancelled_caught:
        raise ApiError("timeout", f"no hello from the node within {CONNECT_SECONDS:g} s")
    try:
        hello = json.loads(text)
    except ValueError:
        hello = None
    if not isinstance(hello, dict) or hello.get("event") != "hello" or hello.get("api") != API_VERSION:
        raise ApiError("version", f"this is not a fairtable client API (version {API_VERSION}): its first message is not its hello")
    if hello.get("auth") and token is None:
        raise ApiError("unauthorized", "the node requires its API token (the api-token file in its data directory)")
    return bool(hello.get("auth"))


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
