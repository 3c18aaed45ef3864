"""Helpers for node tests: live tables of fixed seats on temporary journals, wired without a network."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import trio
import trio.testing

from fairtable.games import bots as game_bots
from fairtable.games import registry
from fairtable.node.peer.channel import accept_channel, open_channel
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.link import Link, hello
from fairtable.node.table.live import LiveTable, Timing
from fairtable.protocol.genesis import PROTOCOL_VERSION, Genesis, Seat, SignedGenesis
from fairtable.protocol.identity import SecretKey

KEYS = tuple(SecretKey.from_seed(bytes([40 + n]) * 32) for n in range(4))


def signed_genesis(game: str, seats: int, options: dict | None = None, variant: str = "normal",
                   version: int = PROTOCOL_VERSION) -> SignedGenesis:
    """The signed genesis; ``version=2`` for a test of what version 2 tables do without proofs."""
    genesis = Genesis(game, variant, options or {}, tuple(Seat(KEYS[s].public, f"seat-{s}") for s in range(seats)), bytes(16), version)
    return SignedGenesis(genesis, tuple(genesis.sign(KEYS[s]) for s in range(seats)))


def live_table(root: Path, genesis: SignedGenesis, seat: int, *, bot: bool = True, timing: Timing = Timing(),
               files: TableFiles | None = None) -> LiveTable:
    """Seat ``seat``'s table on a fresh journal under ``root``, on trio's clock (a mock clock in most tests)."""
    files = files or TableFiles(root / f"node-{seat}", genesis.table_id)
    files.secret()
    files.start_journal(genesis).close()
    rng = random.Random(seat)
    player = game_bots.random_bot(registry.get(genesis.genesis.game), rng) if bot else None
    addresses = tuple(f"127.0.0.1:{9000 + s}" for s in range(len(genesis.genesis.seats)))
    return LiveTable(files, genesis, seat, KEYS[seat], lobby="lobby", addresses=addresses, bot=player, timing=timing,
                     clock=trio.current_time)


def reload(table: LiveTable) -> LiveTable:
    """The table as a restarted node sees it: from its journal alone."""
    table.journal.close()
    return LiveTable(table.files, table.genesis, table.seat, KEYS[table.seat], lobby=table.lobby,
                     addresses=table.addresses, bot=table.bot, timing=table.timing, clock=table.clock, restarted=True)


async def wire(tables: Sequence[LiveTable], *, cut: frozenset[int] = frozenset()) -> None:
    """Run every table's timers and hand each one's envelopes to the others, until all are
    finished, written and nothing moves any more (timers run for as long as a node runs).

    Seats in ``cut`` are switched off: they neither run nor receive.
    """
    live = [table for table in tables if table.seat not in cut]
    async with trio.open_nursery() as nursery:
        for source in tables:
            for target in live:
                if target is not source:
                    nursery.start_soon(forward, source, target)
        for table in live:
            nursery.start_soon(table.keep_time)
        while True:
            await trio.testing.wait_all_tasks_blocked()
            if all(table.saved for table in live):
                break
            await trio.sleep(0.01)
        nursery.cancel_scope.cancel()


def held(table: LiveTable) -> list:
    """Everything a table would send a peer: its chain, then what it keeps off the chain."""
    return [*table.envelopes, *table.replica.off_chain()]


async def forward(source: LiveTable, target: LiveTable) -> None:
    while True:
        version = source.version
        for envelope in held(source):
            target.offer(envelope)
        await source.wait_change(version)


def settle(tables: Sequence[LiveTable]) -> None:
    """Hand envelopes around (no timers) until no table learns anything more; a bot answers what
    it is handed at once, as on a node."""
    changed = True
    while changed:
        changed = False
        for source in tables:
            for target in tables:
                for envelope in held(source):
                    changed |= target.offer(envelope).outcome.value == "accepted"


async def linked(left_table, right_table, heartbeat: float = 0.5) -> None:
    """Run one link between two tables until both hold the finished table."""
    left, right = trio.testing.memory_stream_pair()
    channels = {}

    async def open_side():
        channels["left"] = await open_channel(left, KEYS[left_table.seat], expected=KEYS[right_table.seat].public)

    async def accept_side():
        channels["right"] = await accept_channel(right, KEYS[right_table.seat])

    async with trio.open_nursery() as nursery:
        nursery.start_soon(open_side)
        nursery.start_soon(accept_side)
    async with trio.open_nursery() as nursery:
        for channel, table, other in ((channels["left"], left_table, right_table), (channels["right"], right_table, left_table)):
            link = Link(channel, table, other.seat, hello(other), heartbeat=heartbeat, who=f"seat {other.seat}")
            nursery.start_soon(link.run)


async def play(tables, pairs) -> None:
    """Run the tables' timers and the given links until every link is complete."""
    async with trio.open_nursery() as timers:
        for table in tables:
            timers.start_soon(table.keep_time)
        async with trio.open_nursery() as links:
            for a, b in pairs:
                links.start_soon(linked, tables[a], tables[b])
        timers.cancel_scope.cancel()
