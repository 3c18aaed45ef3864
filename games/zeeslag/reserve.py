"""The space station's reserve: a squadron of three fighters landing on the seat's own field,
committed as new hidden data in the middle of the game.

The seat's k-th reserve is ``CommitHidden((seat,), 20, 10, ("wing<k>",))``: one layer holding
1, 2 and 3 on its three fighters' cells (each once), 0 elsewhere, so that each fighter has its
own id (``Catalogue.fighter``). Fighters are one-cell ships: they land on cells nobody knows the
content of (not opened: not shot, nor shown by a ring, a laser or a scan). In a salvo round they
also keep clear of every cell an action of that round aims at the seat (a shot, a nuke's
diamond, a laser's column, a scan's 3×3), since the seat saw the salvos before it placed them:
so its landing cannot dodge them, and nothing of that round hits them; only when no squadron
fits clear of those cells (the round's aims took the room the seat had when it chose) may
fighters land on them. They touch no ship (sunk or not, earlier fighters included) and no other
fighter, not even diagonally. The seat's own node checks all of it before committing; everyone
else records what was public then (:class:`~state.Squadron` ``barred`` and ``aimed``) and judges
the squadron at the full opening, and every opening after the landing opens the cell in every
squadron's layer too (``volley``), so a fighter is always found.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from fairtable.games.contract import CommitHidden, Committed, Rng, RuleError
from fairtable.games.zeeslag.abilities import reach
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.starships import CATALOGUE
from fairtable.games.zeeslag.state import RECENT, Shot, Squadron, ZeeslagState, wing_layer, with_board
from fairtable.games.zeeslag.targets import waters


def request(state: ZeeslagState) -> CommitHidden:
    """The reserve of the first seat still to land this round."""
    seat = state.landing[0]
    grid = waters(state).board
    return CommitHidden((seat,), grid.width, grid.height, (wing_layer(len(state.boards[seat].squadrons) + 1),))


def barred(state: ZeeslagState, seat: int) -> tuple[int, ...]:
    """The cells of ``seat``'s field no fighter may land on now: those opened."""
    return tuple(sorted(state.seas[seat].opened))


def aimed(state: ZeeslagState, seat: int) -> tuple[int, ...]:
    """The cells not opened that the round's actions aim at ``seat``: fighters keep clear of them where they can."""
    grid = waters(state).board
    cells = {shot.cell for shot in state.volley if shot.target == seat}
    for task in state.tasks:
        if task.target == seat:
            cells.update(reach(grid, task.kind, task.cell))
    return tuple(sorted(cells - set(state.seas[seat].opened)))


def free_cells(state: ZeeslagState, seat: int) -> tuple[int, ...] | None:
    """The cells a fighter of ``seat``'s next squadron may land on, if this state knows its fleet."""
    board = state.boards[seat]
    ids = board.own.get(IDS)
    if ids is None:
        return None
    grid = waters(state).board
    wings = [board.own[layer] for layer in board.field_layers[1:]]
    return _free(grid, ids, wings, barred(state, seat), aimed(state, seat))


def _free(grid: Grid, ids: Sequence[int], wings: Sequence[Sequence[int]], barred: Sequence[int], aimed: Sequence[int]) -> tuple[int, ...]:
    """The free cells: clear of ``barred``, ships and fighters and their neighbours, and of
    ``aimed`` unless no squadron would fit then."""
    blocked = set(barred) | _guarded(grid, ids, wings)
    free = tuple(cell for cell in range(grid.size) if cell not in blocked)
    clear = tuple(cell for cell in free if cell not in set(aimed))
    return clear if landing(grid, clear, CATALOGUE.squadron) is not None else free


def _guarded(grid: Grid, ids: Sequence[int], wings: Sequence[Sequence[int]]) -> set[int]:
    """Every ship and fighter cell and its 8 neighbours."""
    taken = {cell for cell in range(grid.size) if ids[cell] or any(wing[cell] for wing in wings)}
    return taken | {n for cell in taken for n in grid.neighbours(cell)}


def landing(grid: Grid, free: Sequence[int], count: int) -> tuple[int, ...] | None:
    """``count`` of the ``free`` cells, no two touching, the first such choice in ``free``'s
    order (a depth-first search), or None if there is none."""
    def extend(chosen: tuple[int, ...], pool: Sequence[int]) -> tuple[int, ...] | None:
        if len(chosen) == count:
            return chosen
        for index, cell in enumerate(pool):
            rest = [other for other in pool[index + 1:] if other not in grid.neighbours(cell)]
            if len(rest) + len(chosen) + 1 >= count and (found := extend(chosen + (cell,), rest)) is not None:
                return found
        return None

    return extend((), list(free))


def can_land(state: ZeeslagState, seat: int) -> bool | None:
    """Whether a squadron fits on ``seat``'s field, as far as this state knows (None: it cannot
    tell, but fewer unopened cells than fighters would not do)."""
    free = free_cells(state, seat)
    grid = waters(state).board
    if free is None:
        return False if grid.size - len(barred(state, seat)) < CATALOGUE.squadron else None
    return landing(grid, free, CATALOGUE.squadron) is not None


def random_squadron(state: ZeeslagState, seat: int, rng: Rng) -> dict[str, tuple[int, ...]]:
    """A legal squadron at random (the fighters in an order shuffled by ``rng``): the "🎲" button."""
    grid = waters(state).board
    free = list(free_cells(state, seat) or ())
    for i in range(len(free) - 1, 0, -1):
        j = rng.randrange(i + 1)
        free[i], free[j] = free[j], free[i]
    cells = landing(grid, free, CATALOGUE.squadron)
    if cells is None:
        raise RuleError("zeeslag.reserve", f"seat {seat} has no room for a squadron")
    return squadron_layer(state, seat, cells)


def squadron_layer(state: ZeeslagState, seat: int, cells: Sequence[int]) -> dict[str, tuple[int, ...]]:
    """The hidden data of fighters 1, 2, 3 on ``cells``, for ``seat``'s next squadron."""
    values = [0] * waters(state).board.size
    for number, cell in enumerate(cells, 1):
        values[cell] = number
    return {request_layer(state, seat): tuple(values)}


def request_layer(state: ZeeslagState, seat: int) -> str:
    """The layer name of ``seat``'s next squadron: ``wing<k>`` for its k-th reserve."""
    return wing_layer(len(state.boards[seat].squadrons) + 1)


def squadron_problem(grid: Grid, ids: Sequence[int], wings: Sequence[Sequence[int]], squadron: Squadron,
                     values: Sequence[int]) -> str | None:
    """Why ``values`` is no legal squadron on a field with the fleet ``ids`` and the earlier
    squadrons ``wings``, landing when ``squadron`` records what was barred and aimed; or None."""
    if not isinstance(values, (tuple, list)) or len(values) != grid.size or any(
            type(value) is not int or not 0 <= value <= CATALOGUE.squadron for value in values):
        return f"a squadron is {grid.size} values in 0..{CATALOGUE.squadron}"
    numbers = sorted(value for value in values if value)
    if numbers != list(range(1, CATALOGUE.squadron + 1)):
        return f"a squadron holds fighters 1..{CATALOGUE.squadron}, each on one cell, not {numbers}"
    cells = [cell for cell in range(grid.size) if values[cell]]
    closed = set(squadron.barred)
    guarded = _guarded(grid, ids, wings)
    free = set(_free(grid, ids, wings, squadron.barred, squadron.aimed))
    for cell in cells:
        if cell in closed:
            return f"a fighter landed at {grid.name(cell)}, a cell that was not free then"
        if cell in guarded:
            return f"a fighter landed at {grid.name(cell)}, on or next to a ship"
        if any(other in cells for other in grid.neighbours(cell)):
            return f"two fighters touch at {grid.name(cell)}"
        if cell not in free:
            return f"a fighter landed at {grid.name(cell)}, where that round aimed, though a squadron fitted clear of it"
    return None


def landed(state: ZeeslagState, event: Committed) -> ZeeslagState:
    """The squadron is committed: everyone records what was barred, its own node its fighters."""
    seat = state.landing[0]
    layer = request_layer(state, seat)
    if set(event.data) - {seat}:
        raise RuleError("zeeslag.hidden", f"only seat {seat} lands a squadron now")
    board = state.boards[seat]
    own = dict(board.own)
    if seat in event.data:
        data = event.data[seat]
        values = data.get(layer) if isinstance(data, Mapping) and set(data) == {layer} else None
        if not isinstance(values, (tuple, list)) or len(values) != waters(state).board.size or any(
                type(value) is not int or not 0 <= value <= CATALOGUE.squadron for value in values):
            raise RuleError("zeeslag.hidden", f"seat {seat}: a squadron is one layer {layer} of values 0..{CATALOGUE.squadron}")
        own[layer] = tuple(values)
    board = dataclasses.replace(board, own=own, squadrons=board.squadrons + (Squadron(barred(state, seat), aimed(state, seat)),))
    log = Shot(seat, seat, -1, False, kind="reserve")
    return with_board(state, seat, board, landing=state.landing[1:], recent=(state.recent + (log,))[-RECENT:],
                      stage="land" if state.landing[1:] else "open")
