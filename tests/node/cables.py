"""A TCP cable in front of a node that a test can cut and mend: a network partition on loopback.

A node advertises the cable's port instead of its own, so every connection its peers make to it
runs through the cable. ``cut()`` closes every connection through it and refuses new ones until
``mend()``; ``refuse(picked)`` does so only for the dialers ``picked`` picks, so a partition can keep
the links inside each group. Who dials is told by ``identify``, given the dialer's port and the
cable's (for node processes on this machine, :func:`dialing_process` finds the process behind it). Nothing
else about the nodes changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import trio

Dialer = Callable[[int, int], object]
"""Who dials, from the port a connection comes from and the cable's own port (None: unknown)."""


class Cable:
    def __init__(self, target_port: int, identify: Dialer = lambda port, cable: None) -> None:
        self.target_port = target_port
        self.port = 0
        self.connections = 0
        self._identify = identify
        self._refused: Callable[[object], bool] = lambda who: False
        self._links: dict[trio.CancelScope, object] = {}

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._relay, listeners)

    def cut(self) -> None:
        self.refuse(lambda who: True)

    def mend(self) -> None:
        self.refuse(lambda who: False)

    def refuse(self, refused: Callable[[object], bool]) -> None:
        """From now on refuse the dialers ``refused`` picks, and close their open connections."""
        self._refused = refused
        for scope, who in list(self._links.items()):
            if refused(who):
                scope.cancel()

    async def _relay(self, client: trio.SocketStream) -> None:
        who = self._identify(client.socket.getpeername()[1], self.port)
        if self._refused(who):
            await trio.aclose_forcefully(client)
            return
        try:
            server = await trio.open_tcp_stream("127.0.0.1", self.target_port)
        except OSError:
            await trio.aclose_forcefully(client)
            return
        self.connections += 1
        with trio.CancelScope() as scope:
            self._links[scope] = who
            if self._refused(who):  # refused while we dialled
                scope.cancel()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_pipe, client, server, nursery.cancel_scope)
                nursery.start_soon(_pipe, server, client, nursery.cancel_scope)
        del self._links[scope]
        await trio.aclose_forcefully(client)
        await trio.aclose_forcefully(server)


async def _pipe(source: trio.SocketStream, sink: trio.SocketStream, scope: trio.CancelScope) -> None:
    try:
        while data := await source.receive_some(65536):
            await sink.send_all(data)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    scope.cancel()


def dialing_process(port: int, cable_port: int, pids: Iterable[int]) -> int | None:
    """Which of ``pids`` holds the loopback TCP socket from ``port`` to ``cable_port`` (Linux ``/proc``), if any."""
    wanted = f"0100007F:{port:04X} 0100007F:{cable_port:04X}"
    try:
        lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return None
    inode = next((fields[9] for fields in map(str.split, lines) if f"{fields[1]} {fields[2]}" == wanted), None)
    if inode is None:
        return None
    link = f"socket:[{inode}]"
    for pid in pids:
        try:
            descriptors = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in descriptors:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == link:
                    return pid
            except OSError:
                continue
    return None
