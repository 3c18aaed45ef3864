"""Clients that go away, and clients the API has no room for, as the client API meets them.

A browser that drops its connection while the node answers is no error: one line at DEBUG, no
traceback. A connection closed to make room before it was answered gets an HTTP 503 with the
reason, not silence until its own time-out.
"""

from __future__ import annotations

import logging
import socket
import struct

import pytest
import trio
from trio_websocket import ConnectionClosed

from fairtable.node.api.server import went_away
from tests.node.api.test_server import TOKEN, serve
from tests.node.fake_node import FakeNode

REQUESTS = {
    "page": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "replay": b"POST /replay HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN.encode()
              + b"\r\nContent-Length: 100000\r\n\r\n" + b"x" * 1000,
    "upgrade": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
}


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].strip("/"))


def reset_after(url: str, data: bytes) -> None:
    """Send ``data``, then drop the connection with a reset (as a closed browser tab may). Plain
    blocking calls: the server runs only after the reset, so it meets the reset every time."""
    with socket.create_connection(("127.0.0.1", port_of(url))) as client:
        client.sendall(data)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


@pytest.mark.parametrize("request_name", sorted(REQUESTS))
async def test_a_client_that_drops_the_connection_mid_reply_is_one_debug_line(nursery, caplog, request_name):
    caplog.set_level(logging.DEBUG, logger="fairtable")
    url = await serve(nursery, FakeNode(), TOKEN)
    for _ in range(3):
        reset_after(url, REQUESTS[request_name])
    with trio.fail_after(10):  # a guard, not a timing assertion: the server logs as it notices
        while sum("went away" in r.getMessage() for r in caplog.records) < 3:
            await trio.sleep(0.01)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    gone = [r for r in caplog.records if "went away" in r.getMessage()]
    assert all(r.levelno == logging.DEBUG and "\n" not in r.getMessage() for r in gone)


async def test_a_connection_closed_to_make_room_gets_a_503_with_the_reason(nursery):
    url = await serve(nursery, FakeNode(), TOKEN, unauthenticated=1)
    waiting = await trio.open_tcp_stream("127.0.0.1", port_of(url))
    await waiting.send_all(REQUESTS["upgrade"][:20])  # an upgrade not finished yet
    newcomer = await trio.open_tcp_stream("127.0.0.1", port_of(url))
    answer = b""
    with trio.fail_after(10):
        while chunk := await waiting.receive_some():
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert b"too many connections: at most 1 client API connections may wait to authenticate" in answer
    await newcomer.aclose()


async def test_an_upgrade_over_the_connection_limit_gets_a_503(nursery):
    url = await serve(nursery, FakeNode(), TOKEN, connections=1)
    bearer = b"Authorization: Bearer " + TOKEN.encode() + b"\r\n"
    upgrade = REQUESTS["upgrade"][:-2] + bearer + b"\r\n"
    admitted = await trio.open_tcp_stream("127.0.0.1", port_of(url))
    await admitted.send_all(upgrade)
    with trio.fail_after(10):
        assert (await admitted.receive_some()).startswith(b"HTTP/1.1 101 ")
        refused = await trio.open_tcp_stream("127.0.0.1", port_of(url))
        await refused.send_all(upgrade)
        answer = b""
        while chunk := await refused.receive_some():
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 503 ") and b"too many client API connections" in answer
    await admitted.aclose()


@pytest.mark.parametrize("error, gone", [
    (trio.BrokenResourceError(), True),
    (ConnectionResetError(104, "Connection reset by peer"), True),
    (BrokenPipeError(32, "Broken pipe"), True),
    (ExceptionGroup("nursery", [trio.BrokenResourceError(), ExceptionGroup("inner", [ConnectionAbortedError()])]), True),
    (ExceptionGroup("nursery", [trio.BrokenResourceError(), ValueError("a bug")]), False),
    (ConnectionClosed(None), True),
    (ValueError("a bug"), False),
    (trio.ClosedResourceError(), False),
])
def test_only_a_client_going_away_is_taken_for_one(error, gone):
    assert went_away(error) is gone
