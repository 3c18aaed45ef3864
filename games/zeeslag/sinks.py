"""Sink answers, judged from openings: a sink is proven, never claimed.

After each hit the target answers whether the hit completed a ship. "Sunk" is proven at
once: the target opens, in the ``ids`` layer, the hit cells joined side by side to the
shot cell (with ships that never touch, exactly the sunk ship's cells), and they must be
one ship not sunk before, all of its length, in one straight line. "Not sunk" needs the
whole ``ids`` layer to judge, so it is judged by whoever knows it: the target's own node
and the verifier at once, everyone else at the full opening.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairtable.games.zeeslag.fleet import Fleet
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.state import Board


def ship_cells(grid: Grid, board: Board, cell: int) -> tuple[int, ...]:
    """The cells a sink announced after the hit at ``cell`` must open: the hits joined to it."""
    return grid.component(board.hits, cell)


def ring_cells(grid: Grid, board: Board, cells: Sequence[int]) -> tuple[int, ...]:
    """The water ring of a sunk ship still to be opened: its 8-neighbourhood not opened yet."""
    return tuple(cell for cell in grid.ring(cells) if cell not in board.ships)


def false_sink(grid: Grid, fleet: Fleet, board: Board, cells: Sequence[int], ids: Mapping[int, int]) -> str | None:
    """Why ``cells`` with these ``ids`` values do not prove a sink on ``board``, or ``None``."""
    values = {ids[cell] for cell in cells}
    if len(values) != 1:
        return f"the hit cells {', '.join(map(grid.name, cells))} are not one ship"
    (value,) = values
    if not 1 <= value <= len(fleet.ships):
        return f"the hit cells {', '.join(map(grid.name, cells))} are no ship"
    ship = fleet.ships[value - 1]
    if any(sunk.ship == ship.index for sunk in board.sunk):
        return f"{ship.name_en} (ship {ship.index}) was sunk before"
    if len(cells) != ship.length:
        return f"{ship.name_en} (ship {ship.index}) is {ship.length} long, {len(cells)} of its cells are hit"
    if not grid.is_line(cells):
        return f"{ship.name_en} (ship {ship.index}) is not a straight line"
    return None


def complete(ids: Sequence[int], cell: int, hits: set[int]) -> bool:
    """Whether the ship at ``cell`` (by the full ``ids`` layer) has every cell in ``hits``."""
    ship = ids[cell]
    return ship != 0 and all(value != ship or other in hits for other, value in enumerate(ids))


def wrong_answer(grid: Grid, board: Board, ids: Sequence[int]) -> tuple[str, str] | None:
    """The first sink answer on ``board`` the full ``ids`` layer contradicts, as ``(rule, message)``."""
    hit: set[int] = set()
    for cell, answer in zip(board.hits, board.answers):
        hit.add(cell)
        if answer != complete(ids, cell, hit):
            rule = "zeeslag.missing_sink" if not answer else "zeeslag.false_sink"
            said = "sunk" if answer else "not sunk"
            return rule, f"the hit at {grid.name(cell)} was answered {said}"
    return None
