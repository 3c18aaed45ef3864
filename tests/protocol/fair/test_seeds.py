from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairtable.protocol import codec
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import (
    GameRef,
    Seed,
    Stream,
    check_seed,
    check_seed_reveal,
    check_start,
    seed_reveal_body,
    start_body,
)
from fairtable.protocol.hashing import digest
from tests.protocol.fair.support import chi_square, chi_square_limit, make_game, make_seeds

keys = st.binary(min_size=32, max_size=32)


def test_seed_commitment_opens_only_with_its_seed():
    game = make_game()
    seeds = make_seeds(game, 2)
    check_seed(seeds[0], seeds[0].commitment)
    with pytest.raises(FairnessError) as caught:
        check_seed(seeds[1], seeds[0].commitment)
    assert caught.value.seat == 1 and caught.value.rule == "seed.mismatch"


def test_commitment_binds_seat_and_game():
    value = digest("test", b"same")
    commitments = {
        Seed(make_game("a"), 0, value).commitment,
        Seed(make_game("a"), 1, value).commitment,
        Seed(make_game("a", 1), 0, value).commitment,
        Seed(make_game("b"), 0, value).commitment,
    }
    assert len(commitments) == 4


def test_derived_keys_separate_labels_contexts_and_seats():
    seeds = make_seeds(make_game(), 2)
    derived = {
        seeds[0].key("a"),
        seeds[0].key("b"),
        seeds[0].key("a", "x"),
        seeds[0].key("a", "x", 1),
        seeds[0].key("a", b"x"),
        seeds[1].key("a"),
    }
    assert len(derived) == 6
    assert seeds[0].key("a", "x") == seeds[0].key("a", "x")


def test_seed_and_game_validation():
    with pytest.raises(ValueError):
        GameRef(b"short", 0)
    with pytest.raises(ValueError):
        GameRef(bytes(32), -1)
    with pytest.raises(ValueError):
        Seed(make_game(), 0, bytes(31))
    assert Seed.generate(make_game(), 0).value != Seed.generate(make_game(), 0).value
    assert "value" not in repr(Seed(make_game(), 0, bytes(32)))


@given(keys, st.lists(st.integers(0, 200), max_size=8))
def test_stream_reads_concatenate(key, sizes):
    whole = Stream(key).read(sum(sizes))
    pieces = Stream(key)
    assert b"".join(pieces.read(n) for n in sizes) == whole


@given(keys, st.integers(1, 1 << 70))
def test_below_is_in_range(key, k):
    stream = Stream(key)
    assert all(0 <= stream.below(k) < k for _ in range(5))


def test_below_one_reads_nothing_and_bad_bounds_fail():
    stream = Stream(bytes(32))
    assert stream.below(1) == 0
    assert stream.read(8) == Stream(bytes(32)).read(8)
    for bad in (0, -3, True, 2.0):
        with pytest.raises(ValueError):
            stream.below(bad)


@given(keys, st.integers(0, 60))
def test_permutation_is_a_permutation(key, n):
    assert sorted(Stream(key).permutation(n)) == list(range(n))


def test_below_has_no_modulo_bias():
    # 171 is about 2/3 of a byte: a modulo reduction would make 0..84 twice as likely.
    k, draws = 171, 34200
    stream = Stream(digest("test", b"below"))
    counts = Counter(stream.below(k) for _ in range(draws))
    assert chi_square([counts[v] for v in range(k)], draws / k) < chi_square_limit(k - 1)


def test_fisher_yates_is_uniform():
    n, samples = 4, 24000
    counts = Counter(Stream(digest("test", i.to_bytes(4, "big"))).permutation(n) for i in range(samples))
    every = list(permutations(range(n)))
    assert set(counts) == set(every)
    assert chi_square([counts[p] for p in every], samples / len(every)) < chi_square_limit(len(every) - 1)


def test_game_start_and_seed_reveal_messages():
    game = make_game()
    seeds = make_seeds(game, 2)
    tip = digest("test", b"tip")
    body = codec.decode(codec.encode(start_body(seeds[0], tip)))
    commitment, chain = check_start(0, body)
    assert (commitment, chain) == (seeds[0].commitment, tip)
    revealed = check_seed_reveal(game, 0, codec.decode(codec.encode(seed_reveal_body(seeds[0]))), commitment)
    assert revealed == seeds[0]
    with pytest.raises(FairnessError) as caught:
        check_seed_reveal(game, 1, seed_reveal_body(seeds[1]), commitment)
    assert (caught.value.seat, caught.value.rule) == (1, "seed.mismatch")
    for bad in ({"seed": b"short"}, {"seed": seeds[1].value, "extra": 1}, [seeds[1].value]):
        with pytest.raises(FairnessError) as caught:
            check_seed_reveal(game, 1, bad, commitment)
        assert (caught.value.seat, caught.value.rule) == (1, "seed.malformed")
    with pytest.raises(FairnessError) as caught:
        check_start(1, {"chain": tip})
    assert (caught.value.seat, caught.value.rule) == (1, "seed.malformed")
