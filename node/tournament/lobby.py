"""Tournaments in the lobby: what differs from a table in the one exchange (``node.lobby.exchange``,
``spec/tournament.md``).

An entrant joins with the commitment to a secret draw value. Once the last place is taken the
host starts by itself: the record enters the participants in join order, the host first; a
guest signs only a record that enters it with its own commitment, at the size and options it
joined, and reveals its draw value with its signature. Every participant's node then stores
and runs the tournament.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from fairtable.node.lobby.exchange import ExchangeGuest, ExchangeHost, Kind, Offer
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.messages import BadMessage
from fairtable.node.service import ServiceError, TournamentLobby
from fairtable.protocol import SecretKey
from fairtable.protocol.tournament import DRAW_SIZE, Format, Participant, Record, RecordError, SignedRecord, Tournament, commitment

log = logging.getLogger("fairtable.node")

Started = Callable[[Tournament, tuple[str, ...]], None]
_LISTING = {"joined", "lobby", "options", "participants", "started"}


class TournamentKind(Kind[dict, TournamentLobby, Record, Tournament]):
    """A tournament: its record enters each participant with its draw commitment."""

    name = "tournament"

    def __init__(self, started: Started) -> None:
        self._started = started

    def listing(self, offer: Offer[dict], host: str) -> TournamentLobby:
        return TournamentLobby(offer.lobby_id, host, offer.seats, offer.terms, tuple(e.name for e in offer.entrants), offer.started)

    def listing_value(self, listing: TournamentLobby) -> dict:
        return {"joined": list(listing.joined), "lobby": listing.lobby_id, "options": listing.options,
                "participants": listing.participants, "started": listing.started}

    def parse_listing(self, value: Any, host: str) -> TournamentLobby:
        if not isinstance(value, dict) or set(value) != _LISTING:
            raise BadMessage("a tournament listing has the keys joined, lobby, options, participants and started")
        joined, lobby, options, size = value["joined"], value["lobby"], value["options"], value["participants"]
        if not isinstance(joined, (tuple, list)) or not all(isinstance(n, str) for n in joined) or not isinstance(lobby, str) \
                or not isinstance(options, dict) or type(size) is not int or not isinstance(value["started"], bool):
            raise BadMessage("a tournament listing's fields have the wrong types")
        return TournamentLobby(lobby, host, size, options, tuple(joined), value["started"])

    def seats(self, listing: TournamentLobby) -> int:
        return listing.participants

    def secret(self) -> tuple[bytes, bytes]:
        draw = os.urandom(DRAW_SIZE)
        return commitment(draw), draw

    def commit_problem(self, commit: bytes) -> str | None:
        return None if len(commit) == DRAW_SIZE else f"a tournament entrant commits to its draw value in {DRAW_SIZE} bytes"

    def record(self, offer: Offer[dict]) -> Record:
        return Record(tuple(Participant(e.key, e.name, e.commit) for e in offer.entrants), offer.terms, os.urandom(16))

    def parse_record(self, data: bytes) -> Record:
        return Record.from_bytes(data)

    def differs(self, listing: TournamentLobby, record: Record, me: int, commit: bytes) -> str | None:
        if record.participants[me].draw != commit:
            return "it does not enter this node with its draw commitment"
        if record.options != listing.options:
            return "its options differ from the tournament joined"
        return None

    def started(self, record: Record, signatures: tuple[bytes, ...], reveals: tuple[bytes, ...]) -> Tournament:
        return Tournament(SignedRecord(record, signatures), reveals)

    def begin(self, started: Tournament, lobby_id: str, addresses: tuple[str, ...]) -> None:
        self._started(started, addresses)


class TournamentHost(ExchangeHost[dict, TournamentLobby, Record, Tournament]):
    """Tournaments this node offers, by lobby id; each starts once its last place is taken."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], started: Started,
                 heartbeat: float, timeout: float) -> None:
        super().__init__(TournamentKind(started), key, name, address, heartbeat, timeout)
        self._nursery: trio.Nursery | None = None

    def offer(self, nursery: trio.Nursery, size: int, options: dict) -> TournamentLobby:
        try:
            Format.check(options, size)
        except RecordError as exc:
            raise ServiceError(str(exc)) from None
        self._nursery = nursery
        return self.listing(self.open(dict(options), size))

    def lobbies(self) -> tuple[TournamentLobby, ...]:
        """The offers still open, as service values."""
        return tuple(self.listing(offer) for offer in self.hosted.values() if not offer.started)

    def full(self, lobby_id: str) -> None:
        if self._nursery is not None:
            self._nursery.start_soon(self._start, lobby_id)

    async def _start(self, lobby_id: str) -> None:
        try:
            await self.start(lobby_id)
        except ServiceError as exc:
            log.warning("%s", exc)


class TournamentGuest(ExchangeGuest[dict, TournamentLobby, Record, Tournament]):
    """Tournaments this node joined at another node, until they start."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], started: Started,
                 connect: Callable[[str], Awaitable[Channel]], heartbeat: float, timeout: float) -> None:
        super().__init__(TournamentKind(started), key, name, address, connect, heartbeat, timeout)
