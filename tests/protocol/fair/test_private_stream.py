from collections import Counter

import pytest

from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.private_stream import check_draw, draw
from fairtable.protocol.hashing import digest
from tests.protocol.fair.support import chi_square, chi_square_limit, make_game, make_seeds

CONTEXT = digest("test", b"latest envelope of another seat")


def test_draws_are_deterministic_and_depend_on_every_input():
    seeds = make_seeds(make_game(), 2)
    base = draw(seeds[0], "deck", CONTEXT, 0, 1 << 60, 3)
    assert base == draw(seeds[0], "deck", CONTEXT, 0, 1 << 60, 3)
    others = {
        draw(seeds[1], "deck", CONTEXT, 0, 1 << 60, 3),
        draw(seeds[0], "other", CONTEXT, 0, 1 << 60, 3),
        draw(seeds[0], "deck", digest("test", b"another"), 0, 1 << 60, 3),
        draw(seeds[0], "deck", CONTEXT, 1, 1 << 60, 3),
        draw(make_seeds(make_game(index=1), 1)[0], "deck", CONTEXT, 0, 1 << 60, 3),
    }
    assert base not in others and len(others) == 5


def test_infinite_deck_is_uniform_over_102_cards():
    seed = make_seeds(make_game(), 1)[0]
    counts = Counter(card for counter in range(2040) for card in draw(seed, "infinite", CONTEXT, counter, 102, 5))
    assert set(counts) == set(range(102))
    assert chi_square([counts[c] for c in range(102)], 100) < chi_square_limit(101)


def test_a_claimed_draw_is_checked_after_the_seed_reveal():
    seed = make_seeds(make_game(), 3)[2]
    honest = draw(seed, "infinite", CONTEXT, 7, 102, 2)
    check_draw(seed, "infinite", CONTEXT, 7, 102, honest)
    with pytest.raises(FairnessError) as caught:
        check_draw(seed, "infinite", CONTEXT, 7, 102, ((honest[0] + 1) % 102, honest[1]))
    assert caught.value.seat == 2 and caught.value.rule == "private-stream.mismatch"


def test_bad_inputs_are_refused():
    seed = make_seeds(make_game(), 1)[0]
    with pytest.raises(ValueError):
        draw(seed, "infinite", CONTEXT, -1, 102)
    with pytest.raises(ValueError):
        draw(seed, "infinite", "not bytes", 0, 102)
    with pytest.raises(ValueError):
        draw(seed, "infinite", CONTEXT, 0, 0)
