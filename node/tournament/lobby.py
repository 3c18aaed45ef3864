"""The tournament lobby: a participant's node offers a tournament, others join it, and once it
is full every participant signs the record and reveals its draw value (``spec/tournament.md``).

A guest sends its draw commitment with ``tjoin`` and keeps the connection open, as at a table
lobby. When the last place is taken the host builds the record (participants in join order,
the host first), sends it with ``tsign``; each guest checks it is the tournament it joined
and answers ``tsig`` with its signature and its draw value. The host checks them all, stores
the tournament and sends ``tstart`` with the tournament file and every participant's address.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial

import trio

from fairtable.node.lobby.host import SILENCE_FACTOR, keep_alive, parse_address
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelClosed, ChannelError
from fairtable.node.peer.messages import BadMessage, message, parse, version_refusal
from fairtable.node.service import ServiceError, TournamentLobby
from fairtable.node.tasks import race
from fairtable.protocol import PROTOCOL_VERSION, PublicKey, SecretKey
from fairtable.protocol.tournament import DRAW_SIZE, Format, Participant, Record, RecordError, SignedRecord, Tournament, commitment

log = logging.getLogger("fairtable.node")

Started = Callable[[Tournament, tuple[str, ...]], None]


@dataclass(frozen=True)
class Entrant:
    participant: Participant
    address: str


@dataclass(frozen=True)
class Offer:
    """A tournament offered here, before it starts."""

    lobby_id: str
    size: int
    options: dict
    entrants: tuple[Entrant, ...]
    started: bool = False

    def listing(self) -> dict:
        """The offer on the wire (``joined`` and ``tournaments`` messages)."""
        return {"joined": [e.participant.name for e in self.entrants], "lobby": self.lobby_id,
                "options": self.options, "participants": self.size, "started": self.started}


def lobby_of(listing: object, host: str) -> TournamentLobby:
    """A peer's :meth:`Offer.listing` as a service value; BadMessage when it is not one."""
    if not isinstance(listing, dict) or set(listing) != {"joined", "lobby", "options", "participants", "started"}:
        raise BadMessage("a tournament listing has the keys joined, lobby, options, participants and started")
    joined, lobby, options, size = listing["joined"], listing["lobby"], listing["options"], listing["participants"]
    if not isinstance(joined, (tuple, list)) or not all(isinstance(n, str) for n in joined) or not isinstance(lobby, str) \
            or not isinstance(options, dict) or type(size) is not int or not isinstance(listing["started"], bool):
        raise BadMessage("a tournament listing's fields have the wrong types")
    return TournamentLobby(lobby, host, size, options, tuple(joined), listing["started"])


@dataclass
class _Guest:
    channel: Channel
    answers: trio.MemorySendChannel[dict]
    inbox: trio.MemoryReceiveChannel[dict]


class TournamentHost:
    """Tournaments this node offers, by lobby id."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], started: Started,
                 heartbeat: float, timeout: float) -> None:
        self.key = key
        self._name = name
        self._address = address
        self._started = started
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.offers: dict[str, Offer] = {}
        self._draw: dict[str, bytes] = {}
        self._guests: dict[tuple[str, bytes], _Guest] = {}
        self._nursery: trio.Nursery | None = None

    def offer(self, nursery: trio.Nursery, size: int, options: dict) -> Offer:
        try:
            Format.check(options, size)
        except RecordError as exc:
            raise ServiceError(str(exc)) from None
        self._nursery = nursery
        lobby_id = secrets.token_hex(4)
        self._draw[lobby_id] = os.urandom(DRAW_SIZE)
        me = Participant(self.key.public, self._name(), commitment(self._draw[lobby_id]))
        self.offers[lobby_id] = Offer(lobby_id, size, dict(options), (Entrant(me, self._address()),))
        return self.offers[lobby_id]

    def listings(self) -> list[dict]:
        """The offers still open, as sent to peers (``tournaments``)."""
        return [offer.listing() for offer in self.offers.values() if not offer.started]

    def lobbies(self) -> tuple[TournamentLobby, ...]:
        """The offers still open, as service values."""
        return tuple(lobby_of(listing, self._address()) for listing in self.listings())

    async def serve(self, channel: Channel, join: dict, who: str) -> None:
        offer = self.offers.get(join["lobby"])
        reason = version_refusal(join) or (
            f"no tournament {join['lobby']!r} is offered here" if offer is None else
            "the tournament has started" if offer.started else
            "you have already joined" if any(e.participant.key == channel.peer for e in offer.entrants) else
            "the tournament is full" if len(offer.entrants) >= offer.size else None)
        if reason is None:
            try:
                parse_address(join["addr"])
            except ValueError as exc:
                reason = str(exc)
        if reason is not None or offer is None:
            log.info("peer %s: tournament join refused: %s", who, reason)
            await channel.send(message("refused", code="refused", reason=str(reason)))
            return
        lobby_id = offer.lobby_id
        entrant = Entrant(Participant(channel.peer, join["name"], join["draw"]), join["addr"])
        self.offers[lobby_id] = offer = replace(offer, entrants=(*offer.entrants, entrant))
        answers, inbox = trio.open_memory_channel[dict](1)
        key = (lobby_id, channel.peer.raw)
        self._guests[key] = _Guest(channel, answers, inbox)
        try:
            await channel.send(message("joined", table=offer.listing()))
            if len(offer.entrants) == offer.size and self._nursery is not None:
                self._nursery.start_soon(self._start, lobby_id)
            await race(partial(keep_alive, channel, self.heartbeat), partial(self._messages, self._guests[key]))
        except ChannelClosed:
            pass
        finally:
            del self._guests[key]
            await answers.aclose()
            offer = self.offers[lobby_id]
            if not offer.started:
                self.offers[lobby_id] = replace(offer, entrants=tuple(e for e in offer.entrants if e.participant.key != channel.peer))

    async def _messages(self, guest: _Guest) -> None:
        while True:
            received = parse(await guest.channel.receive(timeout=SILENCE_FACTOR * self.heartbeat), "leave", "ping", "tsig")
            if received["t"] == "leave":
                return
            if received["t"] == "tsig":
                try:
                    guest.answers.send_nowait(received)
                except trio.WouldBlock:
                    raise BadMessage("a second signature") from None

    async def _start(self, lobby_id: str) -> None:
        offer = replace(self.offers[lobby_id], started=True)
        self.offers[lobby_id] = offer
        record = Record(tuple(e.participant for e in offer.entrants), offer.options, os.urandom(16))
        guests = [self._guests[(lobby_id, e.participant.key.raw)] for e in offer.entrants[1:]]
        try:
            for guest in guests:
                await guest.channel.send(message("tsign", record=record.encoded))
            with trio.fail_after(self.timeout):
                answers = [await guest.inbox.receive() for guest in guests]
            signed = SignedRecord(record, (record.sign(self.key), *(a["sig"] for a in answers)))
            tournament = Tournament(signed, (self._draw[lobby_id], *(a["draw"] for a in answers)))
        except (ChannelError, RecordError, trio.EndOfChannel, trio.TooSlowError, KeyError) as exc:
            log.warning("tournament %s did not start: %s", lobby_id, exc or "a participant left")
            self.offers[lobby_id] = replace(offer, started=False)
            return
        addresses = tuple(e.address for e in offer.entrants)
        self._started(tournament, addresses)
        start = message("tstart", tournament=tournament.to_bytes(), peers=list(addresses))
        for guest in guests:
            try:
                await guest.channel.send(start)
            except ChannelError as exc:
                log.warning("tournament %s: a participant missed the start: %s", lobby_id, exc)


@dataclass
class _Joined:
    lobby: TournamentLobby
    draw: bytes
    channel: Channel
    host: PublicKey
    signed: bytes | None = None
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)


class TournamentGuest:
    """Tournaments this node joined at another node, until they start."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], started: Started,
                 connect: Callable[[str], Awaitable[Channel]], heartbeat: float, timeout: float) -> None:
        self.key = key
        self._name = name
        self._address = address
        self._started = started
        self._connect = connect
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.joined: dict[str, _Joined] = {}

    async def list(self, peer: str) -> tuple[TournamentLobby, ...]:
        try:
            channel = await self._connect(peer)
            async with channel:
                await channel.send(message("tlist", v=PROTOCOL_VERSION))
                reply = parse(await channel.receive(timeout=self.timeout), "tournaments")
                return tuple(lobby_of(value, peer) for value in reply["tournaments"])
        except (OSError, ValueError, trio.TooSlowError, ChannelError, BadMessage) as exc:
            raise ServiceError(f"cannot list the tournaments at {peer}: {exc}") from None

    async def join(self, nursery: trio.Nursery, peer: str, lobby_id: str) -> TournamentLobby:
        if lobby_id in self.joined:
            raise ServiceError(f"this node has already joined tournament {lobby_id}")
        draw = os.urandom(DRAW_SIZE)
        try:
            channel = await self._connect(peer)
        except (OSError, ValueError, trio.TooSlowError, ChannelError) as exc:
            raise ServiceError(f"cannot reach {peer}: {exc}") from None
        try:
            await channel.send(message("tjoin", v=PROTOCOL_VERSION, lobby=lobby_id, name=self._name(), addr=self._address(),
                                       draw=commitment(draw)))
            reply = parse(await channel.receive(timeout=self.timeout), "joined", "refused")
            lobby = None if reply["t"] == "refused" else lobby_of(reply["table"], peer)
        except (ChannelError, BadMessage) as exc:
            await channel.aclose()
            raise ServiceError(f"joining the tournament at {peer} failed: {exc}") from None
        if lobby is None:
            await channel.aclose()
            raise ServiceError(f"{peer} refused: {reply['reason']}")
        joined = _Joined(lobby, draw, channel, channel.peer)
        self.joined[lobby_id] = joined
        nursery.start_soon(self._wait, joined, f"{peer} ({channel.peer.fingerprint})")
        return lobby

    async def _wait(self, joined: _Joined, who: str) -> None:
        try:
            with joined.scope:
                async with joined.channel:
                    await race(partial(keep_alive, joined.channel, self.heartbeat), partial(self._await_start, joined))
        except (ChannelError, BadMessage, RecordError) as exc:
            log.warning("peer %s: tournament %s: %s", who, joined.lobby.lobby_id, exc)
        finally:
            del self.joined[joined.lobby.lobby_id]

    async def _await_start(self, joined: _Joined) -> None:
        while True:
            received = parse(await joined.channel.receive(timeout=SILENCE_FACTOR * self.heartbeat), "ping", "tsign", "tstart")
            if received["t"] == "tsign":
                record = Record.from_bytes(received["record"])
                why = _not_joined(record, joined, self.key.public)
                if why is not None:
                    raise BadMessage(f"refusing to sign the tournament record: {why}")
                joined.signed = record.record_id
                await joined.channel.send(message("tsig", sig=record.sign(self.key), draw=joined.draw))
            elif received["t"] == "tstart":
                tournament = Tournament.from_bytes(received["tournament"])
                peers = tuple(received["peers"])
                if tournament.tournament_id != joined.signed or len(peers) != len(tournament.signed.record.participants) \
                        or not all(isinstance(p, str) for p in peers):
                    raise BadMessage("tstart names another tournament than the one signed, or not one address per participant")
                self._started(tournament, peers)
                return


def _not_joined(record: Record, joined: _Joined, me: PublicKey) -> str | None:
    """Why ``record`` is not the tournament this node joined, or None."""
    index = record.index_of(me)
    if index is None or record.participants[index].draw != commitment(joined.draw):
        return "it does not enter this node with its draw commitment"
    if record.participants[0].key != joined.host:
        return "it does not enter the host first"
    if len(record.participants) != joined.lobby.participants or record.options != joined.lobby.options:
        return "its options or size differ from the tournament joined"
    return None
