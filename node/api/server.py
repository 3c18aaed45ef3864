"""The local client API: WebSocket + JSON on 127.0.0.1, serving one :class:`NodeService`.

Any client (the terminal client, a bot, a browser page) hosts, joins and plays through the
requests documented in ``spec/client-api.md``; it never handles keys or envelopes. Each
request is checked in full (JSON, canonical values, op, field types) before the service
sees it, so bad input gets an error response and changes nothing. Limits on request size,
request rate, requests in flight and connections keep one client from starving the node;
a token (see :mod:`node.api.token`) keeps other local users and web pages off the seat.
Connections are admitted the moment they are accepted (:class:`_Server`): until they present
the token they hold a slot of a small budget that gives way to newcomers, so nothing a local
process opens can lock the token holder out. Every request the node cannot serve gets a typed
refusal (:func:`node.api.ops.refusal`); ``internal`` is left for bugs.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, WebSocketRequest, wrap_server_stream

from fairtable.node.admission import Budget, Ticket, serve
from fairtable.node.api.jsonvalues import RequestError, bad_request, dumps, parse
from fairtable.node.api.login import Logins
from fairtable.node.api.ops import OPS, Op, refusal, table_event
from fairtable.node.api.web import BadRequest, Prefixed, Watched, Web, foreign_origin, read_head, refuse_plainly
from fairtable.node.loglimit import LogLimiter
from fairtable.node.ratelimit import TokenBucket
from fairtable.node.service import NodeService

API_VERSION = 1
HOST = "127.0.0.1"
DEFAULT_PORT = 7467
"""The port clients try when told none (``fairtable node --api-port`` defaults to it)."""
MAX_ID = (1 << 53) - 1
"""Request ids are integers a JavaScript number holds exactly."""
POLICY_VIOLATION, GOING_AWAY, INTERNAL_ERROR, TRY_AGAIN_LATER = 1008, 1001, 1011, 1013
CLOSE_SECONDS = 5.0

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ApiLimits:
    """What one client may ask of the node; each limit is documented in ``spec/client-api.md``."""

    max_request: int = 64 * 1024
    """Bytes of one request; a larger one gets a ``too_large`` error."""
    max_message: int = 1 << 20
    """Characters of one WebSocket message; a larger one closes the connection (1009)."""
    burst: int = 64
    """Requests a client may send at once before ``rate_limited`` errors start."""
    rate: float = 32.0
    """Requests per second a client may keep sending."""
    in_flight: int = 8
    """Requests of one connection being served at once; more get ``busy``."""
    connections: int = 32
    """Authenticated connections (every connection, on a node without a token)."""
    unauthenticated: int = 16
    """Connections not yet authenticated, from TCP accept on (the HTTP upgrade included)."""
    auth_seconds: float = 5.0
    """Time from TCP accept to authenticated (upgrade and token) before the connection is closed."""


async def serve_api(
    service: NodeService,
    port: int,
    token: str | None,
    *,
    limits: ApiLimits = ApiLimits(),
    logins: Logins | None = None,
    listeners: Sequence[trio.SocketListener] = (),
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the client API on 127.0.0.1:``port`` (0: any free port) until cancelled.

    ``token`` None serves without authentication, to loopback pages only. ``logins`` holds the
    one-time codes the browser page exchanges for the token. ``listeners`` already bound there
    (:func:`listen_api`) are served instead of binding ``port``. Reports the bound port through
    ``task_status``, so ``port = await nursery.start(serve_api, ...)``.
    """
    server = _Server(service, token, limits, logins or Logins())
    listeners = listeners or await listen_api(port)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.quiet.run)
        await nursery.start(serve, listeners, server.handle)
        task_status.started(listeners[0].socket.getsockname()[1])


async def listen_api(port: int) -> list[trio.SocketListener]:
    """Bind the client API's port on 127.0.0.1 (OSError when it is taken)."""
    return await trio.open_tcp_listeners(port, host=HOST)


class _Server:
    """Admission: connections are counted the moment they are accepted, in one synchronous step.

    Until it authenticates, a connection holds a slot of the small ``unauthenticated``
    budget, whose oldest connection gives way when it is full, so connections that never
    finish the upgrade or never present the token cannot keep the real client out. Once
    authenticated it needs one of the ``connections`` slots, or is refused.
    """

    def __init__(self, service: NodeService, token: str | None, limits: ApiLimits, logins: Logins) -> None:
        self.service = service
        self.web = Web(token, logins)
        self.token = token
        self.limits = limits
        self.unauthenticated = Budget(limits.unauthenticated, evictable=True)
        self.authenticated = Budget(limits.connections)
        self.quiet = LogLimiter(logger)

    async def handle(self, socket: trio.SocketStream) -> None:
        """One connection, from accept to close; nothing it does escapes as an exception.

        Its request head is read first: a WebSocket upgrade goes on to the API, any other
        request is served as plain HTTP (``node.api.web``), both within the same admission.
        A connection closed to make room before it was answered gets a 503; a client that
        goes away mid-reply is no error (one line at DEBUG)."""
        stream = Watched(socket)
        scope = trio.CancelScope()
        deadline = trio.current_time() + self.limits.auth_seconds
        access = _Access(self, scope, self.unauthenticated.admit(None, scope))
        try:
            with scope:
                with trio.move_on_at(deadline) as waiting:
                    head = await read_head(stream)
                if waiting.cancelled_caught:
                    self._slow(f"a connection did not send its request within {self.limits.auth_seconds:g} s")
                elif head is not None and not head.upgrade:
                    await self.web.serve(stream, head, deadline, access.authenticate_http)
                elif head is not None:
                    await self._websocket(Prefixed(stream, head.raw), access, deadline)
            if access.waiting.evicted:
                room = f"at most {self.limits.unauthenticated} client API connections may wait to authenticate"
                self.quiet.log(logging.WARNING, "client API", "connections closed to make room",
                               f"closed an unauthenticated connection to make room: {room}")
                if not stream.sent:
                    with trio.move_on_after(CLOSE_SECONDS):
                        await refuse_plainly(stream, 503, f"too many connections: {room}; retry")
        except BadRequest as exc:
            with trio.move_on_after(CLOSE_SECONDS):
                await refuse_plainly(stream, 400, f"not an HTTP request: {exc}")
        except Exception as exc:  # a bug must not take the API down; it is logged with its traceback
            if went_away(exc):
                logger.debug("client API: a client went away mid-reply (%s)", _reason(exc))
            else:
                self.quiet.log(logging.ERROR, "client API", "internal errors", f"a connection failed: {exc}", exc_info=True)
        finally:
            access.release()

    def _slow(self, what: str) -> None:
        self.quiet.log(logging.INFO, "client API", "connections closed", what)

    async def _websocket(self, stream: trio.abc.Stream, access: _Access, deadline: float) -> None:
        async with trio.open_nursery() as nursery:  # runs the WebSocket's reader task
            with trio.move_on_at(deadline) as upgrade:
                request = await wrap_server_stream(nursery, stream, max_message_size=self.limits.max_message)
            if upgrade.cancelled_caught:
                self._slow(f"a connection did not finish the WebSocket upgrade within {self.limits.auth_seconds:g} s")
            else:
                await self._upgrade(request, access, deadline)
            nursery.cancel_scope.cancel()

    async def _upgrade(self, request: WebSocketRequest, access: _Access, deadline: float) -> None:
        if self.token is None and foreign_origin(_origin(request.headers)):
            await request.reject(403, body=b"web pages from other origins need the API token")
            return
        presented = _bearer_token(request.headers)
        if presented is not None and not self.token_matches(presented):
            self.quiet.log(logging.WARNING, "client API", "wrong tokens", "a connection presented a wrong API token")
            await request.reject(401, body=b"wrong API token")
            return
        if (self.token is None or presented is not None) and not access.authenticate():
            await request.reject(503, body=b"too many client API connections")
            return
        websocket = await request.accept()
        try:
            await _Connection(self, websocket, access, deadline).run()
        finally:
            with trio.move_on_after(CLOSE_SECONDS):
                await websocket.aclose()

    def token_matches(self, token: str) -> bool:
        return hmac.compare_digest(token.encode("utf-8"), (self.token or "").encode("utf-8"))


GONE = (trio.BrokenResourceError, ConnectionError, ConnectionClosed)
"""What a client that closed or reset its connection makes a send or a receive raise."""


def went_away(exc: BaseException) -> bool:
    """Whether ``exc`` says only that the client went away, also from inside a nursery's group."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.split(GONE)[1] is None
    return isinstance(exc, GONE)


def _reason(exc: BaseException) -> str:
    """What the operating system said, for the one log line."""
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    cause = exc.__cause__ or exc.__context__
    return str(cause or exc) or type(exc).__name__


class _Access:
    """Which budget a connection counts against: ``waiting`` until authenticated, then ``admitted``."""

    def __init__(self, server: _Server, scope: trio.CancelScope, waiting: Ticket) -> None:
        self.server = server
        self.scope = scope
        self.waiting = waiting
        self.admitted: Ticket | None = None

    def authenticate(self) -> bool:
        """Move to an authenticated slot; False (staying unauthenticated) when all are taken."""
        if self.admitted is None:
            self.admitted = self.server.authenticated.try_admit(self.scope)
            if self.admitted is None:
                return False
            self.waiting.release()
        return True

    def authenticate_http(self, token: str | None) -> str | None:
        """For an HTTP request presenting ``token``: None once it holds an authenticated slot, else why not."""
        if self.server.token is not None and (token is None or not self.server.token_matches(token)):
            self.server.quiet.log(logging.WARNING, "client API", "wrong tokens", "an HTTP request presented no or a wrong API token")
            return "present the API token: Authorization: Bearer TOKEN"
        if not self.authenticate():
            return f"all {self.server.limits.connections} client API connections are taken; close one and retry"
        return None

    def release(self) -> None:
        self.waiting.release()
        if self.admitted is not None:
            self.admitted.release()


def _bearer_token(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, if the upgrade request has one."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer":
                return token.strip()
    return None


def _origin(headers: list[tuple[bytes, bytes]]) -> str | None:
    return next((value.decode("latin-1") for name, value in headers if name.lower() == b"origin"), None)


class _Connection:
    def __init__(self, server: _Server, websocket: WebSocketConnection, access: _Access, deadline: float) -> None:
        self.server = server
        self.service = server.service
        self.limits = server.limits
        self.websocket = websocket
        self.access = access
        self.deadline = deadline
        self.authenticated = access.admitted is not None
        self.subscribed = False
        self.in_flight = 0
        self.bucket = TokenBucket(server.limits.rate, server.limits.burst)

    async def run(self) -> None:
        await self.send({"api": API_VERSION, "auth": not self.authenticated, "event": "hello"})
        async with trio.open_nursery() as nursery:
            if not self.authenticated:
                nursery.start_soon(self._auth_deadline)
            try:
                while True:
                    await self._receive(await self.websocket.get_message(), nursery)
            except ConnectionClosed:
                nursery.cancel_scope.cancel()

    async def send(self, message: dict) -> None:
        await self.send_text(dumps(message))

    async def send_text(self, text: str) -> None:
        """Send one message; a closed connection is noticed by the reader, not here."""
        try:
            await self.websocket.send_message(text)
        except ConnectionClosed:
            pass

    async def close(self, code: int, reason: str) -> None:
        """Close, waiting a bounded time for the client's side of the closing handshake."""
        with trio.move_on_after(CLOSE_SECONDS):
            await self.websocket.aclose(code, reason)

    async def _error(self, request_id: int | None, error: RequestError) -> None:
        await self.send({"code": error.code, "error": str(error), "id": request_id, "ok": False})

    async def _receive(self, message: str | bytes, nursery: trio.Nursery) -> None:
        request_id = None
        allowed = self.bucket.take()  # every message counts, even one that is not a request
        try:
            if isinstance(message, bytes):
                raise bad_request("send JSON as text messages, not binary ones")
            size = len(message.encode("utf-8"))
            if size > self.limits.max_request:
                raise RequestError("too_large", f"a request is at most {self.limits.max_request} bytes, got {size}")
            request = parse(message)
            if not isinstance(request, dict):
                raise bad_request("a request is a JSON object")
            request_id = request.get("id")
            if not (isinstance(request_id, int) and not isinstance(request_id, bool) and 0 <= request_id <= MAX_ID):
                request_id = None
                raise bad_request(f"a request needs an 'id', an integer in 0..{MAX_ID}")
            if not allowed:
                raise RequestError("rate_limited", f"more than {self.limits.rate:g} requests a second; slow down")
            name = request.get("op")
            if not isinstance(name, str):
                raise bad_request("a request needs an 'op', a string")
            if not self.authenticated and name != "auth":
                raise RequestError("unauthorized", "present the API token first: {\"op\": \"auth\", \"token\": ...}")
            op = OPS.get(name)
            if op is None:
                raise RequestError("unknown_op", f"unknown op {name!r}; ops: {', '.join(OPS)}")
            args = op.arguments(request)
            if name == "auth":
                await self._authenticate(request_id, args["token"])
            elif name == "subscribe":
                await self.send({"id": request_id, "ok": True})
                if not self.subscribed:
                    self.subscribed = True
                    nursery.start_soon(self._push_updates)
            elif self.in_flight >= self.limits.in_flight:
                raise RequestError("busy", f"at most {self.limits.in_flight} requests in flight; wait for a response")
            else:
                self.in_flight += 1
                nursery.start_soon(self._serve, request_id, name, op, args)
        except RequestError as error:
            await self._error(request_id, error)

    async def _authenticate(self, request_id: int, token: str) -> None:
        if self.authenticated:
            await self.send({"id": request_id, "ok": True})
        elif not self.server.token_matches(token):
            self.server.quiet.log(logging.WARNING, "client API", "wrong tokens", "a connection presented a wrong API token")
            await self._error(request_id, RequestError("unauthorized", "wrong API token"))
            await self.close(POLICY_VIOLATION, "wrong API token")
        elif not self.access.authenticate():
            busy = f"all {self.limits.connections} client API connections are taken; close one and retry"
            await self._error(request_id, RequestError("too_many_connections", busy))
            await self.close(TRY_AGAIN_LATER, "too many client API connections")
        else:
            self.authenticated = True
            await self.send({"id": request_id, "ok": True})

    async def _auth_deadline(self) -> None:
        await trio.sleep_until(self.deadline)
        if not self.authenticated:
            await self.close(POLICY_VIOLATION, "no API token presented in time")

    async def _serve(self, request_id: int, name: str, op: Op, args: Mapping[str, Any]) -> None:
        """Serve one request; it stays in flight until its response is sent, so a client that
        does not read cannot pile up finished requests either."""
        assert op.handler is not None
        try:
            try:
                text = dumps({"id": request_id, "ok": True, **await op.handler(self.service, args)})
            except Exception as exc:
                error = refusal(exc)
                if error is None:
                    self.server.quiet.log(logging.ERROR, "client API", "internal errors",
                                          f"a {name} request failed: {exc}", exc_info=True)
                    error = RequestError("internal", "internal error in the node; see its log")
                text = dumps({"code": error.code, "error": str(error), "id": request_id, "ok": False})
            await self.send_text(text)
        finally:
            self.in_flight -= 1

    async def _push_updates(self) -> None:
        """Push every table update until the client goes; if the node's stream ends, close the connection."""
        try:
            async for update in self.service.updates():
                await self.websocket.send_message(dumps(table_event(update)))
        except ConnectionClosed:
            return
        except Exception as exc:
            self.server.quiet.log(logging.ERROR, "client API", "internal errors",
                                  f"the node's update stream failed: {exc}", exc_info=True)
            await self.close(INTERNAL_ERROR, "the node's update stream failed")
            return
        await self.close(GOING_AWAY, "the node stopped sending updates")
