"""The tournament record: who plays, under which options, signed by every participant.

The record id is the hash of the record's canonical encoding; every table's genesis names it
(``Genesis.tournament``). Each participant puts a commitment to a secret draw value into the
record when it joins; the values are revealed only once every participant has signed, and
their hash seeds every random choice of the tournament (``draw.py``), so nobody, the host
included, can steer the draw short of refusing to start at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import MAX_NAME, NONCE_SIZES, PROTOCOL_VERSION, VERSIONS
from fairtable.protocol.hashing import digest
from fairtable.protocol.identity import PublicKey
from fairtable.protocol.signed import Signable, SignedByAll

SIGN_PURPOSE = "tournament"
DRAW_SIZE = 32
GAME = "duel"


class RecordError(ProtocolError):
    """A tournament record, signature or draw value that is malformed or does not verify."""


def commitment(value: bytes) -> bytes:
    """What a participant puts in the record for its secret draw value."""
    return digest("tournament-draw", value)


@dataclass(frozen=True)
class Participant:
    """A player entered in the tournament: its key, its name, and its commitment to a draw value, so
    no one can steer the draw after seeing the others'."""
    key: PublicKey
    name: str
    draw: bytes
    """The commitment to this participant's draw value (:func:`commitment`)."""

    def to_value(self) -> dict:
        """The map signed inside the record."""
        return {"draw": self.draw, "key": self.key.raw, "name": self.name}

    @classmethod
    def from_value(cls, value: Any, index: int) -> Participant:
        """Read participant ``index`` back, refusing a bad name, key or commitment with a
        :class:`RecordError` that names it."""
        if not isinstance(value, dict) or set(value) != {"draw", "key", "name"}:
            raise RecordError(f"participant {index} must be a map with the keys ['draw', 'key', 'name']")
        name, draw = value["name"], value["draw"]
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise RecordError(f"participant {index}: a name is 1..{MAX_NAME} printable characters")
        if not isinstance(draw, bytes) or len(draw) != DRAW_SIZE:
            raise RecordError(f"participant {index}: the draw commitment is {DRAW_SIZE} bytes")
        try:
            return cls(PublicKey(value["key"]), name, draw)
        except ProtocolError as exc:
            raise RecordError(f"participant {index}: {exc}") from None


@dataclass(frozen=True)
class Record(Signable):
    """What a tournament is. ``options`` are checked by :func:`structure.Format.of`."""

    NOUN = "record"
    SIGN_PURPOSE = SIGN_PURPOSE
    SIGNER = "participant"
    Error = RecordError

    participants: tuple[Participant, ...]
    options: dict
    nonce: bytes
    game: str = GAME
    version: int = PROTOCOL_VERSION
    """The protocol version of the tournament, and so of every table it calls for (a record of
    version 2 has version 2 tables, without proofs)."""
    encoded: bytes = field(init=False, repr=False, compare=False)
    record_id: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.version not in VERSIONS or type(self.version) is not int:
            raise RecordError(f"protocol version {self.version!r} is not supported (this node speaks {', '.join(map(str, VERSIONS))})")
        if self.game != GAME:
            raise RecordError(f"tournaments are played in {GAME}, not {self.game!r}")
        if not isinstance(self.options, dict):
            raise RecordError("options must be a map")
        if not isinstance(self.nonce, bytes) or len(self.nonce) not in NONCE_SIZES:
            raise RecordError("nonce must be 16..32 bytes")
        keys = [p.key.raw for p in self.participants]
        if len(set(keys)) != len(keys):
            raise RecordError("the same key is entered twice")
        try:
            encoded = codec.encode(self.to_value())
        except codec.CodecError as exc:
            raise RecordError(f"record is not encodable: {exc}") from None
        object.__setattr__(self, "encoded", encoded)
        object.__setattr__(self, "record_id", digest("tournament", encoded))

    def to_value(self) -> dict:
        """The map every participant signs: the tournament id is the hash of its canonical encoding."""
        return {"game": self.game, "nonce": self.nonce, "options": self.options,
                "participants": [p.to_value() for p in self.participants], "version": self.version}

    @classmethod
    def from_value(cls, value: Any) -> Record:
        keys = {"game", "nonce", "options", "participants", "version"}
        if not isinstance(value, dict) or set(value) != keys:
            raise RecordError(f"a tournament record is a map with exactly the keys {sorted(keys)}")
        if not isinstance(value["participants"], tuple):
            raise RecordError("participants must be an array")
        participants = tuple(Participant.from_value(p, i) for i, p in enumerate(value["participants"]))
        return cls(participants, value["options"], value["nonce"], value["game"], value["version"])

    @property
    def signed_id(self) -> bytes:
        """Every participant signs the record id."""
        return self.record_id

    @property
    def signers(self) -> tuple[tuple[PublicKey, str], ...]:
        """The participants, in record order: each one signs."""
        return tuple((p.key, p.name) for p in self.participants)


class SignedRecord(SignedByAll[Record]):
    """A record with every participant's signature of its id, in participant order."""

    RECORD = Record

    @property
    def record_id(self) -> bytes:
        """The tournament's id: what every table's genesis names."""
        return self.record.record_id


def draw_seed(record: Record, values: tuple[bytes, ...]) -> bytes:
    """The tournament's public random seed from every participant's revealed draw value."""
    if len(values) != len(record.participants):
        raise RecordError(f"{len(record.participants)} participants but {len(values)} draw values")
    for index, (participant, value) in enumerate(zip(record.participants, values)):
        if not isinstance(value, bytes) or len(value) != DRAW_SIZE or commitment(value) != participant.draw:
            raise RecordError(f"the draw value of participant {index} ({participant.name}) does not open its commitment")
    return digest("tournament-seed", record.record_id + b"".join(values))
