"""The host's side of the lobby: tables offered here, the guests waiting at them, the start.

A guest keeps its lobby connection open while it waits; both sides ping every heartbeat. At
the start the host builds the genesis (seats in join order), collects every guest's signature
of it, journals the table and only then sends ``start`` (``spec/node.md``). A guest that
misses the ``start`` still gets the table from the host's first link to it (``Mesh``).
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

import trio

from fairtable.node.lobby.tables import Entrant, Lobby, Refusal
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelClosed, ChannelError
from fairtable.node.peer.messages import BadMessage, lobby_value, message, parse, version_refusal
from fairtable.node.service import LobbyTable, ServiceError, TableUpdate, check_new_table
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.live import LiveTable
from fairtable.node.table.mesh import Mesh
from fairtable.node.tasks import race
from fairtable.node.updates import Updates
from fairtable.protocol import Genesis, GenesisError, Seat, SecretKey, SignedGenesis

log = logging.getLogger("fairtable.node")

SILENCE_FACTOR = 3
"""A lobby connection silent for this many heartbeats is taken for a half-open one and closed."""


@dataclass
class _Guest:
    """A guest's lobby connection: its signature arrives through ``signatures``."""

    channel: Channel
    signatures: trio.MemorySendChannel[bytes]
    inbox: trio.MemoryReceiveChannel[bytes]


async def keep_alive(channel: Channel, period: float) -> None:
    """Ping a lobby connection, so both sides can tell a live wait from a half-open connection."""
    while True:
        await trio.sleep(period)
        await channel.send(message("ping"))


def parse_address(address: str) -> tuple[str, int]:
    """``"host:port"`` as ``(host, port)``; raises ValueError."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"an address is host:port, got {address!r}")
    return host.strip("[]"), int(port)


class Host:
    """Lobby tables this node offers, by lobby id."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], mesh: Mesh, updates: Updates,
                 heartbeat: float, timeout: float) -> None:
        self.key = key
        self._name = name
        self._address = address
        self.mesh = mesh
        self.updates = updates
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.hosted: dict[str, Lobby] = {}
        self._guests: dict[tuple[str, bytes], _Guest] = {}

    def listings(self) -> list[dict]:
        return [lobby_value(lobby.listing()) for lobby in self.hosted.values()]

    def offer(self, game: str, variant: str, options: dict, seats: int) -> LobbyTable:
        check_new_table(game, variant, options, seats)
        try:
            Genesis(game, variant, dict(options), (Seat(self.key.public, self._name()),), os.urandom(16))
        except GenesisError as exc:
            raise ServiceError(str(exc)) from None
        lobby_id = secrets.token_hex(4)
        self.hosted[lobby_id] = Lobby(lobby_id, game, variant, dict(options), seats,
                                      (Entrant(self._name(), self.key.public, self._address()),))
        self.updates.set(lobby_id, lambda: self.update(lobby_id))
        return self.hosted[lobby_id].listing()

    def update(self, lobby_id: str) -> TableUpdate:
        lobby = self.hosted.get(lobby_id)
        if lobby is None:
            return TableUpdate(lobby_id, None, "", "", None, (), "closed")
        listing = lobby.listing()
        return TableUpdate(lobby_id, None, listing.game, listing.variant, 0, listing.joined, "lobby")

    async def withdraw(self, lobby_id: str) -> None:
        lobby = self.hosted.get(lobby_id)
        if lobby is None or lobby.started:
            raise ServiceError(f"this node sits at no lobby table {lobby_id} that has not started")
        del self.hosted[lobby_id]
        for (guest_lobby, _), guest in list(self._guests.items()):
            if guest_lobby == lobby_id:
                await guest.channel.aclose()
        self.updates.touch(lobby_id)

    # ------------------------------------------------------------ a guest's connection

    async def serve(self, channel: Channel, join: dict, who: str) -> None:
        """A ``join`` arrived: seat the guest and hold its connection until the start or it leaves."""
        refusal = self._refusal(channel, join)
        if refusal is not None:
            log.info("peer %s: join refused: %s", who, refusal.reason)
            await channel.send(message("refused", code=refusal.code, reason=refusal.reason))
            return
        lobby_id = join["lobby"]
        self.hosted[lobby_id] = self.hosted[lobby_id].joined(Entrant(join["name"], channel.peer, join["addr"]))
        signatures, inbox = trio.open_memory_channel[bytes](1)
        guest = _Guest(channel, signatures, inbox)
        key = (lobby_id, channel.peer.raw)
        self._guests[key] = guest
        try:
            await channel.send(message("joined", table=lobby_value(self.hosted[lobby_id].listing())))
            await self._changed(lobby_id)
            await race(partial(keep_alive, channel, self.heartbeat), partial(self._messages, guest))
        except ChannelClosed:
            pass
        finally:
            del self._guests[key]
            await signatures.aclose()
            lobby = self.hosted.get(lobby_id)
            if lobby is not None and not lobby.started:
                self.hosted[lobby_id] = lobby.left(channel.peer)
                await self._changed(lobby_id)

    def _refusal(self, channel: Channel, join: dict) -> Refusal | None:
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
        return lobby.refusal(channel.peer)

    async def _messages(self, guest: _Guest) -> None:
        while True:
            received = parse(await guest.channel.receive(timeout=SILENCE_FACTOR * self.heartbeat), "leave", "ping", "signature")
            if received["t"] == "leave":
                return
            if received["t"] == "signature":
                try:
                    guest.signatures.send_nowait(received["sig"])
                except trio.WouldBlock:
                    raise BadMessage("a second signature") from None

    async def _changed(self, lobby_id: str) -> None:
        """Tell local clients and every guest of the table who sits at it now."""
        self.updates.touch(lobby_id)
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

    # ------------------------------------------------------------ the start

    async def start(self, lobby_id: str) -> LiveTable:
        lobby = self.hosted.get(lobby_id)
        if lobby is None or lobby.started:
            raise ServiceError(f"this node hosts no lobby table {lobby_id} that has not started")
        if not lobby.full:
            raise ServiceError(f"table {lobby_id} has {len(lobby.entrants)} of its {lobby.seats} seats taken")
        self.hosted[lobby_id] = lobby = replace(lobby, started=True)
        guests = [self._guests[(lobby_id, entrant.key.raw)] for entrant in lobby.entrants[1:]]
        genesis = lobby.genesis()
        TableFiles(self.mesh.root, genesis.table_id).secret()
        try:
            signatures = [genesis.sign(self.key), *await self._signatures(genesis, guests)]
            signed = SignedGenesis(genesis, tuple(signatures))
        except (ChannelError, GenesisError, trio.EndOfChannel, trio.TooSlowError) as exc:
            present = lobby.entrants[:1] + tuple(e for e in lobby.entrants[1:] if (lobby_id, e.key.raw) in self._guests)
            self.hosted[lobby_id] = replace(lobby, entrants=present, started=False)
            await self._changed(lobby_id)
            raise ServiceError(f"table {lobby_id} could not start: {str(exc) or 'a guest left'}") from None
        addresses = tuple(entrant.address for entrant in lobby.entrants)
        table = self.mesh.start(signed, lobby_id, addresses)
        await self._announce(table, guests)
        return table

    async def _announce(self, table: LiveTable, guests: list[_Guest]) -> None:
        """Tell the guests the table started. One that misses it starts from our first link."""
        start = message("start", genesis=table.genesis.to_value(), peers=list(table.addresses))
        for guest in guests:
            try:
                await guest.channel.send(start)
            except ChannelError as exc:
                log.warning("table %s: a guest missed the start message (it starts from our first link): %s", table.name, exc)

    async def _signatures(self, genesis: Genesis, guests: list[_Guest]) -> list[bytes]:
        request = message("sign", genesis=genesis.encoded)
        for guest in guests:
            await guest.channel.send(request)
        with trio.fail_after(self.timeout):
            return [await guest.inbox.receive() for guest in guests]

