"""The prime-order group on Edwards encodings, for the deck's proofs (fairness.md §12).

The u-coordinates of :mod:`~protocol.fair.group` name a point only up to its sign, and a
proof needs the group law (``P + Q``), which ``±P`` and ``±Q`` do not determine. So the
proof layer works on edwards25519 encodings (RFC 8032, 32 bytes, the sign of ``x`` in the
top bit), every operation from libsodium: addition and subtraction, multiplication of any
point, the fixed-base multiplication of :data:`BASE` from its precomputed table, and the
Elligator 2 map. Scalars are Python ints mod :data:`~protocol.fair.group.ORDER` here (one
conversion to 32 bytes per libsodium call); no field or curve arithmetic is written here.

libsodium's multiplication refuses a point that is not canonical, not on the curve, of small
order, or outside the order-L subgroup: every received point a proof multiplies is checked
by that multiplication, with no pass of its own. Addition checks only that its inputs
decode, so a point is never added before it has been multiplied or checked
(:func:`check_points`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from nacl import bindings
from nacl.exceptions import CryptoError

from fairtable.protocol.codec import encode
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.fair.group import ORDER, POINT_SIZE, SCALAR_SIZE, InvalidPoint, Ops
from fairtable.protocol.fair.seeds import Stream
from fairtable.protocol.hashing import digest

_mul = bindings.crypto_scalarmult_ed25519_noclamp
_base_mul = bindings.crypto_scalarmult_ed25519_base_noclamp
_add = bindings.crypto_core_ed25519_add
_sub = bindings.crypto_core_ed25519_sub
_valid = bindings.crypto_core_ed25519_is_valid_point

BASE = _base_mul((1).to_bytes(SCALAR_SIZE, "little"))
"""The edwards25519 base point ``G`` (RFC 8032)."""
IDENTITY = (1).to_bytes(POINT_SIZE, "little")
"""The neutral element ``(0, 1)``: a sum may pass through it; no entry or commitment is it."""


class BadPoint(ProtocolError):
    """A libsodium operation refused an input: it is not a point of the prime-order group."""


@dataclass
class ProofOps:
    """Counts a proof's group work, so a benchmark can report multiplications per card."""

    mults: int = 0
    base_mults: int = 0
    adds: int = 0


def _bytes(scalar: int) -> bytes:
    return (scalar % ORDER).to_bytes(SCALAR_SIZE, "little")


def mul(scalar: int, point: bytes, ops: ProofOps | None = None) -> bytes:
    """``scalar · point``; :class:`BadPoint` if ``point`` is not in the prime-order group.

    libsodium refuses a product equal to the neutral element, so a scalar that is ``0 mod L``
    (a forged response; an honest one with probability ``2^-252``) gives :data:`IDENTITY` here.
    """
    if ops is not None:
        ops.mults += 1
    if scalar % ORDER == 0:
        check_points([point])
        return IDENTITY
    try:
        return _mul(_bytes(scalar), point)
    except CryptoError:
        raise BadPoint("not a point of the prime-order group") from None


def base_mul(scalar: int, ops: ProofOps | None = None) -> bytes:
    """``scalar · G`` from libsodium's fixed-base table (about a quarter of :func:`mul`'s cost)."""
    if ops is not None:
        ops.base_mults += 1
    if scalar % ORDER == 0:
        return IDENTITY
    return _base_mul(_bytes(scalar))


def add(p: bytes, q: bytes, ops: ProofOps | None = None) -> bytes:
    """``p + q``; it only decodes its inputs, so callers add points already multiplied or checked."""
    if ops is not None:
        ops.adds += 1
    try:
        return _add(p, q)
    except CryptoError:
        raise BadPoint("an encoding that is no curve point") from None


def sub(p: bytes, q: bytes, ops: ProofOps | None = None) -> bytes:
    """``p − q``, with :func:`add`'s caveat."""
    if ops is not None:
        ops.adds += 1
    try:
        return _sub(p, q)
    except CryptoError:
        raise BadPoint("an encoding that is no curve point") from None


def multiply_each(scalars: Sequence[bytes], points: Sequence[bytes], ops: Ops | None = None, checked: bool = True) -> list[bytes]:
    """``scalars[i] · points[i]`` on Edwards encodings, for a proved deck's openings and shows.

    The twin of :func:`~protocol.fair.group.multiply_each` (same arguments, same
    :class:`~protocol.fair.group.InvalidPoint` naming the first bad point); libsodium checks
    every input itself, so ``checked`` changes nothing here.
    """
    result = []
    for index, (scalar, point) in enumerate(zip(scalars, points, strict=True)):
        try:
            result.append(_mul(scalar, point))
        except CryptoError:
            raise InvalidPoint(index) from None
    if ops is not None:
        ops.mults += len(result)
    return result


def total(points: Sequence[bytes], ops: ProofOps | None = None) -> bytes:
    """The sum of ``points`` (:data:`IDENTITY` for none)."""
    result = IDENTITY
    for point in points:
        result = add(result, point, ops)
    return result


def combination(scalars: Sequence[int], points: Sequence[bytes], ops: ProofOps | None = None) -> bytes:
    """``Σ scalars[i] · points[i]``: one multiplication and one addition per term.

    libsodium has no multi-scalar multiplication (Straus, Pippenger), which is what makes
    batch verification by random linear combinations pay elsewhere; here a combination costs
    what its terms cost one by one (fairness.md §12.6).
    """
    return total([mul(s, p, ops) for s, p in zip(scalars, points, strict=True)], ops)


def check_points(points: Sequence[bytes]) -> None:
    """:class:`BadPoint` unless every entry is a canonical point of the prime-order group, not the identity."""
    for point in points:
        if not (isinstance(point, bytes) and len(point) == POINT_SIZE and _valid(point)):
            raise BadPoint("not a point of the prime-order group")


def hash_to_points(label: str, datas: Sequence[bytes]) -> list[bytes]:
    """``from_uniform(H(label, data))`` for each: Elligator 2 times the cofactor, as libsodium computes it.

    The same map as :func:`~protocol.fair.group.hash_to_point` before its conversion to ``u``:
    a card's Edwards point here and its ``u`` there are one group element up to sign.
    """
    return [bindings.crypto_core_ed25519_from_uniform(digest(label, data)) for data in datas]


@cache
def generators(count: int) -> tuple[bytes, ...]:
    """``H_0 … H_{count-1}`` of the shuffle argument's vector commitments: hashed, so nobody knows a
    discrete logarithm between two of them or to ``G`` (the commitments are binding)."""
    return tuple(hash_to_points("fair/proof-generator", [encode(["vector", i]) for i in range(count)]))


@cache
def generator_sum(count: int) -> bytes:
    """``Σ H_i`` over :func:`generators`, which every verification of an ``m``-entry shuffle subtracts."""
    return total(generators(count))


CHAIN_BASE = hash_to_points("fair/proof-generator", [encode(["chain"])])[0]
"""``Ĥ``, the start of the shuffle argument's product chain."""


def scalars(label: str, data: bytes, count: int) -> list[int]:
    """``count`` Fiat–Shamir challenges: 64-byte blocks of the stream keyed by ``H(label, data)``, mod L."""
    stream = Stream(digest(label, data))
    return [int.from_bytes(stream.read(64), "little") % ORDER for _ in range(count)]


def nonces(stream: Stream, count: int) -> list[int]:
    """``count`` secret scalars in ``1 .. L-1`` from the prover's stream (64 bytes each, mod L, zero redrawn)."""
    result: list[int] = []
    while len(result) < count:
        value = int.from_bytes(stream.read(64), "little") % ORDER
        if value:
            result.append(value)
    return result
