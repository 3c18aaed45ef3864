"""The test cable: it tells who dials, and a partition cuts only the dialers it picks."""

from __future__ import annotations

import os
import sys
from functools import partial

import pytest
import trio

from tests.node.cables import Cable, dialing_process


async def _echo(stream: trio.SocketStream) -> None:
    try:
        while data := await stream.receive_some(1024):
            await stream.send_all(data)
    except trio.BrokenResourceError:
        pass


async def _talks(stream: trio.SocketStream) -> bool:
    """Whether a round trip through the cable still works."""
    try:
        await stream.send_all(b"ping")
        with trio.fail_after(5):  # a guard against hanging, not a timing assertion
            return await stream.receive_some(1024) == b"ping"
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        return False


async def _dial(port: int, names: dict[int, str], name: str) -> trio.SocketStream:
    """Connect from a port named ``name`` before the cable can ask who it is."""
    sock = trio.socket.socket()
    await sock.bind(("127.0.0.1", 0))
    names[sock.getsockname()[1]] = name
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


async def test_refusing_one_dialer_closes_its_connections_and_keeps_the_others():
    names: dict[int, str] = {}
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, _echo, 0, host="127.0.0.1"))
        cable = Cable(listeners[0].socket.getsockname()[1], lambda port, cable_port: names.get(port))
        await nursery.start(cable.serve)
        streams = {name: await _dial(cable.port, names, name) for name in ("a", "b")}
        assert await _talks(streams["a"]) and await _talks(streams["b"])
        cable.refuse(lambda who: who == "a")
        assert not await _talks(streams["a"])
        assert await _talks(streams["b"])
        assert not await _talks(await _dial(cable.port, names, "a"))  # refused until mended
        cable.mend()
        assert await _talks(await _dial(cable.port, names, "a"))
        nursery.cancel_scope.cancel()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_the_dialing_process_is_found_by_its_socket():
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, _echo, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        local = stream.socket.getsockname()[1]
        assert dialing_process(local, port, [os.getppid(), os.getpid()]) == os.getpid()
        assert dialing_process(local, port, [os.getppid()]) is None
        nursery.cancel_scope.cancel()
