"""The node: one trio process, one listening port; this module only wires its parts together.

Every connection is a secure channel (``node.peer.channel``), admitted within the connection
budgets of ``node.peer.server``. Its first message says what it is for (``spec/node.md``):
``list`` or ``join`` go to the lobby host of their ``kind`` (tables: ``node.lobby.tables``,
tournaments: ``node.tournament.lobby``), ``hello`` to the table mesh (``node.table.mesh``),
``ttable``, ``tget`` and ``tdone`` to the tournaments (``node.tournament``), ``watch`` to the
spectators of its tables (``node.table.spectators``); the tables it watches itself are ``node.table.watched``. The lobby guests
join tables and tournaments at other nodes. The node implements :class:`~fairtable.node.service.NodeService`,
through which local clients drive it.

Whatever a peer sends, the node logs a line naming the peer and the reason (rate-limited, so
a flood writes summaries) and closes that connection or refuses that envelope; nothing a
peer does raises out of the node.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from fairtable.games import GameError, Refusal, RuleError, describe, say
from fairtable.node.discovery import Discovery, ZeroconfFactory
from fairtable.node.keystore import load_or_create_secret_key
from fairtable.node.lobby.exchange import ExchangeHost
from fairtable.node.lobby.invite import write_invite
from fairtable.node.lobby.tables import Guest, Host
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.dial import connect
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import message
from fairtable.node.peer.reach import MAX_REACH, alternatives, fit, is_relayed, parse_address
from fairtable.node.peer.reachability import PUBLIC, Reachability, watch
from fairtable.node.peer.server import PeerLimits, PeerServer
from fairtable.node.ratelimit import TokenBucket
from fairtable.node.service import (
    ILLEGAL,
    NOT_FOUND,
    STORAGE,
    FoundTable,
    Identity,
    LobbyTable,
    ServiceError,
    TableUpdate,
    TournamentLobby,
    TournamentStatus,
)
from fairtable.node.table.chat import ChatRefused
from fairtable.node.table.history import replay_step
from fairtable.node.table.journal import JournalError
from fairtable.node.table.live import LiveTable, Timing
from fairtable.node.table.mesh import Mesh, MeshConfig
from fairtable.node.table.spectators import Spectators
from fairtable.node.table.watched import Watching
from fairtable.node.tournament.runner import Tournaments
from fairtable.node.updates import Updates
from fairtable.protocol import CodecError, PublicKey
from fairtable.protocol.session import DECK, NotYourTurn, ProofError, Rejected

if TYPE_CHECKING:
    from fairtable.node.peer.p2p import P2PHost

log = logging.getLogger("fairtable.node")

__all__ = ["Node", "NodeConfig", "parse_address"]


WILDCARDS = ("0.0.0.0", "::", "")
CHAT_RATE = 1.0
CHAT_BURST = 5.0
"""Lines a second this node's player may say, and how many at once: half what a link lets through."""
REMATCH_WORDS = "A rematch? Same game, same options, same seats."
"""What a rematch offer says in the chat."""


def dialable(host: str) -> str:
    """The host peers dial for a node listening on ``host``: for a wildcard (every interface) this
    machine's address on its network, the one a route out would use (a UDP connect picks the
    route and sends nothing), so the invite works from another machine; loopback without one."""
    if host not in WILDCARDS:
        return host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
        return str(probe.getsockname()[0])
    return "127.0.0.1"


@dataclass(frozen=True)
class NodeConfig:
    data: Path
    host: str = "127.0.0.1"
    port: int = 0
    name: str | None = None
    advertise: str | None = None
    bot: str | None = None
    timing: Timing = field(default_factory=Timing)
    heartbeat: float = 2.0
    handshake_timeout: float = 10.0
    peer_limits: PeerLimits = field(default_factory=PeerLimits)
    clock: Callable[[], float] = time.time
    """The wall clock deadlines are kept in; tests pass trio's (mock) clock."""
    discovery: ZeroconfFactory | None = None
    """Local discovery (``node.discovery.factory_for``); None: off."""
    relays: tuple[str, ...] = ()
    """Multiaddrs of libp2p relays to reserve a slot at; any: the node also runs a libp2p host (``node.peer.p2p``)."""
    p2p_port: int = 0
    """TCP port of the libp2p host (0: any free port); only with ``relays``."""

    @property
    def p2p(self) -> bool:
        return bool(self.relays)


class Node:
    """Construct, then ``await run()``; ``address`` is set once it listens."""

    def __init__(self, config: NodeConfig) -> None:
        self.config = config
        self.key = load_or_create_secret_key(config.data / "identity.pem")
        self.name = config.name or f"player-{self.key.public.fingerprint[:4].lower()}"
        self.address = ""
        """This node's reach (``node.peer.reach``), as it announces it: TCP, then libp2p addresses."""
        self.tcp_address = ""
        self.p2p: P2PHost | None = None
        """The running :class:`~fairtable.node.peer.p2p.P2PHost` with ``relays``; libp2p is imported only then."""
        self.reachability: Reachability | None = None
        """What the relays said of this node's direct addresses (``node.peer.reachability``); None without libp2p."""
        self.updates_hub = Updates()
        timeout = config.handshake_timeout
        mesh_config = MeshConfig(config.heartbeat, timeout, config.timing, config.bot)
        self.mesh = Mesh(self.key, config.data / "tables", mesh_config, self._connect_link, self.updates_hub, config.clock)
        self.lobby_host = Host(self.key, lambda: self.name, lambda: self.address, self.mesh, self.updates_hub, config.heartbeat, timeout)
        self.lobby_guest = Guest(self.key, lambda: self.name, lambda: self.address, self.mesh, self.updates_hub,
                           self._connect, config.heartbeat, timeout)
        self.tournaments = Tournaments(self.key, lambda: self.name, lambda: self.address, config.data / "tournaments", self.mesh,
                                       self.updates_hub, self._connect, config.heartbeat, timeout)
        self.spectators = Spectators(self.mesh, config.heartbeat)
        self.watching = Watching(self._connect, self.updates_hub, config.heartbeat, timeout, config.clock)
        self._peers = PeerServer(self.key, config.peer_limits, ("hello", "list", "join", "ttable", "tget", "tdone", "watch"),
                                 self._dispatch, self._tables_seating)
        self.discovery = None if config.discovery is None else Discovery(
            config.discovery, self.key.public.fingerprint, lambda: self.tcp_address,
            lambda: [self.lobby_host.listing(lobby) for lobby in self.lobby_host.hosted.values()], self.updates_hub.next_change)
        self._nursery: trio.Nursery | None = None
        self._chat_bucket: TokenBucket | None = None
        """How fast this node's own player may chat (made in trio, on the first line)."""
        self._reloaded = trio.Event()
        """Set once every journal is reloaded: only then may a peer be served (its hello must find its table)."""

    @property
    def tables(self) -> dict[bytes, LiveTable]:
        return self.mesh.tables

    # ------------------------------------------------------------ running

    async def run(self, services: Sequence[Callable[[Node], Awaitable[None]]] = (), *,
                  listeners: Sequence[trio.SocketListener] = (), task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Listen, reload every journal, reconnect, serve; ``services`` (e.g. the client API) start once listening.

        ``listeners`` already bound to ``config.port`` are served instead of binding it here, so a
        caller can take every port it needs before anything starts."""
        if not listeners:
            listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.host)  # OSError before any task
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            port = listeners[0].socket.getsockname()[1]
            self.address = self.tcp_address = self.config.advertise or f"{dialable(self.config.host)}:{port}"
            if self.config.p2p:
                await nursery.start(self._run_p2p)
            self.mesh.reload(nursery)
            self.tournaments.reload(nursery)
            self._reloaded.set()
            nursery.start_soon(self._peers.serve, list(listeners))
            if self.discovery is not None:
                nursery.start_soon(self.discovery.run)
            for service in services:
                nursery.start_soon(service, self)
            task_status.started(self)

    async def _run_p2p(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Run the libp2p host beside the TCP server: its streams pass the same admission, and it
        holds a reservation at each configured relay (trying again where it could not); the relays
        say whether it can be dialled (asked again now and then); the reach names both."""
        from fairtable.node.peer.p2p import open_host  # libp2p costs about a second to import: only when asked

        listen = [f"/ip4/{'0.0.0.0' if self.config.host in WILDCARDS else self.config.host}/tcp/{self.config.p2p_port}"]
        async with open_host(self.key, listen, handshake_timeout=self.config.handshake_timeout,
                             admit=self._admit_p2p) as host:
            self.p2p = host
            for relay in self.config.relays:
                try:
                    await host.hold(relay)
                    log.info("relay %s: reservation held", relay)
                except ChannelError as exc:
                    log.warning("relay %s: %s (its circuit is announced; the node tries again, at most a minute apart)", relay, exc)
            own = self._own_addresses(host)
            reachability = await host.check_reachability(self._direct(host))
            self._announce(own, reachability)
            task_status.started()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(host.keep_reservations)
                nursery.start_soon(watch, host.check_reachability, partial(self._direct, host), reachability,
                                   partial(self._announce, own))

    @staticmethod
    def _own_addresses(host: P2PHost) -> list[str]:
        """The host's addresses as peers dial them: a wildcard it listens on named by this machine's address."""
        return [address.replace("/ip4/0.0.0.0/", f"/ip4/{dialable('0.0.0.0')}/") for address in host.addresses()]

    def _direct(self, host: P2PHost) -> list[str]:
        """The host's own (not relayed) addresses, which its relays are asked to dial back."""
        return [address for address in self._own_addresses(host) if not is_relayed(address)]

    def _announce(self, own: list[str], reachability: Reachability) -> None:
        """Announce the reach made of ``own`` and the TCP address, trimmed as the relays' verdict says (``spec/node.md``, "Reachability")."""
        self.reachability = reachability
        self.address, left_out = fit([*own, self.tcp_address], reachable=reachability.status == PUBLIC)
        log.info("libp2p: %s", reachability.line())
        for part in left_out:
            log.warning("reach: %s left out of what this node announces (a reach holds at most %d characters)",
                        part, MAX_REACH)

    async def _connect_link(self, reach: str, expected: PublicKey) -> Channel:
        """A channel for a table's link (``node.table.mesh``); one through a relay is moved to a direct
        connection once a hole punch holds: the link ends as broken, and the mesh's redial goes direct.
        (Only links: a lobby connection that ended would cost its guest the seat.)"""
        channel = await self._connect(reach, expected)
        if self.p2p is not None and self._nursery is not None:
            self._nursery.start_soon(self._move_off_relay, self.p2p, channel)
        return channel

    @staticmethod
    async def _move_off_relay(p2p: P2PHost, channel: Channel) -> None:
        if await p2p.move_off_relay(channel):
            log.info("libp2p: a hole punch to %s holds; moving its channel off the relay", channel.peer.fingerprint)

    async def _admit_p2p(self, stream: trio.abc.Stream, key: PublicKey, source: str) -> None:
        # The libp2p host accepts streams while it makes its first reservations, before the journals are
        # reloaded: a peer's hello for a table not reloaded yet would start that table afresh over its journal.
        await self._reloaded.wait()
        await self._peers.admit(stream, f"libp2p {source}", source, expected=key)

    def settled(self) -> bool:
        return self.mesh.settled()

    async def wait_settled(self) -> None:
        await self.mesh.wait_settled()

    # ------------------------------------------------------------ connections

    async def _dispatch(self, channel: Channel, first: dict, who: str) -> None:
        """Serve an admitted connection (``node.peer.server``) by its first message."""
        try:
            if first["t"] == "hello":
                await self.mesh.accept(channel, first, who)
            elif first["t"] in ("list", "join"):
                await self._lobby(channel, first, who)
            elif first["t"] == "ttable":
                await self.tournaments.serve_table(channel, first, who)
            elif first["t"] == "tget":
                await self.tournaments.serve_transcript(channel, first, who)
            elif first["t"] == "tdone":
                await self.tournaments.serve_done(channel, first, who)
            elif first["t"] == "watch":
                await self.spectators.serve(channel, first, who)
        except JournalError as exc:
            log.error("peer %s: %s", who, exc)

    async def _lobby(self, channel: Channel, first: dict, who: str) -> None:
        """``list`` or ``join``: answered by the lobby host of the kind it names."""
        hosts: dict[str, ExchangeHost[Any, Any, Any, Any]] = {"table": self.lobby_host, "tournament": self.tournaments.host}
        host = hosts.get(first["kind"])
        if host is None:
            await channel.send(message("refused", code="unknown", reason=f"this node offers no {first['kind'][:32]!r}"))
        elif first["t"] == "list":
            await channel.send(message("offers", offers=host.listings()))
        else:
            await host.serve(channel, first, who)

    def _tables_seating(self, key: PublicKey) -> int:
        """At how many started tables here ``key`` holds another seat than ours."""
        return sum(any(table.seat_key(seat) == key for seat in range(table.seat_count) if seat != table.seat)
                   for table in self.tables.values())

    async def _connect(self, reach: str, expected: PublicKey | None = None) -> Channel:
        """A channel to the node at ``reach`` (``node.peer.dial``)."""
        return await connect(reach, expected, self.key, self.p2p, self.config.handshake_timeout)

    # ------------------------------------------------------------ NodeService

    async def list_tables(self, peer: str | None) -> tuple[LobbyTable, ...]:
        if peer is None:
            return tuple(self.lobby_host.listing(lobby) for lobby in self.lobby_host.hosted.values())
        return await self.lobby_guest.list(peer)

    async def host(self, game: str, variant: str, options: dict, seats: int) -> LobbyTable:
        return self.lobby_host.offer(game, variant, options, seats)

    async def join(self, peer: str, lobby_id: str, fingerprint: str | None = None) -> LobbyTable:
        if lobby_id in self.lobby_guest.joined or lobby_id in self.lobby_host.hosted:
            raise ServiceError(f"this node already sits at table {lobby_id}")
        if self.mesh.find(lobby_id) is not None:
            raise ServiceError(f"this node already sits at table {lobby_id}; it has started (open it from the list of your tables)")
        assert self._nursery is not None
        return await self.lobby_guest.join(self._nursery, peer, lobby_id, fingerprint)

    async def identity(self) -> Identity:
        return Identity(self.name, self.key.public.fingerprint, ",".join(alternatives(self.address, self.key.public)),
                        None if self.reachability is None else self.reachability.status)

    async def invite(self, lobby_id: str) -> str:
        return write_invite(lobby_id, self.key.public, self.address)

    async def my_tables(self) -> tuple[TableUpdate, ...]:
        return tuple(update for update in self.updates_hub.current() if update.phase != "closed")

    async def discovered(self) -> tuple[FoundTable, ...]:
        return () if self.discovery is None else self.discovery.found()

    async def leave(self, lobby_id: str) -> None:
        if not await self.lobby_guest.leave(lobby_id):
            await self.lobby_host.withdraw(lobby_id)

    async def start(self, lobby_id: str) -> TableUpdate:
        try:
            return (await self.lobby_host.start_table(lobby_id)).update()
        except JournalError as exc:
            raise ServiceError(f"table {lobby_id} could not start: {exc}", STORAGE) from None

    async def watch(self, peer: str, table: str, fingerprint: str | None = None) -> TableUpdate:
        assert self._nursery is not None
        return await self.watching.watch(self._nursery, peer, table, fingerprint, lambda table_id: table_id in self.tables)

    async def watch_invite(self, table: str) -> str:
        return write_invite(self._table(table).lobby, self.key.public, self.address)

    def _table(self, ref: str) -> LiveTable:
        table = self.mesh.find(ref)
        if table is None:
            if self.watching.find(ref) is not None:
                raise ServiceError(f"this node only watches table {ref}: a spectator has no seat to play", ILLEGAL)
            raise ServiceError(f"this node sits at no started table {ref}", NOT_FOUND)
        return table

    async def check(self, table: str, move: Any) -> Refusal | None:
        session = self._table(table).session
        try:
            return session.explain(move)
        except CodecError as exc:
            raise ServiceError(f"no move of any game: {exc}", ILLEGAL) from None

    async def read_deck(self, table: str, text: str) -> tuple[int, ...]:
        session = self._table(table).session
        if session.seat is None or session.decision_kind != DECK:
            raise ServiceError(f"no deck of this seat is due now at table {table}", ILLEGAL)
        try:
            return tuple(session.game.read_composition(session.state, session.seat, text))
        except RuleError as exc:  # a list the game reads, but no deck the seat may build: the rule's words
            raise ServiceError(say(exc.refusal), ILLEGAL) from None
        except GameError as exc:
            raise ServiceError(str(exc), ILLEGAL) from None

    async def move(self, table: str, move: Any) -> None:
        live = self._table(table)
        if live.session.unlisted(move):
            refusal = await self.check(table, move)
            why = say(refusal) if refusal is not None else "it is not one of this seat's legal moves now"
            raise ServiceError(f"{json.dumps(move, default=str)}: {why}", ILLEGAL)
        try:
            live.play(move)
        except (NotYourTurn, Rejected, GameError, CodecError) as exc:
            raise ServiceError(str(exc), ILLEGAL) from None
        except JournalError as exc:
            raise ServiceError(str(exc), STORAGE) from None

    async def resign(self, table: str) -> None:
        self._table(table).resign()

    async def chat(self, table: str, text: str) -> None:
        live = self._table(table)
        if self._chat_bucket is None:
            self._chat_bucket = TokenBucket(CHAT_RATE, CHAT_BURST)
        if not self._chat_bucket.take():
            raise ServiceError(f"not sent: a player says at most {CHAT_RATE:g} lines a second (a few at once); say it again in a moment")
        try:
            live.say(text)
        except ChatRefused as exc:
            raise ServiceError(f"not sent: {exc}") from None

    async def rematch(self, table: str) -> LobbyTable:
        live = self._table(table)
        if not live.finished:
            raise ServiceError(f"table {live.name} is still being played: a rematch is offered once it is over")
        offers = {line.seat: line.rematch for line in live.chat.lines if line.rematch}  # each seat's latest offer
        theirs = sorted(seat for seat in offers if seat != live.seat)
        mine = offers.get(live.seat)
        if theirs and (mine is None or theirs[0] < live.seat):  # both offered: the lower seat's offer is taken
            seat = theirs[0]
            lobby_id = offers[seat]
            if lobby_id in self.lobby_guest.joined or self.mesh.find(lobby_id) is not None:
                raise ServiceError(f"you accepted the rematch already (table {lobby_id}); it starts once every seat has")
            return await self.join(live.addresses[seat], lobby_id, live.seat_key(seat).fingerprint)
        if mine is not None:
            raise ServiceError(f"you offered a rematch already (table {mine}); it starts once every seat accepts")
        genesis = live.genesis.genesis
        assert self._nursery is not None
        lobby = self.lobby_host.offer(genesis.game, genesis.variant, dict(genesis.options), len(genesis.seats),
                                      starts_when_full=self._nursery)
        try:
            live.say(REMATCH_WORDS, rematch=lobby.lobby_id)
        except ChatRefused as exc:
            await self.lobby_host.withdraw(lobby.lobby_id)
            raise ServiceError(f"the rematch could not be offered: {exc}") from None
        return lobby

    async def transcript(self, table: str) -> bytes:
        watched = self.watching.find(table)
        return (self._table(table) if watched is None else watched).transcript_bytes()

    async def history(self, table: str, since: int) -> dict:
        if self.mesh.find(table) is None and self.watching.find(table) is not None:
            raise ServiceError(f"this node only watches table {table}: its numbered history is kept by the seats' nodes "
                               "(the transcript has every move)", ILLEGAL)
        live = self._table(table)
        result = live.session.result
        return {"entries": await live.history_entries(since), "replay": live.transcript_saved is not None,
                "result": None if result is None else describe(result, live.names)}

    async def replay_step(self, table: str, index: int) -> dict:
        live = self._table(table)
        transcript = live.transcript_saved
        if transcript is None:
            raise ServiceError(f"table {table} is not finished here yet: its replay opens once every seed is revealed", ILLEGAL)
        step = replay_step(await live.history.replayed(transcript), index, live.seat)
        if step is None:
            raise ServiceError(f"the replay of table {table} has no step at envelope {index}", ILLEGAL)
        return step

    async def proof(self, table: str, index: int) -> bytes:
        try:
            return self._table(table).proof_bytes(index)
        except (IndexError, ProofError) as exc:
            raise ServiceError(f"no proof for violation {index}: {exc}", ILLEGAL) from None

    async def host_tournament(self, participants: int, options: dict) -> TournamentLobby:
        return self.tournaments.offer(participants, options)

    async def join_tournament(self, peer: str, lobby_id: str) -> TournamentLobby:
        if lobby_id in self.tournaments.host.hosted:
            raise ServiceError(f"tournament {lobby_id} is offered by this node itself")
        return await self.tournaments.join(peer, lobby_id)

    async def list_tournaments(self, peer: str | None) -> tuple[TournamentLobby, ...]:
        if peer is None:
            return self.tournaments.host.lobbies()
        return await self.tournaments.guest.list(peer)

    async def tournament_status(self) -> tuple[TournamentStatus, ...]:
        return self.tournaments.statuses()

    async def updates(self) -> AsyncIterator[TableUpdate]:
        async for update in self.updates_hub.stream():
            yield update

