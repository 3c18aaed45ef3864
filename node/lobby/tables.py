"""Tables in the lobby: what differs from a tournament in the one exchange (``exchange.py``).

The record is the genesis (seats in join order, the host first, a fresh nonce); a guest signs
only the game, variant, options and number of seats it joined, creating the table's secret
first (so it can always accept the table later); the start starts the table in the mesh. A
guest that misses the ``start`` still gets the table from the host's first link (``Mesh``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from fairtable.node.lobby.exchange import ExchangeGuest, ExchangeHost, Kind, Offer
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.messages import BadMessage
from fairtable.node.service import LobbyTable, ServiceError, TableUpdate, check_new_table
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.live import LiveTable
from fairtable.node.table.mesh import Mesh
from fairtable.node.updates import Updates
from fairtable.protocol import Genesis, GenesisError, Seat, SecretKey, SignedGenesis

log = logging.getLogger("fairtable.node")

NONCE_SIZE = 16
_LISTING = {"game", "host", "joined", "lobby", "options", "seats", "started", "variant"}


@dataclass(frozen=True)
class Terms:
    """What a table host offers: the game, its variant and options."""

    game: str
    variant: str
    options: dict


def _text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 256


class TableKind(Kind[Terms, LobbyTable, Genesis, SignedGenesis]):
    """A table: its record is the genesis, and it starts in the mesh."""

    name = "table"

    def __init__(self, mesh: Mesh) -> None:
        self.mesh = mesh

    def listing(self, offer: Offer[Terms], host: str) -> LobbyTable:
        terms = offer.terms
        return LobbyTable(offer.lobby_id, offer.entrants[0].name, terms.game, terms.variant, terms.options, offer.seats,
                          tuple(entrant.name for entrant in offer.entrants), offer.started)

    def listing_value(self, listing: LobbyTable) -> dict:
        return {"game": listing.game, "host": listing.host, "joined": list(listing.joined), "lobby": listing.lobby_id,
                "options": listing.options, "seats": listing.seats, "started": listing.started, "variant": listing.variant}

    def parse_listing(self, value: Any, host: str) -> LobbyTable:
        if not isinstance(value, dict) or set(value) != _LISTING:
            raise BadMessage(f"a lobby table is a map with the keys {sorted(_LISTING)}")
        checks = (
            _text(value["game"]), _text(value["host"]), _text(value["lobby"]), _text(value["variant"]),
            isinstance(value["options"], dict), type(value["seats"]) is int and value["seats"] >= 0,
            isinstance(value["started"], bool), isinstance(value["joined"], (tuple, list)) and all(_text(n) for n in value["joined"]),
        )
        if not all(checks):
            raise BadMessage("a lobby table field is malformed")
        return LobbyTable(value["lobby"], value["host"], value["game"], value["variant"], value["options"],
                          value["seats"], tuple(value["joined"]), value["started"])

    def seats(self, listing: LobbyTable) -> int:
        return listing.seats

    def record(self, offer: Offer[Terms]) -> Genesis:
        seats = tuple(Seat(entrant.key, entrant.name) for entrant in offer.entrants)
        return Genesis(offer.terms.game, offer.terms.variant, dict(offer.terms.options), seats, os.urandom(NONCE_SIZE))

    def parse_record(self, data: bytes) -> Genesis:
        return Genesis.from_bytes(data)

    def differs(self, listing: LobbyTable, record: Genesis, me: int, commit: bytes) -> str | None:
        if (record.game, record.variant, record.options) != (listing.game, listing.variant, listing.options):
            return "the genesis names another game, variant or options than the table joined"
        return None

    def prepare(self, record: Genesis) -> None:
        TableFiles(self.mesh.root, record.table_id).secret()

    def started(self, record: Genesis, signatures: tuple[bytes, ...], reveals: tuple[bytes, ...]) -> SignedGenesis:
        signed = SignedGenesis(record, signatures)
        odd = next((index for index, reveal in enumerate(reveals) if reveal != b""), None)
        if odd is not None:
            raise GenesisError(f"{record.signer_label(odd)} revealed a value, but a table has none")
        return signed

    def begin(self, started: SignedGenesis, lobby_id: str, addresses: tuple[str, ...]) -> None:
        if started.table_id not in self.mesh.tables:  # the host's first link may have started it already
            self.mesh.start(started, lobby_id, addresses)


def lobby_update(lobby_id: str, listing: LobbyTable | None, seat: int | None) -> TableUpdate:
    """What local clients see of a lobby table this node sits at (in ``seat``, when known): closed once it is gone."""
    if listing is None:
        return TableUpdate(lobby_id, None, "", "", None, (), "closed")
    return TableUpdate(lobby_id, None, listing.game, listing.variant, seat, listing.joined, "lobby")


class Host(ExchangeHost[Terms, LobbyTable, Genesis, SignedGenesis]):
    """Lobby tables this node offers, by lobby id."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], mesh: Mesh, updates: Updates,
                 heartbeat: float, timeout: float) -> None:
        super().__init__(TableKind(mesh), key, name, address, heartbeat, timeout)
        self.mesh = mesh
        self.updates = updates
        self._starting: dict[str, trio.Nursery] = {}
        """The offers that start by themselves once full, with the nursery they start in."""

    def offer(self, game: str, variant: str, options: dict, seats: int, starts_when_full: trio.Nursery | None = None) -> LobbyTable:
        """Offer a table; with ``starts_when_full`` (a nursery to start it in) it starts by itself once
        every seat is taken, as a rematch does (its seats accepted by joining)."""
        check_new_table(game, variant, options, seats)
        try:
            Genesis(game, variant, dict(options), (Seat(self.key.public, self._name()),), os.urandom(NONCE_SIZE))
        except GenesisError as exc:
            raise ServiceError(str(exc)) from None
        offer = self.open(Terms(game, variant, dict(options)), seats)
        if starts_when_full is not None:
            self._starting[offer.lobby_id] = starts_when_full
        self.updates.set(offer.lobby_id, lambda: self.update(offer.lobby_id))
        return self.listing(offer)

    def full(self, lobby_id: str) -> None:
        nursery = self._starting.get(lobby_id)
        if nursery is not None:
            nursery.start_soon(self._start_full, lobby_id)

    async def _start_full(self, lobby_id: str) -> None:
        try:
            await self.start(lobby_id)
            self._starting.pop(lobby_id, None)
        except ServiceError as exc:
            log.warning("%s", exc)

    def changed(self, lobby_id: str) -> None:
        self.updates.touch(lobby_id)

    def update(self, lobby_id: str) -> TableUpdate:
        offer = self.hosted.get(lobby_id)
        return lobby_update(lobby_id, None if offer is None else self.listing(offer), 0)

    async def start_table(self, lobby_id: str) -> LiveTable:
        """Start the table: every seat signs its genesis; it is then the mesh's."""
        return self.mesh.tables[(await self.start(lobby_id)).table_id]


class Guest(ExchangeGuest[Terms, LobbyTable, Genesis, SignedGenesis]):
    """Lobby tables this node joined, by lobby id."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], mesh: Mesh, updates: Updates,
                 connect: Callable[[str], Awaitable[Channel]], heartbeat: float, timeout: float) -> None:
        super().__init__(TableKind(mesh), key, name, address, connect, heartbeat, timeout)
        self.updates = updates

    async def join(self, nursery: trio.Nursery, peer: str, lobby_id: str, fingerprint: str | None = None) -> LobbyTable:
        listing = await super().join(nursery, peer, lobby_id, fingerprint)
        self.updates.set(lobby_id, lambda: self.update(lobby_id))
        return listing

    def changed(self, lobby_id: str) -> None:
        self.updates.touch(lobby_id)

    def update(self, lobby_id: str) -> TableUpdate:
        joined = self.joined.get(lobby_id)
        return lobby_update(lobby_id, None if joined is None else joined.listing, None)
