"""The one lobby exchange of tables and tournaments: a host offers a record, seats join, keep
alive, every seat signs the same bytes and the host starts it (``spec/node.md``, "Lobby and start").

A guest opens a channel to the host, sends ``join`` and keeps the channel open; both sides ping
every heartbeat and close a channel silent for :data:`SILENCE_FACTOR` heartbeats. At the start
the host builds the record from the entrants (join order, the host first) and sends its bytes
in ``sign``; each guest checks it is what it joined, prepares for it and answers ``signature``
with its signature and its reveal. The host checks each answer as it arrives and names the seat
at fault; with every one it starts the record and sends ``start`` with every signature, reveal
and address, which each guest checks again before it starts too. A start that fails changes
nothing: the offer is open again with the entrants still connected.

What a table and a tournament do differently is a :class:`Kind`: what the record is, who may
join, what its listing says, and what happens once it has started.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar, Generic, TypeVar

import trio

from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelClosed, ChannelError
from fairtable.node.peer.messages import PEER_VERSION, BadMessage, message, parse
from fairtable.node.peer.reach import check_reach
from fairtable.node.service import ServiceError
from fairtable.node.tasks import race
from fairtable.protocol import ProtocolError, PublicKey, SecretKey, Signable

log = logging.getLogger("fairtable.node")

SILENCE_FACTOR = 3
"""A lobby connection silent for this many heartbeats is taken for a half-open one and closed."""

T = TypeVar("T")
L = TypeVar("L")
R = TypeVar("R", bound=Signable)
S = TypeVar("S")


async def keep_alive(channel: Channel, period: float) -> None:
    """Ping a lobby connection, so both sides can tell a live wait from a half-open connection."""
    while True:
        await trio.sleep(period)
        await channel.send(message("ping"))


@dataclass(frozen=True)
class Entrant:
    """Who took a seat: the name and key it signs with, the address peers dial, its commitment."""

    name: str
    key: PublicKey
    address: str
    commit: bytes = b""
    """What the entrant committed to when it joined (a tournament's draw value); empty at a table."""


OTHER_KEY = "other-key"
"""Not a host's code: the node reached holds another key than the one the joiner was told to expect."""


class JoinRefused(ServiceError):
    """A join the host refused: ``refusal`` is its code (``unknown``, ``full``, ``version``, ...), or :data:`OTHER_KEY`."""

    def __init__(self, refusal: str, message: str) -> None:
        super().__init__(message)
        self.refusal = refusal


@dataclass(frozen=True)
class Refusal:
    """Why a join is refused: ``code`` for programs (unknown, full, started, seated, bad-request)."""

    code: str
    reason: str


@dataclass(frozen=True)
class Offer(Generic[T]):
    """A record offered before it starts: what it is (``terms``), its seats and who took them."""

    lobby_id: str
    terms: T
    seats: int
    entrants: tuple[Entrant, ...]
    started: bool = False

    @property
    def full(self) -> bool:
        return len(self.entrants) >= self.seats

    def refusal(self, kind: str, key: PublicKey) -> Refusal | None:
        if self.started:
            return Refusal("started", f"{kind} {self.lobby_id} has already started")
        if any(entrant.key == key for entrant in self.entrants):
            return Refusal("seated", f"you already sit at {kind} {self.lobby_id}")
        if self.full:
            return Refusal("full", f"{kind} {self.lobby_id} is full ({self.seats} seats)")
        return None

    def joined(self, entrant: Entrant) -> Offer[T]:
        return replace(self, entrants=self.entrants + (entrant,))

    def left(self, key: PublicKey) -> Offer[T]:
        return replace(self, entrants=tuple(entrant for entrant in self.entrants if entrant.key != key))


class Kind(Generic[T, L, R, S]):
    """What one kind of offer (a table, a tournament) is; the exchange does the rest.

    ``T`` is what the host offers, ``L`` the listing peers and clients see, ``R`` the record
    every seat signs and ``S`` what a started record becomes.
    """

    name: ClassVar[str]
    """The kind on the wire (``list``, ``join``) and in messages: ``table``, ``tournament``."""

    def listing(self, offer: Offer[T], host: str) -> L:
        """What local clients see of an offer at ``host`` (an address)."""
        raise NotImplementedError

    def listing_value(self, listing: L) -> dict:
        """A listing on the wire (``offers``, ``joined``, ``lobby``)."""
        raise NotImplementedError

    def parse_listing(self, value: Any, host: str) -> L:
        """A listing a host sent; :class:`BadMessage` when it is not one."""
        raise NotImplementedError

    def seats(self, listing: L) -> int:
        """How many seats a listing offers: a record to sign must have as many signers."""
        raise NotImplementedError

    def secret(self) -> tuple[bytes, bytes]:
        """A fresh ``(commitment, reveal)`` for an entrant; a table has none."""
        return b"", b""

    def commit_problem(self, commit: bytes) -> str | None:
        """Why a joining entrant's commitment is refused, or None."""
        return None if commit == b"" else f"a {self.name} takes no commitment"

    def record(self, offer: Offer[T]) -> R:
        """The record every seat signs: the entrants in join order and a fresh nonce."""
        raise NotImplementedError

    def parse_record(self, data: bytes) -> R:
        """The record a host asks to sign; raises a ProtocolError naming what is wrong."""
        raise NotImplementedError

    def differs(self, listing: L, record: R, me: int, commit: bytes) -> str | None:
        """Why a guest refuses to sign ``record`` for what ``listing`` offered, or None."""
        raise NotImplementedError

    def prepare(self, record: R) -> None:
        """What a seat does before it signs (a table: create its secret, so it can always accept it)."""

    def started(self, record: R, signatures: tuple[bytes, ...], reveals: tuple[bytes, ...]) -> S:
        """The started record; raises a ProtocolError naming a missing, bad or forged signature or reveal."""
        raise NotImplementedError

    def begin(self, started: S, lobby_id: str, addresses: tuple[str, ...]) -> None:
        """Run the started record, on the host and on each guest (at most once per node)."""
        raise NotImplementedError


class NotStarted(Exception):
    """The start failed; the message names the seat that did not sign, or signed wrongly."""


@dataclass
class _Guest:
    """A guest's lobby connection: its ``(signature, reveal)`` arrives through ``answers``."""

    channel: Channel
    answers: trio.MemorySendChannel[tuple[bytes, bytes]]
    inbox: trio.MemoryReceiveChannel[tuple[bytes, bytes]]


class _Side(Generic[T, L, R, S]):
    """This node on one side of the exchange of one kind: who it is, where it listens, its timings."""

    def __init__(self, kind: Kind[T, L, R, S], key: SecretKey, name: Callable[[], str], address: Callable[[], str],
                 heartbeat: float, timeout: float) -> None:
        self.kind = kind
        self.key = key
        self._name = name
        self._address = address
        self.heartbeat = heartbeat
        self.timeout = timeout

    def changed(self, lobby_id: str) -> None:
        """Who sits at ``lobby_id`` changed (or it closed, or started): a hook for local clients."""


class ExchangeHost(_Side[T, L, R, S]):
    """The offers of one kind this node hosts, by lobby id, and their guests' connections."""

    def __init__(self, kind: Kind[T, L, R, S], key: SecretKey, name: Callable[[], str], address: Callable[[], str],
                 heartbeat: float, timeout: float) -> None:
        super().__init__(kind, key, name, address, heartbeat, timeout)
        self.hosted: dict[str, Offer[T]] = {}
        self._reveals: dict[str, bytes] = {}
        self._guests: dict[tuple[str, bytes], _Guest] = {}

    def listing(self, offer: Offer[T]) -> L:
        return self.kind.listing(offer, self._address())

    def listings(self) -> list[dict]:
        """Every offer, as sent to peers (``offers``)."""
        return [self.kind.listing_value(self.listing(offer)) for offer in self.hosted.values()]

    def open(self, terms: T, seats: int) -> Offer[T]:
        """Offer ``terms`` under a fresh lobby id, with this node in seat 0."""
        lobby_id = secrets.token_hex(4)
        commit, self._reveals[lobby_id] = self.kind.secret()
        self.hosted[lobby_id] = Offer(lobby_id, terms, seats, (Entrant(self._name(), self.key.public, self._address(), commit),))
        return self.hosted[lobby_id]

    async def withdraw(self, lobby_id: str) -> None:
        offer = self.hosted.get(lobby_id)
        if offer is None or offer.started:
            raise ServiceError(f"this node offers no {self.kind.name} {lobby_id} that has not started")
        del self.hosted[lobby_id], self._reveals[lobby_id]
        for (guest_lobby, _), guest in list(self._guests.items()):
            if guest_lobby == lobby_id:
                await guest.channel.aclose()
        self.changed(lobby_id)

    # ------------------------------------------------------------ a guest's connection

    async def serve(self, channel: Channel, join: dict, who: str) -> None:
        """A ``join`` arrived: seat the guest and hold its connection until the start or it leaves."""
        refusal = self._refusal(channel, join)
        if refusal is not None:
            log.info("peer %s: %s join refused: %s", who, self.kind.name, refusal.reason)
            await channel.send(message("refused", code=refusal.code, reason=refusal.reason))
            return
        lobby_id = join["lobby"]
        self.hosted[lobby_id] = offer = self.hosted[lobby_id].joined(Entrant(join["name"], channel.peer, join["addr"], join["commit"]))
        answers, inbox = trio.open_memory_channel[tuple[bytes, bytes]](1)
        guest = _Guest(channel, answers, inbox)
        key = (lobby_id, channel.peer.raw)
        self._guests[key] = guest
        try:
            await channel.send(message("joined", offer=self.kind.listing_value(self.listing(offer))))
            await self._tell(lobby_id)
            if offer.full:
                self.full(lobby_id)
            await race(partial(keep_alive, channel, self.heartbeat), partial(self._messages, guest))
        except ChannelClosed:
            pass
        finally:
            del self._guests[key]
            await answers.aclose()
            now = self.hosted.get(lobby_id)
            if now is not None and not now.started:
                self.hosted[lobby_id] = now.left(channel.peer)
                await self._tell(lobby_id)

    def full(self, lobby_id: str) -> None:
        """Every seat of ``lobby_id`` is taken: a hook for a kind that starts by itself."""

    def _refusal(self, channel: Channel, join: dict) -> Refusal | None:
        offer = self.hosted.get(join["lobby"])
        if join["kind"] != self.kind.name or offer is None:
            return Refusal("unknown", f"no {join['kind'][:32]} {join['lobby']!r} is offered here")
        try:
            check_reach(join["addr"])
        except ValueError as exc:
            return Refusal("bad-request", str(exc))
        problem = self.kind.commit_problem(join["commit"])
        if problem is not None:
            return Refusal("bad-request", problem)
        return offer.refusal(self.kind.name, channel.peer)

    async def _messages(self, guest: _Guest) -> None:
        while True:
            received = parse(await guest.channel.receive(timeout=SILENCE_FACTOR * self.heartbeat), "leave", "ping", "signature")
            if received["t"] == "leave":
                return
            if received["t"] == "signature":
                try:
                    guest.answers.send_nowait((received["sig"], received["reveal"]))
                except trio.WouldBlock:
                    raise BadMessage("a second signature") from None

    async def _tell(self, lobby_id: str) -> None:
        """Tell local clients and every guest of the offer who sits at it now."""
        self.changed(lobby_id)
        offer = self.hosted.get(lobby_id)
        if offer is None:
            return
        update = message("lobby", offer=self.kind.listing_value(self.listing(offer)))
        for guest in self._guests_of(lobby_id, offer):
            try:
                await guest.channel.send(update)
            except ChannelError:
                continue

    def _guests_of(self, lobby_id: str, offer: Offer[T]) -> list[_Guest]:
        return [self._guests[(lobby_id, e.key.raw)] for e in offer.entrants[1:] if (lobby_id, e.key.raw) in self._guests]

    # ------------------------------------------------------------ the start

    async def start(self, lobby_id: str) -> S:
        """Have every seat sign the record and start it; ServiceError naming why it could not."""
        offer = self.hosted.get(lobby_id)
        name = self.kind.name
        if offer is None or offer.started:
            raise ServiceError(f"this node offers no {name} {lobby_id} that has not started")
        if not offer.full:
            raise ServiceError(f"{name} {lobby_id} has {len(offer.entrants)} of its {offer.seats} seats taken")
        record = self.kind.record(offer)
        self.kind.prepare(record)
        self.hosted[lobby_id] = offer = replace(offer, started=True)
        guests = self._guests_of(lobby_id, offer)
        try:
            if len(guests) != len(offer.entrants) - 1:
                raise NotStarted("a guest left")
            signatures, reveals = await self._collect(record, guests)
            signatures, reveals = (record.sign(self.key), *signatures), (self._reveals[lobby_id], *reveals)
            started = self.kind.started(record, signatures, reveals)
        except (NotStarted, ProtocolError) as exc:
            present = tuple(e for e in offer.entrants[1:] if (lobby_id, e.key.raw) in self._guests)
            self.hosted[lobby_id] = replace(offer, entrants=(offer.entrants[0], *present), started=False)
            await self._tell(lobby_id)
            raise ServiceError(f"{name} {lobby_id} could not start: {exc}") from None
        addresses = tuple(entrant.address for entrant in offer.entrants)
        self.kind.begin(started, lobby_id, addresses)
        await self._announce(message("start", sigs=list(signatures), reveals=list(reveals), peers=list(addresses)), guests)
        return started

    async def _collect(self, record: R, guests: list[_Guest]) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
        """Every guest's signature and reveal, in seat order, each checked as it arrives."""
        request = message("sign", record=record.encoded)
        answers: list[tuple[bytes, bytes]] = []
        for seat, guest in enumerate(guests, 1):
            with contextlib.suppress(trio.WouldBlock, trio.EndOfChannel):
                guest.inbox.receive_nowait()  # an answer to an earlier start that failed
            try:
                await guest.channel.send(request)
            except ChannelError as exc:
                raise NotStarted(f"{record.signer_label(seat)} could not be asked to sign: {exc}") from None
        with trio.move_on_after(self.timeout):
            for seat, guest in enumerate(guests, 1):
                try:
                    signature, reveal = await guest.inbox.receive()
                except trio.EndOfChannel:
                    raise NotStarted(f"{record.signer_label(seat)} left before signing") from None
                problem = record.signature_problem(seat, signature)
                if problem is not None:
                    raise NotStarted(problem)
                answers.append((signature, reveal))
        if len(answers) < len(guests):
            raise NotStarted(f"{record.signer_label(len(answers) + 1)} did not sign within {self.timeout:g} s")
        return tuple(a[0] for a in answers), tuple(a[1] for a in answers)

    async def _announce(self, start: dict, guests: list[_Guest]) -> None:
        """Send the guests ``start``; a table guest that misses it learns of the table from the
        host's first link to it (``Mesh``)."""
        for guest in guests:
            try:
                await guest.channel.send(start)
            except ChannelError as exc:
                log.warning("%s: a guest missed the start message: %s", self.kind.name, exc)


@dataclass
class Joined(Generic[L]):
    """An offer this node joined as a guest, before it starts."""

    listing: L
    channel: Channel
    host: PublicKey
    commit: bytes
    reveal: bytes
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)


class ExchangeGuest(_Side[T, L, R, S]):
    """The offers of one kind this node joined at other nodes, by lobby id, until they start."""

    def __init__(self, kind: Kind[T, L, R, S], key: SecretKey, name: Callable[[], str], address: Callable[[], str],
                 connect: Callable[[str], Awaitable[Channel]], heartbeat: float, timeout: float) -> None:
        super().__init__(kind, key, name, address, heartbeat, timeout)
        self._connect = connect
        self.joined: dict[str, Joined[L]] = {}

    async def list(self, peer: str) -> tuple[L, ...]:
        """The offers of this kind at ``peer``."""
        try:
            channel = await self._connect(peer)
            async with channel:
                await channel.send(message("list", v=PEER_VERSION, kind=self.kind.name))
                reply = parse(await channel.receive(timeout=self.timeout), "offers")
                return tuple(self.kind.parse_listing(value, peer) for value in reply["offers"])
        except (OSError, ValueError, trio.TooSlowError, ChannelError, BadMessage) as exc:
            raise ServiceError(f"cannot list the {self.kind.name}s at {peer}: {exc}") from None

    async def join(self, nursery: trio.Nursery, peer: str, lobby_id: str, fingerprint: str | None = None) -> L:
        """Join ``lobby_id`` at ``peer``; with ``fingerprint`` (from an invite), only if that node has that key."""
        if lobby_id in self.joined:
            raise ServiceError(f"this node has already joined {self.kind.name} {lobby_id}")
        try:
            channel = await self._connect(peer)
        except (OSError, ValueError, trio.TooSlowError, ChannelError) as exc:
            raise ServiceError(f"cannot reach {peer}: {exc}") from None
        if fingerprint is not None and channel.peer.fingerprint != fingerprint:
            await channel.aclose()
            raise JoinRefused(OTHER_KEY, f"the node at {peer} is not the host of the invite: its key is {channel.peer.fingerprint}, "
                                         f"the invite names {fingerprint}")
        commit, reveal = self.kind.secret()
        try:
            await channel.send(message("join", v=PEER_VERSION, kind=self.kind.name, lobby=lobby_id, name=self._name(),
                                       addr=self._address(), commit=commit))
            reply = parse(await channel.receive(timeout=self.timeout), "joined", "refused")
            if reply["t"] == "refused":
                raise JoinRefused(reply["code"], f"{peer} refused: {reply['reason']}")
            listing = self.kind.parse_listing(reply["offer"], peer)
        except (ChannelError, BadMessage, ServiceError) as exc:
            await channel.aclose()
            raise exc if isinstance(exc, ServiceError) else ServiceError(f"joining at {peer} failed: {exc}") from None
        joined = Joined(listing, channel, channel.peer, commit, reveal)
        self.joined[lobby_id] = joined
        nursery.start_soon(self._wait, lobby_id, joined, peer, f"{peer} ({channel.peer.fingerprint})")
        return listing

    async def leave(self, lobby_id: str) -> bool:
        """Leave a joined offer that has not started; False if this node did not join it."""
        joined = self.joined.get(lobby_id)
        if joined is None:
            return False
        try:
            await joined.channel.send(message("leave"))
        except ChannelError:
            pass
        joined.scope.cancel()
        return True

    async def _wait(self, lobby_id: str, joined: Joined[L], peer: str, who: str) -> None:
        """Hold a joined offer's connection until the host starts it (or it ends)."""
        try:
            with joined.scope:
                async with joined.channel:
                    await race(partial(keep_alive, joined.channel, self.heartbeat), partial(self._await_start, lobby_id, joined, peer))
        except (ChannelError, BadMessage) as exc:
            log.warning("peer %s: %s %s: %s", who, self.kind.name, lobby_id, exc)
        finally:
            del self.joined[lobby_id]
            self.changed(lobby_id)

    async def _await_start(self, lobby_id: str, joined: Joined[L], peer: str) -> None:
        signed: R | None = None
        while True:
            received = parse(await joined.channel.receive(timeout=SILENCE_FACTOR * self.heartbeat), "lobby", "ping", "sign", "start")
            if received["t"] == "lobby":
                joined.listing = self.kind.parse_listing(received["offer"], peer)
                self.changed(lobby_id)
            elif received["t"] == "sign":
                record = self._to_sign(joined, received["record"])
                self.kind.prepare(record)
                signed = record
                await joined.channel.send(message("signature", sig=record.sign(self.key), reveal=joined.reveal))
            elif received["t"] == "start":
                if signed is None:
                    raise BadMessage("start before anything was signed")
                self.kind.begin(self._started(signed, received), lobby_id, tuple(received["peers"]))
                return

    def _to_sign(self, joined: Joined[L], data: bytes) -> R:
        """The record in a ``sign`` request, if it is what this node joined; BadMessage saying why not."""
        try:
            record = self.kind.parse_record(data)
        except ProtocolError as exc:
            raise BadMessage(f"the {self.kind.name} to sign: {exc}") from None
        me = record.index_of(self.key.public)
        why = ("it does not seat this node" if me is None else
               "it does not seat the host first" if record.signers[0][0] != joined.host else
               f"it has {len(record.signers)} seats, the {self.kind.name} joined {self.kind.seats(joined.listing)}"
               if len(record.signers) != self.kind.seats(joined.listing) else
               self.kind.differs(joined.listing, record, me, joined.commit))
        if why is not None:
            raise BadMessage(f"refusing to sign: {why}")
        return record

    def _started(self, record: R, start: dict) -> S:
        """The started record from the host's ``start``; BadMessage naming what is missing or forged."""
        sigs, reveals, peers = start["sigs"], start["reveals"], start["peers"]
        seats = len(record.signers)
        if len(peers) != seats or not all(isinstance(p, str) for p in peers) or len(reveals) != seats:
            raise BadMessage(f"start must give one address and one reveal for each of the {seats} seats")
        try:
            return self.kind.started(record, tuple(sigs), tuple(reveals))
        except ProtocolError as exc:
            raise BadMessage(f"start: {exc}") from None
