"""A node with ``--relay``: its libp2p host beside the TCP server, on one machine (no namespaces).

It reserves at its relay and announces direct and relayed addresses; a guest joins by an invite
and the table plays over libp2p; a seat reached only through the relay is reached there; and a
libp2p stream passes the node's own admission (pending budget, handshake deadline) as a TCP
connection does. The NAT cases are in tests/node/test_natworld.py.
"""

import logging

import pytest
import trio
from libp2p.peer.id import ID
from libp2p.peer.peerinfo import info_from_p2p_addr

from fairtable.node.lobby.invite import parse_invite
from fairtable.node.node import Node, NodeConfig
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.p2p import PROTOCOL_ID, libp2p_logs_into_ours, open_host, parse_address, relayed
from fairtable.node.peer.peerid import peer_id_bytes, peer_id_text
from fairtable.node.peer.reach import alternatives, is_multiaddr, is_relayed
from fairtable.node.peer.server import PeerLimits
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.verify import verify_chunks
from tests.node.nodes import FAST, eventually, free_port, running
from tests.node.peer.test_p2p import relay

STRANGER = SecretKey.from_seed(bytes([31]) * 32)


async def ignore(channel) -> None:
    """The stranger serves nothing."""


async def never_answer(stream) -> None:
    """A relay that accepts connections and then says nothing."""
    await trio.sleep_forever()


async def test_a_table_joined_by_invite_plays_over_libp2p_and_both_files_verify(tmp_path):
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path / "relay")
            async with running(tmp_path, 2, relays=(relay_address,)) as (host, guest):
                assert host.p2p is not None
                reach = host.address.split(",")
                assert [is_relayed(part) for part in reach] == [False, False, True]  # libp2p direct, TCP, relayed
                assert reach[1] == host.tcp_address and reach[2] == f"{relay_address}/p2p-circuit"
                lobby = await host.host("towers", "normal", {}, 2)
                me = await host.identity()
                assert me.reachability == "public", "on one machine the relay dials the node back"
                invite = parse_invite(await host.invite(lobby.lobby_id))
                # the older text form, from the node's fingerprint and whole reach, is the same invite
                assert parse_invite(f"ft:{lobby.lobby_id}.{me.fingerprint.replace('-', '')}@{me.address}") == invite
                await guest.join(invite.address, invite.lobby_id, invite.fingerprint)
                await host.start(lobby.lobby_id)
                with trio.fail_after(90):
                    await host.wait_settled()
                    await guest.wait_settled()
                (table,) = host.tables.values()
                files = [node.tables[table.table_id].transcript_bytes() for node in (host, guest)]
                assert files[0] == files[1] and verify_chunks([files[0]]).valid
                # the link ran over libp2p: the host's peer was admitted through its libp2p handler
                assert guest.p2p.host.get_network().get_connections(ID(peer_id_bytes(host.key.public)))
            nursery.cancel_scope.cancel()


async def test_a_seat_reached_only_through_its_relay_is_reached_there(tmp_path):
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path / "relay")
            async with running(tmp_path, 2, relays=(relay_address,)) as (far, near):
                only_relayed = next(part for part in far.address.split(",") if is_relayed(part))
                channel = await near._connect(only_relayed, far.key.public)
                async with channel:
                    assert channel.peer == far.key.public and relayed(channel)
                with pytest.raises(ValueError, match="names another peer"):  # refused before anything is dialled
                    await near._connect(only_relayed + "/p2p/" + str(ID(peer_id_bytes(STRANGER.public))), far.key.public)
            nursery.cancel_scope.cancel()


async def test_a_relayed_channel_moves_off_the_relay_once_a_punch_holds_and_the_redial_goes_direct(tmp_path):
    """On one machine every punch holds; the NAT cases (holds or not) are in tests/node/test_natworld_games.py."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path / "relay")
            async with running(tmp_path, 2, relays=(relay_address,)) as (far, near):
                only_relayed = next(part for part in far.address.split(",") if is_relayed(part))
                channel = await near._connect(only_relayed, far.key.public)
                async with channel:
                    assert relayed(channel)
                    assert await near.p2p.move_off_relay(channel)
                    with pytest.raises(ChannelError):  # the link's owner sees a broken connection and redials
                        await channel.receive(timeout=10)
                again = await near._connect(far.address, far.key.public)
                async with again:
                    assert not relayed(again)
                    assert not await near.p2p.move_off_relay(again)  # a direct channel stays as it is
            nursery.cancel_scope.cancel()


async def test_a_libp2p_stream_is_admitted_within_the_nodes_pending_budget_and_handshake_deadline(tmp_path):
    limits = PeerLimits(handshake_seconds=0.5, first_message_seconds=0.5)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path / "relay")
            async with running(tmp_path, 1, relays=(relay_address,), **{**FAST, "peer_limits": limits}) as (node,), \
                    open_host(STRANGER, ["/ip4/127.0.0.1/tcp/0"], ignore) as stranger:
                direct = next(part for part in alternatives(node.address, node.key.public) if is_multiaddr(part) and not is_relayed(part))
                await stranger.host.connect(info_from_p2p_addr(parse_address(direct)[0]))
                stream = await stranger.host.new_stream(ID(peer_id_bytes(node.key.public)), [PROTOCOL_ID])
                await eventually(lambda: node._peers.pending.count == 1, 10)  # silent: pending, like a TCP stranger
                await eventually(lambda: node._peers.pending.count == 0, 10)  # closed at the handshake deadline
                with pytest.raises(Exception):  # noqa: B017 (whichever way libp2p reports the closed stream)
                    with trio.fail_after(5):
                        await stream.write(b"x" * 10)
                        assert await stream.read(1) == b""
                        raise EOFError
            nursery.cancel_scope.cancel()


async def test_a_restarted_node_serves_no_libp2p_peer_before_its_journals_are_reloaded(tmp_path):
    """Its libp2p host accepts streams while it makes its first reservations: a peer's hello for a table not
    reloaded yet would start that table afresh over its journal. A relay that never answers holds the node
    there for seconds while the host's link redials it, so the hello comes in that time."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path / "relay")
            silent = (await nursery.start(trio.serve_tcp, never_answer, 0))[0]
            stuck = f"/ip4/127.0.0.1/tcp/{silent.socket.getsockname()[1]}/p2p/{peer_id_text(STRANGER.public)}"
            ports = {"port": free_port(), "p2p_port": free_port()}
            guest_config = NodeConfig(data=tmp_path / "guest", name="guest", relays=(relay_address,), **ports, **FAST)
            async with running(tmp_path, 1, relays=(relay_address,)) as (host,):
                async with trio.open_nursery() as first_run:
                    guest = await first_run.start(Node(guest_config).run)  # no bot: the table waits at its first decision
                    lobby = await host.host("towers", "normal", {}, 2)
                    await guest.join(host.address, lobby.lobby_id)
                    await host.start(lobby.lobby_id)
                    await eventually(lambda: bool(guest.tables) and len(next(iter(guest.tables.values())).envelopes) > 0)
                    first_run.cancel_scope.cancel()
                (journaled,) = guest.tables.values()
                restarted = Node(NodeConfig(data=guest_config.data, name="guest", relays=(stuck, relay_address), **ports,
                                            **{**FAST, "handshake_timeout": 3.0}))
                await nursery.start(restarted.run)
                (reloaded,) = restarted.tables.values()
                assert len(reloaded.envelopes) == len(journaled.envelopes) > 0
            nursery.cancel_scope.cancel()


def test_libp2p_logs_reach_the_nodes_log_only_at_debug(caplog, capsys):
    """py-libp2p logs routine dial failures as errors, bare on stderr unless told otherwise."""
    routine = logging.getLogger("libp2p.transport.tcp.tcp")
    with caplog.at_level(logging.INFO):
        libp2p_logs_into_ours()
        routine.error("Unexpected error opening TCP stream: a home address")
    assert not caplog.records and "home address" not in capsys.readouterr().err
    with caplog.at_level(logging.DEBUG):
        libp2p_logs_into_ours()
        routine.error("Unexpected error opening TCP stream: a home address")
    assert {record.getMessage() for record in caplog.records} == {"Unexpected error opening TCP stream: a home address"}
    libp2p_logs_into_ours()  # as the rest of the run had it
