"""A table of real node processes, one per seat, that a test breaks at chosen moments and then judges.

Each seat's node listens behind its own :class:`~tests.node.cables.Cable` (it advertises the
cable's port), and the cable knows which node dials through it, so the test can cut one seat
off, or split the table into groups that keep the links inside each group. Faults: ``kill -9``
and restart from the journal, ``SIGSTOP``/``SIGCONT``, partitions. Moments are read from the
nodes' journals (how far a chain goes, whether a seed was revealed, whether a table finished).

:func:`problems` judges a finished run by what a player needs, and says precisely what went wrong
(so a failure is a diagnosis): every node exited, every node holds the same transcript file,
it verifies naming no seat, no envelope every other seat had built on was reverted, and no
node logged a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from fairtable.node.table.journal import JournalError, peek
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.transcript_file import TranscriptReader
from tests.node.cables import Cable, dialing_process
from tests.node.nodes import free_port, listening_address, node_process

GRACE = 2.0
"""Seconds past a deadline before a silent seat is claimed absent: every fault below lasts longer."""
TIMERS = {"turn_seconds": 2, "idle_seconds": 10}
FLAGS = ("--bot-delay", "0.02", "--grace", str(GRACE), "--heartbeat", "1", "--discovery", "off", "--until-done")
"""A heartbeat of one second: a link is dropped after three silent ones, which a loaded machine's
lobby and links survive, and still well within a fault."""
BOTS = ("greedy", "random")


@dataclass(frozen=True)
class Game:
    """A table to play: ``middle`` is a chain length about halfway through a game."""

    name: str
    game: str
    variant: str
    seats: int
    options: dict
    middle: int


SHENGJI = Game("shengji-4", "shengji", "standard", 4, {"deals": 1}, 60)
SALVOS = Game("zeeslag-3", "zeeslag", "duel", 3, {"fleet": "ten"}, 180)
FREE_FOR_ALL = Game("duel-ffa-3", "duel", "ffa", 3, {"cycles": 2}, 45)


# ------------------------------------------------------------------ moments


def journal(data: Path):
    """A node's journal contents as on disk now (None before the table started, or while unreadable)."""
    for path in (data / "tables").glob("*/journal"):
        try:
            return peek(path)
        except JournalError:
            return None
    return None


def chain(data: Path) -> list[Envelope]:
    """The chain a node's journal holds now: each placed envelope replaces what stood at its seq."""
    contents = journal(data)
    held: list[Envelope] = []
    for envelope in contents.placed if contents is not None else ():
        held[envelope.seq:] = [envelope]
    return held


def finished(data: Path) -> bool:
    return any((data / "tables").glob("*/transcript.ftt"))


Moment = Callable[[list[Path]], bool]
"""Whether a moment has come, from the nodes' data directories."""


def after(count: int) -> Moment:
    """Some node's chain holds ``count`` envelopes."""
    return lambda datas: any(len(chain(data)) >= count for data in datas)


def seed_round(datas: list[Path]) -> bool:
    """Some node holds the first revealed seed: the game is over and the seeds are being revealed."""
    return any(any(envelope.kind == "seed" for envelope in chain(data)) for data in datas)


def last_envelope(datas: list[Path]) -> bool:
    """Some node placed the table's last envelope (it wrote the transcript file right after)."""
    return any(finished(data) for data in datas)


def moments(game: Game) -> dict[str, Moment]:
    return {"early": after(8), "middle": after(game.middle), "seeds": seed_round, "last": last_envelope}


# ------------------------------------------------------------------ the table


@dataclass
class Seat:
    data: Path
    name: str
    port: int
    cable: Cable
    process: subprocess.Popen
    bot: str
    exited: int | None = None


@dataclass
class ProcessTable:
    """``await start()`` inside ``async with trio.open_nursery()``; then faults, then ``await finish()``."""

    root: Path
    game: Game
    nursery: trio.Nursery
    seats: list[Seat] = field(default_factory=list)
    groups: tuple[frozenset[int], ...] = ()

    @property
    def datas(self) -> list[Path]:
        return [seat.data for seat in self.seats]

    async def start(self) -> None:
        """Start one node per seat, the first hosting, and wait until every node journaled the start."""
        game = self.game
        table = ("--host-table", game.game, "--variant", game.variant, "--seats", str(game.seats),
                 "--options", json.dumps({**TIMERS, **game.options}))
        order: list[Seat] = []
        for index in range(game.seats):
            port = free_port()
            cable = Cable(port, self._dialer)
            await self.nursery.start(cable.serve)
            name = f"node-{index}"
            flags = table if index == 0 else ("--join", f"127.0.0.1:{order[0].cable.port}")
            bot = BOTS[index % len(BOTS)]
            process = self._launch(self.root / name, name, port, cable, bot, *flags)
            await trio.to_thread.run_sync(listening_address, process)
            order.append(Seat(self.root / name, name, port, cable, process, bot))
        self.seats = order
        try:
            await self.until(lambda datas: all(journal(data) is not None for data in datas), 60)
        except trio.TooSlowError:
            raise AssertionError(f"the table never started at every node; see the logs in {self.root}") from None
        names = [seat.name for seat in journal(order[0].data).genesis.genesis.seats]
        self.seats = sorted(order, key=lambda seat: names.index(seat.name))  # index = seat number

    def _launch(self, data: Path, name: str, port: int, cable: Cable, bot: str, *flags: str) -> subprocess.Popen:
        return node_process(data, name, "--port", str(port), "--advertise", f"127.0.0.1:{cable.port}", "--bot", bot, *FLAGS, *flags)

    def _dialer(self, port: int, cable_port: int) -> int | None:
        """The seat whose node dials a cable from ``port`` (None before the seats are known)."""
        pids = {seat.process.pid: n for n, seat in enumerate(self.seats)}
        pid = dialing_process(port, cable_port, pids)
        return None if pid is None else pids[pid]

    async def until(self, moment: Moment, seconds: float = 90) -> None:
        """Wait for ``moment``, or the end of a game that ended sooner (a claim on a slow start)."""
        with trio.fail_after(seconds):  # a guard against hanging, not a timing assertion
            while not (moment(self.datas) or last_envelope(self.datas)):
                await trio.sleep(0.002)

    # -------------------------------------------------------------- faults

    def kill(self, seat: int) -> None:
        process = self.seats[seat].process
        process.kill()
        process.wait()
        process.stdout.close()

    def restart(self, seat: int) -> None:
        """Start a killed seat's node again on its data, port and cable: it reloads its journal."""
        s = self.seats[seat]
        s.process = self._launch(s.data, s.name, s.port, s.cable, s.bot)

    def stop(self, seat: int) -> None:
        os.kill(self.seats[seat].process.pid, signal.SIGSTOP)

    def cont(self, seat: int) -> None:
        os.kill(self.seats[seat].process.pid, signal.SIGCONT)

    def partition(self, *cut_off: int) -> None:
        """Split the table into ``cut_off`` and the rest: links between the groups close and stay
        closed; links inside each group stay up."""
        inside = frozenset(cut_off)
        self.groups = (inside, frozenset(range(len(self.seats))) - inside)
        for number, seat in enumerate(self.seats):
            seat.cable.refuse(lambda who, number=number: who is None or (who in inside) != (number in inside))

    def heal(self) -> None:
        self.groups = ()
        for seat in self.seats:
            seat.cable.mend()

    # -------------------------------------------------------------- the end

    async def finish(self, seconds: float = 90) -> None:
        """Wait for every node to exit (``--until-done``); past ``seconds`` kill the rest (``exited`` stays None)."""
        deadline = time.monotonic() + seconds
        while any(seat.process.poll() is None for seat in self.seats) and time.monotonic() < deadline:
            await trio.sleep(0.05)
        stuck = [seat for seat in self.seats if seat.process.poll() is None]
        for seat in stuck:
            seat.process.send_signal(signal.SIGUSR1)  # it logs where each of its tasks waits
        if stuck:
            await trio.sleep(1)
        for seat in self.seats:
            seat.exited = seat.process.poll()
            if seat.exited is None:
                seat.process.kill()
                seat.process.wait()
            seat.process.stdout.close()


def _tasks(seat: Seat) -> str:
    """What a node that never exited said it waited for when asked (``node.cli.stuck``), from its log."""
    log = seat.data.with_suffix(".log").read_text(errors="replace")
    start = log.rfind("tasks, as asked by SIGUSR1")
    return f"; its tasks then:\n{log[start:start + 6000]}" if start >= 0 else " (and logged no tasks when asked)"


def problems(table: ProcessTable) -> list[str]:
    """Everything a player would find wrong with how the run ended, each said precisely; [] if nothing."""
    found = [f"{seat.name} (seat {n}) " + (f"never exited{_tasks(seat)}" if seat.exited is None else f"exited with status {seat.exited}")
             for n, seat in enumerate(table.seats) if seat.exited != 0]
    found += _tracebacks(table)
    files: dict[int, bytes] = {}
    for n, seat in enumerate(table.seats):
        paths = list((seat.data / "tables").glob("*/transcript.ftt"))
        if paths:
            files[n] = paths[0].read_bytes()
            found += _stale(n, files[n], chain(seat.data))
        else:
            found.append(f"seat {n} wrote no transcript (its chain holds {len(chain(seat.data))} envelopes)")
    if not files:
        return found
    versions: dict[bytes, list[int]] = {}
    for n, data in files.items():
        versions.setdefault(hashlib.sha256(data).digest(), []).append(n)
    try:
        if len(versions) > 1:
            found.append(_divergence({seats[0]: files[seats[0]] for seats in versions.values()}, list(versions.values())))
        final = _chain_of(files[min(files)])
    except ProtocolError as exc:
        return [*found, f"seat {min(files)}'s transcript file is unreadable: {exc}"]
    for seats in versions.values():
        found += [f"seats {seats}' file: {finding}" for finding in _verdict(files[seats[0]])]
    found += _lost(table, {envelope.hash for envelope in final})
    return found


def _stale(seat: int, data: bytes, journaled: list[Envelope]) -> list[str]:
    """The transcript file must hold the chain the node's journal ended on (not a fork it left)."""
    try:
        held = _chain_of(data)
    except ProtocolError:
        return []  # said where the files are compared
    if [e.hash for e in held] == [e.hash for e in journaled]:
        return []
    common = next((i for i, (a, b) in enumerate(zip(held, journaled)) if a.hash != b.hash), min(len(held), len(journaled)))
    return [f"seat {seat}'s transcript file is stale: its chain of {len(held)} envelopes is not the journal's last chain of "
            f"{len(journaled)} (they part at {common}: file {', '.join(map(_short, held[common:common + 3]))}; "
            f"journal {', '.join(map(_short, journaled[common:common + 3]))})"]


def _tracebacks(table: ProcessTable) -> list[str]:
    out = []
    for n, seat in enumerate(table.seats):
        log = seat.data.with_suffix(".log").read_text(errors="replace")
        if "Traceback" in log:
            start = log.index("Traceback")
            out.append(f"seat {n} logged a traceback: {log[max(0, start - 300):start + 1500]}")
    return out


def _read(data: bytes) -> TranscriptReader:
    reader = TranscriptReader()
    reader.feed(data)
    assert reader.transcript is not None
    return reader


def _chain_of(data: bytes) -> list[Envelope]:
    return list(_read(data).transcript.envelopes)


def _divergence(files: dict[int, bytes], groups: list[list[int]]) -> str:
    """Which seats hold which file, and where their chains part (or, on one chain, which evidence differs)."""
    readers = {n: _read(data) for n, data in files.items()}
    chains = {n: list(reader.transcript.envelopes) for n, reader in readers.items()}
    common = 0
    while all(len(c) > common for c in chains.values()) and len({c[common].hash for c in chains.values()}) == 1:
        common += 1
    parts = []
    for seats in groups:
        held, evidence = chains[seats[0]], readers[seats[0]].evidence
        shown = ", ".join(_short(e) for e in held[common:common + 6])
        kept = ", ".join(_short(e) for e in evidence[:8])
        parts.append(f"seats {seats}: {len(held)} envelopes{f', from {common}: {shown}' if shown else ''}"
                     f"{' ...' if len(held) > common + 6 else ''}; evidence {len(evidence)}: {kept}")
    if all(len(c) == common for c in chains.values()):
        return f"the transcript files differ in their evidence alone (one chain of {common} envelopes): " + "; ".join(parts)
    return f"the transcript files differ from envelope {common}: " + "; ".join(parts)


def _short(envelope: Envelope) -> str:
    claimed = f"({envelope.body.get('seat')})" if envelope.kind == "absent" and isinstance(envelope.body, dict) else ""
    return f"{envelope.seq}:{envelope.kind}{claimed}/s{envelope.seat}"


def _verdict(data: bytes) -> list[str]:
    """What the verifier finds wrong: a seat named, damage, messages owed. Absences are fine."""
    try:
        report = verify_chunks([data])
    except ProtocolError as exc:
        return [f"unreadable: {exc}"]
    out = [f"names seat {v.seat} at envelope {v.index}: {v.rule}: {v.detail}" for v in report.violations if v.seat is not None]
    out += [f"{v.rule} at envelope {v.index} (suspects {list(v.suspects)}): {v.detail}" for v in report.violations if v.seat is None]
    if report.damage is not None:
        out.append(f"damaged: {report.damage}")
    out += [f"incomplete: seat {owed.seat} owes {owed.kind} as envelope {owed.index}" for owed in report.owed]
    return out


def _lost(table: ProcessTable, final: set[bytes]) -> list[str]:
    """Envelopes every other seat had built on (signed an envelope whose chain holds it) that the
    final chain lacks: an accepted move reverted after the whole table had taken it."""
    known: dict[bytes, Envelope] = {}
    for seat in table.seats:
        contents = journal(seat.data)
        for envelope in contents.placed if contents is not None else ():
            known[envelope.hash] = envelope
        for kept in contents.kept if contents is not None else ():
            known[kept.envelope.hash] = kept.envelope
    built_on: dict[bytes, set[int]] = {}
    for envelope in known.values():
        author, parent = envelope.seat, envelope.prev
        while parent in known and author not in built_on.setdefault(parent, set()):
            built_on[parent].add(author)
            parent = known[parent].prev
    seats = set(range(len(table.seats)))
    lost = sorted((known[h] for h, builders in built_on.items() if h not in final and seats - {known[h].seat} <= builders),
                  key=lambda e: e.seq)
    return [f"envelope {e.seq} ({e.kind} of seat {e.seat}) was built on by every other seat, yet the final chain lacks it"
            for e in lost[:3]] + ([f"... and {len(lost) - 3} more such envelopes"] if len(lost) > 3 else [])


def reverted(data: Path) -> int:
    """How many envelopes a node placed on its chain and later replaced (what its forks undid)."""
    contents = journal(data)
    count, length = 0, 0
    for envelope in contents.placed if contents is not None else ():
        count += max(0, length - envelope.seq)
        length = envelope.seq + 1
    return count
