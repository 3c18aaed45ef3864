"""A TCP cable between two nodes that a test can cut and mend: a network partition on loopback.

A node advertises the cable's port instead of its own, so every connection its peers make to it
runs through the cable. ``cut()`` closes every connection through it and refuses new ones until
``mend()``; nothing else about the nodes changes.
"""

from __future__ import annotations

import trio


class Cable:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.connections = 0
        self._open = True
        self._cut = trio.Event()

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._relay, listeners)

    def cut(self) -> None:
        self._open = False
        self._cut.set()

    def mend(self) -> None:
        self._open = True
        self._cut = trio.Event()

    async def _relay(self, client: trio.SocketStream) -> None:
        if not self._open:
            await trio.aclose_forcefully(client)
            return
        try:
            server = await trio.open_tcp_stream("127.0.0.1", self.target_port)
        except OSError:
            await trio.aclose_forcefully(client)
            return
        self.connections += 1
        cut = self._cut
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_pipe, client, server, nursery.cancel_scope)
            nursery.start_soon(_pipe, server, client, nursery.cancel_scope)
            await cut.wait()
            nursery.cancel_scope.cancel()
        await trio.aclose_forcefully(client)
        await trio.aclose_forcefully(server)


async def _pipe(source: trio.SocketStream, sink: trio.SocketStream, scope: trio.CancelScope) -> None:
    try:
        while data := await source.receive_some(65536):
            await sink.send_all(data)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    scope.cancel()
