"""Per-game seeds: the only secret randomness a seat has, committed before use.

A seat picks a 32-byte seed for each game and publishes its commitment at game start.
Every secret it uses afterwards (deck keys, permutations, salts, hash chains) is derived
from the seed under a distinct label, so revealing the seed after the game lets anyone
recompute them all, and the commitment keeps the seat from choosing them after the fact.

Derivation is HKDF-SHA256 whose ``info`` is the label prefix and the canonical encoding of
the table, game, seat, label and context, so no two uses ever share a key. A derived key
feeds a :class:`Stream` (HMAC-SHA512 in counter mode), from which integers below any bound
are drawn by rejection sampling and permutations by Fisher–Yates, both without bias.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from fairtable.protocol.codec import Value, encode
from fairtable.protocol.errors import UsageError
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.hashing import digest, label_prefix

SEED_SIZE = 32
KEY_SIZE = 32
TABLE_ID_SIZE = 32


def _check_index(name: str, value: object) -> int:
    if type(value) is not int or value < 0:
        raise UsageError(f"{name} must be a non-negative integer, got {value!r}")
    return value


@dataclass(frozen=True)
class GameRef:
    """One game of one table: the context every label binds, so nothing crosses games."""

    table: bytes
    index: int

    def __post_init__(self) -> None:
        if not isinstance(self.table, bytes) or len(self.table) != TABLE_ID_SIZE:
            raise UsageError(f"a table id is {TABLE_ID_SIZE} bytes")
        _check_index("game index", self.index)


@dataclass(frozen=True)
class Seed:
    """A seat's secret for one game. ``value`` never leaves the seat before the game ends."""

    game: GameRef
    seat: int
    value: bytes = field(repr=False)

    def __post_init__(self) -> None:
        _check_index("seat", self.seat)
        if not isinstance(self.value, bytes) or len(self.value) != SEED_SIZE:
            raise UsageError(f"a seed is {SEED_SIZE} bytes")

    @classmethod
    def generate(cls, game: GameRef, seat: int) -> Seed:
        """A fresh seed from the operating system's CSPRNG: the one nondeterministic step."""
        return cls(game, seat, secrets.token_bytes(SEED_SIZE))

    @property
    def commitment(self) -> bytes:
        """``H("fair/seed", [table, game, seat, seed])``: binding the seat stops a copied commitment."""
        return digest("fair/seed", encode([self.game.table, self.game.index, self.seat, self.value]))

    def key(self, label: str, *context: Value) -> bytes:
        """The 32-byte key for ``label`` and ``context``, independent of every other label's."""
        info = label_prefix("fair/derive") + encode(
            [self.game.table, self.game.index, self.seat, label, list(context)]
        )
        return HKDF(algorithm=hashes.SHA256(), length=KEY_SIZE, salt=None, info=info).derive(self.value)

    def stream(self, label: str, *context: Value) -> Stream:
        """A deterministic byte stream for ``label`` and ``context`` (see :meth:`key`), for secrets
        drawn in sequence: permutations, scalars, a private deck."""
        return Stream(self.key(label, *context))


def check_seed(seed: Seed, commitment: bytes) -> None:
    """Raise a :class:`FairnessError` naming the seat when its revealed seed does not open ``commitment``."""
    if not hmac.compare_digest(seed.commitment, commitment):
        raise FairnessError(seed.seat, "seed.mismatch", "the revealed seed does not match the committed hash")


def _is_hash(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == SEED_SIZE


def start_body(seed: Seed, tip: bytes) -> dict:
    """The canonical body of a seat's game-start message: its seed commitment and chain tip."""
    return {"chain": tip, "seed": seed.commitment}


def check_start(seat: int, body: object) -> tuple[bytes, bytes]:
    """``(seed commitment, chain tip)`` from a game-start message; a :class:`FairnessError` if malformed."""
    if not (isinstance(body, dict) and set(body) == {"chain", "seed"}
            and _is_hash(body["chain"]) and _is_hash(body["seed"])):
        raise FairnessError(seat, "seed.malformed", "a game-start body is {chain: bin32, seed: bin32}")
    return body["seed"], body["chain"]


def seed_reveal_body(seed: Seed) -> dict:
    """The canonical body revealing a seed after the game."""
    return {"seed": seed.value}


def check_seed_reveal(game: GameRef, seat: int, body: object, commitment: bytes) -> Seed:
    """The seat's seed from its reveal message, checked against its commitment."""
    if not (isinstance(body, dict) and set(body) == {"seed"} and _is_hash(body["seed"])):
        raise FairnessError(seat, "seed.malformed", "a seed reveal body is {seed: bin32}")
    seed = Seed(game, seat, body["seed"])
    check_seed(seed, commitment)
    return seed


class Stream:
    """An endless deterministic byte stream: block ``i`` is ``HMAC-SHA512(key, u64be(i))``.

    64-byte blocks, so the 64 bytes a group scalar needs cost one HMAC.

    Stateful by nature (each read consumes bytes), so callers draw in a fixed, specified order.
    """

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes) or len(key) != KEY_SIZE:
            raise UsageError(f"a stream key is {KEY_SIZE} bytes")
        self._key = key
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes."""
        _check_index("byte count", n)
        buffer = self._buffer
        while len(buffer) < n:
            buffer += hmac.digest(self._key, self._counter.to_bytes(8, "big"), "sha512")
            self._counter += 1
        self._buffer = buffer[n:]
        return buffer[:n]

    def below(self, k: int) -> int:
        """A uniform integer in ``0 .. k-1`` by rejection sampling (no modulo bias).

        Reads ``ceil(b/8)`` bytes as a big-endian integer, keeps its low ``b`` bits, where
        ``b`` is the bit length of ``k-1``, and retries while the result is ``>= k``.
        ``k == 1`` reads nothing.
        """
        if type(k) is not int or k < 1:
            raise UsageError(f"the bound must be a positive integer, got {k!r}")
        bits = (k - 1).bit_length()
        if bits == 0:
            return 0
        size, mask = (bits + 7) // 8, (1 << bits) - 1
        while True:
            candidate = int.from_bytes(self.read(size), "big") & mask
            if candidate < k:
                return candidate

    def permutation(self, n: int) -> tuple[int, ...]:
        """A uniform permutation of ``0 .. n-1``: Fisher–Yates from the last index down."""
        order = list(range(_check_index("permutation size", n)))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)
