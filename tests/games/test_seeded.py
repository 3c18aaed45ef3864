"""The bots' reproducible randomness: in range, repeatable from a seed, unbiased, and the bytes
the spec describes (so another implementation's self-play makes the same choices)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairtable.games.seeded import SeededRng


@given(st.binary(max_size=40), st.lists(st.integers(min_value=1, max_value=2**70), min_size=1, max_size=30))
def test_every_draw_is_in_range_and_a_seed_repeats_its_draws(seed, bounds):
    first, again = SeededRng(seed), SeededRng(seed)
    drawn = [first.randrange(n) for n in bounds]
    assert all(0 <= value < n for value, n in zip(drawn, bounds))
    assert drawn == [again.randrange(n) for n in bounds]


def test_the_draw_is_the_first_sha256_block_of_seed_and_counter_reduced():
    seed = b"fairtable"
    block = int.from_bytes(hashlib.sha256(seed + (0).to_bytes(8, "big")).digest(), "big")
    assert SeededRng(seed).randrange(52) == block % 52  # this block is below the rejection limit for 52
    assert SeededRng.of(7).randrange(10**9) == SeededRng((7).to_bytes(16, "big")).randrange(10**9)


def test_a_block_in_the_incomplete_last_multiple_is_drawn_again():
    n = (1 << 255) + 1  # the limit is n itself: a block at or above it would favour small values
    blocks = [int.from_bytes(hashlib.sha256(b"w" + i.to_bytes(8, "big")).digest(), "big") for i in range(64)]
    assert blocks[0] >= n  # this seed's first block must be redrawn
    assert SeededRng(b"w").randrange(n) == next(block for block in blocks if block < n)


def test_small_ranges_come_out_evenly():
    rng = SeededRng(b"even")
    counts = Counter(rng.randrange(6) for _ in range(6000))
    assert set(counts) == set(range(6)) and all(850 < count < 1150 for count in counts.values())


@pytest.mark.parametrize("n", [0, -3])
def test_an_empty_range_is_refused(n):
    with pytest.raises(ValueError, match="empty range"):
        SeededRng(b"").randrange(n)
