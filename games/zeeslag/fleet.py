"""Fleets (from ``fleets.json``, and the space battle's bought fleets), placing ships, and the
legality of a committed fleet.

A fleet is a list of ships; a ship's index in the list is its stable id, and the ``ids``
layer of the hidden data holds ``index + 1`` on its cells. A ship has a shape
(``shape.Shape``): the sea's fleets are straight runs of their length, the space battle's
ships have their catalogue's shapes (``starships``). A legal fleet has every ship exactly once
(in a **bought** fleet, the space battle's, only the ships the seat bought), each on cells that
are its shape in one of its turns, and no two ships touch, not even diagonally; a layout may
restrict where a ship lies (``place``: the shared sea's home blocks, see ``waters``).
:func:`fleet_problem` says what is wrong with one; the seat's own node asks it before
committing and every node asks it again at the full opening.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Protocol

from fairtable.games.contract import Rng
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.shape import Berth, Shape

Place = Callable[[Sequence[int]], str | None]
"""Why a ship on these cells breaks the layout's placement rule, or None."""
SHIPS, IDS = "ships", "ids"
LAYERS = (SHIPS, IDS)
"""The hidden layers: ``ships`` is 1 on a ship cell, else 0; ``ids`` is the ship's index + 1, or 0."""


@dataclass(frozen=True)
class Ship:
    """One ship of a fleet (a fleet's ``index``-th): names, length and shape, and for a bought fleet
    its catalogue kind. The sunk answers and the full opening check placements against it."""

    index: int
    name: str
    name_en: str
    length: int
    """Its number of cells."""
    shape: Shape = field(default_factory=lambda: Shape(()))
    """Its shape; a straight line of ``length`` unless given."""
    kind: str = ""
    """Its catalogue kind in a bought fleet (``starships``); empty in the sea's fleets."""

    def __post_init__(self) -> None:
        if not self.shape.offsets:
            object.__setattr__(self, "shape", Shape.line(self.length))

    def stances(self, x: int, y: int) -> tuple[Placed, ...]:
        """Every way to place the ship with its corner at ``(x, y)``: a straight ship as a
        :class:`Placement` (horizontal first), a shaped one as a :class:`~shape.Berth` per turn."""
        if self.shape.straight:
            return tuple(Placement(x, y, self.length, horizontal) for horizontal in ((True, False) if self.length > 1 else (True,)))
        return tuple(Berth(x, y, self.shape, turn) for turn in range(len(self.shape.turns)))

    def fits(self, grid: Grid, cells: Sequence[int]) -> str | None:
        """Why ``cells`` are not this ship (its length, in its shape), or None."""
        if len(cells) != self.length:
            return f"has {len(cells)} cells, not {self.length}"
        if not self.shape.fits(grid, cells):
            return "is not one straight line" if self.shape.straight else "is not its kind's shape in any of its turns"
        return None


@dataclass(frozen=True)
class Fleet:
    """A fleet the rules know: its ships in order (a ship's id is its index) and whether seats buy from it."""

    id: str
    name: str
    name_en: str
    ships: tuple[Ship, ...]
    bought: bool = False
    """Each seat places only the ships it bought (the space battle); else every ship."""


class Placed(Protocol):
    """A ship placed on a grid: a :class:`Placement` or a :class:`~shape.Berth`."""

    def cells(self, grid: Grid) -> tuple[int, ...] | None:
        """The board cells the ship covers, sorted, or None when it does not fit on ``grid``."""


@dataclass(frozen=True)
class Placement:
    """One straight ship on the sea: its top-left cell, its length and direction."""

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


def layers(grid: Grid, placements: Sequence[Placed]) -> dict[str, tuple[int, ...]]:
    """The hidden data of ships placed in fleet order (placement ``i`` is ship ``i``).

    It is not checked here: :func:`fleet_problem` judges the result.
    """
    return layers_of(grid, dict(enumerate(placements)))


def layers_of(grid: Grid, placed: Mapping[int, Placed]) -> dict[str, tuple[int, ...]]:
    """The hidden data of the ships ``placed`` (by ship index), the others left out (a bought fleet)."""
    ids = [0] * grid.size
    for index, placement in sorted(placed.items()):
        cells = placement.cells(grid)
        if cells is None:
            raise ValueError(f"ship {index} leaves the sea")
        for cell in cells:
            ids[cell] = index + 1
    return {SHIPS: tuple(int(value != 0) for value in ids), IDS: tuple(ids)}


def random_placements(grid: Grid, fleet: Fleet, rng: Rng, place: Place | None = None) -> tuple[Placed, ...]:
    """A legal fleet chosen by ``rng.randrange`` alone, so a seed gives the same fleet everywhere
    (see :func:`random_berths`); placement ``i`` is ship ``i``."""
    placed = random_berths(grid, fleet.ships, rng, place)
    return tuple(placed[ship.index] for ship in fleet.ships)


def random_berths(grid: Grid, ships: Sequence[Ship], rng: Rng, place: Place | None = None) -> dict[int, Placed]:
    """``ships`` placed legally by ``rng.randrange`` alone, by ship index.

    Largest ships first, each uniformly among the places (corner cells in reading order, then
    stances) still free of the others and their neighbours (and allowed by ``place``); a dead
    end (no place left) starts over, which is rare.
    """
    order = sorted(ships, key=lambda ship: (-ship.length, ship.index))
    while True:
        placed: dict[int, Placed] = {}
        blocked: set[int] = set()
        for ship in order:
            options = list(_free(grid, ship, blocked, place))
            if not options:
                break
            placement, cells = options[rng.randrange(len(options))]
            placed[ship.index] = placement
            blocked.update(cells)
            blocked.update(grid.ring(cells))
        else:
            return placed


def _free(grid: Grid, ship: Ship, blocked: set[int], place: Place | None) -> Iterator[tuple[Placed, tuple[int, ...]]]:
    for y in range(grid.height):
        for x in range(grid.width):
            for placement in ship.stances(x, y):
                cells = placement.cells(grid)
                if cells is not None and blocked.isdisjoint(cells) and (place is None or place(cells) is None):
                    yield placement, cells


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
    cells_of: dict[int, list[int]] = {}
    for cell in range(grid.size):
        cells_of.setdefault(ids[cell], []).append(cell)
    for ship in fleet.ships:
        cells = cells_of.get(ship.index + 1, [])
        if not cells and fleet.bought:
            continue
        problem = ship.fits(grid, cells) or (None if place is None else place(cells))
        if problem is not None:
            return f"{ship.name_en} (ship {ship.index}) {problem}"
    for cell in range(grid.size):
        if ids[cell]:
            for other in grid.neighbours(cell):
                if ids[other] not in (0, ids[cell]):
                    return f"ships {ids[cell] - 1} and {ids[other] - 1} touch at {grid.name(cell)} and {grid.name(other)}"
    return None
