"""Lobby tables a host offers before they start: who sits where, and why a join is refused.

Entrants sit in join order, the host first; that order becomes the seat order of the
genesis. A lobby table is a frozen value: the node replaces it on every change.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from fairtable.node.service import LobbyTable
from fairtable.protocol import Genesis, PublicKey, Seat

NONCE_SIZE = 16


@dataclass(frozen=True)
class Entrant:
    name: str
    key: PublicKey
    address: str


@dataclass(frozen=True)
class Refusal:
    """Why a join is refused: ``code`` for programs (unknown, full, started, seated, version, bad-request)."""

    code: str
    reason: str


@dataclass(frozen=True)
class Lobby:
    lobby_id: str
    game: str
    variant: str
    options: dict
    seats: int
    entrants: tuple[Entrant, ...]
    started: bool = False

    @property
    def full(self) -> bool:
        return len(self.entrants) >= self.seats

    def refusal(self, key: PublicKey) -> Refusal | None:
        if self.started:
            return Refusal("started", f"table {self.lobby_id} has already started")
        if any(entrant.key == key for entrant in self.entrants):
            return Refusal("seated", f"you already sit at table {self.lobby_id}")
        if self.full:
            return Refusal("full", f"table {self.lobby_id} is full ({self.seats} seats)")
        return None

    def joined(self, entrant: Entrant) -> Lobby:
        return replace(self, entrants=self.entrants + (entrant,))

    def left(self, key: PublicKey) -> Lobby:
        return replace(self, entrants=tuple(entrant for entrant in self.entrants if entrant.key != key))

    def listing(self) -> LobbyTable:
        return LobbyTable(
            self.lobby_id, self.entrants[0].name, self.game, self.variant, self.options, self.seats,
            tuple(entrant.name for entrant in self.entrants), self.started,
        )

    def genesis(self) -> Genesis:
        """The genesis of this table: seats in join order and a fresh nonce, so the id is new."""
        seats = tuple(Seat(entrant.key, entrant.name) for entrant in self.entrants)
        return Genesis(self.game, self.variant, dict(self.options), seats, os.urandom(NONCE_SIZE))


def matches(listing: LobbyTable, genesis: Genesis, key: PublicKey, host: PublicKey) -> str | None:
    """Why a guest refuses to sign ``genesis`` for the table it joined, or None when it is that table."""
    if (genesis.game, genesis.variant, genesis.options) != (listing.game, listing.variant, listing.options):
        return "the genesis names another game, variant or options than the table joined"
    if len(genesis.seats) != listing.seats:
        return f"the genesis has {len(genesis.seats)} seats, the table {listing.seats}"
    if genesis.seat_of(key) is None:
        return "the genesis does not seat this node"
    if genesis.seats[0].key != host:
        return "the genesis does not seat the host first"
    return None
