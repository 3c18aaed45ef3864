"""Every card of the Latvian list, played from an explicit position, against hand-derived outcomes.

Start (unless a row overrides it): me tower 20, wall 10, ore/mana/soldiers 30, mines 3,
monasteries 3, barracks 3; enemy tower 25, wall 8, ore/mana/soldiers 20, mines 2,
monasteries 4, barracks 2. Each row gives the final values that change, the card's cost
already paid. When the turn passes, the enemy's income (its producers after the card)
arrives before anything else is observable, so the test adds it.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import pytest

from fairtable.games.towers.catalogue import CARDS
from tests.games.towers.positions import ENEMY, FILLER, HAND, ME, play, position

INCOME = (("ore", "mines"), ("mana", "monasteries"), ("soldiers", "barracks"))


class Case(NamedTuple):
    id: int
    name: str
    colour: str
    cost: int
    me: dict
    enemy: dict = {}
    start_me: dict = {}
    start_enemy: dict = {}
    after: str | None = None


AGAIN, DRAW = "play_again", "draw_discard"

CASES = [
    # red: ore
    Case(0, "Slikta rūda", "red", 0, {"ore": 22}, {"ore": 12}),
    Case(0, "Slikta rūda", "red", 0, {"ore": 0}, {"ore": 0}, start_me={"ore": 5}, start_enemy={"ore": 3}),
    Case(1, "Zemestrīce", "red", 0, {"mines": 2}, {"mines": 1}),
    Case(1, "Zemestrīce", "red", 0, {"mines": 0}, {"mines": 0}, start_me={"mines": 0}, start_enemy={"mines": 1}),
    Case(2, "Raktuvju nogruvums", "red", 0, {"mines": 2, "wall": 20, "mana": 35}),
    Case(3, "Laimes monēta", "red", 0, {"ore": 32, "mana": 32}, after=AGAIN),
    Case(4, "Auglīga zeme", "red", 1, {"ore": 29, "wall": 11}, after=AGAIN),
    Case(5, "Akmeņu dārzs", "red", 1, {"ore": 29, "wall": 11, "tower": 21, "soldiers": 32}),
    Case(6, "Jauninājumi", "red", 2, {"ore": 28, "mines": 4, "mana": 34}, {"mines": 3}),
    Case(7, "Parasts mūris", "red", 2, {"ore": 28, "wall": 13}),
    Case(8, "Virsstundas", "red", 2, {"ore": 28, "wall": 15, "mana": 24}),
    Case(9, "Liels mūris", "red", 3, {"ore": 27, "wall": 14}),
    Case(10, "Pamati", "red", 3, {"ore": 27, "wall": 13}),
    Case(10, "Pamati", "red", 3, {"ore": 27, "wall": 5}, start_me={"wall": 0}),
    Case(11, "Kalnrači", "red", 3, {"ore": 27, "mines": 4}),
    Case(12, "Bagāta dzīsla", "red", 4, {"ore": 26, "mines": 4}),
    Case(12, "Bagāta dzīsla", "red", 4, {"ore": 26, "mines": 3}, start_me={"mines": 1}),
    Case(12, "Bagāta dzīsla", "red", 4, {"ore": 26, "mines": 3}, start_me={"mines": 2}),
    Case(13, "Nogruvums", "red", 4, {"ore": 26}, {"mines": 1}),
    Case(14, "Tehnoloģiju zādzība", "red", 5, {"ore": 25}),
    Case(14, "Tehnoloģiju zādzība", "red", 5, {"ore": 25, "mines": 6}, start_enemy={"mines": 6}),
    Case(15, "Pastiprināts mūris", "red", 5, {"ore": 25, "wall": 16}),
    Case(16, "Gruntsūdeņi", "red", 6, {"ore": 24}, {"barracks": 1, "tower": 23}),
    Case(16, "Gruntsūdeņi", "red", 6, {"ore": 24, "barracks": 2, "tower": 18}, start_me={"wall": 5}),
    Case(16, "Gruntsūdeņi", "red", 6, {"ore": 24, "barracks": 2, "tower": 18}, {"barracks": 1, "tower": 23}, start_enemy={"wall": 10}),
    Case(17, "Jauns aprīkojums", "red", 6, {"ore": 24, "mines": 5}),
    Case(18, "Rūķi kalnrači", "red", 7, {"ore": 23, "wall": 14, "mines": 4}),
    Case(19, "Piespiedu darbs", "red", 7, {"ore": 23, "wall": 19, "soldiers": 25}),
    Case(20, "Grūdieni", "red", 7, {"ore": 23, "wall": 5}, {"wall": 3}, after=AGAIN),
    Case(20, "Grūdieni", "red", 7, {"ore": 23, "wall": 5}, {"wall": 0}, start_enemy={"wall": 2}, after=AGAIN),
    Case(21, "Varenais mūris", "red", 8, {"ore": 22, "wall": 18}),
    Case(22, "Slepena ala", "red", 8, {"ore": 22, "monasteries": 4}, after=AGAIN),
    Case(23, "Galerijas", "red", 9, {"ore": 21, "wall": 15, "barracks": 4}),
    Case(24, "Burvju kalns", "red", 9, {"ore": 21, "wall": 17, "mana": 37}),
    Case(25, "Kazarmas", "red", 10, {"ore": 20, "soldiers": 36, "wall": 16}),
    Case(25, "Kazarmas", "red", 10, {"ore": 20, "soldiers": 36, "wall": 16, "barracks": 2}, start_me={"barracks": 1}),
    Case(26, "Dziedošās ogles", "red", 11, {"ore": 19, "wall": 16, "tower": 23}),
    Case(27, "Bastions", "red", 13, {"ore": 17, "wall": 22}),
    Case(28, "Nocietinājumi", "red", 14, {"ore": 16, "wall": 17}, {"wall": 2}),
    Case(29, "Jaunas virsotnes", "red", 15, {"ore": 15, "wall": 18, "tower": 25}),
    Case(30, "Lielākais mūris", "red", 16, {"ore": 14, "wall": 25}),
    Case(31, "Maiņa", "red", 17, {"ore": 13, "wall": 8}, {"wall": 10}),
    Case(32, "Akmeņu metējs", "red", 18, {"ore": 12, "wall": 16}, {"wall": 0, "tower": 23}),
    Case(33, "Pūķa sirds", "red", 24, {"ore": 6, "wall": 30, "tower": 28}),
    # blue: mana
    Case(34, "Nieciņi", "blue", 0, {"tower": 22}),
    Case(34, "Nieciņi", "blue", 0, {"tower": 26}, start_me={"tower": 25}),
    Case(35, "Varavīksne", "blue", 0, {"tower": 21, "mana": 33}, {"tower": 26}),
    Case(36, "Kvarcs", "blue", 1, {"mana": 29, "tower": 21}, after=AGAIN),
    Case(37, "Ametists", "blue", 2, {"mana": 28, "tower": 23}),
    Case(38, "Dūmu kvarcs", "blue", 2, {"mana": 28}, {"tower": 24}, after=AGAIN),
    Case(39, "Prizma", "blue", 2, {"mana": 28}, after=DRAW),
    Case(40, "Plaisa", "blue", 2, {"mana": 28}, {"tower": 22}),
    Case(41, "Spēka uzliesmojums", "blue", 3, {"mana": 27, "tower": 15, "monasteries": 5}),
    Case(42, "Rubīns", "blue", 3, {"mana": 27, "tower": 25}),
    Case(43, "Burvestību audēji", "blue", 3, {"mana": 27, "monasteries": 4}),
    Case(44, "Aptumsums", "blue", 4, {"mana": 26, "tower": 22}, {"tower": 23}),
    Case(45, "Šķēps", "blue", 4, {"mana": 26}, {"tower": 20}),
    Case(46, "Palīdzība darbā", "blue", 4, {"mana": 26, "tower": 27, "ore": 20}),
    Case(47, "Prelūdija", "blue", 5, {"mana": 25, "tower": 24, "soldiers": 27}, {"tower": 23}),
    Case(48, "Nesaskaņas", "blue", 5, {"mana": 25, "tower": 13, "monasteries": 2}, {"tower": 18, "monasteries": 3}),
    Case(49, "Rūdas dzīsla", "blue", 5, {"mana": 25, "tower": 28}),
    Case(50, "Matrica", "blue", 6, {"mana": 24, "monasteries": 4, "tower": 23}, {"tower": 26}),
    Case(51, "Smaragds", "blue", 6, {"mana": 24, "tower": 28}),
    Case(52, "Harmonija", "blue", 7, {"mana": 23, "monasteries": 4, "tower": 23, "wall": 13}),
    Case(53, "Mīksts akmens", "blue", 7, {"mana": 23, "tower": 25}, {"ore": 14}),
    Case(54, "Paritāte", "blue", 7, {"mana": 23, "monasteries": 4}),
    Case(54, "Paritāte", "blue", 7, {"mana": 23}, {"monasteries": 6}, start_me={"monasteries": 6}),
    Case(55, "Saspridzināšana", "blue", 8, {"mana": 22, "monasteries": 2}, {"tower": 16}),
    Case(56, "Sacietēšana", "blue", 8, {"mana": 22, "tower": 31, "wall": 4}),
    Case(56, "Sacietēšana", "blue", 8, {"mana": 22, "tower": 31, "wall": 0}, start_me={"wall": 3}),
    Case(57, "Gudrības pērle", "blue", 9, {"mana": 21, "tower": 25, "monasteries": 4}),
    Case(58, "Safīrs", "blue", 10, {"mana": 20, "tower": 31}),
    Case(59, "Zibens", "blue", 11, {"mana": 19}, {"tower": 17}),
    Case(59, "Zibens", "blue", 11, {"mana": 19, "wall": 0, "tower": 15}, {"wall": 12}, start_me={"wall": 3}, start_enemy={"wall": 20}),
    Case(60, "Kristāla vairogs", "blue", 12, {"mana": 18, "tower": 28, "wall": 13}),
    Case(61, "Uguns rubīns", "blue", 13, {"mana": 17, "tower": 26}, {"tower": 21}),
    Case(62, "Empātija", "blue", 14, {"mana": 16, "tower": 28, "barracks": 4}),
    Case(63, "Klosteris", "blue", 15, {"mana": 15, "tower": 30, "wall": 15, "soldiers": 35}),
    Case(64, "Dimants", "blue", 16, {"mana": 14, "tower": 35}),
    Case(65, "Mirdzošs akmens", "blue", 17, {"mana": 13, "tower": 32}, {"wall": 2}),
    Case(66, "Meditācija", "blue", 18, {"mana": 12, "tower": 33, "soldiers": 36, "ore": 36}),
    Case(67, "Pūķa acs", "blue", 21, {"mana": 9, "tower": 40}),
    # green: soldiers
    Case(68, "Govju trakumsērga", "green", 0, {"soldiers": 24}, {"soldiers": 14}),
    Case(68, "Govju trakumsērga", "green", 0, {"soldiers": 24}, {"soldiers": 0}, start_enemy={"soldiers": 4}),
    Case(69, "Pilnmēness", "green", 0, {"barracks": 4, "soldiers": 33}, {"barracks": 3}),
    Case(70, "Goblini", "green", 1, {"soldiers": 29, "mana": 27}, {"wall": 4}),
    Case(71, "Feja", "green", 1, {"soldiers": 29}, {"wall": 6}, after=AGAIN),
    Case(72, "Punduris", "green", 2, {"soldiers": 28, "mana": 31}, {"wall": 5}),
    Case(73, "Šķēpnesis", "green", 2, {"soldiers": 28}, {"wall": 5}),
    Case(73, "Šķēpnesis", "green", 2, {"soldiers": 28, "wall": 8}, {"wall": 6}, start_me={"wall": 8}),
    Case(74, "Elfu izlūki", "green", 2, {"soldiers": 28}, after=DRAW),
    Case(75, "Goblinu armija", "green", 3, {"soldiers": 27, "wall": 7}, {"wall": 2}),
    Case(75, "Goblinu armija", "green", 3, {"soldiers": 27, "wall": 0, "tower": 19}, {"wall": 2}, start_me={"wall": 2}),
    Case(76, "Minotaurs", "green", 3, {"soldiers": 27, "barracks": 4}),
    Case(77, "Orks", "green", 3, {"soldiers": 27}, {"wall": 3}),
    Case(78, "Berserks", "green", 4, {"soldiers": 26, "tower": 17}, {"wall": 0}),
    Case(79, "Goblini strēlnieki", "green", 4, {"soldiers": 26, "wall": 9}, {"tower": 22}),
    Case(80, "Rūķi", "green", 5, {"soldiers": 25, "wall": 13}, {"wall": 4}),
    Case(81, "Sagrāvējs", "green", 5, {"soldiers": 25}, {"wall": 2}),
    Case(82, "Velniņš", "green", 5, {"soldiers": 20, "ore": 25, "mana": 25}, {"wall": 2, "ore": 15, "mana": 15, "soldiers": 15}),
    Case(83, "Trakā aita", "green", 6, {"soldiers": 24}, {"wall": 2, "soldiers": 17}),
    Case(84, "Mazās čūskas", "green", 6, {"soldiers": 24}, {"tower": 21}),
    Case(85, "Ogrs", "green", 6, {"soldiers": 24}, {"wall": 1}),
    Case(86, "Spoku feja", "green", 6, {"soldiers": 24}, {"tower": 23}, after=AGAIN),
    Case(87, "Troļļu treneris", "green", 7, {"soldiers": 23, "barracks": 5}),
    Case(88, "Torņa gremlins", "green", 8, {"soldiers": 22, "wall": 14, "tower": 22}, {"wall": 6}),
    Case(89, "Milzu vabole", "green", 8, {"soldiers": 22}, {"wall": 2}),
    Case(89, "Milzu vabole", "green", 8, {"soldiers": 22}, {"tower": 15}, start_enemy={"wall": 0}),
    Case(90, "Vienradzis", "green", 9, {"soldiers": 21}, {"wall": 0}),
    Case(90, "Vienradzis", "green", 9, {"soldiers": 21}, {"wall": 0, "tower": 21}, start_me={"monasteries": 5}),
    Case(91, "Vilkacis", "green", 9, {"soldiers": 21}, {"wall": 0, "tower": 24}),
    Case(92, "Elfu strēlnieki", "green", 10, {"soldiers": 20}, {"tower": 19}),
    Case(92, "Elfu strēlnieki", "green", 10, {"soldiers": 20, "wall": 8}, {"wall": 2}, start_me={"wall": 8}),
    Case(93, "Indīgs mākonis", "green", 11, {"soldiers": 19}, {"wall": 1}),
    Case(93, "Indīgs mākonis", "green", 11, {"soldiers": 19}, {"wall": 3}, start_enemy={"wall": 10}),
    Case(93, "Indīgs mākonis", "green", 11, {"soldiers": 19}, {"wall": 1}, start_enemy={"wall": 11}),
    Case(94, "Akmeņēdāji", "green", 11, {"soldiers": 19}, {"wall": 0, "mines": 1}),
    Case(95, "Zaglis", "green", 12, {"soldiers": 18, "mana": 35, "ore": 33}, {"mana": 10, "ore": 15}),
    Case(95, "Zaglis", "green", 12, {"soldiers": 18, "mana": 32}, {"mana": 0, "ore": 0}, start_enemy={"mana": 3, "ore": 0}),
    Case(96, "Karavadonis", "green", 13, {"soldiers": 17, "mana": 27}, {"wall": 0, "tower": 20}),
    Case(97, "Sukubi", "green", 14, {"soldiers": 16}, {"tower": 20, "soldiers": 14}),
    Case(98, "Akmens milzis", "green", 15, {"soldiers": 15, "wall": 14}, {"wall": 0, "tower": 23}),
    Case(99, "Vampīrs", "green", 17, {"soldiers": 13}, {"wall": 0, "tower": 23, "soldiers": 15, "barracks": 1}),
    Case(100, "Pegaza jātnieks", "green", 18, {"soldiers": 12}, {"tower": 13}),
    Case(101, "Pūķis", "green", 25, {"soldiers": 5}, {"wall": 0, "tower": 13, "mana": 10, "barracks": 1}),
]


def test_every_card_has_a_case_and_the_catalogue_is_the_text():
    assert len(CARDS) == 102
    assert {case.id for case in CASES} == set(range(102))
    assert [sum(card.colour == colour for card in CARDS) for colour in ("red", "blue", "green")] == [34, 34, 34]
    assert len({card.name for card in CARDS}) == len({card.name_en for card in CARDS}) == 102


@pytest.mark.parametrize("case", CASES, ids=[f"{case.id}-{case.name}-{index}" for index, case in enumerate(CASES)])
def test_card(case: Case):
    card = CARDS[case.id]
    assert (card.name, card.colour, card.cost, card.after) == (case.name, case.colour, case.cost, case.after)
    state = position((case.id,) + (FILLER,) * 5, me=case.start_me, enemy=case.start_enemy)
    after = play(state, HAND[0])

    me = {**ME, **case.start_me, **case.me}
    enemy = {**ENEMY, **case.start_enemy, **case.enemy}
    if case.after is None:
        for resource, producer in INCOME:
            enemy[resource] += enemy[producer]
        assert (after.turn, after.owed) == (1, (1, 0))
    elif case.after == AGAIN:
        assert (after.turn, after.owed, after.must_discard) == (0, (1, 0), False)
    else:
        assert (after.turn, after.owed, after.must_discard) == (0, (1, 0), True)
    assert dataclasses.asdict(after.sides[0]) == me
    assert dataclasses.asdict(after.sides[1]) == enemy
    assert after.discard == (case.id,)
    assert after.hands[0] == HAND[1:]
    assert after.result is None
