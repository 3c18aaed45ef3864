"""Sink answers, judged from openings: a sink is proven, never claimed.

After a volley every seat that may own a hit cell answers which of its ships sank, naming
each by its cells (sea cells): ``{"sunk": [[cells of a ship], ...]}``, or ``[]``. A ship
named is proven at once: the seat opens those cells of its ``ids`` layer, and they must be
one ship not sunk before, all of its length, in one straight line, every cell hit. "Nothing
else sank" needs the whole fleet to judge, so it is judged by whoever knows it: the seat's
own node at once, everyone else at the full opening, where every answer is replayed: after
``k`` hits on its sea, every ship of the seat whose cells were all among them must have
been named by then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairtable.games.contract import RuleError
from fairtable.games.zeeslag.fleet import Fleet
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.state import Board, Excuse, Sea
from fairtable.games.zeeslag.waters import Waters


def parse_answer(move: Any) -> tuple[tuple[int, ...], ...]:
    """The ships of a sink answer, or ``zeeslag.move``: each a strictly increasing list of
    cells, the ships in the order of their first cells, no cell twice."""
    ships = move.get("sunk") if isinstance(move, Mapping) and set(move) == {"sunk"} else None
    if not isinstance(ships, (list, tuple)) or not all(
            isinstance(ship, (list, tuple)) and ship and all(type(c) is int for c in ship)
            and list(ship) == sorted(set(ship)) for ship in ships):
        raise RuleError("zeeslag.move", f"a sink answer is {{'sunk': [[cells of a ship, increasing], ...]}}, got {move!r}")
    cells = [cell for ship in ships for cell in ship]
    if len(cells) != len(set(cells)) or [ship[0] for ship in ships] != sorted(ship[0] for ship in ships):
        raise RuleError("zeeslag.move", "the ships of a sink answer are ordered by their first cells, no cell twice")
    return tuple(tuple(ship) for ship in ships)


def ship_cells(layout: Waters, seat: int, ids: Sequence[int], ship: int) -> tuple[int, ...]:
    """The sea cells of ``seat``'s ship (its index), by its full ``ids`` layer."""
    cells = (layout.to_sea(seat, cell) for cell, value in enumerate(ids) if value == ship + 1)
    return tuple(sorted(cell for cell in cells if cell is not None))


def complete_ships(layout: Waters, seat: int, fleet: Fleet, ids: Sequence[int], hits: set[int], sunk: set[int]) -> tuple[tuple[int, ...], ...]:
    """``seat``'s ships not in ``sunk`` whose every cell is in ``hits``: the true sink answer."""
    ships = []
    for ship in fleet.ships:
        cells = ship_cells(layout, seat, ids, ship.index)
        if ship.index not in sunk and cells and set(cells) <= hits:
            ships.append(cells)
    return tuple(sorted(ships))


def false_sink(grid: Grid, fleet: Fleet, cells: Sequence[int], ids: Mapping[int, int], sunk: set[int]) -> str | None:
    """Why board ``cells`` with these ``ids`` values prove no sink of a ship not in ``sunk``, or ``None``."""
    names = ", ".join(map(grid.name, cells))
    values = {ids[cell] for cell in cells}
    if len(values) != 1:
        return f"the cells {names} are not one ship"
    (value,) = values
    if not 1 <= value <= len(fleet.ships):
        return f"the cells {names} are no ship"
    ship = fleet.ships[value - 1]
    if ship.index in sunk:
        return f"{ship.name_en} (ship {ship.index}) was sunk before"
    if len(cells) != ship.length:
        return f"{ship.name_en} (ship {ship.index}) is {ship.length} long, {len(cells)} of its cells are hit"
    if not grid.is_line(cells):
        return f"{ship.name_en} (ship {ship.index}) is not a straight line"
    return None


def wrong_answer(layout: Waters, seat: int, fleet: Fleet, sea: Sea, board: Board, ids: Sequence[int]) -> str | None:
    """The first sink answer of ``seat`` the full ``ids`` layer contradicts: a ship complete by
    then that it had not named."""
    grid = layout.seas[layout.sea_of(seat)]
    for answer, count in enumerate(board.answers):
        named = {sunk.ship for sunk in sea.sunk if sunk.seat == seat and sunk.answer <= answer}
        missing = complete_ships(layout, seat, fleet, ids, set(sea.hits[:count]), named)
        if missing:
            return f"its sink answer {answer + 1} (after {count} hits on its sea) did not name the ship at {', '.join(map(grid.name, missing[0]))}"
    return None


def excuse_problem(excuse: Excuse, own: frozenset[int]) -> str | None:
    """Whether a seat's unfired shots were what its own ships forced, by its full fleet."""
    mine = sum(cell in own for cell in excuse.cells)
    if excuse.fired != min(excuse.due, excuse.total - mine):
        return (f"it fired {excuse.fired} of {excuse.due} shots with {excuse.total - mine} cells to aim at "
                f"({mine} of its {excuse.total} targets held its own ships)")
    return None

