"""Every scoring case of the rule text, with and without the triangle bonus, and a duel played
through the game: the attacker's card first, then the defender's answer."""

from __future__ import annotations

import pytest

from fairtable.games.contract import Decide
from fairtable.games.duel.catalogue import CARDS, points
from fairtable.games.duel.results import prize_winners
from tests.games.duel.positions import GAME, card, filler, start_1v1

CASES = [
    # attacker, defender, points: same type, so no bonus
    ("Witte Haai", "Zeeleeuw", (2, 0)),  # Mare 210 against Mare 150
    ("Zeeleeuw", "Golfruiter", (1, 1)),  # Mare 200 against Mare 200
    ("Kwal", "Golfruiter", (0, 2)),  # Mare 170 against Mare 200
    # the attacker's type beats the defender's: +50 for the attacker
    ("Orka", "Landschildpad", (2, 0)),  # Mare 190+50 against Terra 220 (a loss without the bonus)
    ("Kwal", "Landschildpad", (1, 1)),  # Mare 170+50 against Terra 220
    ("Kwal", "Das", (0, 2)),  # Mare 170+50 against Terra 240
    ("Neushoorn", "Reiger", (2, 0)),  # Terra 200+50 against Aria 240
    ("Neushoorn", "Raaf", (1, 1)),  # Terra 200+50 against Aria 250
    ("Valk", "Heremietkreeft", (2, 0)),  # Aria 200+50 against Mare 230
    ("Valk", "Hengelvis", (1, 1)),  # Aria 200+50 against Mare 250
    # the defender's type beats the attacker's: nobody gets a bonus
    ("Neushoorn", "Golfruiter", (1, 1)),  # Terra 200 against Mare 200
    ("Valk", "Leeuw", (0, 2)),  # Aria 200 against Terra 220
    ("Zeeleeuw", "Vlinder", (2, 0)),  # Mare 200 against Aria 180
    ("Zeeleeuw", "Gevleugeld Paard", (0, 2)),  # Mare 200 against Aria 220
]


@pytest.mark.parametrize("attacker, defender, expected", CASES)
def test_points_of_a_duel(attacker, defender, expected):
    assert points(CARDS[card(attacker)], CARDS[card(defender)]) == expected


@pytest.mark.parametrize("attacker, defender, expected", CASES)
def test_a_duel_played_through_the_game(attacker, defender, expected):
    a, d = card(attacker), card(defender)
    table = start_1v1([[a, *filler([a, d], 19)], [d, *filler([a, d], 19)[::-1]]], first=0)
    assert table.pending == Decide(0, timed=True)
    table.move(0, {"attack": table.handle(0, a)})
    assert table.pending == Decide(1, timed=True)
    for state in (table.full, *table.seats):  # the attack card is public once played
        assert table.full.step == "defend" and state.faces[table.full.attack] == a
    table.move(1, {"defend": table.handle(1, d)})
    players = table.full.players
    assert (players[0].points, players[1].points) == expected
    assert (players[0].attacks_won, players[1].defences_won) == (expected[0] == 2, expected[1] == 2)
    assert players[0].used == (a,) and players[1].used == (d,)
    duel = table.full.recent[-1]
    assert (duel.attack, duel.defence, duel.points) == (a, d, expected)
    assert duel.bonus == ((CARDS[a].type, CARDS[d].type) in {("Mare", "Terra"), ("Terra", "Aria"), ("Aria", "Mare")})
    assert table.full.attacker == 1 and table.full.defender == 0  # the attacker alternates


@pytest.mark.parametrize("attacker, defender, expected", CASES)
def test_the_view_carries_the_attack_as_the_rules_compare_it(attacker, defender, expected):
    """The defender's view gives, for each card of its hand, the attack on the table against it
    (with the bonus where its type wins) and the points it would give; the last duels give the
    value compared. Clients draw these; they hold no triangle or bonus of their own."""
    a, d = card(attacker), card(defender)
    table = start_1v1([[a, *filler([a, d], 19)], [d, *filler([a, d], 19)[::-1]]], first=0)
    table.move(0, {"attack": table.handle(0, a)})
    bonus = (CARDS[a].type, CARDS[d].type) in {("Mare", "Terra"), ("Terra", "Aria"), ("Aria", "Mare")}
    value = CARDS[a].attack + (50 if bonus else 0)
    defending = GAME.view(table.seats[1], 1)["hand_cards"]
    assert {"attack": value, "bonus": bonus, "points": list(expected)} == next(entry["facing"] for entry in defending if entry["card"] == d)
    assert all(entry["facing"] is None for entry in GAME.view(table.seats[0], 0)["hand_cards"])  # the attacker faces nothing
    table.move(1, {"defend": table.handle(1, d)})
    assert all(entry["facing"] is None for entry in GAME.view(table.seats[1], 1)["hand_cards"])
    last = GAME.view(table.full, None)["recent"][-1]
    assert (last["value"], last["bonus"], last["points"]) == (value, bonus, list(expected))


@pytest.mark.parametrize("won, winners", [
    ({0: 3, 1: 5, 2: 5}, (1, 2)),  # the most; a tie shares the prize
    ({0: 1, 1: 0}, (0,)),
    ({0: 0, 1: 0, 2: 0}, ()),  # nobody won a duel of its kind: no prize
    ({}, ()),
])
def test_a_prize_goes_to_the_most_duels_of_its_kind_won_and_to_nobody_at_none(won, winners):
    assert prize_winners(won) == winners
