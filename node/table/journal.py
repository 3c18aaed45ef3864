"""A table's files under ``DIR/tables/<table id hex>/``: what a node needs to survive ``kill -9``.

- ``secret``: the seat's 32-byte per-table secret (its game seeds derive from it), created
  with mode 0600 and fsynced before the node signs the genesis, so a restarted node derives
  the same seeds and therefore signs the same automatic messages;
- ``peers``: the lobby id and every seat's address, for reconnecting;
- ``journal``: transcript records (header, signed genesis, one record per accepted
  envelope) without the end record, appended and fsynced before the node acts on an
  envelope; a torn last record is cut off on load;
- ``transcript.ftt``: the complete transcript file, written once the table is finished;
- ``equivocations``: one record per equivocation proof this node received.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import SignedGenesis
from fairtable.protocol.transcript import EquivocationProof
from fairtable.protocol.transcript_file import RECORD_LIMITS, TranscriptReader, header_bytes, record_bytes

SECRET_SIZE = 32


class JournalError(Exception):
    """A table directory that cannot be read or written; the message names the file."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    _fsync_dir(path.parent)


class Journal:
    """The append-only record stream of one table.

    :meth:`append` writes; :meth:`sync` puts every append on disk. A node syncs once after
    the appends one envelope caused (the envelope and the answers it dictates) and before
    it acts on any of them.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: BinaryIO = open(path, "ab", buffering=0)
        self._unsynced = False

    def append(self, envelope: Envelope) -> None:
        self._handle.write(record_bytes("envelope", envelope.to_value()))
        self._unsynced = True

    def sync(self) -> None:
        if self._unsynced:
            os.fsync(self._handle.fileno())
            self._unsynced = False

    def transcript(self, count: int, head: bytes) -> bytes:
        """The transcript file: the journal's records and the end record (``spec/transcript.md``)."""
        self.sync()
        return self.path.read_bytes() + record_bytes("end", {"count": count, "head": head})

    def rewrite(self, genesis: SignedGenesis, envelopes: list[Envelope]) -> None:
        """Replace the journal with ``envelopes`` (after adopting a peer's chain at a fork)."""
        self._handle.close()
        self._unsynced = False
        _write_atomically(self.path, journal_bytes(genesis, envelopes))
        self._handle = open(self.path, "ab", buffering=0)

    def close(self) -> None:
        self._handle.close()


def journal_bytes(genesis: SignedGenesis, envelopes: list[Envelope]) -> bytes:
    parts = [header_bytes(), record_bytes("genesis", genesis.to_value())]
    parts += [record_bytes("envelope", envelope.to_value()) for envelope in envelopes]
    return b"".join(parts)


class TableFiles:
    """The directory of one table this node sits at."""

    def __init__(self, root: Path, table_id: bytes) -> None:
        self.table_id = table_id
        self.dir = root / table_id.hex()

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

    def secret(self) -> bytes:
        """The per-table secret, created (0600, fsynced) on first use: call before signing the genesis."""
        path = self.dir / "secret"
        if path.exists():
            return self._read_secret(path)
        self.dir.mkdir(parents=True, exist_ok=True)
        value = os.urandom(SECRET_SIZE)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise JournalError(f"{path}: cannot create: {exc.strerror}") from None
        with os.fdopen(fd, "wb") as handle:
            handle.write(value)
            handle.flush()
            os.fsync(handle.fileno())
        _fsync_dir(self.dir)
        return value

    @staticmethod
    def _read_secret(path: Path) -> bytes:
        value = path.read_bytes()
        if len(value) != SECRET_SIZE:
            raise JournalError(f"{path}: a table secret is {SECRET_SIZE} bytes, found {len(value)}")
        return value

    # ------------------------------------------------------------ private choices

    def write_private(self, value: list) -> None:
        """This seat's committed free choices (hidden data, simultaneous choices), 0600 and
        fsynced before the commitment is sent: they must survive a crash to be opened later."""
        _write_atomically(self.dir / "private", codec.encode(value), mode=0o600)

    def read_private(self) -> list:
        path = self.dir / "private"
        if not path.exists():
            return []
        try:
            return list(codec.decode(path.read_bytes()))
        except (OSError, ProtocolError, TypeError) as exc:
            raise JournalError(f"{path}: unreadable private choices: {exc}") from None

    # ------------------------------------------------------------ peers

    def write_peers(self, lobby: str, addresses: tuple[str, ...]) -> None:
        _write_atomically(self.dir / "peers", codec.encode({"addresses": list(addresses), "lobby": lobby}))

    def read_peers(self) -> tuple[str, tuple[str, ...]]:
        path = self.dir / "peers"
        try:
            value = codec.decode(path.read_bytes())
            return value["lobby"], tuple(value["addresses"])
        except (OSError, ProtocolError, KeyError, TypeError) as exc:
            raise JournalError(f"{path}: unreadable peers file: {exc}") from None

    # ------------------------------------------------------------ journal

    def start_journal(self, genesis: SignedGenesis) -> Journal:
        """Write a new journal holding the genesis alone."""
        self.dir.mkdir(parents=True, exist_ok=True)
        _write_atomically(self.dir / "journal", journal_bytes(genesis, []))
        return Journal(self.dir / "journal")

    def load_journal(self) -> tuple[SignedGenesis, list[Envelope], Journal]:
        """The journal's genesis and envelopes; a torn or bad tail (a crash mid-write) is cut off."""
        path = self.dir / "journal"
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise JournalError(f"{path}: cannot read: {exc.strerror}") from None
        reader = TranscriptReader()
        good = 0
        while good < len(data):
            try:
                _, end = codec.decode_prefix(data, good, RECORD_LIMITS)
                reader.feed(data[good:end])
            except ProtocolError:
                break
            good = end
        if reader.transcript is None:
            raise JournalError(f"{path}: no genesis record")
        if good < len(data):
            with open(path, "r+b") as handle:
                handle.truncate(good)
                os.fsync(handle.fileno())
        return reader.transcript.genesis, list(reader.transcript.envelopes), Journal(path)

    # ------------------------------------------------------------ outcomes

    def write_transcript(self, data: bytes) -> Path:
        path = self.dir / "transcript.ftt"
        _write_atomically(path, data)
        return path

    def add_equivocation(self, proof: EquivocationProof) -> None:
        with open(self.dir / "equivocations", "ab") as handle:
            handle.write(codec.encode(proof.to_value(), RECORD_LIMITS))
            handle.flush()
            os.fsync(handle.fileno())
