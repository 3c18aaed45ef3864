"""Helpers shared by the fairness tests: deterministic games and seeds, a chi-square bound."""

from __future__ import annotations

import math

from fairtable.protocol.fair.seeds import GameRef, Seed
from fairtable.protocol.hashing import digest

# Standard normal quantile for a one-sided tail of about 1e-9: a correct implementation
# fails a chi-square test with this bound once in a billion seeds sets, and our seeds are fixed.
Z_TAIL = 6.0


def make_game(tag: str = "table", index: int = 0) -> GameRef:
    return GameRef(digest("test", tag.encode()), index)


def make_seeds(game: GameRef, seats: int, tag: str = "seed") -> dict[int, Seed]:
    return {seat: Seed(game, seat, digest("test", f"{tag}/{seat}".encode())) for seat in range(seats)}


def chi_square(observed: list[int], expected: float) -> float:
    return sum((o - expected) ** 2 / expected for o in observed)


def chi_square_limit(df: int) -> float:
    """Wilson–Hilferty upper bound of a chi-square with ``df`` degrees of freedom at tail ~1e-9."""
    h = 2 / (9 * df)
    return df * (1 - h + Z_TAIL * math.sqrt(h)) ** 3


# ---------------------------------------------------------------- entries that are not points (fairness.md §1.1)

FIELD = (1 << 255) - 19
_A = 486662


def on_curve(u: int) -> bool:
    """``u³ + A·u² + u`` is a square (or zero) mod p: ``u`` is on Curve25519, not on its twist."""
    value = (u * u * u + _A * u * u + u) % FIELD
    return value == 0 or pow(value, (FIELD - 1) // 2, FIELD) == 1


def encode_u(u: int) -> bytes:
    return u.to_bytes(32, "little")


def torsion_mixed(point: bytes) -> bytes:
    """``P + T`` for the point ``T`` of order 2: on u-coordinates, ``1/u``."""
    return encode_u(pow(int.from_bytes(point, "little"), -1, FIELD))


SMALL_ORDER_POINT = encode_u(0)  # (0, 0), of order 2
TWIST_POINT = encode_u(next(u for u in range(2, 100) if not on_curve(u)))
NON_CANONICAL = encode_u(9 + FIELD)  # the base point's u = 9 spelled the long way
HIGH_BIT = encode_u(9 | 1 << 255)  # the same u with bit 255 set, which X25519 would ignore
