from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nacl import bindings

from fairtable.protocol.fair.group import ORDER, invert, invert_all, is_scalar, product, scalar_from
from fairtable.protocol.fair.seeds import Stream

scalars = st.integers(1, ORDER - 1).map(lambda n: n.to_bytes(32, "little"))


@settings(max_examples=50)
@given(st.lists(scalars, max_size=6))
def test_batch_inversion_matches_single_inversions(values):
    assert invert_all(values) == [invert(v) for v in values]
    if values:
        assert bindings.crypto_core_ed25519_scalar_mul(product(values), invert(product(values))) == (1).to_bytes(32, "little")


@given(st.binary(min_size=32, max_size=32))
def test_stream_scalars_are_canonical_and_non_zero(key):
    stream = Stream(key)
    assert all(is_scalar(scalar_from(stream)) for _ in range(3))
    assert not is_scalar(bytes(32)) and not is_scalar(ORDER.to_bytes(32, "little"))


# ---------------------------------------------------------------- the mathematics of fairness.md §1.1, from scratch

P = 2**255 - 19
D = -121665 * pow(121666, P - 2, P) % P
A = 486662
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _inverse(x: int) -> int:
    return pow(x, P - 2, P)


def _sqrt(x: int) -> int:
    root = pow(x, (P + 3) // 8, P)
    return root if (root * root - x) % P == 0 else root * SQRT_M1 % P


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return (x1 * y2 + y1 * x2) * _inverse(1 + t) % P, (y1 * y2 + x1 * x2) * _inverse(1 - t) % P


def _times(k: int, point: tuple[int, int]) -> tuple[int, int]:
    result = (0, 1)
    while k:
        if k & 1:
            result = _add(result, point)
        point, k = _add(point, point), k >> 1
    return result


def _encode(point: tuple[int, int]) -> bytes:
    x, y = point
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _decode(data: bytes) -> tuple[int, int]:
    value = int.from_bytes(data, "little")
    y = value & ((1 << 255) - 1)
    x = _sqrt((y * y - 1) * _inverse(D * y * y + 1) % P)
    return (P - x) % P if (x & 1) != value >> 255 else x, y


def _from_uniform(r: bytes) -> bytes:
    """fairness.md §1.1, "Hash to a point", step by step."""
    sign = r[31] >> 7
    t = int.from_bytes(r[:31] + bytes([r[31] & 0x7F]), "little") % P
    u = -A * _inverse(1 + 2 * t * t) % P
    if pow((u**3 + A * u * u + u) % P, (P - 1) // 2, P) not in (0, 1):
        u = (-A - u) % P
    y = (u - 1) * _inverse(u + 1) % P
    x = _sqrt((y * y - 1) * _inverse(D * y * y + 1) % P)
    if (x & 1) != sign:
        x = (P - x) % P
    return _encode(_times(8, (x, y)))


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_hash_to_point_is_the_elligator_map_the_spec_states(r):
    point = bindings.crypto_core_ed25519_from_uniform(r)
    assert _from_uniform(r) == point
    assert _times(ORDER, _decode(point)) == (0, 1)  # in the order-L subgroup


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=32, max_size=32), scalars)
def test_noclamp_multiplication_is_plain_multiplication_by_the_scalar(r, k):
    point = bindings.crypto_core_ed25519_from_uniform(r)
    assume(point != _encode((0, 1)))  # t = 0 maps to the neutral element (fairness.md §1.1)
    product_ = bindings.crypto_scalarmult_ed25519_noclamp(k, point)
    assert product_ == _encode(_times(int.from_bytes(k, "little"), _decode(point)))


def test_the_zero_input_maps_to_the_neutral_element():
    assert bindings.crypto_core_ed25519_from_uniform(bytes(32)) == _from_uniform(bytes(32)) == _encode((0, 1))
