"""Fairtable channels over libp2p: direct, through a circuit relay v2, upgraded by a DCUtR hole punch.

A :class:`P2PHost` is a py-libp2p host inside the node's trio process whose identity is the
seat key (:mod:`node.peer.peerid`). It dials a multiaddr ending in ``/p2p/<peer id>`` — direct
(``/ip4/…/tcp/…/p2p/…``) or relayed (``…/p2p/<relay>/p2p-circuit/p2p/<peer>``) — and accepts
streams, and either way yields the same :class:`~node.peer.channel.Channel` a TCP connection
does: fairtable's own Noise XX handshake and framing run *inside* one libp2p stream under
:data:`PROTOCOL_ID`. libp2p's own secure channel (end-to-end even through a relay) is kept, but
fairtable relies on none of it: the Noise channel between the two seats is what authenticates
the seat key and encrypts every message, so a relay, or a libp2p bug, sees only ciphertext and
can break a connection but never read or alter a message or reach the wrong seat
(``spec/channel.md``, "Over libp2p").

Upstream behaviour worked around here, each named where it is handled:

- A peer whose every address failed is not dialled again for 60 s (the swarm's negative
  cache), which would keep a restarted relay or node out of reach that long: every dial and
  reservation here clears it for the peers it dials first (:meth:`P2PHost._dial_again`).
- ``RelayDiscovery`` makes a reservation only at a peer it has counted as a relay, and counts
  one by guessing: its first pass runs before any relay is connected, and its protocol check
  reads the peerstore, where a peer connected a moment ago has no protocols yet (identify runs
  after the connection), and caches that "no" for good. A node started while its relay was
  down, or racing identify, was never reserved again. The node is told its relays
  (``--relay``): :meth:`P2PHost.reserve` counts the relay itself and asks for the reservation,
  which fails plainly at a peer that is no relay.

Upstream behaviour the node must know (not worked around here):

- ``DCUtRProtocol`` tries a hole punch by itself every 2 s towards each peer it reaches only
  through a relay (a few attempts per peer), whether or not :meth:`P2PHost.hole_punch` is called;
  an explicit punch meanwhile returns False at once, and :meth:`P2PHost.hole_punch` waits for
  the one under way.
- After a punch succeeds, libp2p closes the relayed connection once ``RELAY_CLOSE_GRACE_PERIOD``
  (60 s) has passed. A channel still on it then ends as a broken connection; a fresh
  :meth:`P2PHost.dial` to the same address lands on the direct connection, so the node's
  usual reconnect moves a table off the relay.
- ``host.connect`` to a peer already connected reuses that connection: a direct address dialled
  while a circuit to the same peer is open still yields the relayed connection.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TypeVar, cast

import multiaddr
import trio
from libp2p import new_host
from libp2p.abc import IHost, INetConn, INetStream, INetworkService
from libp2p.connection_types import ConnectionType
from libp2p.crypto.ed25519 import create_new_key_pair
from libp2p.crypto.keys import KeyPair
from libp2p.crypto.x25519 import create_new_key_pair as create_new_x25519_key_pair
from libp2p.custom_types import TProtocol
from libp2p.host.autonat import AutoNATService
from libp2p.host.basic_host import BasicHost
from libp2p.network.config import ConnectionConfig
from libp2p.network.stream.exceptions import StreamClosed, StreamEOF, StreamError, StreamReset
from libp2p.network.swarm import Swarm
from libp2p.peer.id import ID
from libp2p.peer.peerinfo import info_from_p2p_addr
from libp2p.relay.circuit_v2.config import RelayConfig, RelayRole
from libp2p.relay.circuit_v2.dcutr import MAX_HOLE_PUNCH_ATTEMPTS, DCUtRProtocol
from libp2p.relay.circuit_v2.discovery import RelayInfo
from libp2p.relay.circuit_v2.protocol import CircuitV2Protocol
from libp2p.relay.circuit_v2.resources import RelayLimits
from libp2p.relay.circuit_v2.transport import CircuitV2Transport
from libp2p.security.noise.transport import PROTOCOL_ID as NOISE_PROTOCOL_ID
from libp2p.security.noise.transport import Transport as NoiseTransport
from libp2p.stream_muxer.yamux.yamux import PROTOCOL_ID as YAMUX_PROTOCOL_ID
from libp2p.stream_muxer.yamux.yamux import Yamux
from libp2p.tools.anyio_service import background_trio_service

from fairtable.node.peer.channel import HANDSHAKE_TIMEOUT, Channel, accept_channel, open_channel
from fairtable.node.peer.errors import ChannelError, ChannelTimeout, HandshakeError, ListenError
from fairtable.node.peer.peerid import PeerIdError, libp2p_seed, peer_id_bytes, peer_id_text, seat_key
from fairtable.node.peer.reachability import Reachability, verdict
from fairtable.node.peer.reservations import RESERVATIONS, UNTOLD_TERM, Schedule, Term, keep
from fairtable.protocol import PublicKey, SecretKey

PROTOCOL_ID = TProtocol("/fairtable/channel/1")
CIRCUIT = "/p2p-circuit"
RESERVE_RETRY_SECONDS = 0.5
NODE_CONNECTIONS = 64
"""The most libp2p connections a node holds: its relays and the seats of its tables, with room to spare."""
PUNCH_SECONDS = 30.0
"""How long a hole punch may take (DCUtR retries a few times, a couple of seconds apart)."""
PUNCH_AGAIN_SECONDS = 15.0
MAX_PUNCH_AGAIN_SECONDS = 600.0
"""After a punch that did not hold, the wait before the next, doubling up to the most: a busy
machine's punch may fail once, a symmetric NAT's always, and each try costs the peers little."""
_STREAM_FAILURES = (StreamError, StreamReset, StreamClosed)  # StreamEOF is a StreamError too: caught first

log = logging.getLogger(__name__)

Accept = Callable[[Channel], Awaitable[None]]
T = TypeVar("T")


class P2PError(ChannelError):
    """A libp2p address that cannot be used, or a peer or relay that cannot be reached."""


def libp2p_logs_into_ours() -> None:
    """Send py-libp2p's log records to the process's own log, and only at DEBUG.

    Without ``LIBP2P_DEBUG`` py-libp2p removes its handlers and stops propagation, so Python's
    last-resort handler prints its warnings and errors bare on stderr; and it logs every routine
    failure (a home address that does not answer, a circuit that ends) as an error. A user sees
    the node's own lines about connections instead; ``--log-level DEBUG`` shows libp2p's too.
    """
    libp2p_log = logging.getLogger("libp2p")
    libp2p_log.propagate = True
    libp2p_log.setLevel(logging.DEBUG if log.isEnabledFor(logging.DEBUG) else logging.CRITICAL)
    # Some of its modules set a level of their own on import (the auto-connector INFO): they follow libp2p's.
    for name, logger in list(logging.root.manager.loggerDict.items()):
        if name.startswith("libp2p.") and isinstance(logger, logging.Logger):
            logger.setLevel(logging.NOTSET)


def key_pair(secret: SecretKey) -> KeyPair:
    """The libp2p key pair of a seat: the same Ed25519 key, so its peer id names the seat."""
    return create_new_key_pair(libp2p_seed(secret))


def new_libp2p_host(secret: SecretKey, connections: int) -> IHost:
    """A libp2p host for ``secret`` that speaks only what is safe and dials nobody by itself.

    Security is Noise alone: py-libp2p also offers secio (deprecated, removed from go- and
    js-libp2p) and plaintext/2.0.0, under which a peer claims any peer id without proof and so
    could take or replace another node's relay reservation; its TLS is tested against no other
    implementation. The muxer is yamux alone: py-libp2p's mplex sent frames on streams it had
    closed, which js-libp2p answers by resetting the connection. Its connection manager would
    keep 100 to 300 connections by dialling every peer it has heard of every few seconds; a
    node wants its relays and its tables' seats, so it never dials to reach a count (low
    watermark 0) and prunes only above ``connections``.
    """
    libp2p_logs_into_ours()
    pair = key_pair(secret)
    security = {NOISE_PROTOCOL_ID: NoiseTransport(pair, noise_privkey=create_new_x25519_key_pair().private_key)}
    limits = ConnectionConfig(max_connections=connections, min_connections=0, low_watermark=0,
                              high_watermark=connections)
    return new_host(key_pair=pair, sec_opt=security, muxer_opt={TProtocol(YAMUX_PROTOCOL_ID): Yamux},
                    connection_config=limits)


def parse_address(text: str) -> tuple[multiaddr.Multiaddr, PublicKey]:
    """A dialable multiaddr and the seat key its final ``/p2p/<id>`` names."""
    try:
        address = multiaddr.Multiaddr(text)
    except Exception as exc:  # multiaddr raises a family of its own errors for bad text
        raise P2PError(f"not a multiaddr: {text!r}: {exc}") from None
    peer = address.get_peer_id()
    if not peer:
        raise P2PError(f"multiaddr {text!r} does not end in /p2p/<peer id>")
    try:
        return address, seat_key(str(peer))
    except PeerIdError as exc:
        raise P2PError(f"multiaddr {text!r}: {exc}") from None


def is_relayed(address: multiaddr.Multiaddr) -> bool:
    return CIRCUIT in str(address)


class StreamAdapter(trio.abc.Stream):
    """A libp2p stream seen as a trio stream, which is what the channel's framing reads and writes."""

    def __init__(self, stream: INetStream, network: INetworkService) -> None:
        self.stream = stream
        self.network = network

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        try:
            await self.stream.write(bytes(data))
        except _STREAM_FAILURES as exc:
            raise trio.BrokenResourceError(f"libp2p stream: {exc or type(exc).__name__}") from None

    async def wait_send_all_might_not_block(self) -> None:
        """libp2p streams buffer in the muxer; a write never blocks for long."""

    async def send_eof(self) -> None:
        """libp2p streams half-close only through their muxer; the channel never half-closes, so close."""
        await self.aclose()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        try:
            return await self.stream.read(max_bytes)
        except StreamEOF:
            return b""
        except _STREAM_FAILURES as exc:
            raise trio.BrokenResourceError(f"libp2p stream: {exc or type(exc).__name__}") from None

    async def aclose(self) -> None:
        try:
            await self.stream.close()
        except Exception:  # a stream already reset or whose connection died has nothing left to close
            await trio.lowlevel.checkpoint()


class P2PHost:
    """A running libp2p host for one seat key: dial, accept, reserve relay slots, hole-punch."""

    def __init__(self, secret: SecretKey, host: IHost, transport: CircuitV2Transport, dcutr: DCUtRProtocol,
                 handshake_timeout: float) -> None:
        self.secret = secret
        self.host = host
        self.transport = transport
        self.dcutr = dcutr
        self.handshake_timeout = handshake_timeout
        self.relays: list[multiaddr.Multiaddr] = []
        self.terms: dict[str, Term] = {}
        """Each relay's reservation as last made: when, and when it ends (``time.time()`` seconds)."""

    @property
    def peer_id(self) -> str:
        return peer_id_text(self.secret.public)

    def addresses(self) -> list[str]:
        """Where a peer can dial this seat: listening addresses, then one circuit per reserved relay."""
        own = f"/p2p/{self.peer_id}"
        direct = [str(address) + ("" if "/p2p/" in str(address) else own) for address in self.host.get_addrs()]
        return direct + [f"{relay}{CIRCUIT}{own}" for relay in self.relays]

    async def reserve(self, relay: str) -> None:
        """Connect to ``relay`` and hold a reservation there, so peers can reach this seat through it."""
        address, _key = parse_address(relay)
        info = info_from_p2p_addr(address)
        discovery = self.transport.discovery
        connected = reserved = False
        with trio.move_on_after(self.handshake_timeout):
            self._dial_again(info.peer_id)
            await self._libp2p(f"relay {relay}: cannot connect", self.host.connect(info))
            connected = True
            while not reserved:
                self._count_as_relay(info.peer_id)
                # A relay may refuse a moment (busy, or still setting up after a restart): ask until the timeout.
                reserved = await discovery.make_reservation(info.peer_id)
                if not reserved:
                    await trio.sleep(RESERVE_RETRY_SECONDS)
        if not reserved and connected:
            raise P2PError(f"relay {relay}: no reservation within {self.handshake_timeout:g} s "
                           "(it does not offer circuit relay v2, or it is full)")
        if not reserved:
            raise ChannelTimeout(f"relay {relay}: cannot connect within {self.handshake_timeout:g} s")
        held = discovery.get_relay_info(info.peer_id)
        ends = held.reservation_expires_at if held is not None else None
        now = time.time()
        self.terms[str(address)] = (now, float(ends) if ends is not None else now + UNTOLD_TERM)
        if address not in self.relays:
            self.relays.append(address)

    def _count_as_relay(self, peer: ID) -> None:
        """Count ``peer`` as a relay in libp2p's ``RelayDiscovery``, which makes reservations only at relays it
        counts, and seen now, so its clean-up (a relay unseen for three intervals) never drops one in use."""
        discovery = self.transport.discovery
        now = time.time()
        counted = discovery.get_relay_info(peer)
        if counted is None:
            discovery._discovered_relays[peer] = RelayInfo(peer_id=peer, discovered_at=now, last_seen=now)
        else:
            counted.last_seen = now

    async def hold(self, relay: str) -> None:
        """Reserve at ``relay`` now and keep it reserved (:meth:`keep_reservations`), even when this first
        try fails: its circuit is announced either way, and :meth:`keep_reservations` tries again."""
        address, _key = parse_address(relay)
        if address not in self.relays:
            self.relays.append(address)
        await self.reserve(relay)

    def term(self, relay: str) -> Term | None:
        """The reservation held at ``relay`` (made, ends), or None when none is: never made, or the relay connection ended."""
        address, _key = parse_address(relay)
        peer = info_from_p2p_addr(address).peer_id
        held = self.transport.discovery.get_relay_info(peer)
        connected = bool(self.host.get_network().get_connections(peer))
        return self.terms.get(str(address)) if connected and held is not None and held.has_reservation else None

    def holds(self, relay: str, margin: float) -> bool:
        """Whether this host is connected to ``relay`` and holds a reservation there for ``margin`` seconds more."""
        term = self.term(relay)
        return term is not None and term[1] - time.time() > margin

    async def keep_reservations(self, schedule: Schedule = RESERVATIONS) -> None:
        """Hold the reservation of each of :attr:`relays` for as long as this runs (:func:`~.reservations.keep`):
        libp2p renews none by itself, and a restarted relay has forgotten every reservation."""
        async with trio.open_nursery() as nursery:
            for relay in map(str, list(self.relays)):
                nursery.start_soon(keep, relay, self.reserve, self.term, time.time, schedule)

    async def check_reachability(self, direct: Sequence[str]) -> Reachability:
        """Ask every relay of :attr:`relays` where a reservation is held, at once, to dial this host back at its
        ``direct`` addresses (AutoNAT v1, each answer awaited for the handshake timeout; a relay away has no
        word); the :func:`~.reachability.verdict` over their answers, the addresses they reached, those relays."""
        client = AutoNATService(cast(BasicHost, self.host), serve=False)
        asked = [multiaddr.Multiaddr(address.split("/p2p/")[0]).to_bytes() for address in direct]
        answers: dict[str, tuple[int, bytes | None] | None] = {}

        async def ask(relay: multiaddr.Multiaddr) -> None:
            answers[str(relay)] = None
            peer = info_from_p2p_addr(relay).peer_id
            try:
                answers[str(relay)] = await client.query_server(peer, asked, timeout=self.handshake_timeout)
            except Exception as exc:  # libp2p's many failure types for a relay away, too slow or not answering AutoNAT
                log.info("relay %s: no dial-back answer: %s", relay, exc or type(exc).__name__)

        held = [relay for relay in self.relays if self.holds(str(relay), 0)]
        async with trio.open_nursery() as nursery:
            for relay in held:
                nursery.start_soon(ask, relay)
        said = [answers[str(relay)] for relay in held]
        reached = [str(multiaddr.Multiaddr(answer[1])) for answer in said if answer is not None and answer[1] is not None]
        return Reachability(verdict(None if answer is None else answer[0] for answer in said), tuple(dict.fromkeys(reached)),
                            tuple(map(str, held)))

    async def dial(self, address: str, expected: PublicKey | None = None) -> Channel:
        """A channel to the seat ``address`` names (direct or through a relay); ``expected`` must agree.

        Every failure is a :class:`ChannelError`: :class:`P2PError` for an address or a peer libp2p
        cannot reach, :class:`ChannelTimeout`, or the channel's own handshake errors.
        """
        target, key = parse_address(address)
        if expected is not None and expected != key:
            raise HandshakeError(f"address {address} names {key.fingerprint}, expected {expected.fingerprint}")
        stream: INetStream | None = None
        with trio.move_on_after(self.handshake_timeout):
            for peer in (target, *([multiaddr.Multiaddr(str(target).split(CIRCUIT)[0])] if is_relayed(target) else [])):
                self._dial_again(info_from_p2p_addr(peer).peer_id)
            connect = self.transport.dial(target) if is_relayed(target) else self.host.connect(info_from_p2p_addr(target))
            await self._libp2p(f"cannot reach {address}", connect)
            stream = await self._libp2p(f"{address}: no fairtable stream", self.host.new_stream(ID(peer_id_bytes(key)), [PROTOCOL_ID]))
        if stream is None:
            raise ChannelTimeout(f"cannot reach {address} within {self.handshake_timeout:g} s")
        return await open_channel(StreamAdapter(stream, self.host.get_network()), self.secret, expected=key,
                                  timeout=self.handshake_timeout)

    def _dial_again(self, peer: ID) -> None:
        """Let libp2p dial ``peer`` even if every address of it failed within the last minute.

        libp2p refuses such a dial outright for 60 s (its "negative cache"); a relay that restarts
        or a node started again behind its NAT would stay out of reach that long. The node paces
        its own dials (the mesh's redial, :meth:`keep_reservations`), so the cache only costs time.
        """
        network = self.host.get_network()
        if isinstance(network, Swarm):
            network.unblock_peer(peer)

    @staticmethod
    async def _libp2p(failure: str, call: Awaitable[T]) -> T:
        """Await a libp2p call; its many failure types (for an unreachable peer, a refused protocol) become one."""
        try:
            return await call
        except Exception as exc:
            raise P2PError(f"{failure}: {exc or type(exc).__name__}") from None

    async def hole_punch(self, peer: PublicKey) -> bool:
        """Try DCUtR towards a peer this host reaches through a relay; True once a direct connection holds.

        libp2p answers False at once while a punch with that peer is under way (its own, started
        every 2 s, or one the peer started); that punch may still succeed, so this asks again,
        a second apart, until a direct connection holds or libp2p has no attempt left.
        """
        target = ID(peer_id_bytes(peer))
        while True:
            try:
                punched = await self.dcutr.initiate_hole_punch(target)
            except Exception as exc:  # libp2p's many failure types for a punch that did not work
                log.info("hole punch to %s failed: %s", peer.fingerprint, exc or type(exc).__name__)
                punched = False
            if punched or self.is_direct(peer):
                return True
            # libp2p keeps these two private: whether a punch runs now, and how many it made.
            running = target in self.dcutr._in_progress
            if not running and self.dcutr._hole_punch_attempts.get(target, 0) >= MAX_HOLE_PUNCH_ATTEMPTS:
                return False
            await trio.sleep(1.0)

    async def move_off_relay(self, channel: Channel) -> bool:
        """Punch a hole to the peer of a relayed channel; once a direct connection holds, reset the channel's stream.

        The channel then ends as a broken connection, and its owner's redial lands on the direct
        connection (libp2p opens new streams on a direct connection before a relayed one), long
        before libp2p would close the relayed connection by itself (60 s after the punch). A punch
        that fails is tried again while the channel lasts, :data:`PUNCH_AGAIN_SECONDS` later, the
        wait doubling up to :data:`MAX_PUNCH_AGAIN_SECONDS`. True when the channel was moved; False
        when it closed first (behind a symmetric NAT no punch holds, and it stays relayed).
        """
        if not relayed(channel) or not isinstance(channel.stream, StreamAdapter):
            return False
        wait = PUNCH_AGAIN_SECONDS
        while True:
            with trio.move_on_after(PUNCH_SECONDS):
                await self.hole_punch(channel.peer)
            if self.is_direct(channel.peer):
                break
            log.info("libp2p: no hole punch to %s held; trying again in %g s", channel.peer.fingerprint, wait)
            await trio.sleep(wait)
            if channel.closed:
                return False
            # a punch that failed (its timing upset by a busy machine, a NAT that changed) gets a fresh
            # budget of attempts: libp2p resets it as a peer reconnects, and never otherwise
            self.dcutr.on_peer_disconnected(ID(peer_id_bytes(channel.peer)))
            wait = min(2 * wait, MAX_PUNCH_AGAIN_SECONDS)
        try:
            await channel.stream.stream.reset()
        except Exception:  # a stream already closed has nothing to reset
            await trio.lowlevel.checkpoint()
        return True

    def is_direct(self, peer: PublicKey) -> bool:
        """Whether this host holds a connection to ``peer`` that does not run through a relay."""
        connections = self.host.get_network().get_connections(ID(peer_id_bytes(peer)))
        return any(not _relayed_connection(connection) for connection in connections)


def _relayed_connection(connection: INetConn) -> bool:
    # py-libp2p tags a circuit's connection RELAYED with a /p2p-circuit address; a TCP one may be UNKNOWN.
    return (connection.get_connection_type() == ConnectionType.RELAYED
            or any(is_relayed(address) for address in connection.get_transport_addresses()))


def relayed(channel: Channel) -> bool:
    """Whether ``channel`` runs through a relay (a channel over TCP or a direct libp2p connection does not)."""
    stream = channel.stream
    if not isinstance(stream, StreamAdapter):
        return False
    muxed = stream.stream.muxed_conn
    peer = muxed.peer_id
    network = stream.network
    return any(_relayed_connection(connection) for connection in network.get_connections(peer)
               if connection.muxed_conn is muxed)


Admit = Callable[[trio.abc.Stream, PublicKey, str], Awaitable[None]]
"""Serves an accepted libp2p stream before any handshake: ``(stream, the key libp2p authenticated, source)``,
where source is the remote IP address of the connection (for a relayed one, the relay's)."""


def channels(secret: SecretKey, accept: Accept, handshake_timeout: float) -> Admit:
    """An :data:`Admit` that runs the channel's handshake and hands the channel to ``accept``."""

    async def admit(stream: trio.abc.Stream, key: PublicKey, source: str) -> None:
        try:
            channel = await accept_channel(stream, secret, timeout=handshake_timeout)
            async with channel:
                if channel.peer != key:
                    # libp2p authenticated one key and the channel another: someone is splicing streams.
                    log.warning("libp2p peer %s proved %s in the channel; closed", key.fingerprint, channel.peer.fingerprint)
                    return
                await accept(channel)
        except ChannelError as exc:
            log.info("libp2p peer %s: %s", key.fingerprint, exc)

    return admit


@asynccontextmanager
async def open_host(secret: SecretKey, listen: Sequence[str], accept: Accept | None = None, *,
                    handshake_timeout: float = HANDSHAKE_TIMEOUT, admit: Admit | None = None) -> AsyncIterator[P2PHost]:
    """Run a libp2p host for ``secret`` listening on ``listen``.

    Each accepted stream goes to ``admit`` (the node's admission: budgets, then the handshake);
    without it, each accepted channel goes to ``accept``, which runs inside the stream's handler
    and owns the channel until it returns, as the TCP server's dispatch does.
    """
    if admit is None:
        assert accept is not None, "open_host needs accept or admit"
        admit = channels(secret, accept, handshake_timeout)
    serve = admit
    host = new_libp2p_host(secret, NODE_CONNECTIONS)
    # This side never relays for others (allow_hop=False); the limits only satisfy the constructors.
    limits = RelayLimits(duration=3600, data=1 << 30, max_circuit_conns=16, max_reservations=0)
    relay = CircuitV2Protocol(host, limits=limits, allow_hop=False)
    transport = CircuitV2Transport(host, relay, RelayConfig(roles=RelayRole.STOP | RelayRole.CLIENT, limits=limits))
    dcutr = DCUtRProtocol(host)
    p2p = P2PHost(secret, host, transport, dcutr, handshake_timeout)

    async def handler(stream: INetStream) -> None:
        # Runs in libp2p's own nursery: anything escaping here would take the whole host down.
        connected = str(stream.muxed_conn.peer_id)
        try:
            remote = stream.get_remote_address()
            await serve(StreamAdapter(stream, host.get_network()), seat_key(connected), remote[0] if remote else connected)
        except PeerIdError as exc:
            log.info("libp2p peer %s: %s", connected, exc)
            await StreamAdapter(stream, host.get_network()).aclose()
        except Exception as exc:  # a bug must not take the host with it; it is logged in full
            log.error("libp2p peer %s: internal error: %s", connected, exc, exc_info=True)

    addresses = [multiaddr.Multiaddr(text) for text in listen]
    async with host.run(listen_addrs=addresses):
        if not host.get_addrs():  # py-libp2p logs a failed listen and runs on without it
            raise ListenError(f"cannot listen for libp2p peers on {', '.join(listen)}: "
                              "the port is taken, or the address is not this machine's")
        host.set_stream_handler(PROTOCOL_ID, handler)
        async with background_trio_service(relay), background_trio_service(transport.discovery), \
                background_trio_service(dcutr):
            yield p2p
