import json
import tracemalloc

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol import codec
from tests.paths import VECTORS
from tests.strategies import ints, wire_values

VECTORS = json.loads((VECTORS / "wire.json").read_text())


def untag(tagged):
    (kind, item), = tagged.items()
    if kind == "nil":
        return None
    if kind == "bool":
        return item
    if kind == "int":
        return int(item)
    if kind == "str":
        return item
    if kind == "bin":
        return bytes.fromhex(item)
    if kind == "array":
        return tuple(untag(x) for x in item)
    return {key: untag(value) for key, value in item}


@pytest.mark.parametrize("vector", VECTORS["valid"], ids=lambda v: v["name"])
def test_valid_vector_encodes_and_decodes(vector):
    value = untag(vector["value"])
    data = bytes.fromhex(vector["hex"])
    assert codec.encode(value) == data
    assert codec.decode(data) == value


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: v["name"])
def test_invalid_vector_is_rejected_with_a_named_problem(vector):
    with pytest.raises(codec.CodecError, match=vector["error_contains"]):
        codec.decode(bytes.fromhex(vector["hex"]))


def test_vector_limits_are_the_defaults():
    assert VECTORS["limits"] == {
        "max_size": codec.DEFAULT_LIMITS.max_size, "max_depth": codec.DEFAULT_LIMITS.max_depth,
        "max_items": codec.DEFAULT_LIMITS.max_items, "max_str": codec.DEFAULT_LIMITS.max_str,
        "max_bin": codec.DEFAULT_LIMITS.max_bin,
    }


@given(wire_values)
def test_round_trip(value):
    data = codec.encode(value)
    assert codec.decode(data) == value
    assert codec.encode(codec.decode(data)) == data


@given(st.dictionaries(st.text(max_size=5), ints, min_size=2, max_size=8))
def test_map_encoding_ignores_insertion_order(mapping):
    reordered = dict(reversed(list(mapping.items())))
    assert codec.encode(mapping) == codec.encode(reordered)


@given(st.binary(max_size=200))
@settings(max_examples=3000)
def test_arbitrary_bytes_raise_only_codec_errors(data):
    try:
        value = codec.decode(data)
    except codec.CodecError:
        return
    assert codec.encode(value) == data


@given(wire_values, st.data())
@settings(max_examples=500)
def test_mutated_encodings_raise_only_codec_errors_or_stay_canonical(value, data):
    encoded = bytearray(codec.encode(value))
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        position = data.draw(st.integers(0, len(encoded)))
        if action == "flip" and position < len(encoded):
            encoded[position] ^= data.draw(st.integers(1, 255))
        elif action == "insert":
            encoded.insert(position, data.draw(st.integers(0, 255)))
        elif action == "delete" and position < len(encoded):
            del encoded[position]
    try:
        decoded = codec.decode(bytes(encoded))
    except codec.CodecError:
        return
    assert codec.encode(decoded) == bytes(encoded)


@given(wire_values, st.integers(min_value=1))
def test_every_truncation_is_reported_as_incomplete(value, cut):
    data = codec.encode(value)
    if len(data) < 2:
        return
    cut = cut % (len(data) - 1) + 1
    with pytest.raises(codec.Incomplete):
        codec.decode(data[:cut])


@pytest.mark.parametrize("value, problem", [
    (1.5, "floats"),
    ({1: 2}, "not a string"),
    (1 << 64, "outside the wire range"),
    (-(1 << 63) - 1, "outside the wire range"),
    ("\ud800", "UTF-8"),
    ({"\ud800": 1}, "UTF-8"),
    (object(), "type object"),
    (set(), "type set"),
])
def test_encoder_refuses_what_the_wire_cannot_carry(value, problem):
    with pytest.raises(codec.CodecError, match=problem):
        codec.encode(value)


def test_encoder_refuses_nesting_beyond_the_decoder_limit():
    value = None
    for _ in range(codec.DEFAULT_LIMITS.max_depth + 1):
        value = [value]
    with pytest.raises(codec.CodecError, match="nesting"):
        codec.encode(value)
    assert codec.decode(codec.encode(value[0])) is not None


def test_error_names_the_offset_of_the_problem():
    data = codec.encode({"a": [1, 2], "b": "x"})
    bad = data.replace(b"\xa1x", b"\xa1\xff")
    with pytest.raises(codec.CodecError) as error:
        codec.decode(bad)
    assert error.value.offset == len(data) - 1
    assert f"byte {len(data) - 1}" in str(error.value)


@pytest.mark.parametrize("header", ["ddffffffff", "dfffffffff", "c6ffffffff", "dbffffffff"])
def test_huge_declared_lengths_are_refused_without_allocating(header):
    limits = codec.Limits(max_items=1 << 32, max_bin=1 << 32, max_str=1 << 32, max_size=1 << 33)
    tracemalloc.start()
    try:
        with pytest.raises(codec.CodecError):
            codec.decode(bytes.fromhex(header) + b"\x00" * 8, limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_limits_are_enforced():
    tight = codec.Limits(max_size=64, max_depth=2, max_items=3, max_str=4, max_bin=4)
    for value, problem in [([1, 2, 3, 4], "array of 4 items"), ("abcde", "str of 5 bytes"),
                           (b"abcde", "bin of 5 bytes"), ([[[1]]], "nesting"), (b"x" * 100, "size")]:
        with pytest.raises(codec.CodecError, match=problem):
            codec.decode(codec.encode(value), tight)


def test_decode_prefix_reads_one_value_and_reports_its_end():
    data = codec.encode([1, "two"]) + codec.encode({"x": None})
    first, end = codec.decode_prefix(data)
    assert first == (1, "two")
    assert codec.decode_prefix(data, end) == ({"x": None}, len(data))
    with pytest.raises(codec.Incomplete):
        codec.decode_prefix(data[:-1], end)


def test_decode_prefix_distinguishes_too_large_from_incomplete():
    data = codec.encode(b"y" * 100) + b"\x00" * 100
    with pytest.raises(codec.CodecError, match="size limit") as error:
        codec.decode_prefix(data, 0, codec.Limits(max_size=50))
    assert not isinstance(error.value, codec.Incomplete)


def test_decoder_rejects_non_bytes_input():
    with pytest.raises(codec.CodecError, match="expected bytes"):
        codec.decode("not bytes")


def strictly(data: bytes):
    """The strict parser alone: the one value spanning ``data``, or its CodecError."""
    value, end = codec.decode_prefix(data, 0, codec.DEFAULT_LIMITS)
    if end != len(data):
        raise codec.CodecError("trailing bytes")
    return value


@given(wire_values, st.data())
@settings(max_examples=500)
def test_the_fast_reading_gives_the_strict_parsers_value_or_leaves_the_input_to_it(value, data):
    """msgpack's C decoder reads first; it may only ever agree with the strict parser or abstain."""
    encoded = bytearray(codec.encode(value))
    if data.draw(st.booleans()) and encoded:
        encoded[data.draw(st.integers(0, len(encoded) - 1))] ^= data.draw(st.integers(1, 255))
    fast = codec._read_canonical(bytes(encoded), codec.DEFAULT_LIMITS)
    try:
        expected = strictly(bytes(encoded))
    except codec.CodecError:
        assert fast is codec._UNDECIDED
        return
    assert fast is codec._UNDECIDED or fast == expected


@pytest.mark.parametrize("data, problem", [
    (msgpack.packb({"b": 1, "a": 2}), "map keys out of order"),
    (b"\x82\xa1a\x01\xa1a\x02", "duplicate map key"),
    (msgpack.packb(1.5), "floats are not allowed"),
    (b"\xcd\x00\x05", "not in its shortest form"),
    (b"\xd0\x05", "encoded as signed"),
    (b"\xd9\x01a", "not in its shortest form"),
    (msgpack.packb(msgpack.ExtType(1, b"x")), "extension types"),
    (msgpack.packb([{"z": 0, "y": 0}]), "map keys out of order"),
], ids=["unsorted", "duplicate", "float", "long int", "signed", "long str", "ext", "nested unsorted"])
def test_what_msgpack_reads_but_the_wire_forbids_is_refused_with_the_strict_parsers_words(data, problem):
    assert codec._read_canonical(data, codec.DEFAULT_LIMITS) is codec._UNDECIDED
    with pytest.raises(codec.CodecError, match=problem):
        codec.decode(data)


def test_nesting_at_the_limit_is_decided_by_the_strict_parser():
    limits = codec.Limits(max_depth=3)
    inside, beyond = b"\x91\x91\x91\x01", b"\x91\x91\x91\x91\x01"
    assert codec.decode(inside, limits) == (((1,),),)
    with pytest.raises(codec.CodecError, match="nesting deeper than 3"):
        codec.decode(beyond, limits)
