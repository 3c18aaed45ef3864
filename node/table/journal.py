"""A table's files under ``DIR/tables/<table id hex>/``: what a node needs to survive ``kill -9``.

- ``secret``: the seat's 32-byte per-table secret (its game seeds derive from it), created
  with mode 0600 and fsynced before the node signs the genesis, so a restarted node derives
  the same seeds and therefore signs the same automatic messages;
- ``peers``: the lobby id and every seat's address, for reconnecting;
- ``journal``: an append-only stream of records (``spec/node.md``): the genesis, every
  envelope placed on the chain (one at a sequence number already held replaces what stood
  there, so a fork the node left stays on disk), evidence, this seat's committed choices and
  when each slot became due. Every batch is written in full and fsynced before the node acts
  on it; a write that fails is cut off again, so the file never holds a torn record before a
  good one, and a torn tail left by a crash is cut on load;
- ``transcript.ftt``: the complete transcript file, written once the table is finished (again
  when a restart finds it missing, a fork or shared evidence changes it; removed when a fork
  reopens the table).

Nothing here knows the protocol's rules: the records are the replica's
(:mod:`fairtable.protocol.session.replica`), the bytes are canonical msgpack.
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairtable.node.files import FileError, write_atomically, write_secret_file
from fairtable.protocol import RECORD_LIMITS, Envelope, EnvelopeError, GenesisError, ProtocolError, SignedGenesis, codec, record_bytes
from fairtable.protocol.session import Choices, Kept, Placed, Record, Violation

log = logging.getLogger("fairtable.node")

SECRET_SIZE = 32
FORMAT = "fairtable-journal"
VERSION = 1

Writer = Callable[[int, bytes], int]
"""``os.write``, or a stand-in that fails the way a full disk does."""


class JournalError(Exception):
    """A table directory that cannot be read or written; the message names the file and why."""


# ------------------------------------------------------------------ records


def _violation_value(violation: Violation | None) -> Any:
    if violation is None:
        return None
    return {"detail": violation.detail, "index": violation.index, "rule": violation.rule, "seat": violation.seat,
            "suspects": list(violation.suspects)}


def _violation(value: Any, envelope: Envelope) -> Violation | None:
    if value is None:
        return None
    return Violation(value["index"], value["seat"], value["rule"], value["detail"], envelope, tuple(value["suspects"]))


def record_value(record: Record) -> bytes:
    """One replica record as the bytes of a journal record."""
    if isinstance(record, Placed):
        return record_bytes("envelope", record.envelope.to_value())
    if isinstance(record, Kept):
        twin = None if record.twin is None else record.twin.to_value()
        return record_bytes("evidence", {"envelope": record.envelope.to_value(), "twin": twin,
                                         "violation": _violation_value(record.violation)})
    if isinstance(record, Choices):
        return record_bytes("choices", record.value)
    return record_bytes("due", {"count": record.count, "since": round(record.since * 1000)})


def _needed(records: list[Record]) -> list[Record]:
    """``records`` without the plain ``evidence`` of an envelope the same batch places on the chain
    (the replica holds each envelope it receives before it places it): a load holds every envelope
    a later record drops from the chain again, so the record would only write the envelope twice."""
    placed = {record.envelope.hash for record in records if isinstance(record, Placed)}
    return [record for record in records
            if not (isinstance(record, Kept) and record.violation is None and record.twin is None and record.envelope.hash in placed)]


@dataclass
class Contents:
    """What a journal holds, in the replica's terms."""

    genesis: SignedGenesis
    placed: list[Envelope] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)
    choices: list = field(default_factory=list)
    since: float | None = None
    """When the slot after the last placed envelope became due, if the journal says."""


def _read(data: bytes, path: Path) -> tuple[Contents, int]:
    """The records of ``data`` up to the first one that does not decode, and where that is."""
    position = 0
    contents: Contents | None = None
    due: tuple[int, float] | None = None
    count = 0
    while position < len(data):
        value: Any
        try:
            value, end = codec.decode_prefix(data, position, RECORD_LIMITS)
        except ProtocolError:
            break
        try:
            if position == 0:
                if value != {"format": FORMAT, "version": VERSION}:
                    raise JournalError(f"{path}: not a fairtable journal of version {VERSION}")
            else:
                tag, payload = value
                if contents is None:
                    if tag != "genesis":
                        raise JournalError(f"{path}: the genesis record is missing")
                    contents = Contents(SignedGenesis.from_value(payload))
                elif tag == "envelope":
                    envelope = Envelope.from_value(payload)
                    if envelope.seq > count:
                        raise JournalError(f"{path}: envelope {envelope.seq} follows only {count} envelopes")
                    contents.placed.append(envelope)
                    count = envelope.seq + 1
                elif tag == "evidence":
                    envelope = Envelope.from_value(payload["envelope"])
                    twin = None if payload["twin"] is None else Envelope.from_value(payload["twin"])
                    contents.kept.append(Kept(envelope, _violation(payload["violation"], envelope), twin))
                elif tag == "choices":
                    contents.choices = list(payload)
                elif tag == "due":
                    due = (payload["count"], payload["since"] / 1000)
                else:
                    raise JournalError(f"{path}: unknown record {tag!r}")
        except (ValueError, TypeError, KeyError, EnvelopeError, GenesisError) as exc:
            raise JournalError(f"{path}: unreadable record at byte {position}: {exc}") from None
        position = end
    if contents is None:
        raise JournalError(f"{path}: no genesis record")
    if due is not None and due[0] == count:
        contents.since = due[1]
    return contents, position


def peek(path: Path) -> Contents:
    """A journal's contents as they are on disk now, without cutting anything (for inspection)."""
    try:
        return _read(path.read_bytes(), path)[0]
    except OSError as exc:
        raise JournalError(f"{path}: cannot read: {exc.strerror}") from None


class Journal:
    """The append-only record stream of one table, written a batch at a time."""

    def __init__(self, path: Path, size: int, writer: Writer = os.write) -> None:
        self.path = path
        self._writer = writer
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise JournalError(f"{path}: cannot open for writing: {exc.strerror}") from None
        self._size = size

    def write(self, records: list[Record]) -> None:
        """Append ``records`` in full and fsync them; on any failure cut the file back to what
        it held before and raise :class:`JournalError` (nothing of the batch counts)."""
        if not records:
            return
        data = b"".join(record_value(record) for record in _needed(records))
        try:
            written = 0
            while written < len(data):
                written += self._writer(self._fd, data[written:])
            os.fsync(self._fd)
        except OSError as exc:
            self._cut()
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise JournalError(f"disk full: waiting for room to write {self.path} ({exc.strerror})") from None
            raise JournalError(f"{self.path}: cannot write: {exc.strerror or exc}") from None
        self._size += len(data)

    def _cut(self) -> None:
        try:
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
        except OSError:
            pass  # the next load cuts the torn tail; nothing after it was ever written

    def close(self) -> None:
        os.close(self._fd)


class TableFiles:
    """The directory of one table this node sits at."""

    def __init__(self, root: Path, table_id: bytes, writer: Writer = os.write) -> None:
        self.table_id = table_id
        self.dir = root / table_id.hex()
        self._writer = writer
        self.repaired: str | None = None
        """What a load found damaged and cut off (a crash mid-write), for the table's log; None when nothing."""

    @classmethod
    def existing(cls, root: Path) -> Iterator[TableFiles]:
        """Every table directory under ``root`` that holds a journal (a started table)."""
        if not root.is_dir():
            return
        for path in sorted(root.iterdir()):
            try:
                table_id = bytes.fromhex(path.name)
            except ValueError:
                continue
            if len(table_id) == 32 and (path / "journal").is_file():
                yield cls(root, table_id)

    # ------------------------------------------------------------ secret

    def has_secret(self) -> bool:
        """Whether this node signed this table's genesis (it creates the secret first)."""
        return (self.dir / "secret").is_file()

    def secret(self) -> bytes:
        """The per-table secret, created (0600, fsynced) on first use: call before signing the genesis."""
        path = self.dir / "secret"
        if path.exists():
            value = path.read_bytes()
            if len(value) != SECRET_SIZE:
                raise JournalError(f"{path}: a table secret is {SECRET_SIZE} bytes, found {len(value)}")
            return value
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"{self.dir}: cannot create: {exc.strerror}") from None
        value = os.urandom(SECRET_SIZE)
        try:
            write_secret_file(path, value)
        except FileError as exc:
            raise JournalError(str(exc)) from None
        return value

    # ------------------------------------------------------------ peers

    def write_peers(self, lobby: str, addresses: tuple[str, ...]) -> None:
        self._replace("peers", codec.encode({"addresses": list(addresses), "lobby": lobby}))

    def read_peers(self) -> tuple[str, tuple[str, ...]]:
        path = self.dir / "peers"
        try:
            value: Any = codec.decode(path.read_bytes())
            return value["lobby"], tuple(value["addresses"])
        except (OSError, ProtocolError, KeyError, TypeError) as exc:
            raise JournalError(f"{path}: unreadable peers file: {exc}") from None

    # ------------------------------------------------------------ journal

    def start_journal(self, genesis: SignedGenesis) -> Journal:
        """Write a new journal holding the genesis alone."""
        data = codec.encode({"format": FORMAT, "version": VERSION}) + record_bytes("genesis", genesis.to_value())
        self._replace("journal", data)
        return Journal(self.dir / "journal", len(data), self._writer)

    def load_journal(self) -> tuple[Contents, Journal]:
        """The journal's contents; a torn or bad tail (a crash mid-write) is cut off first."""
        path = self.dir / "journal"
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise JournalError(f"{path}: cannot read: {exc.strerror}") from None
        contents, good = _read(data, path)
        if good < len(data):
            self.repaired = (f"damaged after {len(contents.placed)} envelopes: its last {len(data) - good} bytes did not "
                             "read and were cut off (the peers send what they held again)")
            log.warning("%s: %s", path, self.repaired)
            try:
                with open(path, "r+b") as handle:
                    handle.truncate(good)
                    os.fsync(handle.fileno())
            except OSError as exc:
                raise JournalError(f"{path}: cannot cut the torn tail: {exc.strerror}") from None
        return contents, Journal(path, good, self._writer)

    # ------------------------------------------------------------ outcomes

    def write_transcript(self, data: bytes) -> Path:
        return self._replace("transcript.ftt", data)

    def remove_transcript(self) -> None:
        """A fork reopened the table: the file no longer tells how it ended."""
        try:
            (self.dir / "transcript.ftt").unlink(missing_ok=True)
        except OSError as exc:
            raise JournalError(f"{self.dir / 'transcript.ftt'}: cannot remove: {exc.strerror}") from None

    def clean(self) -> None:
        """Remove what a write cut short by a crash left (``NAME.tmp``); the node writes it again."""
        for stale in self.dir.glob("*.tmp"):
            stale.unlink(missing_ok=True)

    def _replace(self, name: str, data: bytes) -> Path:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            write_atomically(self.dir / name, data)
        except (OSError, FileError) as exc:
            raise JournalError(str(exc)) from None
        return self.dir / name
