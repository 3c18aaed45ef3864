"""JSON for the client API: only canonical values in, canonical values out with bytes as hex."""

from __future__ import annotations

import pytest

from fairtable.node.api.jsonvalues import RequestError, dumps, parse


def test_canonical_values_parse_and_extreme_integers_are_kept():
    text = '{"a": [1, -9223372036854775808, 18446744073709551615, "x", true, null, {}]}'
    assert parse(text) == {"a": [1, -(1 << 63), (1 << 64) - 1, "x", True, None, {}]}


@pytest.mark.parametrize("text", ["1.5", "-0.0", "2E3", "Infinity", "-Infinity", "NaN", '{"a": 1, "a": 2}'])
def test_floats_constants_and_duplicate_keys_are_refused(text):
    with pytest.raises(RequestError) as refused:
        parse(text)
    assert refused.value.code == "bad_request"


def test_outgoing_bytes_become_hex_and_keys_are_sorted():
    assert dumps({"b": b"\x00\xff", "a": (1, [b"\x01"])}) == '{"a":[1,["01"]],"b":"00ff"}'
