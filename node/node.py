"""The node: one trio process, one listening port, its lobby tables and every table it sits at.

Every connection is a secure channel (``node.peer.channel``), admitted within the connection
budgets of ``node.peer.server``. Its first message says what it is for (``spec/node.md``):
``list`` or ``join`` (the lobby, answered by the host) or ``hello`` (a link of a started
table's mesh, which the lower seat opens to the higher). The node implements
:class:`~node.service.NodeService`, through which local clients drive it.

Whatever a peer sends, the node logs a line naming the peer and the reason (rate-limited, so
a flood writes summaries) and closes that connection or refuses that envelope; nothing a
peer does raises out of the node.
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import trio

from fairtable.games import registry
from fairtable.games.contract import GameError
from fairtable.node.api.updates import Updates
from fairtable.node.keystore import load_or_create_secret_key
from fairtable.node.lobby.tables import Entrant, Lobby, Refusal, matches
from fairtable.node.peer.channel import Channel, open_channel
from fairtable.node.peer.errors import ChannelClosed, ChannelError
from fairtable.node.peer.messages import BadMessage, lobby_from_value, lobby_value, message, parse, version_refusal
from fairtable.node.peer.server import PeerLimits, PeerServer
from fairtable.node.service import ILLEGAL, NOT_FOUND, LobbyTable, ServiceError, TableUpdate, check_new_table
from fairtable.node.table.journal import JournalError, TableFiles
from fairtable.node.table.link import SILENCE_FACTOR, Link, hello
from fairtable.node.table.live import LiveTable, Timing
from fairtable.node.tasks import race
from fairtable.protocol.codec import CodecError, encode
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import PROTOCOL_VERSION, Genesis, GenesisError, Seat, SignedGenesis
from fairtable.protocol.identity import PublicKey
from fairtable.protocol.session.errors import NotYourTurn, Rejected
from fairtable.protocol.session.slots import CHOICE, MOVE
from fairtable.protocol.testing import make_bot

log = logging.getLogger("fairtable.node")

MIN_BACKOFF = 0.05
MAX_BACKOFF = 1.0
FINISHED_DIAL_ATTEMPTS = 5
"""A finished table's link is redialled this often at most, to hand a peer the end it may lack."""


def parse_address(address: str) -> tuple[str, int]:
    """``"host:port"`` as ``(host, port)``; raises ValueError."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"an address is host:port, got {address!r}")
    return host.strip("[]"), int(port)


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


@dataclass
class _Guest:
    """A guest's lobby connection, on the host: its signature arrives through ``signatures``."""

    channel: Channel
    signatures: trio.MemorySendChannel
    inbox: trio.MemoryReceiveChannel


@dataclass
class _Seated:
    """A lobby table this node joined as a guest, before it starts."""

    listing: LobbyTable
    channel: Channel
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)


class Node:
    """Construct, then ``await run()``; ``address`` is set once it listens."""

    def __init__(self, config: NodeConfig) -> None:
        self.config = config
        self.key = load_or_create_secret_key(config.data / "identity.pem")
        self.name = config.name or f"player-{self.key.public.fingerprint[:4].lower()}"
        self.tables_root = config.data / "tables"
        self.address = ""
        self.tables: dict[bytes, LiveTable] = {}
        self.hosted: dict[str, Lobby] = {}
        self.seated: dict[str, _Seated] = {}
        self.updates_hub = Updates()
        self._guests: dict[tuple[str, bytes], _Guest] = {}
        self._links: dict[tuple[bytes, int], trio.CancelScope] = {}
        self._complete: set[tuple[bytes, int]] = set()
        self._peers = PeerServer(self.key, config.peer_limits, ("hello", "list", "join"), self._dispatch,
                                 self._tables_seating)
        self._nursery: trio.Nursery  # set by run(); nothing before it starts tasks

    # ------------------------------------------------------------ running

    async def run(self, services: Sequence[Callable[[Node], Awaitable[None]]] = (), *,
                  task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen, reload every journal, reconnect, serve; ``services`` (e.g. the client API) start once listening."""
        listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.host)  # OSError before any task
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            port = listeners[0].socket.getsockname()[1]
            self.address = self.config.advertise or f"{self.config.host}:{port}"
            for files in TableFiles.existing(self.tables_root):
                self._reload(files)
            nursery.start_soon(self._peers.serve, listeners)
            for service in services:
                nursery.start_soon(service, self)
            task_status.started(self)

    def settled(self) -> bool:
        """Every table here is finished and every peer of it confirmed holding all of it."""
        return all(
            table.finished and all((table_id, seat) in self._complete for seat in range(table.seat_count) if seat != table.seat)
            for table_id, table in self.tables.items()
        )

    def _reload(self, files: TableFiles) -> None:
        try:
            genesis, envelopes, journal = files.load_journal()
            lobby, addresses = files.read_peers()
        except (JournalError, ProtocolError) as exc:
            log.error("table %s: cannot reload: %s", files.table_id.hex()[:12], exc)
            return
        seat = genesis.genesis.seat_of(self.key.public)
        if seat is None or len(addresses) != len(genesis.genesis.seats):
            log.error("table %s: journal does not seat this node's key; skipped", files.table_id.hex()[:12])
            journal.close()
            return
        table = self._new_table(files, journal, genesis, seat, lobby, addresses, tuple(envelopes))
        log.info("table %s: reloaded %d envelopes from the journal", table.name, len(table.envelopes))
        self._open(table, dial_attempts=FINISHED_DIAL_ATTEMPTS if table.finished else None)

    def _new_table(self, files, journal, genesis: SignedGenesis, seat: int, lobby: str, addresses: tuple[str, ...],
                   envelopes=()) -> LiveTable:
        bot = None
        if self.config.bot is not None:
            bot = make_bot(registry.get(genesis.genesis.game), self.config.bot, random.Random())
        return LiveTable(files, journal, genesis, seat, self.key, lobby=lobby, addresses=addresses, bot=bot,
                         timing=self.config.timing, envelopes=envelopes)

    def _open(self, table: LiveTable, dial_attempts: int | None = None) -> None:
        """Start a table's timers and its links to the higher seats."""
        self.tables[table.table_id] = table
        table.on_change = lambda table: self.updates_hub.touch(table.lobby)
        self.updates_hub.set(table.lobby, table.update)
        self._nursery.start_soon(table.keep_time)
        for seat in range(table.seat + 1, table.seat_count):
            self._nursery.start_soon(self._dial, table, seat, dial_attempts)

    # ------------------------------------------------------------ incoming connections

    async def _dispatch(self, channel: Channel, first: dict, who: str) -> None:
        """Serve an admitted connection (``node.peer.server``) by its first message."""
        if first["t"] == "hello":
            await self._accept_link(channel, first, who)
        elif first["t"] == "list":
            await channel.send(message("tables", tables=[lobby_value(lobby.listing()) for lobby in self.hosted.values()]))
        else:
            await self._host_guest(channel, first, who)

    def _tables_seating(self, key: PublicKey) -> int:
        """At how many started tables here ``key`` holds another seat than ours."""
        return sum(any(table.seat_key(seat) == key for seat in range(table.seat_count) if seat != table.seat)
                   for table in self.tables.values())

    async def _accept_link(self, channel: Channel, greeting: dict, who: str) -> None:
        refusal = version_refusal(greeting)
        if refusal is not None:
            raise BadMessage(refusal)
        table = self.tables.get(greeting["table"])
        if table is None:
            raise BadMessage(f"hello for table {greeting['table'].hex()[:12]}, at which this node does not sit")
        seat = greeting["seat"]
        if seat >= table.seat_count or seat == table.seat:
            raise BadMessage(f"hello names seat {seat}, which is no other seat of table {table.name}")
        if channel.peer != table.seat_key(seat):
            raise BadMessage(f"hello claims seat {seat}, but the channel authenticated another key than that seat's")
        await channel.send(hello(table))
        await self._run_link(channel, table, seat, greeting, who)

    # ------------------------------------------------------------ the table mesh

    async def _connect(self, address: str, expected: PublicKey | None = None) -> Channel:
        host, port = parse_address(address)
        with trio.fail_after(self.config.handshake_timeout):
            stream = await trio.open_tcp_stream(host, port)
        return await open_channel(stream, self.key, expected=expected, timeout=self.config.handshake_timeout)

    async def _dial(self, table: LiveTable, seat: int, attempts: int | None) -> None:
        """Keep a link to ``seat`` until both sides hold the finished table (redial with backoff)."""
        delay = MIN_BACKOFF
        key = (table.table_id, seat)
        address = table.addresses[seat]
        who = f"{address} (seat {seat} of {table.name})"
        while key not in self._complete:
            if table.finished:
                if attempts == 0:
                    return
                attempts = FINISHED_DIAL_ATTEMPTS if attempts is None else attempts - 1
            try:
                channel = await self._connect(address, table.seat_key(seat))
                async with channel:
                    await channel.send(hello(table))
                    reply = parse(await channel.receive(timeout=self.config.handshake_timeout), "hello")
                    if reply["table"] != table.table_id or reply["seat"] != seat:
                        raise BadMessage("the hello in reply names another table or seat")
                    delay = MIN_BACKOFF
                    await self._run_link(channel, table, seat, reply, who)
            except (OSError, ValueError, trio.TooSlowError, ChannelError) as exc:
                log.debug("peer %s: not reachable: %s", who, exc)
            except BadMessage as exc:
                log.warning("peer %s: %s", who, exc)
            await trio.sleep(delay)
            delay = min(2 * delay, MAX_BACKOFF)

    async def _run_link(self, channel: Channel, table: LiveTable, seat: int, greeting: dict, who: str) -> None:
        """Run one link; a newer link to the same seat replaces it."""
        key = (table.table_id, seat)
        previous = self._links.pop(key, None)
        if previous is not None:
            previous.cancel()
        link = Link(channel, table, seat, greeting, heartbeat=self.config.heartbeat, who=who)
        with trio.CancelScope() as scope:
            self._links[key] = scope
            reason = await link.run()
            log.info("peer %s: link ended: %s", who, reason)
        if self._links.get(key) is scope:
            del self._links[key]
        if link.complete:
            self._complete.add(key)

    # ------------------------------------------------------------ lobby: host side

    async def _host_guest(self, channel: Channel, join: dict, who: str) -> None:
        refusal = self._join_refusal(channel.peer, join)
        if refusal is not None:
            log.info("peer %s: join refused: %s", who, refusal.reason)
            await channel.send(message("refused", code=refusal.code, reason=refusal.reason))
            return
        lobby_id = join["lobby"]
        self.hosted[lobby_id] = self.hosted[lobby_id].joined(Entrant(join["name"], channel.peer, join["addr"]))
        signatures, inbox = trio.open_memory_channel(1)
        guest = _Guest(channel, signatures, inbox)
        key = (lobby_id, channel.peer.raw)
        self._guests[key] = guest
        try:
            await channel.send(message("joined", table=lobby_value(self.hosted[lobby_id].listing())))
            await self._lobby_changed(lobby_id)
            await race(partial(_keep_alive, channel, self.config.heartbeat), partial(self._guest_messages, guest))
        except ChannelClosed:
            pass
        finally:
            del self._guests[key]
            await signatures.aclose()
            lobby = self.hosted.get(lobby_id)
            if lobby is not None and not lobby.started:
                self.hosted[lobby_id] = lobby.left(channel.peer)
                await self._lobby_changed(lobby_id)

    def _join_refusal(self, key: PublicKey, join: dict) -> Refusal | None:
        reason = version_refusal(join)
        if reason is not None:
            return Refusal("version", reason)
        lobby = self.hosted.get(join["lobby"])
        if lobby is None:
            return Refusal("unknown", f"no table {join['lobby']!r} is offered here")
        try:
            parse_address(join["addr"])
        except ValueError as exc:
            return Refusal("bad-request", str(exc))
        return lobby.refusal(key)

    async def _guest_messages(self, guest: _Guest) -> None:
        silence = SILENCE_FACTOR * self.config.heartbeat
        while True:
            received = parse(await guest.channel.receive(timeout=silence), "leave", "ping", "signature")
            if received["t"] == "leave":
                return
            if received["t"] == "signature":
                try:
                    guest.signatures.send_nowait(received["sig"])
                except trio.WouldBlock:
                    raise BadMessage("a second signature") from None

    async def _lobby_changed(self, lobby_id: str) -> None:
        """Tell local clients and every guest of the table who sits at it now."""
        self.updates_hub.touch(lobby_id)
        lobby = self.hosted.get(lobby_id)
        if lobby is None:
            return
        update = message("lobby", table=lobby_value(lobby.listing()))
        for (guest_lobby, _), guest in list(self._guests.items()):
            if guest_lobby == lobby_id:
                try:
                    await guest.channel.send(update)
                except ChannelError:
                    continue

    def _lobby_update(self, lobby_id: str) -> TableUpdate:
        lobby = self.hosted.get(lobby_id)
        seated = self.seated.get(lobby_id)
        listing = lobby.listing() if lobby is not None else seated.listing if seated is not None else None
        if listing is None:
            return TableUpdate(lobby_id, None, "", "", None, (), "closed")
        return TableUpdate(lobby_id, None, listing.game, listing.variant, 0 if lobby is not None else None,
                           listing.joined, "lobby")

    # ------------------------------------------------------------ lobby: guest side

    async def _seated_session(self, lobby_id: str, seated: _Seated, host: PublicKey, who: str) -> None:
        """Hold a joined lobby table's connection until the host starts it (or it ends)."""
        channel = seated.channel
        try:
            with seated.scope:
                async with channel:
                    await race(partial(_keep_alive, channel, self.config.heartbeat),
                               partial(self._await_start, lobby_id, seated, host))
        except (ChannelError, BadMessage) as exc:
            log.warning("peer %s: lobby table %s: %s", who, lobby_id, exc)
        finally:
            del self.seated[lobby_id]
            self.updates_hub.touch(lobby_id)

    async def _await_start(self, lobby_id: str, seated: _Seated, host: PublicKey) -> None:
        silence = SILENCE_FACTOR * self.config.heartbeat
        signed_id = None
        while True:
            received = parse(await seated.channel.receive(timeout=silence), "lobby", "ping", "sign", "start")
            if received["t"] == "lobby":
                seated.listing = lobby_from_value(received["table"])
                self.updates_hub.touch(lobby_id)
            elif received["t"] == "sign":
                try:
                    genesis = Genesis.from_bytes(received["genesis"])
                except GenesisError as exc:
                    raise BadMessage(f"genesis to sign: {exc}") from None
                why = matches(seated.listing, genesis, self.key.public, host)
                if why is not None:
                    raise BadMessage(f"refusing to sign: {why}")
                TableFiles(self.tables_root, genesis.table_id).secret()
                signed_id = genesis.table_id
                await seated.channel.send(message("signature", sig=genesis.sign(self.key)))
            elif received["t"] == "start":
                self._start_seated(lobby_id, received, signed_id)
                return

    def _start_seated(self, lobby_id: str, start: dict, signed_id: bytes | None) -> None:
        try:
            genesis = SignedGenesis.from_value(start["genesis"])
        except GenesisError as exc:
            raise BadMessage(f"start: {exc}") from None
        addresses = start["peers"]
        if genesis.table_id != signed_id:
            raise BadMessage("start names a genesis this node did not sign")
        if len(addresses) != len(genesis.genesis.seats) or not all(isinstance(a, str) for a in addresses):
            raise BadMessage("start must give one address per seat")
        files = TableFiles(self.tables_root, genesis.table_id)
        files.write_peers(lobby_id, tuple(addresses))
        journal = files.start_journal(genesis)
        seat = genesis.genesis.seat_of(self.key.public)
        self._open(self._new_table(files, journal, genesis, seat, lobby_id, tuple(addresses)))

    # ------------------------------------------------------------ NodeService

    async def list_tables(self, peer: str | None) -> tuple[LobbyTable, ...]:
        if peer is None:
            return tuple(lobby.listing() for lobby in self.hosted.values())
        try:
            channel = await self._connect(peer)
            async with channel:
                await channel.send(message("list", v=PROTOCOL_VERSION))
                reply = parse(await channel.receive(timeout=self.config.handshake_timeout), "tables")
                return tuple(lobby_from_value(value) for value in reply["tables"])
        except (OSError, ValueError, trio.TooSlowError, ChannelError, BadMessage) as exc:
            raise ServiceError(f"cannot list the tables at {peer}: {exc}") from None

    async def host(self, game: str, variant: str, options: dict, seats: int) -> LobbyTable:
        check_new_table(game, variant, options, seats)
        try:
            Genesis(game, variant, dict(options), (Seat(self.key.public, self.name),), os.urandom(16))
        except GenesisError as exc:
            raise ServiceError(str(exc)) from None
        lobby_id = secrets.token_hex(4)
        self.hosted[lobby_id] = Lobby(lobby_id, game, variant, dict(options), seats,
                                      (Entrant(self.name, self.key.public, self.address),))
        self.updates_hub.set(lobby_id, lambda: self._lobby_update(lobby_id))
        return self.hosted[lobby_id].listing()

    async def join(self, peer: str, lobby_id: str) -> LobbyTable:
        if lobby_id in self.seated or lobby_id in self.hosted:
            raise ServiceError(f"this node already sits at table {lobby_id}")
        try:
            channel = await self._connect(peer)
        except (OSError, ValueError, trio.TooSlowError, ChannelError) as exc:
            raise ServiceError(f"cannot reach {peer}: {exc}") from None
        try:
            await channel.send(message("join", v=PROTOCOL_VERSION, lobby=lobby_id, name=self.name, addr=self.address))
            reply = parse(await channel.receive(timeout=self.config.handshake_timeout), "joined", "refused")
            if reply["t"] == "refused":
                raise ServiceError(f"{peer} refused: {reply['reason']}")
            listing = lobby_from_value(reply["table"])
        except (ChannelError, BadMessage, ServiceError) as exc:
            await channel.aclose()
            raise exc if isinstance(exc, ServiceError) else ServiceError(f"joining at {peer} failed: {exc}") from None
        seated = _Seated(listing, channel)
        self.seated[lobby_id] = seated
        self.updates_hub.set(lobby_id, lambda: self._lobby_update(lobby_id))
        self._nursery.start_soon(self._seated_session, lobby_id, seated, channel.peer, f"{peer} ({channel.peer.fingerprint})")
        return listing

    async def leave(self, lobby_id: str) -> None:
        seated = self.seated.get(lobby_id)
        if seated is not None:
            try:
                await seated.channel.send(message("leave"))
            except ChannelError:
                pass
            seated.scope.cancel()
            return
        lobby = self.hosted.get(lobby_id)
        if lobby is None or lobby.started:
            raise ServiceError(f"this node sits at no lobby table {lobby_id} that has not started")
        del self.hosted[lobby_id]
        for (guest_lobby, _), guest in list(self._guests.items()):
            if guest_lobby == lobby_id:
                await guest.channel.aclose()
        self.updates_hub.touch(lobby_id)

    async def start(self, lobby_id: str) -> TableUpdate:
        lobby = self.hosted.get(lobby_id)
        if lobby is None or lobby.started:
            raise ServiceError(f"this node hosts no lobby table {lobby_id} that has not started")
        if not lobby.full:
            raise ServiceError(f"table {lobby_id} has {len(lobby.entrants)} of its {lobby.seats} seats taken")
        self.hosted[lobby_id] = lobby = replace(lobby, started=True)
        guests = [self._guests[(lobby_id, entrant.key.raw)] for entrant in lobby.entrants[1:]]
        genesis = lobby.genesis()
        files = TableFiles(self.tables_root, genesis.table_id)
        files.secret()
        try:
            signatures = [genesis.sign(self.key)] + await self._collect_signatures(genesis, guests)
            signed = SignedGenesis(genesis, tuple(signatures))
        except (ChannelError, GenesisError, trio.EndOfChannel, trio.TooSlowError) as exc:
            present = lobby.entrants[:1] + tuple(e for e in lobby.entrants[1:] if (lobby_id, e.key.raw) in self._guests)
            self.hosted[lobby_id] = replace(lobby, entrants=present, started=False)
            await self._lobby_changed(lobby_id)
            raise ServiceError(f"table {lobby_id} could not start: {str(exc) or 'a guest left'}") from None
        addresses = tuple(entrant.address for entrant in lobby.entrants)
        files.write_peers(lobby_id, addresses)
        table = self._new_table(files, files.start_journal(signed), signed, 0, lobby_id, addresses)
        self._open(table)
        start = message("start", genesis=signed.to_value(), peers=list(addresses))
        for guest in guests:
            try:
                await guest.channel.send(start)
            except ChannelError as exc:
                log.warning("table %s: a guest missed the start message: %s", table.name, exc)
        return table.update()

    async def _collect_signatures(self, genesis: Genesis, guests: list[_Guest]) -> list[bytes]:
        request = message("sign", genesis=genesis.encoded)
        for guest in guests:
            await guest.channel.send(request)
        with trio.fail_after(self.config.handshake_timeout):
            return [await guest.inbox.receive() for guest in guests]

    def _table(self, ref: str) -> LiveTable:
        for table in self.tables.values():
            if ref in (table.table_id.hex(), table.lobby):
                return table
        raise ServiceError(f"this node sits at no started table {ref}", NOT_FOUND)

    async def move(self, table: str, move: Any) -> None:
        live = self._table(table)
        session = live.session
        if session.decision_kind in (MOVE, CHOICE) and encode(move) not in {encode(m) for m in session.legal_moves()}:
            raise ServiceError(f"{json.dumps(move, default=str)} is not one of this seat's legal moves now", ILLEGAL)
        try:
            live.play(move)
        except (NotYourTurn, Rejected, GameError, CodecError) as exc:
            raise ServiceError(str(exc), ILLEGAL) from None

    async def resign(self, table: str) -> None:
        self._table(table).resign()

    async def transcript(self, table: str) -> bytes:
        return self._table(table).transcript_bytes()

    async def updates(self) -> AsyncIterator[TableUpdate]:
        async for update in self.updates_hub.stream():
            yield update


async def _keep_alive(channel: Channel, period: float) -> None:
    """Ping a lobby connection, so both sides can tell a live wait from a half-open connection."""
    while True:
        await trio.sleep(period)
        await channel.send(message("ping"))

