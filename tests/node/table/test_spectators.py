"""Spectators: a node watches a live table through one seat's node and sees only the public view."""

from __future__ import annotations

import contextlib
from functools import partial

import pytest
import trio

from fairtable.node.api.jsonvalues import jsonable
from fairtable.node.peer.channel import Channel, accept_channel, open_channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import PEER_VERSION, message, parse
from fairtable.node.service import ILLEGAL, ServiceError
from fairtable.node.table.live import Timing
from fairtable.node.table.spectators import MAX_SPECTATORS
from fairtable.protocol import Envelope, SecretKey, SignedGenesis
from tests.node.nodes import eventually, running
from tests.node.spectating import in_order, public_views
from tests.node.table.tables import signed_genesis


async def test_a_spectator_watches_through_a_guest_and_sees_every_update_as_the_public_view(tmp_path):
    async with running(tmp_path, 3, timing=Timing(bot_delay=0.01)) as (host, guest, spectator):
        lobby = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, lobby.lobby_id)
        await host.start(lobby.lobby_id)
        first = await spectator.watch(guest.address, lobby.lobby_id)
        assert first.watching and first.seat is None and first.seats == ("node-0", "node-1")
        seen = []
        with trio.fail_after(60):
            async for update in spectator.updates():
                assert update.seat is None and update.legal_moves == () and not update.your_turn and update.decision is None
                seen.append(jsonable(update.view))
                if update.phase == "finished":
                    break
        await eventually(lambda: guest.mesh.tables and next(iter(guest.mesh.tables.values())).saved)
        (table,) = guest.mesh.tables.values()
        assert len(seen) > 2 and in_order(seen, public_views(table.transcript_bytes()))
        with pytest.raises(ServiceError) as refused:
            await spectator.move(lobby.lobby_id, {"discard": 0})
        assert refused.value.code == ILLEGAL and "only watches" in str(refused.value)


async def started(host, guest, game: str = "towers") -> str:
    """A table of ``host`` with ``guest`` seated, started; its lobby id."""
    lobby = await host.host(game, "normal", {}, 2)
    await guest.join(host.address, lobby.lobby_id)
    await host.start(lobby.lobby_id)
    return lobby.lobby_id


async def spectator_channel(node) -> Channel:
    host, port = node.address.rsplit(":", 1)
    return await open_channel(await trio.open_tcp_stream(host, int(port)), SecretKey.generate(), expected=node.key.public)


async def test_a_seat_sends_a_spectator_its_signed_envelopes_and_nothing_else(tmp_path):
    async with running(tmp_path, 2) as (host, guest):
        lobby = await started(host, guest)
        await eventually(lambda: any(table.finished for table in guest.tables.values()))
        (table,) = guest.tables.values()
        channel = await spectator_channel(guest)
        await channel.send(message("watch", v=PEER_VERSION, table=lobby))
        answer = parse(await channel.receive(timeout=5), "watching")
        assert SignedGenesis.from_value(answer["genesis"]).table_id == table.table_id and answer["lobby"] == lobby
        sent = []
        while (value := parse(await channel.receive(timeout=5), "env", "ev", "ping"))["t"] != "ping":
            sent.append((value["t"], Envelope.from_value(value["env"])))
        assert [envelope for kind, envelope in sent if kind == "env"] == list(table.envelopes)
        assert [envelope for kind, envelope in sent if kind == "ev"] == table.replica.off_chain()
        await channel.aclose()


async def test_a_spectator_that_says_anything_but_ping_is_cut_off(tmp_path):
    async with running(tmp_path, 2) as (host, guest):
        lobby = await started(host, guest)
        channel = await spectator_channel(host)
        await channel.send(message("watch", v=PEER_VERSION, table=lobby))
        parse(await channel.receive(timeout=5), "watching")
        await channel.send(message("sync", have=0, head=bytes(32)))
        with pytest.raises(ChannelError), trio.fail_after(10):
            while True:
                await channel.receive(timeout=5)
        await eventually(lambda: host.spectators.count(next(iter(host.tables.values()))) == 0)


async def test_a_table_has_at_most_its_spectators_and_an_unknown_one_is_refused(tmp_path):
    async with running(tmp_path, 3, heartbeat=30.0) as (host, guest, spectator):  # the test's channels never ping
        lobby = await started(host, guest)
        watching = []
        for _ in range(MAX_SPECTATORS):
            channel = await spectator_channel(host)
            await channel.send(message("watch", v=PEER_VERSION, table=lobby))
            parse(await channel.receive(timeout=5), "watching")
            watching.append(channel)
        with pytest.raises(ServiceError, match=f"has {MAX_SPECTATORS} spectators here already"):
            await spectator.watch(host.address, lobby)
        with pytest.raises(ServiceError, match="this node sits at no started table nosuch"):
            await spectator.watch(host.address, "nosuch")
        (table,) = host.tables.values()
        await watching.pop().aclose()
        await eventually(lambda: host.spectators.count(table) < MAX_SPECTATORS)
        with pytest.raises(ServiceError, match="already sits at table"):
            await guest.watch(host.address, lobby)
        await eventually(lambda: host.spectators.count(table) < MAX_SPECTATORS)
        watched = await spectator.watch(host.address, lobby)
        assert watched.watching
        with pytest.raises(ServiceError, match="already watches table"):
            await spectator.watch(guest.address, lobby)
        for channel in watching:
            await channel.aclose()


async def test_a_node_that_offers_a_table_it_holds_no_seat_at_is_refused(tmp_path):
    """A stranger answers ``watch`` with a genuine genesis of a table of others: nothing is watched."""
    stranger = SecretKey.generate()
    genesis = signed_genesis("towers", 2)

    async def serve(stream):
        channel = await accept_channel(stream, stranger)
        parse(await channel.receive(timeout=5), "watch")
        await channel.send(message("watching", genesis=genesis.to_value(), lobby="fake"))
        with contextlib.suppress(ChannelError):
            await channel.receive(timeout=5)

    async with running(tmp_path, 1) as (spectator,), trio.open_nursery() as nursery:
        (listener,) = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
        port = listener.socket.getsockname()[1]
        with pytest.raises(ServiceError, match="holds no seat"):
            await spectator.watch(f"127.0.0.1:{port}", "fake")
        assert spectator.watching.tables == {} and await spectator.my_tables() == ()
        nursery.cancel_scope.cancel()
