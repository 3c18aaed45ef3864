from hypothesis import given, settings
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
