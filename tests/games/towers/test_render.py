"""The terminal rendering of towers views."""

from __future__ import annotations

import dataclasses

from fairtable.games import seated
from fairtable.games.contract import Result
from fairtable.games.lang import ORIGINAL, speaking
from fairtable.games.towers.render import move_line, render
from fairtable.games.towers.state import Action
from tests.games.towers.positions import GAME, HAND, play, position


def test_seat_view_shows_board_hand_recent_cards_and_turn():
    state = play(position((40, 7, 7, 7, 7, 101)), HAND[0])  # Plaisa: 3 to the enemy tower
    with seated(("ann", "bob")):  # the names in the genesis, as the node renders a seat's board
        text = render(GAME.view(state, 0))
    assert "Archmage's Citadel: win at tower 50 or a resource at 150" in text
    assert "40 in deck, 1 discarded" in text
    assert "Tower" in text and "22" in text  # enemy tower 25 - 3
    assert "Mana (+monasteries)" in text and "28 (+3)" in text
    assert f"[{HAND[5]}] Dragon, 25 soldiers: 20 damage to the enemy" in text
    assert "you played Gemstone Flaw, 2 mana: 3 damage to the enemy tower" in text
    assert text.endswith("Turn of bob: play or discard a card.")


def test_the_original_language_is_a_setting_not_a_mix():
    state = play(position((40, 7, 7, 7, 7, 101)), HAND[0])
    with speaking(ORIGINAL):
        text = render(GAME.view(state, 0))
    assert "Arhimāga citadele: win at tower 50" in text and "Archmage" not in text
    assert f"[{HAND[5]}] Pūķis, 25 karavīri: 20 bojājumi" in text and "Dragon" not in text  # the resource in the rule text's word too
    assert "you played Plaisa, 2 mana: 3 bojājumi ienaidnieka tornim" in text


def test_spectator_sees_no_hand_and_the_result():
    state = dataclasses.replace(
        position(), result=Result((1,), "tower"), recent=(Action(0, 3, False, True),), timeouts=(1, 0)
    )
    text = render(GAME.view(state, None))
    assert "Your hand" not in text and "[100]" not in text
    assert "seat 0 discarded (timeout) Lucky Cache" in text
    assert text.endswith("Game over (own tower built to the goal): seat 1 won")


def test_own_turn_in_the_discard_phase_and_a_draw():
    view = GAME.view(position(must_discard=True, timeouts=(2, 0)), 0)
    assert render(view).endswith("Your turn: discard a card (2 timeouts in a row).")
    draw = GAME.view(dataclasses.replace(position(), result=Result((), "simultaneous")), 1)
    assert render(draw).endswith("Game over (both reached a goal at once): draw")
    infinite = render(GAME.view(position(variant="infinite"), 0))
    assert "infinite deck\n" in infinite and "in deck" not in infinite


def test_moves_in_words_name_the_card_of_the_hand():
    view = GAME.view(position((40, 7, 7, 7, 7, 101)), 0)
    assert move_line(view, {"play": HAND[0]}).startswith(f"play [{HAND[0]}] Gemstone Flaw, 2 mana: ")
    assert move_line(view, {"discard": HAND[5]}).startswith(f"discard [{HAND[5]}] Dragon, 25 soldiers")
    unknown = dict(view, hand=[{"card": None, "handle": 7}])
    assert move_line(unknown, {"discard": 7}) == "discard [7] ?"


def test_every_card_has_its_effect_in_english():
    from fairtable.games.towers.catalogue import CARDS
    from fairtable.games.towers.render import effect_en

    cards = {card.name_en: card for card in (CARDS.values() if isinstance(CARDS, dict) else CARDS)}
    assert effect_en(cards["Stone Giant"]) == "10 damage to the enemy; +4 wall"
    assert effect_en(cards["Little Snakes"]) == "4 damage to the enemy tower"
    assert effect_en(cards["Brick Shortage"]) == "-8 ore (all)"
    assert effect_en(cards["Foundations"]) == "if your wall is 0: +5 wall, else +3 wall"
    assert effect_en(cards["Faerie"]).endswith("; play again")
    for card in cards.values():
        text = effect_en(card)
        assert text and not set(text) & set("āēīūķļņšžčģ"), (card.name_en, text)
