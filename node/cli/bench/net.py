"""Networked play against its floor: the same game in-process plus the fsyncs the journal must make.

Two nodes (each with its own data directory, journal fsyncs and Noise channels) run in this
process and play towers over loopback TCP with random bots. Figures:

- the wall time of each game over TCP, from ``start`` (genesis signed) to both nodes finished;
- the same games replayed in-process by ``node.selfplay`` with the nodes' own keys, secrets and
  moves (so the transcripts are identical), every seat's session checking every envelope;
- every fsync both nodes make during the TCP games, timed: the journal's (one per batch) and the
  table's files' (secret, peers, the journal's first write, the transcript; each with its directory);
- round trips: from the moment the host's node holds its own envelope (sealed, checked, fsynced)
  to the moment it holds the guest's answer to it. A *move* round trip starts at a ``move`` and
  waits for no deck stage; one that waits for a stage to be proved or checked (on either side,
  :func:`trip_kind`) is bounded by that CPU (``bench deck`` measures its floor) and reported under
  ``deck``, the rest (keys, seeds, commitments) by the kind they start at.

The floor of a game is the in-process game plus the fsyncs it cannot do without: the table's
files, and per node one journal batch per run of the other seat's envelopes on the chain (each
must be on disk before the node acts on it; what the node answers joins that batch), plus its
own first run if it opens the chain. Those are timed at this run's mean fsync. ``ratio`` is
the TCP game time over that floor (goal :data:`GOAL`); ``ratio_to_in_process`` is over the
in-process game alone. ``move_round_trip_ratio`` is the move round trip p99 over its p50 (goal
:data:`MOVE_ROUND_TRIP_GOAL`): the tail against the typical trip.

With ``--path direct|relay|punched`` it measures a libp2p path instead (:mod:`.paths`, needs root).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import trio

from fairtable.node.cli.bench import paths
from fairtable.node.node import Node, NodeConfig
from fairtable.node.table.journal import Journal
from fairtable.node.table.live import LiveTable
from fairtable.protocol import Envelope
from fairtable.protocol.session import Record, TableSession
from fairtable.protocol.testing import SelfPlay

NAME = "net"
HELP = ("game time and move round trips between two nodes over TCP, against the same games in-process plus the "
        "journal's fsyncs; with --path, a libp2p path behind NAT routers against direct TCP (needs root)")
GOAL = 1.1
MOVE_ROUND_TRIP_GOAL = 3.0
MOVE, DECK = "move", "deck"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10: some 300 move round trips)")
    paths.configure(parser)


class Replay:
    """A bot that plays the moves one seat made in a recorded game, in order."""

    def __init__(self, moves: list) -> None:
        self.moves = iter(moves)

    def choose(self, game, state, seat):
        return next(self.moves)


def _stamp(table: LiveTable, stamps: list[tuple[int, float]]) -> None:
    """Record when the table holds how many envelopes (the time its node could act on them)."""
    notify = table.on_change

    def stamped(changed: LiveTable) -> None:
        stamps.append((len(changed.envelopes), time.perf_counter()))
        if notify is not None:
            notify(changed)

    table.on_change = stamped


def _round_trips(table: LiveTable, stamps: list[tuple[int, float]]) -> list[tuple[str, float]]:
    """(kind, seconds until the other seat's answer was held) for each of our envelopes answered: the
    kind of ours, or ``deck`` when a deck stage lies in what the trip waited for (:func:`trip_kind`)."""
    held: dict[int, float] = {}
    for count, moment in stamps:
        for index in range(count):
            held.setdefault(index, moment)
    envelopes = list(table.envelopes)
    return [(trip_kind(envelopes, k), held[k + 1] - held[k]) for k in range(len(envelopes) - 1)
            if envelopes[k].seat == table.seat and envelopes[k + 1].seat != table.seat and k in held and k + 1 in held]


def trip_kind(chain: Sequence[Envelope], k: int) -> str:
    """What the round trip from our envelope ``k`` to the answer at ``k + 1`` waited for: ``deck`` if
    a deck stage is among the envelopes the other seat checked (our run ending at ``k``), made (its
    run from ``k + 1``) or ours made on them before we held the answer (our next run, in the same
    batch), since proving and checking a stage is the deck's CPU; else the kind of envelope ``k``."""
    seat = chain[k].seat
    start = k
    while start > 0 and chain[start - 1].seat == seat:
        start -= 1
    end = k + 1
    while end < len(chain) and chain[end].seat != seat:
        end += 1
    while end < len(chain) and chain[end].seat == seat:
        end += 1
    return DECK if any(e.kind == DECK for e in chain[start:end]) else chain[k].kind


def least_batches(chain: Sequence[Envelope], seat: int) -> int:
    """The fewest journal batches ``seat``'s node can write for ``chain``: one per run of the other
    seats' envelopes (on disk before it acts on them; its answer joins them), and one for its own
    run if it opens the chain."""
    batches = 1 if chain and chain[0].seat == seat else 0
    for previous, envelope in zip([None, *chain], chain, strict=False):
        if envelope.seat != seat and (previous is None or previous.seat == seat):
            batches += 1
    return batches


async def _tcp_game(host: Node, guest: Node) -> tuple[float, list[tuple[str, float]], LiveTable, LiveTable]:
    listing = await host.host("towers", "normal", {}, 2)
    await guest.join(host.address, listing.lobby_id)
    stamps: list[tuple[int, float]] = []
    started = time.perf_counter()
    update = await host.start(listing.lobby_id)
    assert update.table is not None
    table_id = bytes.fromhex(update.table)
    _stamp(host.tables[table_id], stamps)
    await _finished(host.tables[table_id])
    while table_id not in guest.tables:
        await guest.updates_hub.changed()
    await _finished(guest.tables[table_id])
    seconds = time.perf_counter() - started
    return seconds, _round_trips(host.tables[table_id], stamps), host.tables[table_id], guest.tables[table_id]


async def _finished(table: LiveTable) -> None:
    while not table.finished:
        await table.wait_change(table.version)


def _in_process(tables: tuple[LiveTable, LiveTable], keys) -> float:
    """Replay the game in-process from the same genesis, keys, secrets and moves; seconds taken."""
    genesis = tables[0].session.genesis
    recorded = tables[0].envelopes
    moves = [[e.body["move"] for e in recorded if e.kind == MOVE and e.seat == seat] for seat in range(2)]
    sessions = tuple(TableSession(genesis, seat=seat, secret=table.files.secret()) for seat, table in enumerate(tables))
    play = SelfPlay(genesis, keys, sessions, tuple(Replay(seat_moves) for seat_moves in moves))
    started = time.perf_counter()
    file = play.play()
    seconds = time.perf_counter() - started
    if list(file.transcript.envelopes) != recorded:
        raise AssertionError("the in-process replay did not reproduce the networked game")
    return seconds


class _FsyncTimer:
    """Wraps ``os.fsync`` while the TCP games run (both nodes are in this process), counting and
    timing it; the journal's batches (:meth:`Journal.write`) are counted apart from the files'."""

    def __init__(self) -> None:
        self.calls, self.journal_calls, self.seconds = 0, 0, 0.0
        self._in_journal = False

    @contextmanager
    def timing(self) -> Iterator[None]:
        real_fsync, real_write = os.fsync, Journal.write

        def fsync(fd: Any) -> None:
            start = time.perf_counter()
            try:
                real_fsync(fd)
            finally:
                self.calls += 1
                self.journal_calls += self._in_journal
                self.seconds += time.perf_counter() - start

        def write(journal: Journal, records: list[Record]) -> None:
            self._in_journal = True
            try:
                real_write(journal, records)
            finally:
                self._in_journal = False

        with patch.object(os, "fsync", fsync), patch.object(Journal, "write", write):
            yield


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _stages(trips: list[tuple[str, float]]) -> dict:
    """The round trips that start at anything but a move, by that kind: how many, p50 and slowest."""
    kinds = sorted({kind for kind, _ in trips if kind != MOVE})
    return {kind: {"count": len(times), "p50_ms": round(1000 * _quantile(times, 0.5), 3), "max_ms": round(1000 * max(times), 3)}
            for kind in kinds for times in [[t for k, t in trips if k == kind]]}


async def _measure(root: Path, games: int) -> dict:
    tcp, local, trips, envelopes = [], [], [], []
    least = 0
    """Journal batches the chains force, over every game and both nodes."""
    fsyncs = _FsyncTimer()
    async with trio.open_nursery() as nursery:
        host = await nursery.start(Node(NodeConfig(data=root / "host", name="host", bot="random")).run)
        guest = await nursery.start(Node(NodeConfig(data=root / "guest", name="guest", bot="random")).run)
        for _ in range(games):
            with fsyncs.timing():
                seconds, round_trips, host_table, guest_table = await _tcp_game(host, guest)
            tcp.append(seconds)
            trips += round_trips
            envelopes.append(len(host_table.envelopes))
            least += sum(least_batches(table.envelopes, table.seat) for table in (host_table, guest_table))
            local.append(_in_process((host_table, guest_table), (host.key, guest.key)))
        nursery.cancel_scope.cancel()
    file_fsyncs = fsyncs.calls - fsyncs.journal_calls
    floor = sum(local) + fsyncs.seconds / fsyncs.calls * (least + file_fsyncs)
    moves = [seconds for kind, seconds in trips if kind == MOVE]
    p50, p99 = _quantile(moves, 0.5), _quantile(moves, 0.99)
    return {
        "games": games,
        "envelopes_per_game": round(statistics.mean(envelopes), 1),
        "tcp_game_s": round(sum(tcp) / games, 4),
        "in_process_game_s": round(sum(local) / games, 4),
        "fsyncs_per_game": round(fsyncs.calls / games, 1),
        "journal_fsyncs_per_game": round(fsyncs.journal_calls / games, 1),
        "least_journal_fsyncs_per_game": round(least / games, 1),
        "file_fsyncs_per_game": round(file_fsyncs / games, 1),
        "fsync_s_per_game": round(fsyncs.seconds / games, 4),
        "floor_s": round(floor / games, 4),
        "ratio": round(sum(tcp) / floor, 3),
        "goal": GOAL,
        "ratio_to_in_process": round(sum(tcp) / sum(local), 3),
        "move_round_trips": len(moves),
        "move_round_trip_p50_ms": round(1000 * p50, 3),
        "move_round_trip_p99_ms": round(1000 * p99, 3),
        "move_round_trip_ratio": round(p99 / p50, 3),
        "move_round_trip_goal": MOVE_ROUND_TRIP_GOAL,
        "stage_round_trips": _stages(trips),
    }


def run(args: argparse.Namespace) -> dict:
    if args.path is not None:
        return paths.run(args.path, args.round_trips, args.relay_kind)
    if args.games < 1:
        raise SystemExit("fairtable bench net: --games must be at least 1")
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-net-") as root:
        return trio.run(_measure, Path(root), args.games)
