"""The tables this node watches as a spectator, through the node of one of their seats.

A watched table is the verifier's replica (no seat, no seed, ``protocol.session.Replica``) fed the
envelopes the seat's node sends (``node.table.spectators``): it checks each signature and every rule
it can with what is public, as a verifier with the transcript so far would, and its state knows
only what every envelope shows. So the view clients get (``Game.view(state, None)``) cannot hold
anything hidden, whatever the seat's node sends: a hidden card is not in the state to leak.

A watch is not journaled: a spectator has no seat to keep, and after a restart it watches again.
A dropped connection is redialled with backoff until the table is finished here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial

import trio

from fairtable.games import distinct
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import PEER_VERSION, BadMessage, message, parse
from fairtable.node.service import ServiceError, TableUpdate
from fairtable.node.table import notices
from fairtable.node.table.live import rendered
from fairtable.node.tasks import race
from fairtable.node.updates import Updates
from fairtable.protocol import Envelope, EnvelopeError, GenesisError, ProtocolError, PublicKey, SignedGenesis, TranscriptFile, dump
from fairtable.protocol.session import Outcome, Replica

log = logging.getLogger("fairtable.node")

Connect = Callable[[str, PublicKey | None], Awaitable[Channel]]

MAX_INVALID = 32
"""Envelopes with a bad signature, or of another table, one connection may send before it is closed."""
MAX_OFF_CHAIN = 4096
"""Envelopes a watched table keeps off its chain (held, outranked, refused): what a seat's node
sends beyond them is not kept, since the verifier's replica bounds nothing by itself."""
MIN_BACKOFF = 0.05
MAX_BACKOFF = 2.0
SILENCE_FACTOR = 3


class WatchedTable:
    """One watched table: the public replica and what clients are told of it."""

    def __init__(self, genesis: SignedGenesis, lobby: str, reach: str, key: PublicKey, clock: Callable[[], float]) -> None:
        self.genesis = genesis
        self.lobby = lobby
        self.reach = reach
        self.key = key
        """The key of the seat's node it is watched through: a redial must reach the same node."""
        self.clock = clock
        self.replica = Replica(genesis, now=clock())
        self.on_change: Callable[[], None] = lambda: None
        self.off_chain = 0

    @property
    def name(self) -> str:
        return self.genesis.table_id.hex()[:12]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.genesis.genesis.seats)

    def offer(self, envelope: Envelope) -> Outcome:
        """Place an envelope as the verifier's replica would; clients hear of what changed it."""
        if self.off_chain >= MAX_OFF_CHAIN and envelope.seq != len(self.replica.chain):
            return Outcome.HELD
        offered = self.replica.receive(envelope, self.clock())
        if offered.outcome not in (Outcome.ACCEPTED, Outcome.DUPLICATE, Outcome.INVALID):
            self.off_chain += 1
        if offered.outcome is Outcome.INVALID:
            log.warning("watched table %s: envelope %d refused: %s", self.name, envelope.seq, offered.reason)
        if offered.outcome not in (Outcome.DUPLICATE, Outcome.INVALID):
            self.on_change()  # placed, or evidence a finding may rest on
        return offered.outcome

    def transcript_bytes(self) -> bytes:
        """The transcript file as this node received the table: what a spectator verifies once it is over."""
        return dump(TranscriptFile(self.replica.session.transcript(), evidence=tuple(self.replica.off_chain())))

    def update(self) -> TableUpdate:
        """What a spectator is shown: the public view, its words, the result and findings; nothing is due."""
        replica, genesis = self.replica, self.genesis.genesis
        session = replica.session
        view = session.view()
        text, _, standing = rendered(session, self.names, view, ())
        chain = replica.chain
        latest = notices.latest_decisions(chain)
        return TableUpdate(
            lobby_id=self.lobby, table=self.genesis.table_id.hex(), game=genesis.game, variant=genesis.variant,
            seat=None, seats=distinct(self.names), fingerprints=tuple(seat.key.fingerprint for seat in genesis.seats),
            phase="finished" if replica.finished else "playing", view=view,
            result=None if session.result is None else session.result.to_value(),
            violations=tuple(violation.to_value() for violation in replica.violations()),
            text=text, standing=standing, clock=replica.turn_clock(self.clock()),
            log=tuple(notice.to_value(latest) for notice in notices.from_chain(chain, None, self.names)),
            watching=True,
        )


class Watching:
    """The tables this node watches, by table id; each follows its seat's node in a task."""

    def __init__(self, connect: Connect, updates: Updates, heartbeat: float, timeout: float, clock: Callable[[], float]) -> None:
        self._connect = connect
        self._updates = updates
        self._heartbeat = heartbeat
        self._timeout = timeout
        self._clock = clock
        self.tables: dict[bytes, WatchedTable] = {}

    def find(self, ref: str) -> WatchedTable | None:
        """A watched table by its id (hex) or lobby id."""
        return next((t for t in self.tables.values() if ref in (t.genesis.table_id.hex(), t.lobby)), None)

    async def watch(self, nursery: trio.Nursery, reach: str, ref: str, fingerprint: str | None,
                    seated: Callable[[bytes], bool]) -> TableUpdate:
        """Start watching table ``ref`` through the node at ``reach``; :class:`ServiceError` saying why not.
        ``seated(table id)`` says whether this node sits at it (then it plays it, not watches)."""
        try:
            channel, genesis, lobby = await self._open(reach, ref, None)
        except (OSError, ValueError, trio.TooSlowError, ChannelError) as exc:
            raise ServiceError(f"cannot watch through {reach}: {exc}") from None
        if fingerprint is not None and channel.peer.fingerprint != fingerprint:
            await channel.aclose()
            raise ServiceError(f"the node at {reach} is not the one the invite names: its key is {channel.peer.fingerprint}, "
                               f"the invite names {fingerprint}")
        table_id = genesis.table_id
        if seated(table_id) or table_id in self.tables:
            await channel.aclose()
            doing = "sits at" if seated(table_id) else "watches"
            raise ServiceError(f"this node already {doing} table {table_id.hex()[:12]}")
        table = WatchedTable(genesis, lobby, reach, channel.peer, self._clock)
        table.on_change = partial(self._updates.touch, lobby)
        self.tables[table_id] = table
        self._updates.set(lobby, table.update)
        log.info("watching table %s through %s (%s)", table.name, reach, channel.peer.fingerprint)
        nursery.start_soon(self._follow, table, channel)
        return table.update()

    async def _open(self, reach: str, ref: str, key: PublicKey | None) -> tuple[Channel, SignedGenesis, str]:
        """A channel to the seat's node that answered ``watch`` with a table it sits at."""
        channel = await self._connect(reach, key)
        try:
            await channel.send(message("watch", v=PEER_VERSION, table=ref))
            answer = parse(await channel.receive(timeout=self._timeout), "watching", "refused")
            if answer["t"] == "refused":
                raise ServiceError(f"the node at {reach} refused: {answer['reason']}")
            try:
                genesis = SignedGenesis.from_value(answer["genesis"])
            except (GenesisError, ProtocolError, KeyError, TypeError) as exc:
                raise BadMessage(f"the table's genesis is malformed: {exc}") from None
            if genesis.genesis.seat_of(channel.peer) is None:
                raise BadMessage("the node sent a table at which it holds no seat")
            if len(ref) == 64 and ref != genesis.table_id.hex():
                raise BadMessage(f"the node sent table {genesis.table_id.hex()[:12]}, not the one asked for")
        except BadMessage as exc:
            await channel.aclose()
            raise ServiceError(f"the node at {reach}: {exc}") from None
        except BaseException:
            await channel.aclose()
            raise
        return channel, genesis, answer["lobby"]

    async def _follow(self, table: WatchedTable, channel: Channel) -> None:
        """Read the seat's node until the table is finished here, redialling with backoff when the
        connection drops (the same node, by its key, for the same table)."""
        delay = MIN_BACKOFF
        while True:
            try:
                async with channel:
                    await race(partial(self._read, table, channel), partial(self._ping, channel))
                if table.replica.finished:
                    log.info("watched table %s: finished", table.name)
                    return
            except (ChannelError, BadMessage) as exc:
                log.info("watched table %s: %s", table.name, exc)
            while True:
                await trio.sleep(delay)
                delay = min(2 * delay, MAX_BACKOFF)
                try:
                    channel, _, _ = await self._open(table.reach, table.genesis.table_id.hex(), table.key)
                    delay = MIN_BACKOFF
                    break
                except (OSError, ValueError, trio.TooSlowError, ChannelError, ServiceError) as exc:
                    log.debug("watched table %s: cannot reach %s: %s", table.name, table.reach, exc)

    async def _read(self, table: WatchedTable, channel: Channel) -> None:
        """Offer every envelope; once the table is finished, stop after a heartbeat without one."""
        invalid = 0
        while True:
            quiet = table.replica.finished
            try:
                value = await channel.receive(timeout=(1 if quiet else SILENCE_FACTOR) * self._heartbeat)
            except ChannelError:
                if quiet:
                    return
                raise
            received = parse(value, "env", "ev", "ping")
            if received["t"] == "ping":
                if quiet:
                    return
                continue
            try:
                envelope = Envelope.from_value(received["env"])
            except EnvelopeError as exc:
                raise BadMessage(f"malformed envelope: {exc}") from None
            if table.offer(envelope) is Outcome.INVALID:
                invalid += 1
                if invalid > MAX_INVALID:
                    raise BadMessage(f"more than {MAX_INVALID} envelopes that are not this table's or do not verify")

    async def _ping(self, channel: Channel) -> None:
        while True:
            await trio.sleep(self._heartbeat)
            await channel.send(message("ping"))
