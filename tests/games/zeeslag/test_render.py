"""The terminal rendering of zeeslag views, within 80×24, and typed salvos."""

from __future__ import annotations

import random
import re

import pytest

from fairtable.games import referee, seated
from fairtable.games.contract import Chosen, Forfeit, Move, OpenHidden
from fairtable.games.zeeslag.bots import GreedyBot
from fairtable.games.zeeslag.render import move_hint, move_line, parse_move, render
from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, CLASSIC_2, GAME, Table, cell
from tests.games.zeeslag.test_shared import FLEETS3, at, salvo


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def test_seat_view_shows_both_grids_with_letters_and_numbers():
    table = Table()
    table.shoot("A1")  # hit, not sunk
    table.shoot("A2")  # sunk, ring opened
    table.shoot("J10")  # miss
    table.shoot("A1")  # seat 1 hits seat 0's carrier
    with seated(("ann", "bob")):  # the names in the genesis, as the node renders a seat's board
        text = render(GAME.view(table.states[0], 0))
    lines = lines_of(text)
    assert lines[0] == "Zeeslag duel, fleet Classic, water ring on"
    assert lines[1].startswith("Your fleet") and "Waters of bob" in lines[1]
    assert lines[2].split() == [str(n) for n in range(1, 11)] * 2
    own, enemy = lines[3][:32], lines[3][36:]
    assert own.split() == ["A", "X", "S", "S", "S", "S", ".", ".", ".", ".", "."]
    assert enemy.split() == ["A", "#", "#", "~", ".", ".", ".", ".", ".", ".", "."]
    assert lines[4][36:].split() == ["B", "~", "~", "~", ".", ".", ".", ".", ".", ".", "."]
    assert lines[12][36:].split() == ["J"] + ["."] * 9 + ["o"]
    assert "Your fleet: 5 of 5 afloat (5 4 3 3 2)" in text
    assert "Fleet of bob: 4 of 5 afloat (5 4 3 3), sunk: Destroyer" in text
    assert "  you shot A2: hit, Destroyer sunk" in text and "  bob shot A1: hit" in text
    assert text.endswith("Turn of bob: shoot.")
    # The enemy's fleet stays hidden, only its openings show.
    assert "S" not in "".join(line[36:] for line in lines[3:13])


def test_spectator_sees_no_fleet_and_the_pending_answers():
    table = Table()
    table.apply(Move(0, {"shoot": cell("B7")}))
    text = render(GAME.view(table.states[None], None))
    assert lines_of(text)[1].split() == ["seat", "0", "seat", "1"]
    assert "S" not in "".join(lines_of(text)[3:13])
    assert text.endswith("The shots are being opened.")
    table.apply(table.opened())
    seat1 = render(GAME.view(table.states[1], 1))
    assert "  seat 0 shot B7: miss" in seat1 and seat1.endswith("Your turn: shoot.")


def test_answer_phases_timeouts_and_the_end():
    table = Table(options={"max_timeouts": 3})
    table.apply(Move(0, {"shoot": cell("A1")}))
    table.apply(table.opened())
    assert render(GAME.view(table.states[1], 1)).endswith("Your node must say which of your ships sank.")
    assert render(GAME.view(table.states[0], 0)).endswith("Waiting for seat 1 to say which of its ships sank.")
    table.settle()
    table.shoot("A2", timeout=True)
    assert render(GAME.view(table.full, 0)).endswith("Your turn: shoot (1 timeouts in a row).")
    assert "you shot A2: hit, Destroyer sunk (timer)" in render(GAME.view(table.full, 0))
    table.apply(Forfeit(1, "resigned"))
    assert render(GAME.view(table.full, 1)).endswith("Game over (a player resigned): seat 0 won; the fleets are being opened.")
    table.open_all()
    over = render(GAME.view(table.full, None))
    assert over.endswith("Game over (a player resigned): seat 0 won")
    assert lines_of(over)[3][:32].split() == ["A", "S", "S", "S", "S", "S", ".", ".", ".", ".", "."]


def test_placement_and_start_phases():
    state = GAME.setup("duel", {"fleet": "ten", "water_ring": False}, 2)
    text = render(GAME.view(state, 0))
    assert text.startswith("Zeeslag duel, fleet Ten ships, water ring off")
    assert text.endswith("Place your fleet.") and "Your fleet: 10 of 10 afloat" in text
    assert render(GAME.view(state, None)).endswith("The fleets are being placed.")


def test_moves_are_named_as_players_say_them():
    view = GAME.view(Table().full, 0)
    assert move_line(view, {"shoot": 0}) == "shoot A1"
    assert move_line(view, {"shoot": 99}) == "shoot J10"
    assert move_line(view, {"shoot": 14, "timeout": True}) == "shoot B5 (timer)"
    assert move_line(view, {"sunk": [[0, 1]]}) == "sunk: A1 A2"
    assert move_line(view, {"sunk": []}) == "sunk: none"
    with seated(("ann", "bob", "bot", "bot")):  # a salvo names its enemies as they are typed: no spaces
        assert move_line(view, {"salvo": [[1, 0], [3, 99]]}) == "salvo: bob:A1 bot#2:J10"
    assert move_line(view, {"timeout": True}) == "salvo fired by the timer"
    assert move_line(view, {"pass": True}).startswith("pass")


NAMES = ("ann", "bob", "bea")


def test_a_salvo_is_typed_by_the_enemies_names_and_the_hint_says_what_is_due():
    table = Table(fleets=(CLASSIC_0, CLASSIC_1, CLASSIC_2), options={"shots": 2})
    view = GAME.view(table.states[0], 0)
    with seated(NAMES):
        assert move_hint(view) == "Type 2 shots at each of bob, bea, e.g. 'bob: B7 C3'"
        assert parse_move(view, "bob:B7 BOB:c3 bea:J10,bea:a1") == {"salvo": [[1, cell("B7")], [1, cell("C3")], [2, 0], [2, 99]]}
        assert parse_move(view, "bo: B7 C3 bea: J10 A1") == {"salvo": [[1, cell("B7")], [1, cell("C3")], [2, 0], [2, 99]]}
        # own seas: say whose sea; "b" is bob or bea; you shoot nobody; a seat number is no name; K1 is no cell
        for bad in ("B7", "b:B7", "you:B7", "ann:B7", "1:B7", "bob:K1", "x:B7", ""):
            assert parse_move(view, bad) is None, bad
        assert move_hint(GAME.view(table.states[None], None)) is None
        text = render(view)
    assert text.endswith("Type 2 shots at each of bob, bea, e.g. 'bob: B7 C3'.")
    lines = lines_of(text)
    assert lines[1].split() == ["you", "5", "bob", "5", "bea", "5"] and lines[2].split() == ["1234567890"] * 3
    assert not re.search(r"\bs[0-9]\b|seat", text), "players by name, never by seat number"
    focus = Table(fleets=(CLASSIC_0, CLASSIC_1, CLASSIC_2), options={"salvo": "focus"})
    with seated(NAMES):
        assert move_hint(GAME.view(focus.states[0], 0)) == "Type 2 shots, all at one of bob, bea, e.g. 'bob: B7 C3'"


def test_the_shared_sea_shows_blocks_and_question_marks_and_takes_bare_cells():
    table = Table(fleets=FLEETS3, variant="shared")
    view = GAME.view(table.states[2], 2)
    assert parse_move(view, "E5 E15") == {"salvo": [[0, at("E5")], [1, at("E15")]]}  # each to the first seat whose waters hold it
    table.apply(Chosen((salvo({1: "B15", 2: "B25"}), salvo({0: "B5", 2: "B28"}), salvo({0: "J11", 1: "J12"}))))
    while table.full.stage == "open":
        table.apply(table.opened() if isinstance(table.pending, OpenHidden) else table.summed())
    with seated(NAMES):
        text = render(GAME.view(table.states[None], None))
    lines = lines_of(text)
    assert lines[0] == "Zeeslag shared, fleet Classic, salvo spread 1"
    assert lines[1].split() == ["ann", "5", "bob", "5", "bea", "5"] and lines[2] == "  " + "1234567890" * 3
    assert lines[12][2 + 10] == "?"  # J11: hit, owner unknown
    assert "Waiting for ann to say which of its ships sank." in text


MODES = [("duel", 2, {}), ("duel", 3, {}), ("duel", 6, {}), ("duel", 7, {}), ("duel", 8, {"teams": 2}),
         ("shared", 3, {}), ("shared", 7, {}), ("shared", 8, {"salvo": "focus", "teams": 4})]


@pytest.mark.parametrize("variant, seats, options", MODES, ids=[f"{v}-{s}" for v, s, _ in MODES])
def test_every_view_fits_80_by_24(variant, seats, options):
    rng = random.Random(seats)
    played = referee.play(GAME, variant, options, [GreedyBot(rng) for _ in range(seats)], rng)
    state = GAME.setup(variant, options, seats)
    for index, event in enumerate(played.events):
        state = GAME.apply(state, event)
        if index % 7 == 0 or index == len(played.events) - 1:
            for seat in (None, *range(seats)):
                lines = lines_of(render(GAME.view(state, seat)))
                assert len(lines) <= 24 and max(map(len, lines)) <= 80, (index, seat, "\n".join(lines))
