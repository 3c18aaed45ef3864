"""The tables this node sits at, and the links that keep every seat's chain in step.

Every pair of seats of a started table has one link; the lower seat dials the higher one at
the address the start gave (``spec/node.md``). The dialer's ``hello`` carries the signed
genesis and the peers' addresses, so a seat that signed the genesis but never heard the host's
``start`` (the host crashed between journaling the table and sending it, or the seat itself
was down) starts the table from the first link instead. A link is redialled with backoff for
as long as the two sides may differ, a finished table included, and again when a fork reopens
or changes the end of a table both sides had settled. Once two seats settled a finished table,
either one dials the other again when it holds chat lines that peer was not sent (``gg``, a
rematch offer): the higher seat too, since the lower one has no reason to call.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from fairtable.games import registry
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import BadMessage, parse
from fairtable.node.table.journal import JournalError, TableFiles
from fairtable.node.table.link import Link, hello
from fairtable.node.table.live import LiveTable, Timing
from fairtable.node.updates import Updates
from fairtable.protocol import GenesisError, ProtocolError, PublicKey, SecretKey, SignedGenesis
from fairtable.protocol.testing import make_bot

log = logging.getLogger("fairtable.node")

MIN_BACKOFF = 0.05
MAX_BACKOFF = 1.0
"""Redial delays of a table still in play: it must heal quickly."""
MAX_FINISHED_BACKOFF = 30.0
"""Redial delay ceiling once the table is finished here: the peer may still lack its end."""

Connect = Callable[[str, PublicKey], Awaitable[Channel]]


@dataclass(frozen=True)
class MeshConfig:
    heartbeat: float = 2.0
    handshake_timeout: float = 10.0
    timing: Timing = field(default_factory=Timing)
    bot: str | None = None


class Mesh:
    """Started tables by id; ``run`` them in a nursery with :meth:`open`."""

    def __init__(self, key: SecretKey, root: Path, config: MeshConfig, connect: Connect, updates: Updates,
                 clock: Callable[[], float]) -> None:
        self.key = key
        self.root = root
        self.config = config
        self.updates = updates
        self.clock = clock
        self.tables: dict[bytes, LiveTable] = {}
        self._connect = connect
        self._links: dict[tuple[bytes, int], trio.CancelScope] = {}
        self._complete: dict[tuple[bytes, int], bytes] = {}
        """The final head each link last ended on, both sides holding the finished table to it."""
        self._chat_held: dict[tuple[bytes, int], frozenset[tuple[int, int]]] = {}
        """The chat lines each link's peer held when it last ended, as far as that link knew."""
        self._nursery: trio.Nursery | None = None

    def settled(self) -> bool:
        """Every table here is finished and written, and every peer of it confirmed holding all of
        it, to the same final head (a fork that reopens or changes the end unsettles it)."""
        return all(
            table.saved and all(self._settled_with(table, seat) for seat in range(table.seat_count) if seat != table.seat)
            for table in self.tables.values()
        )

    def _settled_with(self, table: LiveTable, seat: int) -> bool:
        return table.finished and self._complete.get((table.table_id, seat)) == table.session.head

    async def wait_settled(self) -> None:
        """Return once :meth:`settled` holds (there is at least one table)."""
        while not (self.tables and self.settled()):
            await self.updates.changed()

    # ------------------------------------------------------------ tables

    def reload(self, nursery: trio.Nursery) -> None:
        """Open every table whose journal is on disk (a restart)."""
        self._nursery = nursery
        for files in TableFiles.existing(self.root):
            try:
                lobby, addresses = files.read_peers()
                table = self._table(files, lobby, addresses, restarted=True)
                log.info("table %s: reloaded %d envelopes from the journal", table.name, len(table.envelopes))
                self.open(table)
            except (JournalError, ProtocolError) as exc:
                log.error("table %s: cannot reload: %s", files.table_id.hex()[:12], exc)

    def start(self, genesis: SignedGenesis, lobby: str, addresses: tuple[str, ...]) -> LiveTable:
        """A table that just started: journal and peers on disk first, then timers and links."""
        files = TableFiles(self.root, genesis.table_id)
        files.write_peers(lobby, addresses)
        files.start_journal(genesis).close()
        table = self._table(files, lobby, addresses)
        self.open(table)
        return table

    def _table(self, files: TableFiles, lobby: str, addresses: tuple[str, ...], restarted: bool = False) -> LiveTable:
        contents, journal = files.load_journal()
        journal.close()
        genesis = contents.genesis
        seat = genesis.genesis.seat_of(self.key.public)
        if seat is None or len(addresses) != len(genesis.genesis.seats):
            raise JournalError(f"{files.dir}: the journal does not seat this node's key")
        bot = None
        if self.config.bot is not None:
            bot = make_bot(registry.get(genesis.genesis.game), self.config.bot, random.Random())
        return LiveTable(files, genesis, seat, self.key, lobby=lobby, addresses=addresses, bot=bot,
                         timing=self.config.timing, clock=self.clock, restarted=restarted)

    def open(self, table: LiveTable) -> None:
        """Start a table's timers and its links to the higher seats."""
        assert self._nursery is not None
        self.tables[table.table_id] = table
        table.on_change = lambda table: self.updates.touch(table.lobby)
        self.updates.set(table.lobby, table.update)
        self._nursery.start_soon(table.keep_time)
        for seat in range(table.seat_count):
            if seat != table.seat:
                self._nursery.start_soon(self._dial, table, seat)

    def find(self, ref: str) -> LiveTable | None:
        """A table by its id (hex) or lobby id."""
        return next((t for t in self.tables.values() if ref in (t.table_id.hex(), t.lobby)), None)

    # ------------------------------------------------------------ links

    async def accept(self, channel: Channel, greeting: dict, who: str) -> None:
        """A peer's ``hello``: answer it and run the link (starting the table if we signed it)."""
        table = self.tables.get(greeting["table"]) or self._started_by_hello(greeting)
        seat = greeting["seat"]
        if seat >= table.seat_count or seat == table.seat:
            raise BadMessage(f"hello names seat {seat}, which is no other seat of table {table.name}")
        if channel.peer != table.seat_key(seat):
            raise BadMessage(f"hello claims seat {seat}, but the channel authenticated another key than that seat's")
        await channel.send(hello(table))
        await self._run_link(channel, table, seat, greeting, who)

    def _started_by_hello(self, greeting: dict) -> LiveTable:
        """A table we signed but never saw start: the dialer's hello carries its start."""
        files = TableFiles(self.root, greeting["table"])
        if not files.has_secret():
            raise BadMessage(f"hello for table {greeting['table'].hex()[:12]}, at which this node does not sit")
        start = greeting["start"]
        try:
            genesis = SignedGenesis.from_value(start["genesis"])
        except (GenesisError, KeyError, TypeError) as exc:
            raise BadMessage(f"hello: the table's start is malformed: {exc}") from None
        addresses = start["peers"]
        if genesis.table_id != greeting["table"] or genesis.genesis.seat_of(self.key.public) is None:
            raise BadMessage("hello: the start names another table, or one at which this node does not sit")
        if not isinstance(addresses, tuple | list) or len(addresses) != len(genesis.genesis.seats) \
                or not all(isinstance(a, str) for a in addresses) or not isinstance(start["lobby"], str):
            raise BadMessage("hello: the start must give one address per seat and the lobby id")
        log.info("table %s: started by a peer's hello (the host's start never arrived)", genesis.table_id.hex()[:12])
        return self.start(genesis, start["lobby"], tuple(addresses))

    def _chat_owed(self, table: LiveTable, seat: int) -> bool:
        """We hold chat lines the peer at ``seat`` was not sent on any link."""
        return not table.chat.keys() <= self._chat_held.get((table.table_id, seat), frozenset())

    def _wanted(self, table: LiveTable, seat: int) -> bool:
        """Whether a link to ``seat`` should be dialled now: a higher seat's while the two sides may
        differ or chat is owed, a lower seat's only for chat owed after both settled the table."""
        settled = self._settled_with(table, seat)
        if seat > table.seat:
            return not settled or self._chat_owed(table, seat)
        return settled and self._chat_owed(table, seat)

    async def _dial(self, table: LiveTable, seat: int) -> None:
        """Keep a link to ``seat`` whenever :meth:`_wanted` says so: until both hold the finished
        table, again if a fork changes it here afterwards, and for chat owed (redial with backoff).
        While a link to that seat runs (one the peer dialled), nobody dials it."""
        delay = MIN_BACKOFF
        address = table.addresses[seat]
        who = f"{address} (seat {seat} of {table.name})"
        while True:
            version = table.version
            linked = (table.table_id, seat) in self._links
            if linked or not self._wanted(table, seat):
                with trio.move_on_after(self.config.heartbeat if linked else math.inf):
                    await table.wait_change(version)
                delay = MIN_BACKOFF
                continue
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
            if not self._wanted(table, seat):
                continue
            await trio.sleep(delay)
            delay = min(2 * delay, MAX_FINISHED_BACKOFF if table.finished else MAX_BACKOFF)

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
        self._chat_held[key] = self._chat_held.get(key, frozenset()) | link.peer_chat
        if link.settled:  # chat said as it ended is what _wanted redials for
            self._complete[key] = table.session.head
            self.updates.touch(table.lobby)
