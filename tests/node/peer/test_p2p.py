"""Fairtable channels over libp2p on one machine (no namespaces): direct, through an in-process relay, refused.

The NAT cases are in tests/node/test_natworld.py; these need no root and check the channel
itself: the peer proved is the seat the address names, values arrive both ways, and an address
naming another key is refused before anything is sent.
"""

from pathlib import Path

import multiaddr
import pytest
import trio
from libp2p import new_host
from libp2p.host.autonat.autonat import AUTONAT_PROTOCOL_ID
from libp2p.peer.id import ID
from libp2p.relay.circuit_v2.protocol import CircuitV2Protocol
from libp2p.relay.circuit_v2.resources import RelayLimits
from libp2p.tools.anyio_service import background_trio_service

from fairtable.node.keystore import load_or_create_secret_key
from fairtable.node.peer.errors import ChannelError, ChannelTimeout, HandshakeError
from fairtable.node.peer.p2p import P2PError, key_pair, open_host, parse_address, relayed
from fairtable.node.peer.peerid import peer_id_bytes, peer_id_text
from fairtable.node.peer.reachability import PRIVATE, PUBLIC, UNKNOWN, Reachability
from fairtable.node.peer.reservations import Schedule
from fairtable.node.relay import KEY_FILE, RelayOptions, RelayStatus, relay_address, run_relay
from fairtable.protocol.identity import SecretKey

LOCAL = ["/ip4/127.0.0.1/tcp/0"]
ALICE, BOB, CAROL = (SecretKey.from_seed(bytes([n]) * 32) for n in (11, 12, 13))


async def echo(channel):
    while True:
        await channel.send(await channel.receive())


async def relay(nursery, tmp_path: Path, statuses: list[RelayStatus] | None = None) -> str:
    ready: list[str] = []
    started = trio.Event()

    def listening(address: str) -> None:
        ready.append(address)
        started.set()

    nursery.start_soon(run_relay, tmp_path, "127.0.0.1", 0, RelayOptions(), listening,
                       (statuses if statuses is not None else []).append, 0.2)
    await started.wait()
    return ready[0]


async def round_trips(channel, count: int = 3) -> None:
    for number in range(count):
        await channel.send({"n": number, "b": bytes([number]) * 100})
        assert await channel.receive() == {"n": number, "b": bytes([number]) * 100}


async def test_direct_and_relayed_channels_reach_the_seat_the_address_names(tmp_path):
    statuses: list[RelayStatus] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path, statuses)
            assert relay_address.startswith("/ip4/127.0.0.1/tcp/") and "/p2p/12D3KooW" in relay_address
            async with open_host(ALICE, LOCAL, echo) as alice, open_host(BOB, LOCAL, echo) as bob:
                await alice.reserve(relay_address)
                direct, circuit = alice.addresses()
                assert direct.startswith("/ip4/127.0.0.1/tcp/") and direct.endswith(f"/p2p/{alice.peer_id}")
                assert circuit == f"{relay_address}/p2p-circuit/p2p/{alice.peer_id}"
                # the relay answers AutoNAT, so a node can learn whether it is reachable
                relay_peer = ID(peer_id_bytes(parse_address(relay_address)[1]))
                autonat = await alice.host.new_stream(relay_peer, [AUTONAT_PROTOCOL_ID])
                assert autonat.get_protocol() == AUTONAT_PROTOCOL_ID
                await autonat.close()
                async with await bob.dial(circuit, ALICE.public) as channel:
                    assert channel.peer == ALICE.public and relayed(channel)
                    await round_trips(channel)
                    assert not bob.is_direct(ALICE.public)
            async with open_host(ALICE, LOCAL, echo) as alice, open_host(BOB, LOCAL, echo) as bob:
                async with await bob.dial(alice.addresses()[0]) as channel:
                    assert channel.peer == ALICE.public and not relayed(channel)
                    await round_trips(channel)
                    assert bob.is_direct(ALICE.public)
            await trio.sleep(0.3)
            assert statuses[-1].reservations >= 1  # Alice's (a dialler may hold one too: libp2p reserves on connecting)
            nursery.cancel_scope.cancel()


async def test_a_host_started_while_its_relay_is_away_is_reserved_once_the_relay_listens(tmp_path):
    """libp2p's relay discovery counted a relay by a protocol check it cached as 'no' when identify had
    not yet run; the host reserves at the relays it is told, whenever they come."""
    with trio.socket.socket() as probe:  # a port nothing listens on, for now
        await probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = relay_at(tmp_path, port)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery, open_host(ALICE, LOCAL, echo, handshake_timeout=2) as alice:
            with pytest.raises(ChannelError, match="cannot connect"):
                await alice.hold(address)
            assert alice.addresses()[-1] == f"{address}/p2p-circuit/p2p/{alice.peer_id}", "announced anyway"
            nursery.start_soon(alice.keep_reservations, Schedule(every=0.1, cap=0.4))
            await trio.sleep(0.5)  # a few failed tries while the relay is away
            nursery.start_soon(run_relay, tmp_path, "127.0.0.1", port, RelayOptions(), lambda address: None,
                               lambda status: None)
            while not alice.holds(address, 0):
                await trio.sleep(0.05)
            nursery.cancel_scope.cancel()


def relay_at(data: Path, port: int) -> str:
    """The address a relay with its key in ``data`` will have at ``port`` on loopback."""
    return relay_address("127.0.0.1", port, peer_id_text(load_or_create_secret_key(data / KEY_FILE).public))


async def test_a_relay_dials_a_node_back_on_a_new_connection_so_only_an_address_that_answers_is_reachable(tmp_path):
    """py-libp2p's own AutoNAT server dialled back over the connection the request came on, and said yes to
    every node; the relay's opens a new one to the address asked about, and closes it again."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay_address = await relay(nursery, tmp_path)
            async with open_host(ALICE, LOCAL, echo, handshake_timeout=10) as alice, open_host(BOB, LOCAL, echo) as bob:
                assert (await alice.check_reachability([])).status == UNKNOWN, "no relay held: nobody to ask"
                await alice.reserve(relay_address)
                direct = alice.addresses()[0]
                learnt = await alice.check_reachability([direct])
                assert learnt == Reachability(PUBLIC, (direct.rsplit("/p2p/", 1)[0],), (relay_address,))
                with trio.socket.socket() as closed:
                    await closed.bind(("127.0.0.1", 0))
                    nothing = f"/ip4/127.0.0.1/tcp/{closed.getsockname()[1]}"
                    assert (await alice.check_reachability([nothing])).status == PRIVATE
                # Bob's port answers, but with Bob's key: not Alice's address
                assert (await alice.check_reachability([bob.addresses()[0].rsplit("/p2p/", 1)[0]])).status == PRIVATE
                assert alice.holds(relay_address, 0), "the dial-back connection, closed again, left the reservation"
            nursery.cancel_scope.cancel()


async def test_an_address_naming_another_key_is_refused():
    with trio.fail_after(60):
        async with open_host(ALICE, LOCAL, echo) as alice, open_host(BOB, LOCAL, echo) as bob:
            with pytest.raises(HandshakeError, match="expected"):
                await bob.dial(alice.addresses()[0], CAROL.public)
            # Carol's peer id at Alice's port: libp2p's own handshake finds Alice there and refuses
            forged = alice.addresses()[0].rsplit("/p2p/", 1)[0] + f"/p2p/{peer_id_text(CAROL.public)}"
            with pytest.raises(P2PError, match="cannot reach"):
                await bob.dial(forged)


async def test_a_peer_that_is_no_relay_gives_no_reservation_and_a_silent_port_times_out():
    with trio.fail_after(60):
        async with open_host(ALICE, LOCAL, echo) as alice, open_host(BOB, LOCAL, echo, handshake_timeout=2) as bob:
            with pytest.raises(P2PError, match="no reservation"):
                await bob.reserve(alice.addresses()[0])
            with trio.socket.socket() as silent:
                await silent.bind(("127.0.0.1", 0))
                silent.listen()
                port = silent.getsockname()[1]
                with pytest.raises(ChannelTimeout, match="within 2 s"):
                    await bob.dial(f"/ip4/127.0.0.1/tcp/{port}/p2p/{peer_id_text(CAROL.public)}")


@pytest.mark.parametrize("text, problem", [
    ("/ip4/127.0.0.1/tcp/4001", "does not end in /p2p/"),
    ("not a multiaddr", "not a multiaddr"),
    ("/ip4/127.0.0.1/tcp/4001/p2p/QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N", "does not inline an Ed25519 key"),
])
def test_bad_addresses_are_refused_naming_why(text, problem):
    with pytest.raises(P2PError, match=problem):
        parse_address(text)


class LyingRelay(CircuitV2Protocol):
    """A relay that connects whoever asks for ``victim`` to ``instead``, another peer holding a reservation."""

    def __init__(self, *args, victim: ID, instead: ID, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.victim, self.instead, self.lied = victim, instead, 0

    async def _handle_connect(self, stream, msg) -> None:
        if ID(msg.peer.id) == self.victim:
            msg.peer.id = self.instead.to_bytes()
            self.lied += 1
        await super()._handle_connect(stream, msg)


async def test_a_relay_connecting_a_dialler_to_another_peer_than_asked_fails_the_channel_and_reaches_no_seat():
    """Carol holds a reservation at a relay that sends Bob to her when he asks for Alice: Bob's
    dial fails (libp2p's own handshake or the channel's finds another key), nobody's seat is reached."""
    reached: list = []

    async def accept(channel) -> None:
        reached.append(channel.peer)

    relay_key = SecretKey.from_seed(bytes([14]) * 32)
    host = new_host(key_pair=key_pair(relay_key))
    limits = RelayLimits(duration=60, data=1 << 20, max_circuit_conns=4, max_reservations=4)
    lying = LyingRelay(host, limits=limits, allow_hop=True, victim=ID(peer_id_bytes(ALICE.public)),
                       instead=ID(peer_id_bytes(CAROL.public)))
    with trio.fail_after(60):
        async with host.run(listen_addrs=[multiaddr.Multiaddr("/ip4/127.0.0.1/tcp/0")]), background_trio_service(lying):
            relay_address = f"{host.get_addrs()[0]}"
            relay_address += "" if "/p2p/" in relay_address else f"/p2p/{peer_id_text(relay_key.public)}"
            async with open_host(ALICE, LOCAL, accept) as alice, open_host(CAROL, LOCAL, accept) as carol, \
                    open_host(BOB, LOCAL, accept, handshake_timeout=5) as bob:
                await alice.reserve(relay_address)
                await carol.reserve(relay_address)
                with pytest.raises(ChannelError, match="cannot reach"):  # libp2p's secure upgrade finds Carol's key
                    await bob.dial(f"{relay_address}/p2p-circuit/p2p/{alice.peer_id}", ALICE.public)
    assert lying.lied == 1 and reached == []
