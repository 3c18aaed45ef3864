"""The space battle's text rendering within 80×24, its moves in words, and typed salvos with an ability."""

from __future__ import annotations

import random

import pytest

from fairtable.games import referee, seated
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot
from fairtable.games.zeeslag.render import move_hint, move_line, parse_move, render
from tests.games.zeeslag.positions import GAME
from tests.games.zeeslag.space import SpaceTable, at


def fits(text: str) -> list[str]:
    lines = text.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), text
    return lines


def test_two_fields_side_by_side_with_the_fleet_and_the_abilities():
    table = SpaceTable()
    table.act({"shoot": "A5"})  # the station: a hit
    with seated(("ann", "bob")):  # the names in the genesis, as the node renders a seat's board
        lines = fits(render(GAME.view(table.states[0], 0)))
    assert lines[0] == "Zeeslag space, money 500, water ring on"
    assert lines[1].startswith("you 4/4") and "bob 4/4" in lines[1]
    assert lines[2][:22] == "  1   5   10   15   20"  # each number over its column (10 ends at column 10)
    own, enemy = lines[3][:22], lines[3][26:48]
    assert own == "A SSS................." and enemy == "A ....X..............."
    text = "\n".join(lines)
    assert "Afloat: Scout 1, Lancer 1, Spirit 1, Dreadnought 1" in text
    assert "Abilities, your round 1: laser at 3, scan at 6, nuke at 9" in text
    assert "Fleet of bob: 4 ships" in text and "  you shot A5: hit" in text
    assert lines[-1] == "Your turn: shoot or use an ability, action 2 of 3."
    spectator = render(GAME.view(table.states[None], None)).splitlines()
    assert "S" not in "".join(line[2:22] + line[26:48] for line in spectator[3:13])  # no fleet before its opening


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_every_table_size_fits_80_by_24_at_every_step(seats):
    rng = random.Random(seats)
    bots = [GreedyBot(rng) if seat == 0 else RandomBot(rng) for seat in range(seats)]
    played = referee.play(GAME, "space", {"money": 200}, bots, rng)
    state = GAME.setup("space", {"money": 200}, seats)
    for index, event in enumerate(played.events):
        state = GAME.apply(state, event)
        if index % 17 == 0 or index == len(played.events) - 1:
            for seat in (None, 0, seats - 1):
                fits(render(GAME.view(state, seat)))
    assert "Game over" in render(GAME.view(state, 0)).splitlines()[-1]


def test_moves_in_words():
    view = GAME.view(SpaceTable().states[0], 0)
    words = {
        "laser A5": {"laser": at("A5")}, "scan C4": {"scan": at("C4")}, "nuke C4": {"nuke": at("C4")}, "reserve": {"reserve": True},
        "beam hits E10": {"beam": at("E10")}, "beam hits nothing": {"beam": -1}, "declare 4 ships": {"ships": 4},
        "salvo: bob:D11 + scan bea:C4": {"salvo": [[1, at("D11")]], "ability": {"scan": at("C4"), "at": 2}},
        "salvo: reserve (instead of the shots at bob)": {"salvo": [], "ability": {"reserve": True, "at": 1}},
    }
    with seated(("ann", "bob", "bea")):
        for line, move in words.items():
            assert move_line(view, move) == line


def test_a_typed_salvo_may_hold_one_ability_for_one_enemy():
    table = SpaceTable(fleets=(SpaceTable().fleets[0],) * 3)
    view = GAME.view(table.states[0], 0)
    assert view["due"] == [[1, 1], [2, 1]]
    with seated(("ann", "bob", "bea")):
        assert parse_move(view, "bob:D11 laser bea:A5") == {"salvo": [[1, at("D11")]], "ability": {"laser": at("A5"), "at": 2}}
        assert parse_move(view, "scan bo:C4 bea:D11") == {"salvo": [[2, at("D11")]], "ability": {"scan": at("C4"), "at": 1}}
        assert parse_move(view, "reserve bea bob:D11") == {"salvo": [[1, at("D11")]], "ability": {"reserve": True, "at": 2}}
        assert parse_move(view, "reserve") == {"salvo": [], "ability": {"reserve": True, "at": 1}}
        for bad in ("laser A5", "laser ann:A5", "laser 2:A5", "scan bob:C4 nuke bea:C4", "laser bob:Z9"):
            assert parse_move(view, bad) is None, bad
        assert move_hint(view) == "Type 1 shots at each of bob, bea, e.g. 'bob: B7 C3'"
    assert view["due_with_ability"] == [[1, [[2, 1]]], [2, [[1, 1]]]]  # spread: an ability replaces the shots at its enemy
    focus = GAME.view(SpaceTable(fleets=(SpaceTable().fleets[0],) * 3, options={"salvo": "focus"}).states[0], 0)
    assert focus["due_with_ability"] == [[1, []], [2, []]]  # focus: the whole salvo
    assert parse_move(focus, "reserve") == {"salvo": [], "ability": {"reserve": True}}
