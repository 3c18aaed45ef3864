"""A flood of half-open handshakes and slow senders cannot keep a table's own peer out.

Two in-process nodes play towers while 300 sockets from ten other loopback addresses hold
connections to the guest's port: half-open handshakes (a valid first Noise message, then
silence), byte-a-second senders, and strangers that finish the handshake and then drip
their first message. Mid-game the link is cut (through a proxy the guest advertises); the
host's redial must get through the flood and the game must finish with one chain.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import trio

from fairtable.node.node import Node, NodeConfig
from fairtable.node.peer.framing import FrameReader, send_frame
from fairtable.node.peer.handshake import Handshake
from fairtable.node.peer.server import PeerLimits
from fairtable.node.table.live import Timing
from fairtable.node.tasks import race
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.nodes import eventually, free_port
from tests.paths import SPEC

ATTACKERS = [f"127.0.0.{n}" for n in range(2, 12)]
LIMITS = PeerLimits()
SOCKETS = 30 * len(ATTACKERS)


class Proxy:
    """Forwards connections to ``target``; :meth:`cut` drops every one of them at once."""

    def __init__(self) -> None:
        self.target = 0
        self.port = 0
        self.scopes: set[trio.CancelScope] = set()

    async def serve(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._forward, listeners)

    async def _forward(self, stream: trio.SocketStream) -> None:
        with trio.CancelScope() as scope:
            self.scopes.add(scope)
            async with stream, await trio.open_tcp_stream("127.0.0.1", self.target) as upstream:
                await race(lambda: _pipe(stream, upstream), lambda: _pipe(upstream, stream))
        self.scopes.discard(scope)

    def cut(self) -> None:
        for scope in self.scopes:
            scope.cancel()


async def _pipe(source: trio.SocketStream, sink: trio.SocketStream) -> None:
    try:
        while data := await source.receive_some():
            await sink.send_all(data)
    except trio.BrokenResourceError:
        pass


class Flood:
    """Sockets from the attacker addresses, each reconnecting a second after the node closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connections = 0

    async def _connect(self, source: str) -> trio.SocketStream:
        self.connections += 1
        return await trio.open_tcp_stream("127.0.0.1", self.port, local_address=source)

    async def _until_closed(self, stream: trio.SocketStream) -> None:
        try:
            while await stream.receive_some():
                pass
        except trio.BrokenResourceError:
            pass

    async def half_open(self, source: str) -> None:
        """A valid first handshake message, then silence."""
        while True:
            async with await self._connect(source) as stream:
                await send_frame(stream, Handshake(SecretKey.generate(), initiator=True).write())
                await self._until_closed(stream)
            await trio.sleep(1)

    async def byte_a_second(self, source: str) -> None:
        while True:
            async with await self._connect(source) as stream:
                message = len(b"x" * 32).to_bytes(2, "big") + bytes(32)
                try:
                    for byte in message:
                        await stream.send_all(bytes([byte]))
                        await trio.sleep(1)
                except trio.BrokenResourceError:
                    pass
            await trio.sleep(1)

    async def slow_first_message(self, source: str) -> None:
        """A whole handshake with a key no table here seats, then the first frame a byte a second."""
        while True:
            async with await self._connect(source) as stream:
                try:
                    handshake = Handshake(SecretKey.generate(), initiator=True)
                    reader = FrameReader(stream, 1024)
                    await send_frame(stream, handshake.write())
                    handshake.read(await reader.receive())
                    await send_frame(stream, handshake.write())
                    for byte in b"\x00\x40":
                        await stream.send_all(bytes([byte]))
                        await trio.sleep(1)
                    await self._until_closed(stream)
                except (trio.BrokenResourceError, Exception):
                    pass
            await trio.sleep(1)

    def start(self, nursery: trio.Nursery) -> None:
        for source in ATTACKERS:
            for _ in range(24):
                nursery.start_soon(self.half_open, source)
            for _ in range(4):
                nursery.start_soon(self.byte_a_second, source)
            for _ in range(2):
                nursery.start_soon(self.slow_first_message, source)


async def test_a_seat_reconnects_through_a_flood_and_the_game_finishes(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="fairtable.node")
    proxy = Proxy()
    base = NodeConfig(data=tmp_path, bot="random", heartbeat=0.2, timing=Timing(bot_delay=0.05), peer_limits=LIMITS)
    async with trio.open_nursery() as nursery:
        await nursery.start(proxy.serve)
        host = await nursery.start(Node(replace(base, data=tmp_path / "host", name="host")).run)
        proxy.target = free_port()
        guest = await nursery.start(Node(replace(base, data=tmp_path / "guest", name="guest", port=proxy.target,
                                                 advertise=f"127.0.0.1:{proxy.port}")).run)
        flood = Flood(proxy.target)
        flood.start(nursery)
        await eventually(lambda: flood.connections >= SOCKETS and guest._peers.pending.count >= LIMITS.pending)

        listing = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, listing.lobby_id)
        table_id = bytes.fromhex((await host.start(listing.lobby_id)).table)
        await eventually(lambda: table_id in guest.tables and len(guest.tables[table_id].envelopes) >= 3, 20)
        ours, theirs = host.tables[table_id], guest.tables[table_id]

        cut_at = max(len(ours.envelopes), len(theirs.envelopes))
        assert not ours.finished and guest._peers.pending.count > LIMITS.pending / 2  # the flood is on
        proxy.cut()
        # Both sides holding more than either had at the cut needs a link again (no third node relays).
        await eventually(lambda: len(ours.envelopes) == len(theirs.envelopes) > cut_at, 30)
        await eventually(lambda: ours.finished and theirs.finished and host.settled() and guest.settled(), 120)
        assert guest._peers.pending.count <= LIMITS.pending
        nursery.cancel_scope.cancel()

    assert ours.envelopes == theirs.envelopes
    assert verify(load((theirs.files.dir / "transcript.ftt").read_bytes())).valid
    about_attackers = [r for r in caplog.records if any(f"peer {a}" in r.getMessage() for a in ATTACKERS)]
    assert len(about_attackers) < flood.connections / 10
    assert not [r for r in caplog.records if "internal error" in r.getMessage()]


def test_the_spec_states_the_default_peer_limits():
    spec = (SPEC / "node.md").read_text()
    assert f"| handshake deadline | {LIMITS.handshake_seconds:g} s from accept |" in spec
    assert f"| first message deadline | {LIMITS.first_message_seconds:g} s after the handshake |" in spec
    assert f"| {LIMITS.pending} in all |" in spec
    assert f"| {LIMITS.per_address} per IPv4 address or IPv6 /64 |" in spec
    assert f"| {LIMITS.per_seated_table} per such table, outside the pending budget |" in spec
    assert f"allows **{LIMITS.handshake_seconds:g} s**" in (SPEC / "channel.md").read_text()
