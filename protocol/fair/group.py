"""The Ed25519 prime-order group through libsodium: points, scalars and counted multiplications.

Points are 32-byte canonical encodings of elements of the prime-order subgroup; scalars
are 32-byte little-endian integers in ``1 .. L-1``. libsodium's ``noclamp`` multiplication
refuses any point that is non-canonical, of small order or outside the prime-order
subgroup (a torsion-mixed point included), so multiplying a received point is also the
check that it is a group element: :class:`InvalidPoint` says which one failed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from nacl import bindings
from nacl.exceptions import CryptoError

from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.fair.seeds import Stream
from fairtable.protocol.hashing import digest

POINT_SIZE = 32
SCALAR_SIZE = 32
ORDER = (1 << 252) + 27742317777372353535851937790883648493
_WIDE = 64

_scalarmult = bindings.crypto_scalarmult_ed25519_noclamp
_scalar_mul = bindings.crypto_core_ed25519_scalar_mul


class InvalidPoint(ProtocolError):
    """``points[index]`` is not a canonical prime-order-subgroup point."""

    def __init__(self, index: int) -> None:
        self.index = index
        super().__init__(f"entry {index} is not a point of the prime-order group")


@dataclass
class Ops:
    """Counts scalar multiplications, so a benchmark can set time against their number."""

    mults: int = 0


def hash_to_point(label: str, data: bytes) -> bytes:
    """A point nobody knows a discrete log of: Elligator 2 on ``H(label, data)``, times the cofactor."""
    return bindings.crypto_core_ed25519_from_uniform(digest(label, data))


def is_point(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == POINT_SIZE and bindings.crypto_core_ed25519_is_valid_point(value)


def is_scalar(value: object) -> bool:
    """A canonical non-zero scalar: 32 bytes, little-endian, below the group order."""
    return isinstance(value, bytes) and len(value) == SCALAR_SIZE and 0 < int.from_bytes(value, "little") < ORDER


def scalar_from(stream: Stream) -> bytes:
    """The next non-zero scalar: 64 stream bytes reduced mod L, drawn again in the (negligible) zero case."""
    while True:
        scalar = bindings.crypto_core_ed25519_scalar_reduce(stream.read(_WIDE))
        if is_scalar(scalar):
            return scalar


def invert(scalar: bytes) -> bytes:
    return bindings.crypto_core_ed25519_scalar_invert(scalar)


def invert_all(scalars: Sequence[bytes]) -> list[bytes]:
    """The inverse of each scalar from a single inversion (Montgomery's trick: three products each)."""
    prefixes = []
    running = (1).to_bytes(SCALAR_SIZE, "little")
    for scalar in scalars:
        prefixes.append(running)
        running = _scalar_mul(running, scalar)
    inverse = invert(running)
    result = [b""] * len(scalars)
    for i in range(len(scalars) - 1, -1, -1):
        result[i] = _scalar_mul(inverse, prefixes[i])
        inverse = _scalar_mul(inverse, scalars[i])
    return result


def product(scalars: Iterable[bytes]) -> bytes:
    """The product of ``scalars`` mod L (1 for none)."""
    result = (1).to_bytes(SCALAR_SIZE, "little")
    for scalar in scalars:
        result = _scalar_mul(result, scalar)
    return result


def scaled(scalar: bytes, scalars: Sequence[bytes]) -> list[bytes]:
    """``s * scalar`` mod L for each ``s``."""
    return [_scalar_mul(s, scalar) for s in scalars]


def multiply(scalar: bytes, points: Sequence[bytes], ops: Ops | None = None) -> list[bytes]:
    """``scalar · P`` for every point; raises :class:`InvalidPoint` for the first bad one."""
    try:
        result = [_scalarmult(scalar, point) for point in points]
    except CryptoError:
        raise InvalidPoint(_first_invalid(points)) from None
    if ops is not None:
        ops.mults += len(result)
    return result


def multiply_each(scalars: Sequence[bytes], points: Sequence[bytes], ops: Ops | None = None) -> list[bytes]:
    """``scalars[i] · points[i]`` for every ``i``; raises :class:`InvalidPoint` for the first bad point."""
    try:
        result = list(map(_scalarmult, scalars, points))
    except CryptoError:
        raise InvalidPoint(_first_invalid(points)) from None
    if ops is not None:
        ops.mults += len(result)
    return result


def _first_invalid(points: Sequence[bytes]) -> int:
    for index, point in enumerate(points):
        if not is_point(point):
            return index
    raise AssertionError("libsodium refused a multiplication by a valid point and non-zero scalar")
