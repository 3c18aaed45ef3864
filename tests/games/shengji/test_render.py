"""The text view fits a terminal (80x24) at every decision of a deal, names moves in words whose
last word is the cards' codes, and shows each seat only what its view holds."""

from __future__ import annotations

import random

from fairtable.games import referee
from fairtable.games.bots import heuristic
from fairtable.games.contract import Decide
from fairtable.games.shengji import render
from fairtable.protocol import codec
from tests.games.shengji.positions import GAME, Table, faces


def test_every_decision_of_a_deal_renders_within_80_by_24_with_its_moves():
    rng = random.Random(5)
    played = referee.play(GAME, "standard", {"deals": 1}, [heuristic(GAME, rng) for _ in range(4)], rng)
    state = GAME.setup("standard", {"deals": 1}, 4)
    for event in played.events:
        state = GAME.apply(state, event)
        request = GAME.pending(state)
        for seat in (0, 1, 2, 3, None):
            view = codec.decode(codec.encode(GAME.view(state, seat)))
            lines = render.render(view).splitlines()
            assert len(lines) <= 24 and max(map(len, lines)) <= 80, "\n".join(lines)
        if isinstance(request, Decide):
            view = GAME.view(state, request.seat)
            for move in GAME.legal_moves(state, request.seat):
                line = render.move_line(view, move)
                assert line and "??" not in line
    assert "Match over" in render.render(GAME.view(state, 0))


def test_moves_in_words():
    table = Table(hands=("H2 H2 BJ BJ", "", "", ""))
    view = GAME.view(table.full, 0)
    lines = {render.move_line(view, move) for move in GAME.legal_moves(table.full, 0)}
    assert {"pass", "declare (a level card, hearts trump) H2", "declare (a level pair, hearts trump) H2H2",
            "declare (a small-joker pair, no trump suit) BJBJ"} <= lines


def test_the_dealer_sees_the_kitty_and_the_others_a_count():
    table = Table(hands=("H2", "", "", ""), kitty="SK S10 S5 S3 S4 C3 C4 D3", seats=True)
    table.play(0, "declare", "H2")
    table.passes(1, 2, 3)
    table.kitty()
    dealer = render.render(GAME.view(table.seats[0], 0))
    other = render.render(GAME.view(table.seats[1], 1))
    assert "Kitty: SK S10 S5 S3 S4 C3 C4 D3" in dealer and "Kitty" not in other
    assert "declared by you with H2" in dealer and "declared by seat 0 with H2" in other
    assert "Your turn: bury a card (8 to go)." in dealer and "Turn of seat 0: bury a card (8 to go)." in other
    assert "Your hand:" not in render.render(GAME.view(table.full, None))
    assert faces("H2")[0] in [entry["card"] for entry in GAME.view(table.seats[0], 0)["hand"]]
