"""Plain HTTP on the client API's port: the browser page and its assets, logins, transcript replays.

Every connection to the port starts with an HTTP request head, read here (``h11``). A WebSocket
upgrade goes on to the client API with the bytes read so far handed back (:class:`Prefixed`);
anything else is one HTTP request, answered and closed:

- ``GET /`` and the page's assets, shipped in the package (``node/web/``); ``GET /catalogue/GAME/FILE.json``,
  a game's own data files (card texts, fleets), so the page shows what the rules use; ``GET /catalogue/LANG.json``,
  every game text in one language (``en``, ``orig``), the words the page shows.
- ``POST /login``: a one-time code (:mod:`node.api.login`) exchanged for the API token.
- ``POST /replay``: a transcript file (``Authorization: Bearer TOKEN``) replayed by the verifier's
  session (:mod:`node.replay`), answered with every step's views, for the replay viewer.

The page is public: it holds no secret. Everything that is not (the token, the node's CPU) is
refused to requests whose ``Host`` is not a loopback name (a DNS-rebinding page) or whose
``Origin`` is another site's; replies carry headers that keep them out of other sites' frames.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import urlsplit

import h11
import trio

from fairtable.games import LANGUAGES, GameError, catalogue, registry
from fairtable.node.api.jsonvalues import dumps
from fairtable.node.api.login import Logins
from fairtable.node.replay import replay_chunks
from fairtable.protocol import ProtocolError

WEB = importlib.resources.files("fairtable.node") / "web"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".json": "application/json", ".txt": "text/plain; charset=utf-8"}
MAX_HEAD = 16 * 1024
"""Bytes of a request head (request line and headers)."""
MAX_LOGIN = 256
MAX_TRANSCRIPT = 16 << 20
"""Bytes of a transcript sent for replay."""
LINGER_SECONDS = 2.0
"""How long a finished answer waits for the client to stop sending before the connection closes."""
BODY_SECONDS = 30.0
"""Time to receive a request body once its head was accepted."""
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
SECURITY = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; frame-ancestors 'none'"),
    (b"connection", b"close"),
]
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class Head:
    """A request head, its parser (which goes on to read the body) and every byte read so far."""

    connection: h11.Connection
    request: h11.Request
    raw: bytes

    def header(self, name: bytes) -> str | None:
        for key, value in self.request.headers:
            if key == name:
                return value.decode("latin-1")
        return None

    @property
    def upgrade(self) -> bool:
        return (self.header(b"upgrade") or "").lower() == "websocket"


class BadRequest(Exception):
    """Bytes that are no HTTP request; the message says what was wrong."""


async def read_head(stream: trio.abc.ReceiveStream) -> Head | None:
    """The request head; None if the client closed first. :class:`BadRequest` for bytes that are no HTTP."""
    connection = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
    raw = bytearray()
    while True:
        try:
            event = connection.next_event()
        except h11.RemoteProtocolError as exc:
            raise BadRequest(str(exc)) from None
        if isinstance(event, h11.Request):
            return Head(connection, event, bytes(raw))
        if event is not h11.NEED_DATA:
            return None
        data = bytes(await stream.receive_some(4096))
        if not data:
            return None
        raw += data
        connection.receive_data(data)


async def refuse_plainly(stream: trio.abc.SendStream, status: int, text: str) -> None:
    """Answer ``status`` with ``text`` and close, without an HTTP parser (none is at hand, or it is past use)."""
    body = f"{text}\n".encode()
    phrase = HTTPStatus(status).phrase.encode()
    await stream.send_all(b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
                          b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (status, phrase, len(body), body))


class Watched(trio.abc.HalfCloseableStream):
    """A connection that remembers whether anything was sent on it: a connection closed to make
    room that got no answer yet is owed one (an HTTP refusal, not silence)."""

    def __init__(self, stream: trio.abc.HalfCloseableStream) -> None:
        self.stream = stream
        self.sent = False

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.stream.receive_some(max_bytes)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sent = True
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.stream.send_eof()

    async def aclose(self) -> None:
        await self.stream.aclose()


class Prefixed(trio.abc.Stream):
    """A stream whose first bytes are ``prefix`` (already read from ``stream``), then the rest of it."""

    def __init__(self, stream: trio.abc.Stream, prefix: bytes) -> None:
        self.stream = stream
        self.prefix = prefix

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self.prefix:
            size = len(self.prefix) if max_bytes is None else max_bytes
            data, self.prefix = self.prefix[:size], self.prefix[size:]
            await trio.lowlevel.checkpoint()
            return data
        return await self.stream.receive_some(max_bytes)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        await self.stream.aclose()


class Reply(Exception):
    """A finished answer to send: status, body and its type."""

    def __init__(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.status = status
        self.body = body
        self.content_type = content_type


def _error(status: int, message: str) -> Reply:
    return Reply(status, dumps({"error": message}).encode())


class Web:
    """Serves the HTTP requests of the client API's port. ``authenticate(token)`` checks a
    presented token and takes an authenticated connection slot (False: wrong token or no slot)."""

    def __init__(self, token: str | None, logins: Logins) -> None:
        self.token = token
        self.logins = logins
        self.replays = trio.CapacityLimiter(1)
        """Replays run one at a time, off the event loop, so a long one never delays the tables."""

    async def serve(self, stream: trio.abc.HalfCloseableStream, head: Head, deadline: float,
                    authenticate: Callable[[str | None], str | None]) -> None:
        """Answer one request. ``deadline`` bounds what an unauthenticated request may take;
        ``authenticate(token)`` checks a presented token and takes an authenticated connection
        slot, returning None, or why the request may not go on."""
        try:
            reply = await self._route(head)(stream, head, deadline, authenticate)
        except Reply as refused:
            reply = refused
        await _send(stream, head.connection, reply)
        await _linger(stream)

    def _route(self, head: Head) -> Callable[..., Awaitable[Reply]]:
        method = head.request.method
        path = urlsplit(head.request.target.decode("latin-1")).path
        if not _loopback_host(head.header(b"host")):
            raise _error(403, "the page is served to http://127.0.0.1 and http://localhost only")
        if method == b"POST" and path in ("/login", "/replay"):
            if foreign_origin(head.header(b"origin")):
                raise _error(403, "requests from pages of other sites are refused")
            return self._login if path == "/login" else self._replay
        if method != b"GET":
            raise _error(405, f"{method.decode('latin-1')} {path} is not served here")
        return self._file

    async def _file(self, stream: trio.abc.Stream, head: Head, deadline: float, authenticate: Callable) -> Reply:
        path = urlsplit(head.request.target.decode("latin-1")).path
        parts = [part for part in path.split("/") if part] or ["index.html"]
        if not all(_NAME.fullmatch(part) for part in parts):
            return _error(404, f"no file {path}")
        if parts[0] == "catalogue":
            return _catalogue(parts[1:], path)
        file = WEB.joinpath(*parts)
        suffix = "." + parts[-1].rpartition(".")[2]
        if suffix not in TYPES or not file.is_file():
            return _error(404, f"no file {path}")
        return Reply(200, file.read_bytes(), TYPES[suffix])

    async def _login(self, stream: trio.abc.Stream, head: Head, deadline: float, authenticate: Callable) -> Reply:
        with trio.move_on_at(deadline):
            code = (await _body(stream, head, MAX_LOGIN)).decode("utf-8", "replace").strip()
            if self.token is None:
                return Reply(200, dumps({"token": None}).encode())
            if not self.logins.redeem(code):
                return _error(403, "this login link was used already, has expired or is wrong; ask the node for a new one")
            return Reply(200, dumps({"token": self.token}).encode())
        return _error(408, "the login code did not arrive in time")

    async def _replay(self, stream: trio.abc.Stream, head: Head, deadline: float, authenticate: Callable) -> Reply:
        scheme, _, presented = (head.header(b"authorization") or "").partition(" ")
        refused = authenticate(presented.strip() if scheme.lower() == "bearer" else None)
        if refused is not None:
            return _error(401 if "token" in refused else 503, refused)
        with trio.move_on_after(BODY_SECONDS):
            data = await _body(stream, head, MAX_TRANSCRIPT)
            try:
                return Reply(200, await trio.to_thread.run_sync(_replay_json, data, limiter=self.replays, abandon_on_cancel=True))
            except (ProtocolError, GameError) as exc:
                return _error(400, f"malformed transcript: {exc}")
        return _error(408, f"the transcript did not arrive within {BODY_SECONDS:g} s")


def _replay_json(data: bytes) -> bytes:
    return dumps(replay_chunks([data]).to_value(views=True)).encode()


def _catalogue(parts: list[str], path: str) -> Reply:
    """A game's data file, e.g. ``/catalogue/towers/cards.json``: the texts the rules use; or the
    message catalogue of a language, ``/catalogue/en.json`` (:mod:`fairtable.games.texts`)."""
    if len(parts) == 1 and parts[0].removesuffix(".json") in LANGUAGES:
        return Reply(200, dumps(catalogue(parts[0].removesuffix(".json"))).encode())
    if len(parts) != 2 or parts[0] not in registry.ids() or not parts[1].endswith(".json"):
        return _error(404, f"no file {path}")
    module = type(registry.get(parts[0])).__module__
    file = importlib.resources.files(module.rpartition(".")[0]) / parts[1]
    if not file.is_file():
        return _error(404, f"no file {path}")
    return Reply(200, file.read_bytes())


async def _body(stream: trio.abc.ReceiveStream, head: Head, limit: int) -> bytes:
    """The request body, at most ``limit`` bytes (:class:`Reply` 413 past it)."""
    connection, body = head.connection, bytearray()
    while True:
        try:
            event = connection.next_event()
        except h11.RemoteProtocolError as exc:
            raise _error(400, f"bad request body: {exc}") from None
        if isinstance(event, h11.Data):
            body += event.data
            if len(body) > limit:
                raise _error(413, f"the request body is more than {limit} bytes")
        elif isinstance(event, h11.EndOfMessage):
            return bytes(body)
        elif event is h11.NEED_DATA:
            data = bytes(await stream.receive_some(1 << 16))
            if not data:
                raise _error(400, "the request body ended early")
            connection.receive_data(data)
        else:
            raise _error(400, "the request body ended early")


async def _send(stream: trio.abc.SendStream, connection: h11.Connection, reply: Reply) -> None:
    headers = [(b"content-type", reply.content_type.encode()), (b"content-length", str(len(reply.body)).encode()), *SECURITY]
    try:
        data = connection.send(h11.Response(status_code=reply.status, headers=headers, reason=HTTPStatus(reply.status).phrase))
        data += connection.send(h11.Data(data=reply.body)) + connection.send(h11.EndOfMessage())
    except h11.LocalProtocolError:
        return
    await stream.send_all(data)


async def _linger(stream: trio.abc.HalfCloseableStream) -> None:
    """Let the client read the answer: stop sending, then drop what it still sends for a moment
    (closing with unread bytes, e.g. the body of a refused upload, resets the connection and
    loses the answer on the way)."""
    with trio.move_on_after(LINGER_SECONDS), contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await stream.send_eof()
        dropped = 0
        while dropped <= MAX_TRANSCRIPT and (data := await stream.receive_some(1 << 16)):
            dropped += len(data)


def _loopback_host(host: str | None) -> bool:
    try:
        return host is not None and urlsplit(f"//{host}").hostname in LOOPBACK
    except ValueError:
        return False


def foreign_origin(origin: str | None) -> bool:
    """Whether a browser says the request comes from a page outside this machine (``Origin: null``,
    a ``file:`` page, included)."""
    if origin is None:
        return False
    try:
        return urlsplit(origin).hostname not in LOOPBACK
    except ValueError:
        return True
