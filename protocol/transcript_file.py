"""The transcript file: one self-contained, versioned stream of canonical msgpack records.

    {"format": "fairtable-transcript", "version": 1}     header
    ["genesis", {"genesis": bin, "sigs": [bin, ...]}]    the signed genesis
    ["envelope", [content, signature]]                    zero or more, in sequence order
    ["evidence", [content, signature]]                    zero or more: signed envelopes off the chain
    ["seeds", [[game, seat, seed], ...]]                  optional: seeds revealed outside the chain
    ["end", {"count": n, "head": bin}]                    envelope count and last hash

Records are self-delimiting, so a reader handles the file in chunks of any size and checks
each envelope's link as it arrives (:class:`TranscriptReader`). The end record makes a file
cut at a record boundary detectable. A node's journal is the same stream without the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, BinaryIO

from fairtable.protocol import codec
from fairtable.protocol.envelope import Envelope, EnvelopeError
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import GenesisError, SignedGenesis
from fairtable.protocol.transcript import Transcript, TranscriptError

FORMAT = "fairtable-transcript"
VERSION = 1
SEED_SIZE = 32
RECORD_LIMITS = codec.Limits(max_size=1 << 22, max_bin=1 << 22)


class TranscriptFileError(ProtocolError):
    """A file that is not a well-formed transcript; the message names the byte offset."""


@dataclass(frozen=True, order=True)
class RevealedSeed:
    """A seat's seed for one game as revealed in the file: the verifier recomputes that seat's secrets from it."""

    game: int
    seat: int
    seed: bytes

    def to_value(self) -> list:
        """The seed's record payload, as the file format has it."""
        return [self.game, self.seat, self.seed]


@dataclass(frozen=True)
class TranscriptFile:
    """A chain, the seeds revealed outside it, and ``evidence``: envelopes of the table that are
    not on the chain (refused ones, forks, claims that lost their slot), with which a verifier
    recomputes the chain and every finding (``spec/transcript.md``)."""

    transcript: Transcript
    seeds: tuple[RevealedSeed, ...] = ()
    evidence: tuple[Envelope, ...] = ()


def header_bytes() -> bytes:
    """The file's first record, naming its format and version: a reader refuses anything else before reading on."""
    return codec.encode({"format": FORMAT, "version": VERSION})


def record_bytes(tag: str, payload: Any) -> bytes:
    """One ``[tag, payload]`` record under the file's size limits: the journal writes the same records,
    so a journal and a transcript file read alike."""
    return codec.encode([tag, payload], RECORD_LIMITS)


def dump(file: TranscriptFile) -> bytes:
    """The complete file for ``file``: header, genesis, envelopes, seeds, end."""
    transcript = file.transcript
    parts = [header_bytes(), record_bytes("genesis", transcript.genesis.to_value())]
    parts += [record_bytes("envelope", envelope.to_value()) for envelope in transcript.envelopes]
    parts += [record_bytes("evidence", envelope.to_value()) for envelope in file.evidence]
    if file.seeds:
        parts.append(record_bytes("seeds", [seed.to_value() for seed in sorted(file.seeds)]))
    parts.append(record_bytes("end", {"count": len(transcript), "head": transcript.head}))
    return b"".join(parts)


class TranscriptReader:
    """Incremental reader: :meth:`feed` bytes as they come, :meth:`close` at end of input.

    Raises :class:`TranscriptFileError` for malformed records and :class:`TranscriptError`
    (with the envelope index) for a chain that does not hold together.

    With ``on_envelope`` the reader keeps no envelope of the chain: each one goes to
    ``on_envelope`` once its link is checked, and :attr:`transcript` holds the count and head.
    ``signed=False`` skips the chain's signature checks (see :class:`Transcript`).
    """

    def __init__(self, on_envelope: Callable[[Envelope], None] | None = None, *, signed: bool = True) -> None:
        self._on_envelope = on_envelope
        self._signed = signed
        self._buffer = b""
        self._consumed = 0
        self._state = "header"
        self.transcript: Transcript | None = None
        self.seeds: tuple[RevealedSeed, ...] = ()
        self.evidence: list[Envelope] = []

    def feed(self, data: bytes) -> None:
        """Read the next bytes of a file as they arrive: whole records are taken, a partial one waits for more."""
        self._buffer += data
        position = 0
        while position < len(self._buffer):
            try:
                value, end = codec.decode_prefix(self._buffer, position, RECORD_LIMITS)
            except codec.Incomplete:
                break
            except codec.CodecError as exc:
                raise self._error(position, str(exc)) from None
            self._record(value, self._consumed + position)
            position = end
        self._buffer = self._buffer[position:]
        self._consumed += position

    def close(self) -> TranscriptFile:
        """The file read, once it ended with its end record; a file cut short is a
        :class:`TranscriptFileError`."""
        if self._buffer:
            raise self._error(0, f"file ends inside a record ({len(self._buffer)} bytes left over)")
        if self._state != "done":
            count = len(self.transcript) if self.transcript else 0
            raise TranscriptFileError(f"file is truncated: no end record (after {count} envelopes)")
        assert self.transcript is not None
        return TranscriptFile(self.transcript, self.seeds, tuple(self.evidence))

    def _error(self, position: int, reason: str) -> TranscriptFileError:
        return TranscriptFileError(f"byte {self._consumed + position}: {reason}")

    def _record(self, value: Any, at: int) -> None:
        def fail(reason: str) -> TranscriptFileError:
            return TranscriptFileError(f"record at byte {at}: {reason}")

        if self._state == "header":
            if value != {"format": FORMAT, "version": VERSION}:
                if isinstance(value, dict) and value.get("format") == FORMAT:
                    raise fail(f"transcript format version {value.get('version')!r} is not supported (expected {VERSION})")
                raise fail("not a fairtable transcript (header missing)")
            self._state = "genesis"
            return
        if not isinstance(value, tuple) or len(value) != 2 or not isinstance(value[0], str):
            raise fail("a record is the array [tag, payload]")
        tag, payload = value
        if self._state == "done":
            raise fail("data after the end record")
        if self._state == "genesis":
            if tag != "genesis":
                raise fail(f"expected the genesis record, found {tag!r}")
            try:
                self.transcript = Transcript(SignedGenesis.from_value(payload), keep=self._on_envelope is None, signed=self._signed)
            except GenesisError as exc:
                raise fail(str(exc)) from None
            self._state = "envelopes"
            return
        assert self.transcript is not None
        if tag == "envelope" and self._state == "envelopes":
            try:
                envelope = Envelope.from_value(payload)
            except EnvelopeError as exc:
                raise TranscriptError(len(self.transcript), str(exc)) from None
            self.transcript.append(envelope)
            if self._on_envelope is not None:
                self._on_envelope(envelope)
        elif tag == "evidence" and self._state in ("envelopes", "evidence"):
            try:
                self.evidence.append(Envelope.from_value(payload))
            except EnvelopeError as exc:
                raise fail(f"evidence: {exc}") from None
            self._state = "evidence"
        elif tag == "seeds" and self._state in ("envelopes", "evidence"):
            self.seeds = self._parse_seeds(payload, fail)
            self._state = "seeds"
        elif tag == "end":
            self._check_end(payload, fail)
            self._state = "done"
        else:
            raise fail(f"unexpected {tag!r} record here")

    def _parse_seeds(self, payload: Any, fail: Callable[[str], TranscriptFileError]) -> tuple[RevealedSeed, ...]:
        assert self.transcript is not None
        seat_count = len(self.transcript.genesis.genesis.seats)
        if not isinstance(payload, tuple):
            raise fail("seeds must be an array of [game, seat, seed]")
        seeds: list[RevealedSeed] = []
        for item in payload:
            if (
                not isinstance(item, tuple) or len(item) != 3
                or type(item[0]) is not int or type(item[1]) is not int
                or not isinstance(item[2], bytes) or len(item[2]) != SEED_SIZE
            ):
                raise fail(f"a seed entry is [game, seat, {SEED_SIZE}-byte seed]")
            seed = RevealedSeed(*item)
            if seed.game < 0 or not 0 <= seed.seat < seat_count:
                raise fail(f"seed for game {seed.game}, seat {seed.seat}: no such game or seat")
            if seeds and seed <= seeds[-1]:
                raise fail("seed entries must be sorted by (game, seat) and unique")
            seeds.append(seed)
        return tuple(seeds)

    def _check_end(self, payload: Any, fail: Callable[[str], TranscriptFileError]) -> None:
        assert self.transcript is not None
        if not isinstance(payload, dict) or set(payload) != {"count", "head"}:
            raise fail("the end record is {count, head}")
        if payload["count"] != len(self.transcript):
            raise fail(f"end record counts {payload['count']!r} envelopes, the file holds {len(self.transcript)}")
        if payload["head"] != self.transcript.head:
            raise fail("end record's head hash differs from the last envelope's hash")


def load(data: bytes) -> TranscriptFile:
    """A whole transcript file from its bytes, every record and link checked;
    :class:`TranscriptFileError` (a :class:`ProtocolError`) names what is wrong."""
    reader = TranscriptReader()
    reader.feed(data)
    return reader.close()


def read(stream: BinaryIO, chunk_size: int = 1 << 16) -> TranscriptFile:
    """Read a transcript from a binary stream the caller opened, chunk by chunk."""
    return load_chunks(iter(lambda: stream.read(chunk_size), b""))


def load_chunks(chunks: Iterable[bytes]) -> TranscriptFile:
    """A whole transcript file given in pieces (read from disk or a socket), checked as :func:`load` checks one."""
    reader = TranscriptReader()
    for chunk in chunks:
        reader.feed(chunk)
    return reader.close()
