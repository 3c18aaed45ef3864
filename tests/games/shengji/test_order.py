"""The card order, shapes, the follow rule, trick winners and level bands, with positions from the rule text."""

from __future__ import annotations

import pytest

from fairtable.games.shengji.catalogue import SUITS
from fairtable.games.shengji.order import TRUMP, Lead, Order, follow_fault, level_change, shape, winner
from tests.games.shengji.positions import faces

HEARTS = SUITS.index("hearts")
SPADES = SUITS.index("spades")
LEVEL2 = Order(2, HEARTS)


def ranking(order: Order, codes: str) -> list:
    return [order.strength(face) for face in faces(codes)]


def form(order: Order, codes: str):
    return shape(order, faces(codes))


# ------------------------------------------------------------------ trump order


def test_trump_runs_red_joker_black_joker_trump_level_off_suit_level_then_the_trump_suit():
    strengths = ranking(LEVEL2, "RJ BJ H2 C2 D2 S2 HA HK H3")
    assert strengths == sorted(strengths, reverse=True)
    assert LEVEL2.strength(faces("C2")[0]) == LEVEL2.strength(faces("S2")[0]) == LEVEL2.strength(faces("D2")[0])
    assert len(set(strengths)) == 7
    assert all(LEVEL2.suit(face) == TRUMP for face in faces("RJ BJ H2 C2 HA H3"))


def test_plain_suits_run_a_to_2_without_the_level_and_any_trump_beats_them():
    assert LEVEL2.suit(faces("SA")[0]) == SPADES and LEVEL2.suit(faces("S2")[0]) == TRUMP
    assert ranking(LEVEL2, "SA SK S3") == sorted(ranking(LEVEL2, "SA SK S3"), reverse=True)
    assert LEVEL2.strength(faces("H3")[0]) > LEVEL2.strength(faces("SA")[0])


def test_without_a_trump_suit_only_level_cards_and_jokers_are_trump():
    order = Order(2, None)
    assert [order.suit(face) for face in faces("HA C2 H2 BJ")] == [HEARTS, TRUMP, TRUMP, TRUMP]
    assert order.strength(faces("H2")[0]) == order.strength(faces("S2")[0])
    assert ranking(order, "RJ BJ H2") == sorted(ranking(order, "RJ BJ H2"), reverse=True)


# ------------------------------------------------------------------ shapes: pairs and tractors


@pytest.mark.parametrize("codes, pairs", [
    ("SK", 0), ("SK SK", 1), ("S3 S3 S4 S4", 2), ("S9 S9 S10 S10 SJ SJ", 3),
    ("HA HA C2 C2", 2),  # trump ace pair, then an off-suit level pair
    ("C2 C2 H2 H2", 2),  # off-suit level pair, then the trump-suit level pair
    ("H2 H2 BJ BJ", 2), ("BJ BJ RJ RJ", 2), ("HA HA D2 D2 H2 H2 BJ BJ RJ RJ", 5),  # the whole trump chain
])
def test_leads_of_each_shape(codes, pairs):
    assert form(LEVEL2, codes).pairs == pairs


@pytest.mark.parametrize("codes", [
    "SK SQ",  # two different cards
    "S3 S3 S5 S5",  # not consecutive
    "C2 C2 D2 D2",  # two different off-suit level pairs never form a tractor
    "SK SK HK HK",  # two suits
    "SA S2",  # S2 is trump: two effective suits
    "SK SK SQ",  # a pair and a single is a throw
])
def test_no_other_lead(codes):
    assert form(LEVEL2, codes) is None


def test_tractors_skip_the_level_rank():
    order = Order(5, HEARTS)
    assert form(order, "S4 S4 S6 S6").pairs == 2
    assert form(order, "H4 H4 H6 H6").pairs == 2
    assert form(order, "HA HA S5 S5").pairs == 2
    assert form(Order(2, HEARTS), "S4 S4 S6 S6") is None
    assert form(Order(2, None), "C2 C2 BJ BJ").pairs == 2  # no trump suit: off-suit level pair, then the jokers
    assert form(Order(14, SPADES), "SK SK HA HA").pairs == 2  # the trump king, then the off-suit level ace


# ------------------------------------------------------------------ following


def lead_of(order: Order, codes: str) -> Lead:
    led = form(order, codes)
    return Lead(led.suit, led.size, led.pairs)


@pytest.mark.parametrize("led, hand, played, fault", [
    ("SK", "S3 C4", "C4", "follow"),  # must follow suit
    ("SK", "S3 C4", "S3", None),
    ("SK", "S2 C4", "C4", None),  # S2 is trump: void in spades, anything goes
    ("SK", "S2 C4", "S2", None),
    ("H5", "S2 C4", "C4", "follow"),  # a trump lead: the level card must follow
    ("H5", "BJ C4", "BJ", None),
    ("SK SK", "S3 S3 S4 C5", "S3 S4", "pairs"),  # a pair held must be given
    ("SK SK", "S3 S3 S4 C5", "S3 S3", None),
    ("SK SK", "S3 S4 S5 C5", "S3 S5", None),  # no pair: any two of the suit
    ("SK SK", "S3 S4 S5 C5", "S3 C5", "follow"),
    ("SK SK", "S3 C5 C6", "S3 C5", None),  # short: all of the suit, then free
    ("SK SK", "S3 C5 C6", "C5 C6", "follow"),
    ("SK SK", "C5 C6 H7", "C5 H7", None),  # void: discard or trump freely
    ("SQ SQ SK SK", "S3 S3 S7 S7 S9 C5", "S3 S3 S7 S7", None),  # pairs, not consecutive: enough
    ("SQ SQ SK SK", "S3 S3 S7 S7 S9 C5", "S3 S3 S7 S9", "pairs"),
    ("SQ SQ SK SK", "S3 S3 S7 S8 S9 C5", "S3 S3 S7 S8", None),  # one pair: give it, then any of the suit
    ("SQ SQ SK SK", "S3 S3 S7 S8 S9 C5", "S3 S7 S8 S9", "pairs"),
    ("SQ SQ SK SK", "S3 S3 S7 C5 C6", "S3 S3 S7 C5", None),  # short of a tractor: all spades, then free
])
def test_follow_cases(led, hand, played, fault):
    assert follow_fault(LEVEL2, lead_of(LEVEL2, led), faces(hand), faces(played)) == fault


def test_an_incomplete_follow_is_refused_as_soon_as_it_cannot_be_completed():
    lead = lead_of(LEVEL2, "SQ SQ SK SK")
    hand = faces("S3 S3 S7 S7 S9 C5")
    assert follow_fault(LEVEL2, lead, hand, faces("S3")) is None
    assert follow_fault(LEVEL2, lead, hand, faces("S3 S7")) is None  # the other S3 and S7 still make two pairs
    assert follow_fault(LEVEL2, lead, hand, faces("S3 S9")) == "pairs"  # two cards left cannot make the second pair
    assert follow_fault(LEVEL2, lead, hand, faces("S9")) == "pairs"
    assert follow_fault(LEVEL2, lead, hand, faces("C5")) == "follow"


# ------------------------------------------------------------------ winning a trick


@pytest.mark.parametrize("plays, best", [
    (["SK", "SA", "S3", "SQ"], 1),  # the higher card of the led suit
    (["SA", "SA", "S3", "S4"], 0),  # equal strength: the earlier play
    (["C2", "D2", "S2", "H3"], 0),  # off-suit level cards are equal
    (["SA", "H3", "H4", "CA"], 2),  # trump beats the plain lead; an off suit never wins
    (["SK", "CA", "DA", "S3"], 0),
    (["SK SK", "SA SQ", "SA SA", "C4 C5"], 2),  # two high cards do not beat a pair; a higher pair does
    (["SK SK", "H3 H3", "BJ RJ", "S4 S4"], 1),  # a trump pair beats; a mixed trump pair does not
    (["S5 S5 S6 S6", "SA SA SQ SQ", "S3 S3 S4 S4", "H3 H4 H5 H6"], 0),  # separate pairs do not beat a tractor
    (["S5 S5 S6 S6", "S3 S3 S4 S4", "H3 H3 H4 H4", "S7 S7 S8 S8"], 2),  # an all-trump tractor wins
    (["S5 S5 S6 S6", "H3 H3 S4 S4", "C3 C3 C4 C4", "S9 S9 S10 S10"], 3),  # half trump does not win; a higher tractor does
    (["H3", "RJ", "BJ", "H2"], 1),  # a trump lead
    (["HA HA C2 C2", "H2 H2 BJ BJ", "D2 D2 H2 H2", "S3 S3 S4 S4"], 1),  # tractors across the level cards and jokers
])
def test_trick_winners(plays, best):
    assert winner(LEVEL2, [faces(play) for play in plays]) == best


# ------------------------------------------------------------------ levels


@pytest.mark.parametrize("points, result", [
    (0, (True, 3)), (5, (True, 2)), (35, (True, 2)), (40, (True, 1)), (75, (True, 1)),
    (80, (False, 0)), (115, (False, 0)), (120, (False, 1)), (155, (False, 1)), (160, (False, 2)), (200, (False, 3)),
    (240, (False, 4)),  # a kitty bonus can go past 200
])
def test_every_level_band(points, result):
    assert level_change(points) == result
