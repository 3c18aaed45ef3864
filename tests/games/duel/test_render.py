"""The text rendering fits 80x24 at every point of a match, and typed moves find their move."""

from __future__ import annotations

import random

import pytest

from fairtable.games import referee
from fairtable.games.duel import render
from fairtable.games.duel.bots import GreedyBot, RandomBot
from fairtable.node.clients.tui.boards import pick
from tests.games.duel.positions import GAME


@pytest.mark.parametrize("variant, seats, options", [("1v1", 2, {}), ("blind", 2, {"swap_after_round": True}), ("ffa", 6, {}),
                                                     ("ffa", 5, {"draft": True, "cycles": 1}), ("1v1", 2, {"tie": "playoff"})])
def test_every_view_of_a_match_fits_the_terminal_and_every_move_can_be_typed(variant, seats, options):
    rng = random.Random(3)
    played = referee.play(GAME, variant, options, [GreedyBot(rng), *(RandomBot(rng) for _ in range(seats - 1))], rng)
    state = GAME.setup(variant, options, seats)
    for event in played.events:
        state = GAME.apply(state, event)
        for seat in (0, seats - 1, None):
            text = render.render(GAME.view(state, seat))
            lines = text.splitlines()
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), text
        request = GAME.pending(state)
        seat = getattr(request, "seat", None)
        if seat is not None and type(request).__name__ == "Decide":
            view = GAME.view(state, seat)
            moves = list(GAME.legal_moves(state, seat))
            update = {"legal_moves": moves, "move_texts": [render.move_line(view, move) for move in moves]}
            for move in moves[:12]:
                word = render.move_line(view, move).split()[-1]
                assert pick(update, word) == move
    final = GAME.view(state, 0)
    points = "–".join(str(player["points"]) for player in final["players"])
    over = render.render(final).splitlines()[-2:]  # the game-over lines: how it was reached, then who won and why
    assert over[0].startswith(f"Final points {points}") and over[1].startswith("Match over: ")


def test_a_duel_on_the_table_reads_in_words():
    rng = random.Random(1)
    played = referee.play(GAME, "1v1", {}, [GreedyBot(rng), GreedyBot(rng)], rng)
    state = GAME.setup("1v1", {}, 2)
    for event in played.events:
        state = GAME.apply(state, event)
        if state.step == "defend":
            break
    text = render.render(GAME.view(state, state.defender))
    assert "On the table: seat 0 attacks you with" in text and "Your turn: defend." in text and "Your hand:" in text
    view = GAME.view(state, state.defender)
    line = render.move_line(view, GAME.legal_moves(state, state.defender)[0])
    assert line.startswith("defend with ") and " against " in line
