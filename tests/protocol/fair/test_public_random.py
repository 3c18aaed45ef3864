import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol import codec
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.public_random import (
    CHAIN_LENGTH,
    ChainExhausted,
    HashChain,
    chain_link,
    check_reveal,
    check_tip,
    public_below,
    public_value,
    reveal_body,
)
from tests.protocol.fair.support import make_game, make_seeds

LENGTH = 16


@pytest.fixture
def table():
    game = make_game()
    seeds = make_seeds(game, 3)
    return game, seeds, {seat: HashChain.derive(seed, LENGTH) for seat, seed in seeds.items()}


def run_value(game, chains, index, previous):
    """Every seat reveals for ``index``; returns the value and the new previous reveals."""
    reveals = {}
    for seat, chain in chains.items():
        body = codec.decode(codec.encode(reveal_body(chain, index)))
        reveals[seat] = check_reveal(seat, index, body, previous[seat], LENGTH)
    return public_value(game, index, reveals), reveals


def test_chain_links_down_to_the_tip(table):
    _, _, chains = table
    chain = chains[0]
    assert chain.length == LENGTH
    for index in range(1, LENGTH + 1):
        assert chain_link(index, chain.reveal(index)) == chain.values[index - 1]
    assert chain.values[0] == chain.tip


def test_values_are_distinct_and_need_every_seat(table):
    game, _, chains = table
    previous = {seat: chain.tip for seat, chain in chains.items()}
    values = []
    for index in range(1, LENGTH + 1):
        value, previous = run_value(game, chains, index, previous)
        values.append(value)
    assert len(set(values)) == LENGTH
    one_changed = dict(previous)
    one_changed[1] = bytes(32)
    assert public_value(game, LENGTH, one_changed) != values[-1]
    assert public_value(make_game("other"), LENGTH, previous) != values[-1]


def test_mismatching_reveal_names_its_seat(table):
    _, _, chains = table
    with pytest.raises(FairnessError) as caught:
        check_reveal(2, 2, {"index": 2, "reveal": chains[2].reveal(2)}, chains[2].tip, LENGTH)
    assert caught.value.seat == 2 and caught.value.rule == "public-random.bad-reveal"
    with pytest.raises(FairnessError) as caught:
        check_reveal(1, 1, {"index": 1, "reveal": chains[0].reveal(1)}, chains[1].tip, LENGTH)
    assert caught.value.seat == 1
    with pytest.raises(FairnessError) as caught:
        check_reveal(0, 1, {"index": 2, "reveal": chains[0].reveal(1)}, chains[0].tip, LENGTH)
    assert caught.value.seat == 0 and caught.value.rule == "public-random.malformed"


def test_withheld_reveal_names_its_seat(table):
    game, _, chains = table
    reveals = {0: chains[0].reveal(1), 1: None, 2: chains[2].reveal(1)}
    with pytest.raises(FairnessError) as caught:
        public_value(game, 1, reveals)
    assert caught.value.seat == 1 and caught.value.rule == "public-random.withheld"


def test_exhausted_chain_says_so(table):
    _, _, chains = table
    with pytest.raises(ChainExhausted, match="16 values"):
        chains[0].reveal(LENGTH + 1)
    with pytest.raises(ChainExhausted):
        check_reveal(0, LENGTH + 1, {"index": LENGTH + 1, "reveal": bytes(32)}, bytes(32), LENGTH)
    with pytest.raises(ValueError):
        chains[0].reveal(0)
    with pytest.raises(ValueError):
        HashChain.derive(make_seeds(make_game(), 1)[0], 0)


def test_the_chain_length_is_256():
    chain = HashChain.derive(make_seeds(make_game(), 1)[0])
    assert chain.length == CHAIN_LENGTH == 256


def test_tip_must_derive_from_the_seed(table):
    _, seeds, chains = table
    check_tip(seeds[0], chains[0].tip, LENGTH)
    with pytest.raises(FairnessError) as caught:
        check_tip(seeds[1], chains[0].tip, LENGTH)
    assert caught.value.seat == 1 and caught.value.rule == "public-random.tip-mismatch"


@settings(max_examples=50)
@given(st.integers(1, 1 << 64), st.integers(1, LENGTH))
def test_public_below_is_in_range_and_deterministic(k, index):
    game = make_game()
    reveals = {seat: HashChain.derive(seed, LENGTH).reveal(index) for seat, seed in make_seeds(game, 2).items()}
    drawn = public_below(game, index, reveals, k)
    assert 0 <= drawn < k and drawn == public_below(game, index, reveals, k)
