"""Networked play against in-process play of the same game, measured in the same run.

Two nodes (each with its own data directory, journal fsyncs and Noise channels) run in this
process and play towers over loopback TCP with random bots. Figures:

- move round trip: from the moment the host's node holds its own envelope (sealed, checked,
  fsynced) to the moment it holds the guest's answer to it; p50 and p99 over every such pair;
- the wall time of each game over TCP, from ``start`` (genesis signed) to both nodes finished;
- the same games replayed in-process by ``node.selfplay`` with the nodes' own keys, secrets and
  moves (so the transcripts are identical), every seat's session checking every envelope.

``ratio`` is the total TCP game time over the total in-process time; the goal is 1.3. Both nodes'
journal fsyncs (one per batch, before the node acts on it: spec/node.md) are timed during the
TCP games: ``fsync_s_per_game`` is their total, ``ratio_without_fsync`` the ratio with it taken
out, i.e. what the node adds beyond the disk's latency, which the journal cannot avoid, and
``fsync_floor_ratio`` the least ``ratio`` can be on this disk: the in-process game plus the fsyncs.

With ``--path direct|relay|punched`` it measures a libp2p path instead (:mod:`.paths`, needs root).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from fairtable.node.cli.bench import paths
from fairtable.node.node import Node, NodeConfig
from fairtable.node.table.live import LiveTable
from fairtable.protocol.session import TableSession
from fairtable.protocol.testing import SelfPlay

NAME = "net"
HELP = ("move round trip and game time between two nodes over TCP, against the same games in-process; "
        "with --path, a libp2p path behind NAT routers against direct TCP (needs root)")
GOAL = 1.3


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=3, help="games to play (default 3)")
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


def _round_trips(table: LiveTable, stamps: list[tuple[int, float]]) -> list[float]:
    held: dict[int, float] = {}
    for count, moment in stamps:
        for index in range(count):
            held.setdefault(index, moment)
    envelopes = table.envelopes
    return [held[k + 1] - held[k] for k in range(len(envelopes) - 1)
            if envelopes[k].seat == table.seat and envelopes[k + 1].seat != table.seat and k in held and k + 1 in held]


async def _tcp_game(host: Node, guest: Node) -> tuple[float, list[float], LiveTable, LiveTable]:
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
    moves = [[e.body["move"] for e in recorded if e.kind == "move" and e.seat == seat] for seat in range(2)]
    sessions = tuple(TableSession(genesis, seat=seat, secret=table.files.secret()) for seat, table in enumerate(tables))
    play = SelfPlay(genesis, keys, sessions, tuple(Replay(seat_moves) for seat_moves in moves))
    started = time.perf_counter()
    file = play.play()
    seconds = time.perf_counter() - started
    if list(file.transcript.envelopes) != recorded:
        raise AssertionError("the in-process replay did not reproduce the networked game")
    return seconds


class _FsyncTimer:
    """Wraps ``os.fsync`` while the TCP games run (both nodes are in this process), summing its time."""

    def __init__(self) -> None:
        self.calls, self.seconds, self._real = 0, 0.0, os.fsync

    def __enter__(self) -> _FsyncTimer:
        def timed(fd: Any) -> None:
            start = time.perf_counter()
            try:
                self._real(fd)
            finally:
                self.calls += 1
                self.seconds += time.perf_counter() - start

        os.fsync = timed
        return self

    def __exit__(self, *exc: object) -> None:
        os.fsync = self._real


async def _measure(root: Path, games: int) -> dict:
    tcp, local, trips, envelopes = [], [], [], []
    fsyncs = _FsyncTimer()
    async with trio.open_nursery() as nursery:
        host = await nursery.start(Node(NodeConfig(data=root / "host", name="host", bot="random")).run)
        guest = await nursery.start(Node(NodeConfig(data=root / "guest", name="guest", bot="random")).run)
        for _ in range(games):
            with fsyncs:
                seconds, round_trips, host_table, guest_table = await _tcp_game(host, guest)
            tcp.append(seconds)
            trips += round_trips
            envelopes.append(len(host_table.envelopes))
            local.append(_in_process((host_table, guest_table), (host.key, guest.key)))
        nursery.cancel_scope.cancel()
    trips.sort()
    return {
        "games": games,
        "envelopes_per_game": round(statistics.mean(envelopes), 1),
        "round_trips": len(trips),
        "round_trip_p50_ms": round(1000 * trips[len(trips) // 2], 3),
        "round_trip_p99_ms": round(1000 * trips[min(len(trips) - 1, int(len(trips) * 0.99))], 3),
        "tcp_game_s": round(sum(tcp) / games, 4),
        "in_process_game_s": round(sum(local) / games, 4),
        "fsyncs_per_game": round(fsyncs.calls / games, 1),
        "fsync_s_per_game": round(fsyncs.seconds / games, 4),
        "ratio_without_fsync": round((sum(tcp) - fsyncs.seconds) / sum(local), 3),
        "fsync_floor_ratio": round((sum(local) + fsyncs.seconds) / sum(local), 3),
        "ratio": round(sum(tcp) / sum(local), 3),
        "goal": GOAL,
    }


def run(args: argparse.Namespace) -> dict:
    if args.path is not None:
        return paths.run(args.path, args.round_trips, args.relay_kind)
    with tempfile.TemporaryDirectory(prefix="fairtable-bench-net-") as root:
        return trio.run(_measure, Path(root), args.games)
