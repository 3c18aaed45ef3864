"""Hypothesis strategies shared by the test suite."""

from hypothesis import strategies as st

ints = st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
scalars = st.none() | st.booleans() | ints | st.text(max_size=40) | st.binary(max_size=40)

# Values as decode() returns them: arrays are tuples, maps are str-keyed dicts.
wire_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=6).map(tuple) | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=30,
)
