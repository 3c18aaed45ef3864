"""The terminal rendering of zeeslag views."""

from __future__ import annotations

from fairtable.games.contract import Forfeit, Move
from fairtable.games.zeeslag.render import render
from tests.games.zeeslag.positions import GAME, Table, cell


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def test_seat_view_shows_both_grids_with_letters_and_numbers():
    table = Table()
    table.shoot("A1")  # hit, not sunk
    table.shoot("A2")  # sunk, ring opened
    table.shoot("J10")  # miss
    table.shoot("A1")  # seat 1 hits seat 0's carrier
    text = render(GAME.view(table.states[0], 0))
    lines = lines_of(text)
    assert lines[0] == "Zeeslag duel, fleet Klassiek (Classic), water ring on"
    assert lines[1].startswith("Your fleet (seat 0)") and "Enemy waters (seat 1)" in lines[1]
    assert lines[2].split() == [str(n) for n in range(1, 11)] * 2
    own, enemy = lines[3][:32], lines[3][36:]
    assert own.split() == ["A", "X", "S", "S", "S", "S", ".", ".", ".", ".", "."]
    assert enemy.split() == ["A", "#", "#", "~", ".", ".", ".", ".", ".", ".", "."]
    assert lines[4][36:].split() == ["B", "~", "~", "~", ".", ".", ".", ".", ".", ".", "."]
    assert lines[12][36:].split() == ["J"] + ["."] * 9 + ["o"]
    assert "Your fleet: 5 of 5 afloat: Vliegdekschip (5) afloat" in text
    assert "Fleet of enemy: 4 of 5 afloat:" in text and "Torpedobootjager (2) sunk" in text
    assert "  you shot A2: hit, Torpedobootjager sunk" in text and "  enemy shot A1: hit" in text
    assert text.endswith("Turn of enemy: shoot.")
    # The enemy's fleet stays hidden, only its openings show.
    assert "S" not in "".join(line[36:] for line in lines[3:13])


def test_spectator_sees_no_fleet_and_the_pending_answers():
    table = Table()
    table.apply(Move(0, {"shoot": cell("B7")}))
    view = GAME.view(table.states[None], None)
    text = render(view)
    assert lines_of(text)[1].split() == ["Seat", "0", "Seat", "1"]
    assert "S" not in "".join(lines_of(text)[3:13])
    assert text.endswith("Waiting for seat 1 to open B7: hit or miss.")
    table.apply(table.opened())
    seat1 = render(GAME.view(table.states[1], 1))
    assert "  enemy shot B7: miss" in seat1 and seat1.endswith("Your turn: shoot.")


def test_answer_phases_timeouts_and_the_end():
    table = Table(options={"max_timeouts": 3})
    table.apply(Move(0, {"shoot": cell("A1")}))
    table.apply(table.opened())
    assert render(GAME.view(table.states[1], 1)).endswith("You must answer whether the hit at A1 sank a ship.")
    assert render(GAME.view(table.states[0], 0)).endswith("Waiting for enemy to answer whether the hit at A1 sank a ship.")
    table.settle()
    table.shoot("A2", timeout=True)
    assert render(GAME.view(table.full, 0)).endswith("Your turn: shoot (1 timeouts in a row).")
    assert "you shot A2: hit, Torpedobootjager sunk (timeout)" in render(GAME.view(table.full, 0))
    table.apply(Forfeit(1, "resigned"))
    assert render(GAME.view(table.full, 1)).endswith("Game over (forfeit: resigned): enemy won; the fleets are being opened.")
    table.open_all()
    over = render(GAME.view(table.full, None))
    assert over.endswith("Game over (forfeit: resigned): seat 0 won")
    assert lines_of(over)[3][:32].split() == ["A", "S", "S", "S", "S", "S", ".", ".", ".", ".", "."]


def test_placement_and_start_phases():
    state = GAME.setup("duel", {"fleet": "ten", "water_ring": False}, 2)
    text = render(GAME.view(state, 0))
    assert text.startswith("Zeeslag duel, fleet Tien schepen (Ten ships), water ring off")
    assert text.endswith("Place your fleet.") and "Your fleet: 10 of 10 afloat" in text
    assert render(GAME.view(state, None)).endswith("The fleets are being placed.")


def test_moves_are_named_as_players_say_them():
    from fairtable.games.zeeslag.render import move_line

    assert move_line({}, {"shoot": 0}) == "shoot A1"
    assert move_line({}, {"shoot": 99}) == "shoot J10"
    assert move_line({}, {"shoot": 14, "timeout": True}) == "shoot B5 (timer)"
    assert move_line({}, {"sunk": True}) == "sunk: yes"
    assert move_line({}, {"sunk": False}) == "sunk: no"
