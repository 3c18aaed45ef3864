"""Every tournament this node takes part in, carried round by round (``spec/tournament.md``).

A tournament's state is its bundle on disk (``files.py``); the rounds, the standings and the
tables due now are recomputed from it (``protocol.tournament.progress``). For each table due
now the node acts by its place at it: seat 0 asks every other seat's node to sign the genesis
the pairing fixes (``ttable``) and starts the table in the mesh, which links the seats as for
any table; the other seats sign only a genesis their own computation calls for. A node not
seated at a table fetches its transcript from the seats, or any participant that verified it
(``tget``), and verifies it; only verified outcomes move the tournament on. Absence inside a
table is the table's own rule. Once finished, a node tells every other participant (``tdone``),
so each knows when nobody needs its transcripts any more.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import trio

from fairtable.node.files import FileError
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import PEER_VERSION, BadMessage, message, parse
from fairtable.node.service import TournamentLobby, TournamentStatus
from fairtable.node.table.journal import JournalError, TableFiles
from fairtable.node.table.mesh import Mesh
from fairtable.node.tournament.files import TournamentFiles
from fairtable.node.tournament.lobby import TournamentGuest, TournamentHost
from fairtable.node.updates import Updates
from fairtable.protocol import Genesis, GenesisError, PublicKey, SecretKey, SignedGenesis
from fairtable.protocol.tournament import Outcome, Progress, Table, Tournament, check_table, progress

T = TypeVar("T")

log = logging.getLogger("fairtable.node")

CHUNK = 60_000
MAX_TRANSCRIPT = 16 << 20
"""A transcript fetched from a peer larger than this is refused (a duel table is tens of KiB)."""

Connect = Callable[[str, PublicKey | None], Awaitable[Channel]]


@dataclass
class Running:
    tournament: Tournament
    addresses: tuple[str, ...]
    files: TournamentFiles
    me: int
    outcomes: dict[bytes, Outcome] = field(default_factory=dict)
    progress: Progress | None = None
    told: set[int] = field(default_factory=set)
    """Participants who confirmed hearing that this node holds the whole tournament (``tdone``)."""
    heard: set[int] = field(default_factory=set)
    """Participants who told this node they hold the whole tournament."""

    @property
    def settled(self) -> bool:
        """Finished here, and every other participant both told and heard: nobody needs a transcript from us."""
        others = set(range(len(self.addresses))) - {self.me}
        return self.progress is not None and self.progress.finished and others <= self.told and others <= self.heard

    @property
    def id(self) -> bytes:
        return self.tournament.tournament_id

    def recompute(self) -> Progress:
        self.progress = progress(self.tournament.signed, self.tournament.seed, self.outcomes)
        return self.progress


class Tournaments:
    """The tournaments of one node: its lobby (host and guest) and every running tournament."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], root: Path, mesh: Mesh,
                 updates: Updates, connect: Connect, heartbeat: float, timeout: float) -> None:
        self.key = key
        self.root = root
        self.mesh = mesh
        self.updates = updates
        self._connect = connect
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.running: dict[bytes, Running] = {}
        self.host = TournamentHost(key, name, address, self.add, heartbeat, timeout)
        self.guest = TournamentGuest(key, name, address, self.add, lambda peer: connect(peer, None), heartbeat, timeout)
        self._nursery: trio.Nursery | None = None

    @property
    def finished(self) -> bool:
        return bool(self.running) and all(r.progress is not None and r.progress.finished for r in self.running.values())

    @property
    def settled(self) -> bool:
        return bool(self.running) and all(r.settled for r in self.running.values())

    def statuses(self) -> tuple[TournamentStatus, ...]:
        return tuple(TournamentStatus(r.id.hex(), r.me, tuple(p.name for p in r.tournament.signed.record.participants),
                                      str(r.files.dir), (r.progress or r.recompute()).to_value())
                     for r in self.running.values())

    # ------------------------------------------------------------ starting

    def reload(self, nursery: trio.Nursery) -> None:
        self._nursery = nursery
        for files in TournamentFiles.existing(self.root):
            try:
                tournament, addresses = files.load()
                self._open(tournament, addresses, files)
            except JournalError as exc:
                log.error("tournament %s: cannot reload: %s", files.dir.name[:12], exc)

    def offer(self, size: int, options: dict) -> TournamentLobby:
        assert self._nursery is not None
        return self.host.offer(self._nursery, size, options)

    async def join(self, peer: str, lobby_id: str) -> TournamentLobby:
        assert self._nursery is not None
        return await self.guest.join(self._nursery, peer, lobby_id)

    def add(self, tournament: Tournament, addresses: tuple[str, ...]) -> None:
        """A tournament that just started: on disk first, then run."""
        files = TournamentFiles.of(self.root, tournament.tournament_id)
        try:
            files.create(tournament, addresses)
        except FileError as exc:
            log.error("tournament %s cannot be stored, so this node does not take part: %s", tournament.tournament_id.hex()[:12], exc)
            return
        self._open(tournament, addresses, files)

    def _open(self, tournament: Tournament, addresses: tuple[str, ...], files: TournamentFiles) -> None:
        me = tournament.signed.record.index_of(self.key.public)
        if me is None:
            raise JournalError(f"{files.dir}: the tournament does not enter this node's key")
        running = Running(tournament, addresses, files, me)
        self.running[running.id] = running
        log.info("tournament %s: %d participants, this node is %s", running.id.hex()[:12], len(addresses),
                 tournament.signed.record.participants[me].name)
        assert self._nursery is not None
        self._nursery.start_soon(self._run, running)
        self.updates.wake()

    # ------------------------------------------------------------ carrying a tournament

    async def _run(self, running: Running) -> None:
        self._reload_tables(running)
        counted = -1
        while True:
            now = running.recompute()
            if len(running.outcomes) != counted:  # wake clients and waiters only on news (several tournaments wake each other)
                counted = len(running.outcomes)
                self.updates.wake()
            if now.finished:
                log.info("tournament %s finished: %s wins", running.id.hex()[:12], self._name_of(running, now.champion))
                await self._tell_done(running)
                return
            for table in now.current:
                try:
                    await self._advance(running, table)
                except (JournalError, FileError) as exc:
                    log.error("tournament %s: %s: %s (retried)", running.id.hex()[:12], table.spec.label, exc)
            with trio.move_on_after(self.heartbeat):
                await self.updates.changed()

    def _reload_tables(self, running: Running) -> None:
        """Count the bundle's transcripts round by round (a restart): each round's outcomes reveal the next round's tables."""
        while any([self._count(running, t, running.files.table(t.table_id), saved=True) for t in running.recompute().current]):
            pass

    async def _advance(self, running: Running, table: Table) -> None:
        seats = table.spec.seats
        if running.me not in seats:
            await self._fetch(running, table)
            return
        live = self.mesh.tables.get(table.table_id)
        if live is not None:
            if live.finished:
                self._count(running, table, live.transcript_bytes())
        elif seats.index(running.me) == 0:
            await self._start_table(running, table)

    def _count(self, running: Running, table: Table, data: bytes | None, saved: bool = False) -> bool:
        """Verify a transcript as ``table``; keep it in the bundle if it gives an outcome."""
        if data is None:
            return False
        check, found = check_table(table, data)
        if found is None:
            if not saved:
                log.warning("tournament %s: %s: %s", running.id.hex()[:12], table.spec.label, check.detail)
            return False
        if not saved:
            try:
                running.files.save_table(table.table_id, data)
            except FileError as exc:
                log.error("tournament %s: %s (retried)", running.id.hex()[:12], exc)
                return False
        running.outcomes[table.table_id] = found
        log.info("tournament %s: %s %s (%s)", running.id.hex()[:12], table.spec.label, check.status, check.detail)
        return True

    async def _start_table(self, running: Running, table: Table) -> None:
        """Seat 0: collect every seat's signature of the genesis the pairing fixes, then start it."""
        genesis = table.genesis
        TableFiles(self.mesh.root, genesis.table_id).secret()
        signatures = [genesis.sign(self.key)]
        for participant in table.spec.seats[1:]:
            request = message("ttable", v=PEER_VERSION, genesis=genesis.encoded)
            reply = await self._ask(running, participant, request, self._reply("signature", "refused"),
                                    f"{table.spec.label}: seat of {participant} not reachable")
            if reply is None:
                return
            if reply["t"] == "refused":
                log.debug("tournament %s: %s: %s", running.id.hex()[:12], table.spec.label, reply["reason"])
                return
            signatures.append(reply["sig"])
        try:
            signed = SignedGenesis(genesis, tuple(signatures))
        except GenesisError as exc:
            log.warning("tournament %s: %s: %s", running.id.hex()[:12], table.spec.label, exc)
            return
        if genesis.table_id not in self.mesh.tables:
            addresses = tuple(running.addresses[p] for p in table.spec.seats)
            self.mesh.start(signed, lobby_name(running, table), addresses)
            log.info("tournament %s: %s started", running.id.hex()[:12], table.spec.label)

    async def _ask(self, running: Running, participant: int, request: dict,
                   answer: Callable[[Channel], Awaitable[T]], failure: str) -> T | None:
        """Send ``request`` to ``participant`` on a channel of its own and read its ``answer``;
        None (logged with ``failure``) if it cannot be reached or answers out of protocol."""
        key = running.tournament.signed.record.participants[participant].key
        try:
            channel = await self._connect(running.addresses[participant], key)
            async with channel:
                await channel.send(request)
                return await answer(channel)
        except (OSError, ValueError, trio.TooSlowError, ChannelError, BadMessage) as exc:
            log.debug("tournament %s: %s: %s", running.id.hex()[:12], failure, exc)
            return None

    def _reply(self, *kinds: str) -> Callable[[Channel], Awaitable[dict]]:
        """Read one message of ``kinds`` within the timeout."""
        async def read(channel: Channel) -> dict:
            return parse(await channel.receive(timeout=self.timeout), *kinds)
        return read

    async def _fetch(self, running: Running, table: Table) -> None:
        """A table this node does not sit at: its transcript from one of its seats, else from any
        participant who has verified it already (a seat may have left once its table finished)."""
        others = [p for p in range(len(running.addresses)) if p not in table.spec.seats and p != running.me]
        for participant in (*table.spec.seats, *others):
            request = message("tget", v=PEER_VERSION, tournament=running.id, table=table.table_id)
            data = await self._ask(running, participant, request, lambda channel: _receive_file(channel, self.timeout),
                                   f"{table.spec.label}: no transcript from {participant}")
            if data is not None and self._count(running, table, data):
                return

    async def _tell_done(self, running: Running) -> None:
        """Tell every other participant this node holds the whole tournament, until each has heard it."""
        while not running.settled:
            for participant in set(range(len(running.addresses))) - running.told - {running.me}:
                request = message("tdone", v=PEER_VERSION, tournament=running.id)
                reply = await self._ask(running, participant, request, self._reply("tdone", "refused"),
                                        f"{participant} did not hear we are done")
                if reply is not None and reply["t"] == "tdone":
                    running.told.add(participant)
                    self.updates.wake()
            with trio.move_on_after(self.heartbeat):
                await self.updates.changed()
        log.info("tournament %s: every participant holds all of it", running.id.hex()[:12])

    # ------------------------------------------------------------ serving peers

    async def serve_done(self, channel: Channel, request: dict, who: str) -> None:
        """``tdone``: a participant holds the whole tournament; acknowledged with ``tdone``."""
        running = self.running.get(request["tournament"])
        index = None if running is None else running.tournament.signed.record.index_of(channel.peer)
        if running is None or index is None:
            await channel.send(message("refused", code="unknown", reason="this node runs no such tournament with you in it"))
            return
        # Acknowledge first: once every participant is heard this node may exit, and the sender
        # would then wait for an acknowledgement that never comes.
        await channel.send(message("tdone", v=PEER_VERSION, tournament=running.id))
        running.heard.add(index)
        log.debug("tournament %s: participant %d holds all of it", running.id.hex()[:12], index)
        self.updates.wake()

    async def serve_table(self, channel: Channel, request: dict, who: str) -> None:
        """``ttable``: sign a genesis if this node's own computation calls for it, from its seat 0."""
        try:
            genesis = Genesis.from_bytes(request["genesis"])
        except GenesisError as exc:
            raise BadMessage(f"ttable: {exc}") from None
        refusal = self._signing_refusal(genesis, channel.peer)
        if refusal is not None:
            await channel.send(message("refused", code="not-ready", reason=refusal))
            return
        TableFiles(self.mesh.root, genesis.table_id).secret()
        await channel.send(message("signature", sig=genesis.sign(self.key), reveal=b""))

    def _signing_refusal(self, genesis: Genesis, asker: PublicKey) -> str | None:
        running = self.running.get(genesis.tournament.tournament) if genesis.tournament else None
        if running is None or running.progress is None:
            return "this node runs no such tournament"
        table = next((t for t in running.progress.current if t.genesis.encoded == genesis.encoded), None)
        if table is None:
            return "this node's results so far call for no such table now"
        if running.me not in table.spec.seats or running.tournament.signed.record.participants[table.spec.seats[0]].key != asker:
            return "the table does not seat this node, or the request is not from its seat 0"
        return None

    async def serve_transcript(self, channel: Channel, request: dict, who: str) -> None:
        """``tget``: a verified transcript of the tournament, in chunks."""
        running = self.running.get(request["tournament"])
        data = None if running is None or request["table"] not in running.outcomes else running.files.table(request["table"])
        if data is None:
            await channel.send(message("refused", code="unknown", reason="no verified transcript of that table here"))
            return
        await channel.send(message("tfile", size=len(data)))
        for start in range(0, len(data), CHUNK):
            await channel.send(message("chunk", data=data[start:start + CHUNK]))

    def _name_of(self, running: Running, participant: int | None) -> str:
        return "nobody" if participant is None else running.tournament.signed.record.participants[participant].name


def lobby_name(running: Running, table: Table) -> str:
    """The name a tournament table goes by in the node (its lobby id)."""
    return f"{running.id.hex()[:8]}-r{table.spec.round}t{table.spec.index}"


async def _receive_file(channel: Channel, timeout: float) -> bytes | None:
    reply = parse(await channel.receive(timeout=timeout), "tfile", "refused")
    if reply["t"] == "refused":
        return None
    size = reply["size"]
    if size > MAX_TRANSCRIPT:
        raise BadMessage(f"a transcript of {size} bytes is more than this node takes")
    data = bytearray()
    while len(data) < size:
        data += parse(await channel.receive(timeout=timeout), "chunk")["data"]
    if len(data) != size:
        raise BadMessage("the transcript's chunks do not add up to its size")
    return bytes(data)
