"""Opening cells of a seat's field and recording what they held: the steps every answer shares.

A cell's content is the number of ships there. On a seat's own field that is its ``ships`` layer
plus each of its reserve squadrons' layers (``wing<k>``, space battle), so a cell is answered
by opening it in each of those **field layers** in turn, one ``OpenHidden`` per layer
(:func:`layer_due`), and known once all are open (:func:`contents`). Two ships at one cell (a
fighter landed on a ship or on another fighter) is a lie of the owner's squadron, named at the
opening that shows it (``zeeslag.reserve``). Without squadrons a cell is one opening, as ever.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from fairtable.games.contract import OpenHidden, RuleError
from fairtable.games.zeeslag.state import RECENT, Shot, ZeeslagState, replace_at
from fairtable.games.zeeslag.targets import waters


def board_cell(state: ZeeslagState, seat: int, cell: int) -> int:
    """``seat``'s board cell at sea cell ``cell``; the caller knows the cell is on the board (else an assertion)."""
    local = waters(state).to_board(seat, cell)
    assert local is not None, f"sea cell {cell} is outside seat {seat}'s board"
    return local


def sea_cell(state: ZeeslagState, seat: int, cell: int) -> int:
    """The sea cell of ``seat``'s board cell ``cell``; the caller knows it lies on the sea (else an assertion)."""
    found = waters(state).to_sea(seat, cell)
    assert found is not None, f"board cell {cell} of seat {seat} lies off the sea"
    return found


def layer_due(state: ZeeslagState, seat: int, cells: Iterable[int]) -> OpenHidden | None:
    """The opening due for ``seat``'s sea ``cells``: its first field layer with some of them not
    opened yet (board cells, increasing), or None when every layer is open there."""
    board = state.boards[seat]
    local = sorted({board_cell(state, seat, cell) for cell in cells})
    for layer in board.field_layers:
        opened = board.opened_in(layer)
        missing = tuple(cell for cell in local if cell not in opened)
        if missing:
            return OpenHidden(seat, layer, missing)
    return None


def contents(state: ZeeslagState, seat: int, cells: Iterable[int]) -> dict[int, int] | None:
    """The ships at each of ``seat``'s sea ``cells`` by its openings, or None while a layer is
    still closed at one of them."""
    board = state.boards[seat]
    layers = [board.opened_in(layer) for layer in board.field_layers]
    found = {}
    for cell in cells:
        local = board_cell(state, seat, cell)
        if any(local not in opened for opened in layers):
            return None
        found[cell] = sum(1 for opened in layers if opened[local])
        if found[cell] > 1:
            grid = waters(state).seas[waters(state).sea_of(seat)]
            raise RuleError("zeeslag.reserve", f"seat {seat}: a fighter lies at {grid.name(cell)} with another ship")
    return found


def fire(state: ZeeslagState, shots: tuple[Shot, ...]) -> ZeeslagState:
    """Add ``shots`` to the volley, their seas and the log."""
    layout = waters(state)
    seas = list(state.seas)
    for shot in shots:
        index = layout.sea_of(shot.target)
        seas[index] = dataclasses.replace(seas[index], shots=seas[index].shots + (shot.cell,))
    return dataclasses.replace(state, seas=tuple(seas), volley=state.volley + shots, recent=(state.recent + shots)[-RECENT:])


def log(state: ZeeslagState, entry: Shot) -> ZeeslagState:
    """An ability that fired no shot, for the log."""
    return dataclasses.replace(state, recent=(state.recent + (entry,))[-RECENT:])


def found(state: ZeeslagState, cells: Mapping[tuple[int, int], tuple[int, tuple[int, ...]]]) -> ZeeslagState:
    """Record what was found at volley cells: ``(sea, cell) -> (ships there, their possible owners)``."""
    seas = list(state.seas)
    for (index, cell), (count, holders) in sorted(cells.items()):
        sea = seas[index]
        sea = dataclasses.replace(sea, opened={**sea.opened, cell: count})
        if count:
            sea = dataclasses.replace(sea, hits=sea.hits + (cell,), holders={**sea.holders, cell: holders})
        seas[index] = sea
    layout = waters(state)

    def marked(shot: Shot) -> Shot:
        key = (layout.sea_of(shot.target), shot.cell)
        return dataclasses.replace(shot, hit=cells[key][0]) if key in cells and shot.hit is None else shot

    volley = tuple(map(marked, state.volley))
    recent = tuple(map(marked, state.recent))
    return dataclasses.replace(state, seas=tuple(seas), volley=volley, recent=recent)


def water(state: ZeeslagState, index: int, cells: Iterable[int]) -> ZeeslagState:
    """Cells of sea ``index`` shown to be water without a shot (a ring, a laser's path, a scan)."""
    sea = state.seas[index]
    fresh = tuple(cell for cell in cells if cell not in sea.opened)
    sea = dataclasses.replace(sea, opened={**sea.opened, **{cell: 0 for cell in fresh}}, water=sea.water + fresh)
    return dataclasses.replace(state, seas=replace_at(state.seas, index, sea))
