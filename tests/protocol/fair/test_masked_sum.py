"""Masked sums: the shares add up to the sum, each share hides its value, the pair secret is
one secret for both seats, and malformed keys and shares are refused naming the sender."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairtable.protocol.fair import masked_sum
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.seeds import GameRef, Seed

GAME = GameRef(bytes(range(32)), 0)
SEEDS = {seat: Seed(GAME, seat, bytes([seat + 7]) * 32) for seat in range(6)}
KEYS = {seat: masked_sum.pair_public_key(seed) for seat, seed in SEEDS.items()}


def masks_of(members: list[int], round_id: str, index: int, mod: int) -> dict[tuple[int, int], int]:
    return {(a, b): masked_sum.mask(masked_sum.pair_secret(GAME, a, b, KEYS, SEEDS[a]), round_id, index, mod)
            for a in members for b in members if a < b}


def test_both_seats_of_a_pair_derive_one_secret_and_other_pairs_differ():
    secret = masked_sum.pair_secret(GAME, 1, 4, KEYS, SEEDS[1])
    assert secret == masked_sum.pair_secret(GAME, 1, 4, KEYS, SEEDS[4])
    assert secret != masked_sum.pair_secret(GAME, 1, 3, KEYS, SEEDS[1])
    other_game = masked_sum.pair_secret(GameRef(GAME.table, 1), 1, 4, KEYS, Seed(GameRef(GAME.table, 1), 1, SEEDS[1].value))
    assert other_game != secret  # the game is bound in
    with pytest.raises(ValueError):
        masked_sum.pair_secret(GAME, 1, 4, KEYS, SEEDS[2])


@given(st.lists(st.integers(0, 3), min_size=2, max_size=5), st.integers(0, 50))
def test_the_shares_add_up_to_the_sum_and_each_decodes_to_its_value(values, index):
    members = list(range(len(values)))
    mod = masked_sum.modulus(len(members), 4)
    masks = masks_of(members, "sum-3", index, mod)
    shares = []
    for seat, value in zip(members, values):
        mine = {pair: m for pair, m in masks.items() if seat in pair}
        shares.append(masked_sum.share(value, seat, mine, mod))
        assert masked_sum.claimed(shares[-1], seat, mine, mod) == value
    assert sum(shares) % mod == sum(values)


def test_a_share_is_uniform_whatever_the_value():
    """Over many sums, a seat's share of a 1 and of a 0 fall on every residue about equally
    often: the share alone says nothing about the value."""
    mod = masked_sum.modulus(2, 2)
    for value in (0, 1):
        counts = Counter(masked_sum.share(value, 0, masks_of([0, 1], "sum-0", index, mod), mod) for index in range(600))
        assert sorted(counts) == [0, 1, 2] and all(150 < count < 250 for count in counts.values())


def test_the_modulus_is_the_largest_sum_plus_one():
    assert masked_sum.modulus(2, 2) == 3 and masked_sum.modulus(3, 2) == 4 and masked_sum.modulus(2, 11) == 21
    with pytest.raises(ValueError):
        masked_sum.modulus(1, 2)


SMALL_ORDER = [bytes(32), (1).to_bytes(32, "little"), ((1 << 255) - 20).to_bytes(32, "little"),
               bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")]


@pytest.mark.parametrize("body", [{"key": b"x" * 31}, {"key": "k" * 32}, {"key": KEYS[0], "extra": 1}, [], *({"key": k} for k in SMALL_ORDER)])
def test_a_malformed_or_small_order_pair_key_names_its_sender(body):
    with pytest.raises(FairnessError) as excinfo:
        masked_sum.check_pair_key(3, body)
    assert excinfo.value.seat == 3 and excinfo.value.rule == "sum.malformed"


def test_a_good_pair_key_is_accepted():
    assert masked_sum.check_pair_key(2, masked_sum.pair_key_body(SEEDS[2])) == KEYS[2]


DUE = [masked_sum.Due(0, 3), masked_sum.Due(2, 4)]


@pytest.mark.parametrize("body", [
    {"round": "sum-1", "shares": [[0, 1], [2, 3]]},   # another round
    {"round": "sum-0", "shares": [[0, 1]]},           # a sum missing
    {"round": "sum-0", "shares": [[2, 3], [0, 1]]},   # out of order
    {"round": "sum-0", "shares": [[0, 3], [2, 3]]},   # a share not below its modulus
    {"round": "sum-0", "shares": [[0, -1], [2, 3]]},
    {"round": "sum-0", "shares": [[0, True], [2, 3]]},
    {"round": "sum-0", "shares": [[0, 1, 5], [2, 3]]},
    {"round": "sum-0"},
])
def test_a_malformed_shares_body_names_its_sender(body):
    with pytest.raises(FairnessError) as excinfo:
        masked_sum.check_shares(1, "sum-0", DUE, body)
    assert excinfo.value.seat == 1 and excinfo.value.rule == "sum.malformed"


def test_a_shares_body_round_trips():
    body = masked_sum.shares_body("sum-0", [(2, 3), (0, 1)])
    assert body == {"round": "sum-0", "shares": [[0, 1], [2, 3]]}
    assert masked_sum.check_shares(1, "sum-0", DUE, body) == {0: 1, 2: 3}
