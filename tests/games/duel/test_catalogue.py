"""The 108 cards as the rulings ask, and the measurement that no card dominates."""

from __future__ import annotations

from fractions import Fraction

from fairtable.games.duel.catalogue import BAND, CARDS, TYPES, WEAK, expected, share

REGULAR = [card for card in CARDS if card.name != WEAK]


def test_108_cards_36_of_each_type_with_values_in_50_to_300_by_tens_and_unique_names():
    assert len(CARDS) == 108 and [card.id for card in CARDS] == list(range(108))
    assert all(sum(card.type == t for card in CARDS) == 36 for t in TYPES)
    for card in CARDS:
        assert 50 <= card.attack <= 300 and 50 <= card.defence <= 300
        assert card.attack % 10 == 0 and card.defence % 10 == 0
    for language in ("name", "name_en"):
        assert len({getattr(card, language).casefold() for card in CARDS}) == 108


def test_de_jongen_is_a_weak_card():
    boy = next(card for card in CARDS if card.name == WEAK)
    assert boy.name_en == "The Boy" and boy.attack + boy.defence < BAND[0]
    assert share(boy.id) == min(share(card.id) for card in CARDS)


def test_attack_plus_defence_within_a_band_so_no_card_dominates_another_by_more_than_its_width():
    assert all(BAND[0] <= card.attack + card.defence <= BAND[1] for card in REGULAR)
    for card in REGULAR:
        for other in REGULAR:
            if card.attack >= other.attack and card.defence >= other.defence:
                assert (card.attack - other.attack) + (card.defence - other.defence) <= BAND[1] - BAND[0]


def test_every_cards_share_of_the_points_in_random_duels_is_close_to_a_half():
    """The measurement in spec/games.md: each card against every other card, attacking and
    defending once each, a tie counting half. Regular cards 0.451..0.547, De Jongen 0.030."""
    shares = {card.id: share(card.id) for card in REGULAR}
    low, high = min(shares.values()), max(shares.values())
    assert Fraction(45, 100) <= low and high <= Fraction(55, 100) and high - low < Fraction(1, 10)
    assert round(float(low), 3) == 0.451 and round(float(high), 3) == 0.547
    boy = next(card for card in CARDS if card.name == WEAK)
    assert round(float(share(boy.id)), 3) == 0.030
    # Strength in one role is paid for in the other.
    strongest_attacker = max(REGULAR, key=lambda card: expected(card.id)[0])
    assert expected(strongest_attacker.id)[1] < Fraction(1, 2)
