import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nacl import bindings

from fairtable.protocol.fair.group import (
    FIELD,
    ORDER,
    InvalidPoint,
    first_off_curve,
    hash_to_point,
    invert,
    invert_all,
    is_point,
    is_scalar,
    ladder_scalars,
    multiply,
    multiply_each,
    product,
    scalar_from,
)
from fairtable.protocol.fair.seeds import Stream
from fairtable.protocol.hashing import digest
from tests.protocol.fair.support import HIGH_BIT, NON_CANONICAL, SMALL_ORDER_POINT, TWIST_POINT, on_curve, torsion_mixed
from tests.protocol.fair.test_vectors import mult, to_u

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
# (the ladder and the scalars it takes are in test_vectors.py)

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


def test_the_zero_input_maps_to_the_neutral_element():
    assert bindings.crypto_core_ed25519_from_uniform(bytes(32)) == _from_uniform(bytes(32)) == _encode((0, 1))


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_card_points_are_the_u_coordinates_of_the_elligator_points(r):
    assume(r[:31] + bytes([r[31] & 0x7F]) != bytes(32))
    edwards = _from_uniform(r)
    assert bindings.crypto_sign_ed25519_pk_to_curve25519(edwards) == to_u(edwards)
    assert is_point(to_u(edwards))


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=32, max_size=32), scalars)
def test_multiplication_is_the_ladder_with_the_scalar_the_spec_derives(r, k):
    point = hash_to_point("test", r)
    expected = mult(k, point)
    assert multiply(k, [point]) == multiply_each([k], [point]) == [expected]
    # and it is the Edwards multiplication, seen on u
    edwards = bindings.crypto_core_ed25519_from_uniform(digest("test", r))
    assert to_u(bindings.crypto_scalarmult_ed25519_noclamp(k, edwards)) == expected


def test_a_scalar_in_the_window_is_split_into_two():
    k = pow(2, 255, ORDER).to_bytes(32, "little")
    assert len(ladder_scalars(k)) == 2
    point = hash_to_point("test", b"window")
    assert multiply(k, [point]) == multiply_each([k], [point]) == [mult(k, point)]


@settings(max_examples=20, deadline=None)
@given(scalars, scalars)
def test_layers_commute_and_inverses_remove_them(a, b):
    point = hash_to_point("test", a)
    (ab,) = multiply(a, multiply(b, [point]))
    assert multiply(b, multiply(a, [point])) == [ab] == multiply(product((a, b)), [point])
    assert multiply(invert(a), [ab]) == multiply(b, [point])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, FIELD + 40))
def test_the_input_check_is_canonical_and_on_the_curve(u):
    entry = u.to_bytes(32, "little")
    accepted = first_off_curve([entry]) is None
    assert accepted == (u < FIELD - 1 and on_curve(u))


@pytest.mark.parametrize("entry", [SMALL_ORDER_POINT, TWIST_POINT, NON_CANONICAL, HIGH_BIT, b"short"])
def test_entries_that_are_not_points_are_refused(entry):
    good = hash_to_point("test", b"good")
    assert not is_point(entry)
    for batch, index in (([entry], 0), ([good, entry], 1)):
        with pytest.raises(InvalidPoint) as caught:
            multiply((5).to_bytes(32, "little"), batch)
        assert caught.value.index == index
        with pytest.raises(InvalidPoint) as caught:
            multiply_each([(5).to_bytes(32, "little")] * len(batch), batch)
        assert caught.value.index == index


def test_a_point_and_its_torsion_mixed_twin_are_refused_under_one_scalar():
    good = hash_to_point("test", b"good")
    with pytest.raises(InvalidPoint) as caught:
        multiply((5).to_bytes(32, "little"), [good, torsion_mixed(good)])
    assert caught.value.index == 1


@pytest.mark.parametrize("zero", [bytes(32), ORDER.to_bytes(32, "little")])
def test_zero_is_refused_rather_than_searched_for_a_split(zero):
    with pytest.raises(ValueError, match="zero is no scalar"):
        ladder_scalars(zero)
