"""Ship shapes: cells relative to a corner, their turns, and whether cells on a grid form one.

A shape is a set of ``(x, y)`` offsets with the smallest ``x`` and the smallest ``y`` 0 (its
bounding box's top-left corner). It turns a quarter clockwise at a time, ``(x, y)`` becoming
``(-y, x)`` and moved back to the corner; its **turns** are the distinct results, starting
with the shape as given: four for most shapes, two for a straight line (horizontal, then
vertical), one for a single cell or a ring. A :class:`Berth` is a shape placed on a grid: its
corner cell and its turn, so a client's "↻" steps through :attr:`Shape.turns`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from fairtable.games.zeeslag.sea import Grid

Offsets = tuple[tuple[int, int], ...]


def _normal(points: Iterable[tuple[int, int]]) -> Offsets:
    """``points`` moved so that the smallest x and y are 0, in reading order (by y, then x)."""
    points = list(points)
    left, top = min(x for x, _ in points), min(y for _, y in points)
    return tuple(sorted(((x - left, y - top) for x, y in points), key=lambda p: (p[1], p[0])))


@dataclass(frozen=True)
class Shape:
    """A ship's cells as offsets from its corner, normalised (corner at 0, reading order) so equal shapes compare equal."""

    offsets: Offsets

    @classmethod
    def parse(cls, rows: Sequence[str]) -> Shape:
        """A shape drawn as rows of ``X`` (a cell) and ``.`` (none), as the catalogue holds it."""
        points = [(x, y) for y, row in enumerate(rows) for x, mark in enumerate(row) if mark == "X"]
        if not points or any(set(row) - {"X", "."} for row in rows):
            raise ValueError(f"a shape is rows of X and ., got {list(rows)!r}")
        return cls(_normal(points))

    @classmethod
    def line(cls, length: int) -> Shape:
        """The straight ship of ``length`` cells, horizontal: every shape of the fleet duel."""
        return cls(tuple((x, 0) for x in range(length)))

    @property
    def size(self) -> int:
        """How many cells the shape covers."""
        return len(self.offsets)

    @property
    def straight(self) -> bool:
        """Whether the shape is a straight line (placed as a :class:`~fleet.Placement`, not a :class:`Berth`)."""
        return self == Shape.line(self.size)

    @cached_property
    def turns(self) -> tuple[Offsets, ...]:
        """The distinct quarter turns clockwise, the shape as given first."""
        turns: list[Offsets] = []
        points = self.offsets
        for _ in range(4):
            if points not in turns:
                turns.append(points)
            points = _normal((-y, x) for x, y in points)
        return tuple(turns)

    def cells_at(self, grid: Grid, x: int, y: int, turn: int) -> tuple[int, ...] | None:
        """The cells of the shape in ``turn`` with its corner at ``(x, y)``, sorted; None if it leaves the grid."""
        points = [(x + dx, y + dy) for dx, dy in self.turns[turn % len(self.turns)]]
        if not all(grid.inside(px, py) for px, py in points):
            return None
        return tuple(sorted(grid.cell(px, py) for px, py in points))

    def fits(self, grid: Grid, cells: Iterable[int]) -> bool:
        """Whether ``cells`` of ``grid`` are exactly this shape in one of its turns."""
        found = sorted(set(cells))
        if not found or any(not 0 <= cell < grid.size for cell in found):
            return False
        return _normal(grid.xy(cell) for cell in found) in self.turns


@dataclass(frozen=True)
class Berth:
    """A shaped ship on a grid: its bounding box's top-left cell and its turn."""

    x: int
    y: int
    shape: Shape
    turn: int = 0

    def cells(self, grid: Grid) -> tuple[int, ...] | None:
        """The board cells the berth covers, sorted, or None when it leaves ``grid``."""
        return self.shape.cells_at(grid, self.x, self.y, self.turn)

    def rotated(self) -> Berth:
        """The next turn, a quarter clockwise, about the same corner (the client's "↻")."""
        return Berth(self.x, self.y, self.shape, (self.turn + 1) % len(self.shape.turns))
