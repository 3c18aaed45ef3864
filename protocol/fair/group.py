"""The prime-order group of Curve25519 on u-coordinates: points, scalars and counted multiplications.

A point is the 32-byte canonical u-coordinate (RFC 7748) of an element of the order-L
subgroup other than the neutral element; ``P`` and ``-P`` share it, which nothing here can
see: the mental deck only multiplies and compares, and ``k·(±P) = ±(k·P)``. Scalars stay
32-byte little-endian integers in ``1 .. L-1``, as in the Ed25519 group this replaced.

Why u-coordinates: the X25519 Montgomery ladder (libsodium, OpenSSL through
``cryptography``) computes a multiplication in well under half the time of libsodium's
generic Edwards one. X25519 clamps its scalar to ``s = 2^254 + 8t`` (``0 <= t < 2^251``);
on a point of order L, ``s`` acts as ``s mod L``, so for a scalar ``k`` one takes
``t = (r - 2^254)·8⁻¹ mod L`` with ``r = k`` or ``r = L - k`` (the sign is invisible to
``u``), whichever gives ``t < 2^251``: for every ``k`` one of them does, except in a window
of probability about 2^-126, where ``k`` is split into two factors (:func:`ladder_scalars`).

The ladder does not validate its input, so :func:`multiply` does (fairness.md §1.1): a
canonical encoding (``u < p``), a point of the curve and not of its twist (the Edwards
form of ``u`` must decompress: libsodium, two points per call), and a non-zero product (a
small-order point gives zero; libsodium and OpenSSL refuse it). The factor 8 in every
clamped scalar discards any small-order component of an input, so a product always lies in
the order-L subgroup; two distinct inputs with equal products under one scalar therefore
differ by such a component, and are refused too. :class:`InvalidPoint` says which entry failed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl import bindings
from nacl.exceptions import CryptoError

from fairtable.protocol.errors import ProtocolError, UsageError
from fairtable.protocol.fair.seeds import Stream
from fairtable.protocol.hashing import digest

POINT_SIZE = 32
SCALAR_SIZE = 32
ORDER = (1 << 252) + 27742317777372353535851937790883648493
"""``L``, the prime order of the subgroup: scalars are reduced modulo it."""
FIELD = (1 << 255) - 19
"""``p = 2^255 - 19``: a canonical u-coordinate is below it."""
_WIDE = 64
_TOP = 1 << 254
_T_LIMIT = 1 << 251
_LOW_255 = (1 << 255) - 1
_INV8 = pow(8, -1, ORDER)
_ED_BASE = bindings.crypto_core_ed25519_from_uniform(bytes(31) + b"\x01")
"""A known curve point to pair a lone entry with in :func:`first_off_curve`."""

_scalar_mul = bindings.crypto_core_ed25519_scalar_mul
_ladder = bindings.crypto_scalarmult
_decompress_two = bindings.crypto_core_ed25519_add


class InvalidPoint(ProtocolError):
    """``points[index]`` is not the canonical u-coordinate of a prime-order point."""

    def __init__(self, index: int) -> None:
        self.index = index
        super().__init__(f"entry {index} is not a point of the prime-order group")


@dataclass
class Ops:
    """Counts the cryptographic work a session does, so a benchmark can set time against it:
    scalar multiplications, received entries checked (:func:`first_off_curve`), card points
    hashed (:func:`hash_to_points`), scalars derived from seeds, and hash-chain links derived."""

    mults: int = 0
    checked: int = 0
    points: int = 0
    derived: int = 0
    hashes: int = 0


def hash_to_point(label: str, data: bytes) -> bytes:
    """A point nobody knows a discrete log of: Elligator 2 on ``H(label, data)``, times the cofactor, as ``u``."""
    return hash_to_points(label, [data])[0]


def hash_to_points(label: str, datas: Sequence[bytes]) -> list[bytes]:
    """:func:`hash_to_point` of each, with one shared inversion for the map ``u = (1 + y)/(1 - y)``.

    libsodium's ``crypto_sign_ed25519_pk_to_curve25519`` makes the same map but checks each
    point's order with a multiplication first; these points are in the subgroup by
    construction (the cofactor), so the map alone is done here.
    """
    ys = [int.from_bytes(bindings.crypto_core_ed25519_from_uniform(digest(label, data)), "little") & _LOW_255 for data in datas]
    return [((1 + y) * inverse % FIELD).to_bytes(32, "little") for y, inverse in zip(ys, _field_inverses([1 - y for y in ys]))]


def _field_inverses(values: Sequence[int]) -> list[int]:
    """The inverse mod p of each (non-zero) value from one exponentiation (Montgomery's trick)."""
    prefixes = []
    running = 1
    for value in values:
        prefixes.append(running)
        running = running * value % FIELD
    inverse = pow(running, -1, FIELD)
    result = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        result[i] = inverse * prefixes[i] % FIELD
        inverse = inverse * values[i] % FIELD
    return result


def is_point(value: object) -> bool:
    """The full check: canonical, on the curve, and ``s₁·P = P`` for a clamped ``s₁ ≡ ±1 (mod L)``.

    The last test holds exactly for the points of order L (a small-order component would be
    discarded by the factor 8, a twist point does not come back); it costs a multiplication,
    which the live path avoids (:func:`multiply`), so this serves tests and confirmations.
    """
    if not isinstance(value, bytes) or len(value) != POINT_SIZE or first_off_curve([value]) is not None:
        return False
    try:
        return _ladder(_ONE, value) == value
    except CryptoError:
        return False


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
    """``scalar⁻¹ mod L``, what removes a layer of encryption; a zero scalar has no inverse
    (libsodium refuses it) and no derived scalar is ever zero. Prefer :func:`invert_all` for many."""
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


def _clamped(k: int) -> bytes | None:
    """The X25519 scalar ``2^254 + 8t`` acting as ``±k`` on the order-L points, if ``t`` fits below 2^251."""
    for r in (k, ORDER - k):
        t = (r - _TOP) * _INV8 % ORDER
        if t < _T_LIMIT:
            return (_TOP + 8 * t).to_bytes(32, "little")
    return None


def ladder_scalars(scalar: bytes) -> tuple[bytes, ...]:
    """X25519 scalars whose successive application multiplies by ``scalar``: one, or two in the window.

    Neither ``k`` nor ``L - k`` fits for ``t`` in a window of 2^125.4 residues out of 2^252;
    there ``k = f·(k/f)`` for the smallest ``f >= 2`` for which both factors fit.
    """
    k = int.from_bytes(scalar, "little") % ORDER
    if k == 0:
        raise UsageError("zero is no scalar: it would map every point to the neutral element")
    single = _clamped(k)
    if single is not None:
        return (single,)
    f = 2
    while True:
        first, second = _clamped(f), _clamped(k * pow(f, -1, ORDER) % ORDER)
        if first is not None and second is not None:
            return first, second
        f += 1


_ONE = ladder_scalars((1).to_bytes(32, "little"))[0]


def first_off_curve(points: Sequence[bytes]) -> int | None:
    """The index of the first entry that is not a canonical ``u`` of the curve (twist, ``u >= p``), or None.

    ``u`` is on the curve exactly when the Edwards ``y = (u - 1)/(u + 1)`` decompresses (the
    birational map of RFC 7748 sends the twist to ``y`` with no ``x``); libsodium decompresses
    two encodings per ``crypto_core_ed25519_add``, and the inversions share one (Montgomery's
    trick). ``u = p - 1`` has no ``y``: it is the ``u`` of a point of order 4 or of the twist.
    """
    values = []
    for index, point in enumerate(points):
        u = int.from_bytes(point, "little") if len(point) == POINT_SIZE else FIELD
        if u >= FIELD - 1:
            return index
        values.append(u)
    ys = [((u - 1) * inverse % FIELD).to_bytes(32, "little") for u, inverse in zip(values, _field_inverses([u + 1 for u in values]))]
    for i in range(0, len(ys), 2):
        pair = ys[i : i + 2]
        try:
            _decompress_two(pair[0], pair[-1])
        except CryptoError:
            for j, y in enumerate(pair):
                try:
                    _decompress_two(y, _ED_BASE)
                except CryptoError:
                    return i + j
    return None


def _check_inputs(points: Sequence[bytes], ops: Ops | None) -> None:
    if ops is not None:
        ops.checked += len(points)
    bad = first_off_curve(points)
    if bad is not None:
        raise InvalidPoint(bad)


def _check_products(points: Sequence[bytes], products: Sequence[bytes]) -> None:
    """Refuse an input whose product repeats another's because it carries a small-order component.

    Under one scalar, distinct points have distinct products, so a repeat there means ``P``
    and ``P + T`` (which an honest multiplier would otherwise publish as a duplicate, looking
    guilty); under distinct scalars, repeats of points are a deck's business (a card opened
    twice) and pass. The full check runs only on the colliding pair.
    """
    if len(set(products)) == len(products):
        return
    first: dict[bytes, int] = {}
    for index, (point, result) in enumerate(zip(points, products)):
        other = first.setdefault(result, index)
        if other != index and points[other] != point:
            for suspect in (other, index):
                if not is_point(points[suspect]):
                    raise InvalidPoint(suspect)


def multiply(scalar: bytes, points: Sequence[bytes], ops: Ops | None = None, checked: bool = True) -> list[bytes]:
    """``scalar · P`` for every point; raises :class:`InvalidPoint` for a bad one.

    One scalar for many points is the case of OpenSSL's X25519 through ``cryptography``: its
    key object is built once (building one costs a multiplication), each product is a plain
    ladder. ``checked=False`` skips the input checks, for points this process computed itself
    (card points, its own products), which cannot fail them.
    """
    if checked:
        _check_inputs(points, ops)
    result = list(points)
    for clamped in ladder_scalars(scalar):
        key = X25519PrivateKey.from_private_bytes(clamped)
        try:
            result = [key.exchange(X25519PublicKey.from_public_bytes(point)) for point in result]
        except ValueError:
            raise InvalidPoint(_first_zero(clamped, result)) from None
    if checked:
        _check_products(points, result)
    if ops is not None:
        ops.mults += len(result)
    return result


def multiply_each(scalars: Sequence[bytes], points: Sequence[bytes], ops: Ops | None = None, checked: bool = True) -> list[bytes]:
    """``scalars[i] · points[i]`` for every ``i``; raises :class:`InvalidPoint` for a bad point.

    A scalar per point is libsodium's X25519, which takes the scalar as bytes with no key
    object to build. ``checked`` as for :func:`multiply`.
    """
    if checked:
        _check_inputs(points, ops)
    result = []
    for index, (scalar, point) in enumerate(zip(scalars, points)):
        try:
            for clamped in ladder_scalars(scalar):
                point = _ladder(clamped, point)
        except CryptoError:
            raise InvalidPoint(index) from None
        result.append(point)
    if checked:
        _check_products(points, result)
    if ops is not None:
        ops.mults += len(result)
    return result


def _first_zero(clamped: bytes, points: Sequence[bytes]) -> int:
    for index, point in enumerate(points):
        try:
            _ladder(clamped, point)
        except CryptoError:
            return index
    raise AssertionError("OpenSSL refused a product libsodium computes")
