"""Whatever a peer sends, the node logs one line naming the peer and the reason, and goes on."""

import logging
import os

import pytest
import trio

from fairtable.node.peer.channel import Channel, open_channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import message, parse
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.link import hello
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.identity import SecretKey
from tests.node.nodes import eventually, running
from tests.node.table.tables import KEYS, signed_genesis

pytestmark = pytest.mark.usefixtures("counting_game")

GENESIS = signed_genesis("counting", 2)


@pytest.fixture
async def node(tmp_path, caplog):
    """A running node at seat 0 of a started table whose seat 1 is this test (key KEYS[1])."""
    caplog.set_level(logging.INFO, logger="fairtable.node")
    files = TableFiles(tmp_path / "node-0" / "tables", GENESIS.table_id)
    files.secret()
    files.write_peers("lobby", ("127.0.0.1:1", "127.0.0.1:1"))
    files.start_journal(GENESIS).close()
    async with running(tmp_path, 1, keys=(KEYS[0],), bot=None) as (node,):
        yield node


async def raw(node) -> trio.SocketStream:
    host, port = node.address.rsplit(":", 1)
    return await trio.open_tcp_stream(host, int(port))


async def channel_to(node, key: SecretKey) -> Channel:
    return await open_channel(await raw(node), key, expected=node.key.public)


def logged(caplog, *words: str) -> bool:
    return any(record.getMessage().startswith("peer ") and all(w in record.getMessage() for w in words)
               for record in caplog.records)


async def seat_one_link(node) -> Channel:
    """A proper link from seat 1, after both hellos."""
    channel = await channel_to(node, KEYS[1])
    table = node.tables[GENESIS.table_id]
    greeting = {**hello(table), "seat": 1, "have": 0, "head": GENESIS.table_id}
    await channel.send(greeting)
    assert parse(await channel.receive(timeout=5), "hello")["seat"] == 0
    return channel


async def test_garbage_oversized_and_truncated_frames_close_the_connection(node, caplog):
    stream = await raw(node)
    await stream.send_all(b"GET / HTTP/1.1\r\n\r\n")
    await eventually(lambda: logged(caplog, "oversized frame"))
    stream = await raw(node)
    await stream.send_all(b"\x00\x20" + b"\x01" * 5)
    await stream.aclose()
    await eventually(lambda: logged(caplog, "truncated"))
    stream = await raw(node)
    await stream.send_all(b"\x00\x20" + os.urandom(32))
    await stream.receive_some(4096)
    await stream.send_all(b"\x00\x40" + os.urandom(64))
    await eventually(lambda: logged(caplog, "handshake"))


async def test_a_silent_connection_is_closed_after_the_handshake_timeout(node, caplog):
    stream = await raw(node)
    await eventually(lambda: logged(caplog, "handshake timeout"))
    assert await stream.receive_some(10) == b""


async def test_hellos_from_the_wrong_identity_or_for_an_unknown_table_are_refused(node, caplog):
    table = node.tables[GENESIS.table_id]
    async with await channel_to(node, SecretKey.generate()) as impostor:
        await impostor.send({**hello(table), "seat": 1})
        await eventually(lambda: logged(caplog, "claims seat 1", "another key"))
    async with await channel_to(node, KEYS[1]) as lost:
        await lost.send({**hello(table), "seat": 1, "table": bytes(32)})
        await eventually(lambda: logged(caplog, "does not sit"))
    async with await channel_to(node, KEYS[1]) as odd:
        await odd.send({"what": "ever"})
        await eventually(lambda: logged(caplog, "not a peer message"))


async def test_forged_foreign_and_replayed_envelopes_are_refused_and_the_game_goes_on(node, caplog):
    table = node.tables[GENESIS.table_id]
    async with await seat_one_link(node) as link:
        first = parse(await link.receive(timeout=5), "env")
        own = Envelope.from_value(first["env"])
        assert own.seat == 0
        stranger = Envelope.seal(KEYS[1], bytes(32), 1, own.hash, 1, "commit", {})
        await link.send(message("env", env=stranger.to_value()))
        await eventually(lambda: logged(caplog, "another table"))
        honest = Envelope.seal(KEYS[1], GENESIS.table_id, 1, own.hash, 1, "commit", {"chain": bytes(32), "seed": bytes(32)})
        forged = Envelope(honest.table, 1, honest.prev, 1, honest.kind, honest.body, bytes(64), honest.content)
        await link.send(message("env", env=forged.to_value()))
        await eventually(lambda: logged(caplog, "signature does not verify"))
        await link.send(message("env", env=own.to_value()))  # a replay: ignored
        await link.send(message("env", env=[b"junk", bytes(64)]))
        await eventually(lambda: logged(caplog, "malformed envelope"))
    assert len(table.envelopes) == 1
    async with await seat_one_link(node) as link:
        parse(await link.receive(timeout=5), "env")
        await link.send(message("env", env=honest.to_value()))
        await eventually(lambda: len(table.envelopes) == 2)
    assert table.session.awaiting_decision()


async def test_a_flood_of_messages_closes_the_link(node, caplog):
    async with await seat_one_link(node) as link:
        sync = message("sync", have=0, head=GENESIS.table_id)
        with pytest.raises(ChannelError):
            for _ in range(100000):
                await link.send(sync)
        await eventually(lambda: logged(caplog, "message flood"))
    assert GENESIS.table_id in node.tables


async def test_a_link_that_goes_silent_is_closed(node, caplog):
    async with await seat_one_link(node):
        await eventually(lambda: logged(caplog, "receive timeout"))


@pytest.mark.parametrize("first", [
    {"t": "list", "v": 2},  # version 2's list had no kind
    {"t": "join", "v": 2, "lobby": "b71c0e2a", "name": "old", "addr": "127.0.0.1:1"},
    {"t": "hello", "v": 4, "table": "anything"},
    {"t": "tdone", "v": 2, "tournament": bytes(32)},
])
async def test_a_first_message_of_another_version_is_refused_by_version_whatever_its_shape(node, caplog, first):
    async with await channel_to(node, SecretKey.generate()) as other:
        await other.send(first)
        reply = parse(await other.receive(timeout=5), "refused")
    assert reply["code"] == "version" and f"protocol version {first['v']} is not supported" in reply["reason"]
    await eventually(lambda: logged(caplog, "is not supported"))
