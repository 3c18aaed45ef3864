"""Table genesis: the one signed record that says what is played, under which options, by whom.

The table id is the hash of the genesis' canonical encoding, so every envelope that names
the table id is bound to the game, the options and the seat keys. A genesis is valid only
when every seat has signed its table id: nobody can be seated without consent, and nobody
can later claim the game was a different one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.hashing import digest
from fairtable.protocol.identity import PublicKey
from fairtable.protocol.signed import Signable, SignedByAll

PROTOCOL_VERSION = 3
"""The protocol version of new tables: every deck stage and published key proved on receipt (spec/fairness.md §12)."""
VERSIONS = (2, 3)
"""The protocol versions this node speaks: 2 (deck stages and keys checked only after the seed
reveal) and 3. A table keeps its genesis' version for its whole life."""
MAX_SEATS = 16
MAX_NAME = 64
NONCE_SIZES = range(16, 33)
SIGN_PURPOSE = "genesis"
_IDENT = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")


class GenesisError(ProtocolError):
    """A genesis record that is malformed, or not signed by every seat."""


@dataclass(frozen=True)
class Seat:
    """A seat of the table: the key that signs its envelopes and the name players see; the genesis
    lists them in seat order."""
    key: PublicKey
    name: str


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise GenesisError(f"seat name must be 1..{MAX_NAME} printable characters, got {name!r}")
    return name


HASH_SIZE = 32
_FIELDS = frozenset({"game", "nonce", "options", "seats", "variant", "version"})


@dataclass(frozen=True)
class TournamentTable:
    """Which table of which tournament round a genesis is: the tournament's record id (its
    hash, ``spec/tournament.md``), the round and the table's index in it. A verifier of the
    tournament accepts a table only where the record says it belongs."""

    tournament: bytes
    round: int
    table: int

    def __post_init__(self) -> None:
        if not isinstance(self.tournament, bytes) or len(self.tournament) != HASH_SIZE:
            raise GenesisError(f"a tournament is named by its {HASH_SIZE}-byte record id")
        for what, value in (("round", self.round), ("table", self.table)):
            if type(value) is not int or not 0 <= value < 1 << 16:
                raise GenesisError(f"the tournament {what} must be an integer in 0..65535, got {value!r}")

    def to_value(self) -> dict:
        """The map this reference is signed as inside a genesis (keys sorted by the codec)."""
        return {"id": self.tournament, "round": self.round, "table": self.table}

    @classmethod
    def from_value(cls, value: Any) -> TournamentTable:
        """Read the reference back, refusing any map without exactly its three keys
        (:class:`GenesisError`)."""
        if not isinstance(value, dict) or set(value) != {"id", "round", "table"}:
            raise GenesisError("tournament must be a map with exactly the keys ['id', 'round', 'table']")
        return cls(value["id"], value["round"], value["table"])


@dataclass(frozen=True)
class Genesis(Signable):
    """What a table is. Build it, have every seat sign :attr:`table_id`, then play."""

    NOUN = "genesis"
    SIGN_PURPOSE = SIGN_PURPOSE
    SIGNER = "seat"
    Error = GenesisError

    game: str
    variant: str
    options: dict
    seats: tuple[Seat, ...]
    nonce: bytes
    version: int = PROTOCOL_VERSION
    tournament: TournamentTable | None = None
    """Optional: the tournament table this is. Absent from the encoding when None, so a
    genesis without it encodes (and hashes) as before the field existed."""
    encoded: bytes = field(init=False, repr=False, compare=False)
    table_id: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.version not in VERSIONS or type(self.version) is not int:
            raise GenesisError(f"protocol version {self.version!r} is not supported (this node speaks {', '.join(map(str, VERSIONS))})")
        for what, value in (("game", self.game), ("variant", self.variant)):
            if not isinstance(value, str) or not _IDENT.fullmatch(value):
                raise GenesisError(f"{what} must be 1..32 of a-z, 0-9, '_' or '-' starting alphanumeric, got {value!r}")
        if not isinstance(self.options, dict):
            raise GenesisError("options must be a map")
        if self.tournament is not None and not isinstance(self.tournament, TournamentTable):
            raise GenesisError("tournament must name a tournament table")
        if not isinstance(self.nonce, bytes) or len(self.nonce) not in NONCE_SIZES:
            raise GenesisError("nonce must be 16..32 bytes")
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise GenesisError(f"a table has 1..{MAX_SEATS} seats, got {len(self.seats)}")
        keys = [seat.key.raw for seat in self.seats]
        if len(set(keys)) != len(keys):
            raise GenesisError("the same key holds two seats")
        for seat in self.seats:
            _check_name(seat.name)
        try:
            encoded = codec.encode(self.to_value())
        except codec.CodecError as exc:
            raise GenesisError(f"genesis is not encodable: {exc}") from None
        object.__setattr__(self, "encoded", encoded)
        object.__setattr__(self, "table_id", digest("table", encoded))

    def to_value(self) -> dict:
        """The map every seat signs: the table id is the hash of its canonical encoding, so no field
        may be left out or added."""
        value = {
            "game": self.game,
            "nonce": self.nonce,
            "options": self.options,
            "seats": [{"key": seat.key.raw, "name": seat.name} for seat in self.seats],
            "variant": self.variant,
            "version": self.version,
        }
        if self.tournament is not None:
            value["tournament"] = self.tournament.to_value()
        return value

    @classmethod
    def from_value(cls, value: Any) -> Genesis:
        if not isinstance(value, dict) or not _FIELDS <= set(value) <= _FIELDS | {"tournament"}:
            raise GenesisError(f"genesis must be a map with exactly the keys {sorted(_FIELDS)}, and optionally 'tournament'")
        seats = value["seats"]
        if not isinstance(seats, tuple):
            raise GenesisError("seats must be an array")
        parsed = []
        for index, seat in enumerate(seats):
            if not isinstance(seat, dict) or set(seat) != {"key", "name"}:
                raise GenesisError(f"seat {index} must be a map with keys 'key' and 'name'")
            try:
                parsed.append(Seat(PublicKey(seat["key"]), _check_name(seat["name"])))
            except ProtocolError as exc:
                raise GenesisError(f"seat {index}: {exc}") from None
        tournament = None if "tournament" not in value else TournamentTable.from_value(value["tournament"])
        return cls(value["game"], value["variant"], value["options"], tuple(parsed), value["nonce"], value["version"], tournament)

    @property
    def signed_id(self) -> bytes:
        """Every seat signs the table id."""
        return self.table_id

    @property
    def signers(self) -> tuple[tuple[PublicKey, str], ...]:
        """The seats, in seat order: each one signs."""
        return tuple((seat.key, seat.name) for seat in self.seats)

    def seat_of(self, key: PublicKey) -> int | None:
        """The seat ``key`` holds, or None when it holds none."""
        return self.index_of(key)


class SignedGenesis(SignedByAll[Genesis]):
    """A genesis with one signature per seat, in seat order; constructing it checks them all."""

    RECORD = Genesis

    @property
    def genesis(self) -> Genesis:
        """The signed genesis itself."""
        return self.record

    @property
    def table_id(self) -> bytes:
        """The table's id: what every envelope of the table names."""
        return self.record.table_id
