"""Fleets (from ``fleets.json``), placing ships, and the legality of a committed fleet.

A fleet is a list of ships; a ship's index in the list is its stable id, and the ``ids``
layer of the hidden data holds ``index + 1`` on its cells. A legal fleet has every ship
exactly once as a straight horizontal or vertical run of its length, and no two ships
touch, not even diagonally; a layout may restrict where a ship lies (``place``: the shared
sea's home blocks, see ``waters``). :func:`fleet_problem` says what is wrong with one; the
seat's own node asks it before committing and every node asks it again at the full opening.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from fairtable.games.contract import Rng
from fairtable.games.zeeslag.sea import Grid

Place = Callable[[Sequence[int]], str | None]
"""Why a ship on these cells breaks the layout's placement rule, or None."""
SHIPS, IDS = "ships", "ids"
LAYERS = (SHIPS, IDS)
"""The hidden layers: ``ships`` is 1 on a ship cell, else 0; ``ids`` is the ship's index + 1, or 0."""


@dataclass(frozen=True)
class Ship:
    index: int
    name: str
    name_en: str
    length: int


@dataclass(frozen=True)
class Fleet:
    id: str
    name: str
    name_en: str
    ships: tuple[Ship, ...]


@dataclass(frozen=True)
class Placement:
    """One ship on the sea: its top-left cell, its length and direction."""

    x: int
    y: int
    length: int
    horizontal: bool

    def cells(self, grid: Grid) -> tuple[int, ...] | None:
        """The ship's cells, or ``None`` if it does not fit on ``grid``."""
        return grid.line(self.x, self.y, self.length, self.horizontal)

    def rotated(self) -> Placement:
        """The same ship turned a quarter around its top-left cell (the client's "↻" button)."""
        return Placement(self.x, self.y, self.length, not self.horizontal)


def _load() -> dict[str, Fleet]:
    entries = json.loads(resources.files("fairtable.games.zeeslag").joinpath("fleets.json").read_text(encoding="utf-8"))
    fleets = {}
    for entry in entries:
        ships = tuple(Ship(index, ship["name"], ship["name_en"], ship["length"]) for index, ship in enumerate(entry["ships"]))
        if not ships or any(not isinstance(ship.length, int) or ship.length < 1 for ship in ships):
            raise ValueError(f"fleets.json: fleet {entry['id']!r} is malformed")
        fleets[entry["id"]] = Fleet(entry["id"], entry["name"], entry["name_en"], ships)
    return fleets


FLEETS: dict[str, Fleet] = _load()
DEFAULT_FLEET = "classic"


def layers(grid: Grid, placements: Sequence[Placement]) -> dict[str, tuple[int, ...]]:
    """The hidden data of ships placed in fleet order (placement ``i`` is ship ``i``).

    It is not checked here: :func:`fleet_problem` judges the result.
    """
    ids = [0] * grid.size
    for index, placement in enumerate(placements):
        cells = placement.cells(grid)
        if cells is None:
            raise ValueError(f"ship {index} leaves the sea")
        for cell in cells:
            ids[cell] = index + 1
    return {SHIPS: tuple(int(value != 0) for value in ids), IDS: tuple(ids)}


def random_placements(grid: Grid, fleet: Fleet, rng: Rng, place: Place | None = None) -> tuple[Placement, ...]:
    """A legal fleet chosen by ``rng.randrange`` alone, so a seed gives the same fleet everywhere.

    Longest ships first, each uniformly among the places still free of the others and their
    neighbours (and allowed by ``place``); a dead end (no place left) starts over, which is
    rare on a 10×10 sea.
    """
    order = sorted(fleet.ships, key=lambda ship: (-ship.length, ship.index))
    while True:
        placed: dict[int, Placement] = {}
        blocked: set[int] = set()
        for ship in order:
            options = [
                (placement, cells)
                for y in range(grid.height)
                for x in range(grid.width)
                for horizontal in ((True, False) if ship.length > 1 else (True,))
                for placement in (Placement(x, y, ship.length, horizontal),)
                for cells in (placement.cells(grid),)
                if cells is not None and blocked.isdisjoint(cells) and (place is None or place(cells) is None)
            ]
            if not options:
                break
            placement, cells = options[rng.randrange(len(options))]
            placed[ship.index] = placement
            blocked.update(cells)
            blocked.update(grid.ring(cells))
        else:
            return tuple(placed[ship.index] for ship in fleet.ships)


def shape_problem(grid: Grid, fleet: Fleet, data: Mapping[str, Sequence[int]]) -> str | None:
    """What makes ``data`` no hidden data of this game at all (layers, sizes, value ranges), or ``None``."""
    if not isinstance(data, Mapping) or set(data) != set(LAYERS):
        return f"the hidden data must have exactly the layers {', '.join(LAYERS)}"
    for layer, top in ((SHIPS, 1), (IDS, len(fleet.ships))):
        values = data[layer]
        if not isinstance(values, (tuple, list)) or len(values) != grid.size:
            return f"layer {layer} must hold {grid.size} values"
        if any(type(value) is not int or not 0 <= value <= top for value in values):
            return f"layer {layer} holds values outside 0..{top}"
    return None


def fleet_problem(grid: Grid, fleet: Fleet, data: Mapping[str, Sequence[int]], place: Place | None = None) -> str | None:
    """What makes ``data`` an illegal fleet, or ``None`` for a legal one (well-formed or not)."""
    problem = shape_problem(grid, fleet, data)
    if problem is not None:
        return problem
    ships, ids = data[SHIPS], data[IDS]
    for cell in range(grid.size):
        if ships[cell] != (ids[cell] != 0):
            return f"at {grid.name(cell)} the ships layer says {ships[cell]} but the ids layer {ids[cell]}"
    for ship in fleet.ships:
        cells = [cell for cell in range(grid.size) if ids[cell] == ship.index + 1]
        if len(cells) != ship.length:
            return f"{ship.name_en} (ship {ship.index}) has {len(cells)} cells, not {ship.length}"
        if not grid.is_line(cells):
            return f"{ship.name_en} (ship {ship.index}) is not one straight line"
        problem = None if place is None else place(cells)
        if problem is not None:
            return f"{ship.name_en} (ship {ship.index}) {problem}"
    for cell in range(grid.size):
        if ids[cell]:
            for other in grid.neighbours(cell):
                if ids[other] not in (0, ids[cell]):
                    return f"ships {ids[cell] - 1} and {ids[other] - 1} touch at {grid.name(cell)} and {grid.name(other)}"
    return None
