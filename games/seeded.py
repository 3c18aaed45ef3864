"""A reproducible source of randomness for bots and playouts, outside the rules.

Self-played tables, the contract check and golden transcripts need bots whose choices repeat from
a seed. ``random.Random`` would do in one Python, but its sequence is an implementation detail;
:class:`SeededRng` is SHA-256 in counter mode, so any implementation replays the same choices
from the same seed, and nothing under ``protocol/`` or ``games/`` imports :mod:`random`.
"""

from __future__ import annotations

import hashlib


class SeededRng:
    """Uniform integers drawn from SHA-256(seed || counter) blocks; an :class:`~fairtable.games.contract.Rng`."""

    def __init__(self, seed: bytes) -> None:
        self._seed = bytes(seed)
        self._counter = 0

    def _block(self) -> int:
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(block, "big")

    def randrange(self, n: int, /) -> int:
        """A uniform integer in ``range(n)``: a 256-bit block, redrawn while it falls in the
        incomplete last multiple of ``n`` (rejection, so no value is favoured)."""
        if n <= 0:
            raise ValueError(f"empty range for randrange({n})")
        if n > 1 << 256:
            raise ValueError(f"randrange({n}) is beyond one 256-bit block")
        limit = (1 << 256) - (1 << 256) % n
        while True:
            value = self._block()
            if value < limit:
                return value % n

    @classmethod
    def of(cls, seed: int) -> SeededRng:
        """The generator for an integer seed (a test's or a playout's number)."""
        return cls(seed.to_bytes(16, "big", signed=True))
