"""The space battle's board driven by a person's keys through Textual's pilot, on tables of
seeded games (``tables``) shown through a stub connection: the move each key sequence sends,
checked against the game's own rules and legal moves, and what it refuses in words."""

from __future__ import annotations

from fairtable.games.zeeslag.fleet import fleet_problem, layers_of
from fairtable.games.zeeslag.purchase import bought
from fairtable.games.zeeslag.reserve import landing
from fairtable.games.zeeslag.shape import Berth
from fairtable.games.zeeslag.starships import CATALOGUE, SPACE
from fairtable.node.clients.tui.boards import RANDOM
from fairtable.node.clients.tui.boards.space import SpaceBoard
from fairtable.node.clients.tui.boards.zeeslag import opened
from tests.node.clients.tui.person import Person, play
from tests.node.clients.tui.space_tables import ARMED, BUYING, CRUISER, DREADNOUGHT, GRID, LANDING, SALVO, SCOUT
from tests.node.clients.tui.tables import table_at
from tests.node.clients.tui.world import screen_text


def test_a_fleet_bought_within_the_rules_then_placed_by_hand_with_turns_is_the_hidden_data_the_game_accepts():
    update = table_at(**BUYING)

    async def body(person: Person) -> None:
        text = await person.press("enter")
        assert "the game refuses this fleet: buy at least one ship" in text and person.board.shopping()
        await person.press("right", "down", "down", "down", "right")  # a Scout and a Cruiser
        text = await person.press("down", "down", "right", "plus")  # the Dreadnought; a second one is beyond its maximum
        assert "no Dreadnought more: a fleet holds at most 1 of kind Dreadnought" in text
        text = await person.press("down", "right")  # the station: a second capital ship
        assert "no Space station more: at most one capital ship in a fleet: not both the Dreadnought and the Space station" in text
        text = await person.press("up", "up", "up", "right")  # a second Cruiser: 170, over the 150
        assert "no Cruiser more: this fleet costs 170; you have 150" in text
        assert "Fleet: 3 ships, 130 of 150 spent, 20 left" in text
        text = await person.press("enter")  # the money left is said first
        assert "20 of 150 left unspent: Enter again places this fleet, or buy more" in text and person.board.shopping()
        await person.press("enter", "backspace")  # on to placing, and back to buying
        assert person.board.shopping()
        text = await person.press("enter", "enter")  # the same fleet: said again, then on
        assert "To place: 3 ships" in text and "place Dreadnought (7, turn 1/4)" in text
        await person.press("enter", "backspace", "enter")  # placed at A1, taken back, placed again
        text = await person.press("r", "enter")  # the Cruiser turned, on the Dreadnought: refused
        assert "ships may not touch or overlap" in text and len(person.board.placed) == 1
        await person.press(*["right"] * 6, "enter")  # the Cruiser turned once, at A7
        text = await person.press("r", "left", "left", "down", "down", "enter")  # the Scout flat at C5: diagonal to the Dreadnought's B4
        assert "ships may not touch or overlap" in text and len(person.board.placed) == 2
        text = await person.press(*["right"] * 15, *["down"] * 7, "enter")  # at J20 it leaves the field
        assert "the ship does not fit there" in text and person.sent == []
        await person.press("left", "enter")
        (fleet,) = person.sent
        berths = {DREADNOUGHT: Berth(0, 0, SPACE.ships[DREADNOUGHT].shape, 0), CRUISER: Berth(6, 0, SPACE.ships[CRUISER].shape, 1),
                  SCOUT: SPACE.ships[SCOUT].stances(18, 9)[0]}
        expected = {layer: list(values) for layer, values in layers_of(GRID, berths).items()}
        assert [(c, v) for c, v in enumerate(fleet["ids"]) if v] == [(c, v) for c, v in enumerate(expected["ids"]) if v]
        assert fleet == expected
        assert fleet_problem(GRID, SPACE, fleet) is None
        assert bought(fleet["ids"]) == (SCOUT, CRUISER, DREADNOUGHT) and CATALOGUE.purchase_problem(bought(fleet["ids"]), 150) is None

    play(update, body)


def test_a_random_fleet_is_the_nodes_to_draw():
    async def body(person: Person) -> None:
        await person.press("right", "a")
        assert person.sent == []  # a letter that sends a move waits for Enter
        await person.press("enter")
        assert person.sent == [RANDOM]

    play(table_at(**BUYING), body)


def test_a_reserve_lands_three_fighters_on_free_cells_by_hand_or_at_random():
    update = table_at(**LANDING)
    placing = update["view"]["placing"]
    free = placing["free"]
    ship = update["view"]["fleets"][0]["layout"][0][0]
    first, second, third = landing(GRID, free, 3) or ()
    neighbour = next(cell for cell in GRID.neighbours(first) if cell in free)

    async def body(person: Person) -> None:
        assert "land fighter 1 of 3 on a shaded cell" in screen_text(person.app)
        await person.to(ship)
        text = await person.press("enter")
        assert "a fighter lands on a shaded cell only" in text
        await person.to(first)
        await person.press("enter")
        await person.to(neighbour)
        text = await person.press("enter")
        assert "fighters may not touch, not even diagonally" in text and person.board.fighters == [first]
        await person.to(second)
        await person.press("enter", "backspace", "enter")
        await person.to(third)
        await person.press("enter")
        (layer,) = placing["layers"]
        assert person.sent == [{layer: [{first: 1, second: 2, third: 3}.get(cell, 0) for cell in range(GRID.size)]}]
        await person.press("a", "enter")
        assert person.sent[-1] == RANDOM

    play(update, body)


def test_a_shot_and_each_ability_are_the_legal_moves_the_game_lists():
    update = table_at(**ARMED)
    legal = update["legal_moves"]

    async def body(person: Person) -> None:
        text = await person.press("r")
        assert "your reserve is not ready: no Space station" in text
        shot = next(move for move in legal if "shoot" in move)
        await person.to(shot["shoot"])
        await person.press("l", "l", "enter")  # the laser aimed, then back to shots: the shot
        await person.press("l")
        text = await person.to(GRID.cell(4, 0))
        assert "laser down column 5 from A" in text
        await person.press("enter", "l", "down", "enter")  # from A5, then from J5
        await person.press("s")
        await person.to(GRID.cell(4, 4))
        await person.press("enter")
        nuke = next(move for move in legal if "nuke" in move)
        await person.press("n")
        await person.to(nuke["nuke"])
        await person.press("enter")
        assert person.sent == [shot, {"laser": 4}, {"laser": GRID.cell(4, 9)}, {"scan": GRID.cell(4, 4)}, nuke]
        assert all(move in legal for move in person.sent)
        opened = next(cell for cell in range(GRID.size) if {"shoot": cell} not in legal)
        await person.press("n")
        await person.to(opened)
        text = await person.press("enter")
        assert "you cannot use your nuke there now" in text and len(person.sent) == 5

    play(update, body)


def test_in_a_salvo_an_ability_replaces_the_shots_at_the_enemy_aimed_at():
    update = table_at(**SALVO)
    view = update["view"]
    (first, _), (second, _) = view["due"]
    free = [[cell for cell in range(GRID.size) if cell not in opened(view["seas"][view["fleets"][foe]["sea"]])] for foe in (first, second)]

    async def body(person: Person) -> None:
        assert person.board.aimed_at() == first
        await person.to(free[0][0])
        await person.press("enter", "tab")
        await person.to(free[1][0])
        await person.press("enter", "s")
        await person.to(GRID.cell(10, 5))
        text = await person.press("enter")  # the scan at the second enemy takes its shot's place
        assert person.board.salvo == [(first, free[0][0])] and "Enter fires" in text
        await person.press("enter")
        assert person.sent == [{"salvo": [[first, free[0][0]]], "ability": {"scan": GRID.cell(10, 5), "at": second}}]

    play(update, body)


def test_a_typed_bare_cell_is_a_shot_even_where_an_ability_could_be_aimed():
    update = table_at(**ARMED)
    legal = update["legal_moves"]
    cell = next(cell for cell in range(GRID.width) if {"shoot": cell} in legal and {"laser": cell} in legal)
    board = SpaceBoard()
    name = GRID.name(cell).lower()
    assert board.typed(update, name) == {"shoot": cell}
    assert board.typed(update, f"laser {name}") == {"laser": cell}
    assert board.typed(update, "1") == legal[0]
