"""The view's fields and the terminal rendering of drachenherz: everything a seat needs in 80x24,
moves in words with a code to type."""

from __future__ import annotations

import dataclasses
import random

from fairtable.games import referee
from fairtable.games.bots import RandomBot
from fairtable.games.contract import Result
from fairtable.games.drachenherz.render import move_line, render
from fairtable.games.drachenherz.state import Play
from fairtable.node.clients.tui.boards import pick
from tests.games.drachenherz.positions import GAME, face, hand_of, play, position

VIEW_FIELDS = {"seat", "phase", "turn", "match", "players", "hand", "pile_top", "board", "marks", "left", "recent", "game_result", "result"}


def test_the_view_shows_public_counts_the_board_and_only_the_seat_s_own_hand():
    state = position(("pr3", "ch1"), board={"chest": ["ch2", "ch3"], "dwarf": ["dw1"]}, collected=(("fd4",), ()), dragon=0)
    view = GAME.view(state, 0)
    assert set(view) == VIEW_FIELDS
    assert view["hand"] == [{"card": face("pr3"), "handle": state.hands[0][0]}, {"card": face("ch1"), "handle": state.hands[0][1]}]
    assert view["players"][0] == {"hand": 2, "pile": 20, "returned": 0, "collected": 1, "points": 7, "dragon": True, "timeouts": 0}
    assert view["players"][1]["hand"] == 5 and view["players"][1]["points"] == 0
    assert view["board"]["chest"] == [face("ch2"), face("ch3")] and view["board"]["special"] == []
    assert view["match"] == {"mode": "single", "target": None, "game": 0, "wins": [0, 0], "totals": [0, 0]}
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None and spectator["pile_top"] is None
    assert GAME.view(state, 1)["hand"][0]["card"] == face("dw1")


def test_a_seat_s_screen_fits_80_by_24_and_names_everything():
    state = position(("pr3", "ch1", "dw1", "dw2", "hu3", "he4"), board={
        "chest": ["ch1"] * 12, "huntress": ["hu1", "hu2"], "ship": ["sh1"], "special": ["he2", "he3"], "fossil": ["pd3"]},
        collected=(("fd4",), ("dw1", "dw2")), dragon=1, marks=2, left=2, options={"match": 3}, wins=(1, 0))
    state = dataclasses.replace(state, recent=(Play(1, (face("tr2"),), None, (face("pr4"),)),
                                               Play(0, (face("pr3"),), "fossil", (face("pd3"),), True), Play(1, (face("dw1"),), timeout=True)))
    text = render(GAME.view(state, 0))
    lines = text.splitlines()
    assert len(lines) <= 22 and max(map(len, lines)) <= 80  # room for the prompt below
    assert lines[0] == "Drachenherz: game 1, first to 3 wins (1-0) | ship marks 2/3 | turns left: 2"
    assert "1 card, 4 pts " in lines[2] and "2 cards, 6 pts with the dragon" in lines[2]
    assert "12 cards, 12 pts" in text  # a long stack is summed up
    assert "Dragon huntress 2/3" in text and "3rd takes fire dragons -> special" in text
    assert "Princess" in text and "takes treasure chests/petrified dragons" in text
    assert "Your hand: Princess 3, Treasure chest 1, Dwarf 1, Dwarf 2, Dragon huntress 3, Hero 4" in " ".join(lines)
    assert "  you: Princess 3 on the petrified dragons, took 1 (3 pts) and the dragon" in text
    assert "  seat 1: Dwarf 1 (timeout)" in text
    assert lines[-1] == "Your turn: lay one or more cards of one kind."


def test_the_put_back_card_shows_on_its_owner_s_screen_and_as_a_count_on_the_other():
    state = position(("pr4",), other=("dw1", "dw2", "tr3"), board={"fossil": ["pd4"]}, dragon=1)
    state = GAME.apply(play(state, hand_of(state, 0, "pr4"), "fossil"), referee.RandomValue(2))
    assert "On top of your pile (put back): Troll 3" in render(GAME.view(state, 1))
    assert "2 / 21 (1 known on top)" in render(GAME.view(state, 0))
    assert "The dragon changed hands" not in render(GAME.view(state, 0))


def test_moves_read_as_words_with_a_code_the_terminal_accepts():
    state = position(("pr3", "dw2", "dw1"), board={"fossil": ["pd3"], "chest": ["ch1"]})
    view = GAME.view(state, 0)
    dwarves = sorted(hand_of(state, 0, "dw1", "dw2"))
    assert move_line(view, {"play": dwarves}) == "play Dwarf 1 + Dwarf 2: dw12"
    princess = list(hand_of(state, 0, "pr3"))
    assert move_line(view, {"play": princess, "take": "fossil"}) == "play Princess 3, take the petrified dragons: pr3/pd"
    assert move_line(view, {"play": []}) == "pass (your hand is empty): pass"
    moves = list(GAME.legal_moves(state, 0))
    update = {"legal_moves": moves, "move_texts": [move_line(view, move) for move in moves]}
    assert pick(update, "pr3/ch") == {"play": princess, "take": "chest"}
    assert pick(update, "dw12") == {"play": dwarves}
    assert pick(update, "dw3") is None


def test_the_end_of_a_game_and_of_a_match():
    state = position(options={"sumof": 2})
    text = render(GAME.view(dataclasses.replace(state, deal_result=Result((1,), "points", (10, 12))), 0))
    assert text.endswith("Game over (more points, 10-12): seat 1 won; the next game starts.")
    over = dataclasses.replace(state, result=Result((), "sumof", (20, 20)), deal_result=Result((0,), "dragon", (9, 9)))
    assert render(GAME.view(over, None)).endswith("Over (most points over the match's games, 20-20): a draw")
    assert "game 1 of 2, totals 0-0" in render(GAME.view(state, None))


def test_every_phase_of_a_real_game_renders():
    rng = random.Random(5)
    played = referee.play(GAME, "standard", {"match": 2}, [RandomBot(rng), RandomBot(rng)], rng)
    state = GAME.setup("standard", {"match": 2}, 2)
    phases = set()
    for event in played.events:
        for seat in (0, 1, None):
            view = GAME.view(state, seat)
            assert max(map(len, render(view).splitlines())) <= 80
            phases.add(view["phase"])
        state = GAME.apply(state, event)
    assert {"start", "shuffle", "deal", "play", "draw", "next"} <= phases
