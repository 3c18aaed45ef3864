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
