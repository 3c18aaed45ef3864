"""The transcript: a signed genesis and the hash chain of envelopes that follows it.

This module checks what needs no game knowledge: each envelope names this table, carries
the next sequence number, links to the hash of its predecessor (the table id for the first)
and is signed by the key of the seat it claims. Whether the seat was *allowed* to speak,
and whether what it said is legal, is the table session's job.

Two validly signed envelopes from one seat for the same slot of a table (the same sequence
number after the same previous envelope) are an :class:`EquivocationProof`: self-contained
evidence anyone can check with the genesis alone. Envelopes at one sequence number on two
different forks are not: a fork can start honestly (an absence claim racing the late seat's
own envelope), and a seat on both sides of it signs after different predecessors.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import SignedGenesis


class TranscriptError(ProtocolError):
    """The envelope at ``index`` does not continue the chain, for ``reason``."""

    def __init__(self, index: int, reason: str) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"envelope {index}: {reason}")


def check_link(genesis: SignedGenesis, index: int, head: bytes, envelope: Envelope, signed: bool = True) -> None:
    """Raise :class:`TranscriptError` unless ``envelope`` may stand at ``index`` after ``head``
    (``signed=False``: its signature is taken as checked before)."""
    if envelope.table != genesis.table_id:
        raise TranscriptError(index, "belongs to another table")
    if envelope.seq != index:
        raise TranscriptError(index, f"has sequence number {envelope.seq}, expected {index}")
    if envelope.prev != head:
        what = "the table id" if index == 0 else f"envelope {index - 1}"
        raise TranscriptError(index, f"does not link to {what} (prev hash differs)")
    seats = genesis.genesis.seats
    if envelope.seat >= len(seats):
        raise TranscriptError(index, f"claims seat {envelope.seat}, the table has {len(seats)} seats")
    if signed and not envelope.verify(seats[envelope.seat].key):
        raise TranscriptError(index, f"signature does not verify under the key of seat {envelope.seat}")


class Transcript:
    """An append-only chain. Appending checks the link; the chain never holds a bad envelope.

    ``keep=False`` checks each link and remembers only the count and the head, for a reader
    that hands each envelope on as it arrives (a verifier streaming a long file).
    ``signed=False`` checks every link but no signature: for a second read of a chain whose
    signatures a first read checked, whose head the caller compares with the first's."""

    __slots__ = ("_count", "_envelopes", "_head", "_keep", "_signed", "genesis")

    def __init__(self, genesis: SignedGenesis, envelopes: Iterable[Envelope] = (), *, keep: bool = True,
                 signed: bool = True) -> None:
        self.genesis = genesis
        self._envelopes: list[Envelope] = []
        self._keep = keep
        self._signed = signed
        self._count = 0
        self._head = genesis.table_id
        for envelope in envelopes:
            self.append(envelope)

    @property
    def head(self) -> bytes:
        """Hash of the last envelope, or the table id when there is none: the next ``prev``."""
        return self._head

    @property
    def envelopes(self) -> tuple[Envelope, ...]:
        """The chain so far, oldest first; raises ``ValueError`` for a ``keep=False`` transcript,
        which remembers only count and head so that a streamed file needs no memory per envelope."""
        if not self._keep:
            raise ValueError("this transcript keeps no envelopes (keep=False)")
        return tuple(self._envelopes)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> Envelope:
        return self._envelopes[index]

    def append(self, envelope: Envelope) -> None:
        """Add ``envelope`` as the next link, or raise :class:`TranscriptError` and change nothing:
        so the chain never holds an envelope that does not follow its head."""
        check_link(self.genesis, self._count, self._head, envelope, self._signed)
        if self._keep:
            self._envelopes.append(envelope)
        self._count += 1
        self._head = envelope.hash


class EquivocationError(ProtocolError):
    """A claimed equivocation proof that does not prove one."""


@dataclass(frozen=True)
class EquivocationProof:
    """Two different envelopes one seat signed for the same slot of the same table."""

    genesis: SignedGenesis
    first: Envelope
    second: Envelope

    def check(self) -> int:
        """Return the guilty seat, or raise :class:`EquivocationError` saying why this proves nothing."""
        a, b = self.first, self.second
        if a.table != self.genesis.table_id or b.table != self.genesis.table_id:
            raise EquivocationError("an envelope belongs to another table")
        if a.seq != b.seq or a.prev != b.prev:
            raise EquivocationError(f"different slots ({a.seq} and {b.seq}, or different previous envelopes)")
        if a.seat != b.seat:
            raise EquivocationError(f"different seats ({a.seat} and {b.seat})")
        if a.content == b.content:
            raise EquivocationError("the two envelopes are the same message")
        seats = self.genesis.genesis.seats
        if a.seat >= len(seats):
            raise EquivocationError(f"seat {a.seat} does not exist")
        key = seats[a.seat].key
        if not (a.verify(key) and b.verify(key)):
            raise EquivocationError(f"a signature does not verify under the key of seat {a.seat}")
        return a.seat

    def to_value(self) -> dict:
        """The proof as a canonical map, self-contained: the genesis carries the keys to check it with."""
        return {"first": self.first.to_value(), "genesis": self.genesis.to_value(), "second": self.second.to_value()}

    @classmethod
    def from_value(cls, value: object) -> EquivocationProof:
        """Parse a proof a peer sent; raises :class:`EquivocationError` (or the genesis' or envelope's
        error) when it is malformed. Parsing does not check it: call :meth:`check`."""
        if not isinstance(value, dict) or set(value) != {"first", "genesis", "second"}:
            raise EquivocationError("an equivocation proof is a map with keys 'first', 'genesis', 'second'")
        return cls(SignedGenesis.from_value(value["genesis"]), Envelope.from_value(value["first"]), Envelope.from_value(value["second"]))
