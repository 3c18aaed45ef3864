"""A public relay for friends: libp2p circuit relay v2 (hop) with limits, and nothing of fairtable's.

It forwards bytes between two peers that each hold a fairtable Noise channel end to end
(``spec/channel.md``, "Over libp2p"), so it learns who talks to whom, when and how much, and
can drop or delay traffic, but cannot read or change a message. It holds no table state and
no key but its own (``relay-key.pem`` in its data folder, so its address stays the same
across restarts).

Limits, all enforced by py-libp2p's relay: one reservation per peer (a refresh replaces it),
``reservations`` in all, ``circuits`` open through one reservation at a time, and each circuit
cut after ``circuit_seconds`` or ``circuit_bytes``. A connection rate per source address is
not offered by py-libp2p 0.8's relay; it is left to the host's firewall (``spec/node.md``).

The relay also answers AutoNAT (v1) dial-back requests, so a node can learn whether it is
reachable (:class:`DialBack`). It does not serve rendezvous: py-libp2p's service bounds registrations per
namespace but not the number of namespaces, so one peer could fill a relay's memory.

``capture`` appends every byte the relay reads from a circuit (what it forwards, after its
own libp2p channel to each side is decrypted) to a file: how an operator, or a test, shows
that a relay holds nothing a fairtable seat said.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

import multiaddr
import trio
from libp2p.abc import INetStream
from libp2p.host.autonat import AutoNATService
from libp2p.host.basic_host import BasicHost
from libp2p.network.swarm import Swarm
from libp2p.peer.id import ID
from libp2p.relay.circuit_v2.protocol import MAX_READ_RETRIES, STOP_PROTOCOL_ID, CircuitV2Protocol
from libp2p.relay.circuit_v2.resources import RelayLimits
from libp2p.tools.anyio_service import background_trio_service

from fairtable.node.keystore import load_or_create_secret_key
from fairtable.node.peer.p2p import new_libp2p_host
from fairtable.node.peer.peerid import peer_id_text

KEY_FILE = "relay-key.pem"
DIAL_BACK_SECONDS = 5.0
"""How long the relay tries each address a node asks it to dial back (AutoNAT)."""


@dataclass(frozen=True)
class RelayOptions:
    """What a relay offers; the defaults suit a handful of tables among friends."""

    reservations: int = 64
    circuits: int = 8
    circuit_seconds: int = 4 * 3600
    circuit_bytes: int = 64 << 20
    reservation_seconds: int = 3600


@dataclass(frozen=True)
class RelayStatus:
    """One line of what the relay holds now."""

    peer_id: str
    reservations: int
    circuits: int

    def line(self) -> str:
        return f"relay {self.peer_id}: {self.reservations} reservations, {self.circuits} circuits open"


class CapturingRelay(CircuitV2Protocol):
    """The hop protocol, also writing every chunk it reads from a circuit's streams to ``capture``."""

    def __init__(self, *args: Any, capture: BinaryIO, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.capture = capture

    async def _read_stream_with_retry(self, stream: INetStream, max_retries: int = MAX_READ_RETRIES) -> bytes | None:
        # py-libp2p's relay reads each forwarded chunk (and its hop messages) through this one method.
        data = await super()._read_stream_with_retry(stream, max_retries)
        if data:
            self.capture.write(data)
            self.capture.flush()
        return data


class DialBack(AutoNATService):
    """py-libp2p's AutoNAT server, dialling back on a new connection, for at most ``seconds``.

    Upstream dials back with ``host.connect``, which returns at once when the asking node is
    connected already, as it always is (its request came on that connection): every node was
    told it is reachable. This opens a new connection to the one address asked about, so a
    yes means a stranger reached the node's seat key there; it is closed again at once.
    """

    def __init__(self, host: BasicHost, seconds: float) -> None:
        super().__init__(host)
        self.seconds = seconds

    async def _try_dial(self, peer_id: ID, addrs: list[bytes]) -> bytes | None:
        network = self.host.get_network()
        assert isinstance(network, Swarm)
        for address in addrs:
            connection = None
            # libp2p's many failure types for an address that does not answer as that peer are all a no
            with trio.move_on_after(self.seconds), contextlib.suppress(Exception):
                connection = await network.dial_addr(multiaddr.Multiaddr(address), peer_id)
            network.unblock_peer(peer_id)  # a node that asks again once it is reachable is dialled again
            if connection is not None:
                with trio.move_on_after(self.seconds):
                    await connection.close()
                return bytes(address)
        return None


def relay_address(host: str, port: int, peer_id: str) -> str:
    version = "ip6" if ":" in host else "ip4"
    return f"/{version}/{host}/tcp/{port}/p2p/{peer_id}"


async def run_relay(data: Path, host: str, port: int, options: RelayOptions,
                    ready: Callable[[str], None], status: Callable[[RelayStatus], None],
                    status_seconds: float = 60.0, capture: BinaryIO | None = None) -> None:
    """Serve as a relay until cancelled: ``ready(address)`` once listening, ``status`` every ``status_seconds``."""
    secret = load_or_create_secret_key(data / KEY_FILE)
    limits = RelayLimits(duration=options.circuit_seconds, data=options.circuit_bytes,
                         max_circuit_conns=options.circuits, max_reservations=options.reservations,
                         reservation_ttl=options.reservation_seconds)
    # Each reserved peer holds one connection, and so does each peer dialling one of them through the relay.
    libp2p_host = new_libp2p_host(secret, 2 * options.reservations + 16)
    relay = (CircuitV2Protocol(libp2p_host, limits=limits, allow_hop=True) if capture is None
             else CapturingRelay(libp2p_host, limits=limits, allow_hop=True, capture=capture))
    peer_id = peer_id_text(secret.public)
    async with libp2p_host.run(listen_addrs=[multiaddr.Multiaddr(relay_address(host, port, peer_id).rsplit("/p2p/", 1)[0])]):
        DialBack(cast(BasicHost, libp2p_host), DIAL_BACK_SECONDS)  # a node learns whether it is reachable
        async with background_trio_service(relay):
            await relay.event_started.wait()
            # py-libp2p's relay also serves stop, which would make the relay look like a circuit's end to its clients.
            libp2p_host.remove_stream_handler(STOP_PROTOCOL_ID)
            listening = [str(address) for address in libp2p_host.get_addrs()]
            bound = next((address for address in listening if f"/{host}/" in address), listening[0])
            ready(bound if "/p2p/" in bound else f"{bound}/p2p/{peer_id}")
            while True:
                manager = relay.resource_manager
                status(RelayStatus(peer_id, len(manager._reservations), len(relay._active_relays)))
                await trio.sleep(status_seconds)
