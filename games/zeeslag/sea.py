"""Sea geometry: cells, names, neighbourhoods and straight lines on a rectangular grid.

A cell is ``y * width + x`` (``x`` the column from 0, ``y`` the row from 0), the numbering
of :class:`games.contract.CommitHidden`. Players name cells by row letter and column number,
``A1`` top left, as the rule text does (columns 1–10, rows A–J). Nothing here knows fleets
or turns, so the shared sea and the 20×10 star field reuse it with other dimensions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Grid:
    """A rectangular sea: cells numbered in reading order, named by row letter and column number."""

    width: int
    height: int

    @property
    def size(self) -> int:
        """How many cells the grid has."""
        return self.width * self.height

    def cell(self, x: int, y: int) -> int:
        """The number of the cell at column ``x``, row ``y`` (both from 0)."""
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        """The ``(x, y)`` of cell number ``cell``."""
        return cell % self.width, cell // self.width

    def inside(self, x: int, y: int) -> bool:
        """Whether column ``x``, row ``y`` lies on the grid."""
        return 0 <= x < self.width and 0 <= y < self.height

    def name(self, cell: int) -> str:
        """``"B7"``: row letter, then column number from 1."""
        x, y = self.xy(cell)
        return f"{ROW_LETTERS[y]}{x + 1}"

    def parse(self, name: str) -> int:
        """The cell a name such as ``"b7"`` or ``"J10"`` denotes; :class:`ValueError` if none."""
        text = name.strip().upper()
        row, column = text[:1], text[1:]
        if not row or row not in ROW_LETTERS[: self.height] or not column.isdigit() or not 1 <= int(column) <= self.width:
            raise ValueError(f"{name!r} is no cell of a {self.width}x{self.height} sea")
        return self.cell(int(column) - 1, ROW_LETTERS.index(row))

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The up to 8 cells around ``cell``, diagonals included, in reading order."""
        x, y = self.xy(cell)
        return tuple(
            self.cell(x + dx, y + dy)
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if (dx or dy) and self.inside(x + dx, y + dy)
        )

    def orthogonal(self, cell: int) -> tuple[int, ...]:
        """The up to 4 cells sharing a side with ``cell``, in reading order."""
        x, y = self.xy(cell)
        return tuple(self.cell(x + dx, y + dy) for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)) if self.inside(x + dx, y + dy))

    def ring(self, cells: Iterable[int]) -> tuple[int, ...]:
        """The 8-neighbourhood around ``cells``, without them, sorted: a sunk ship's water ring."""
        inner = set(cells)
        return tuple(sorted({n for cell in inner for n in self.neighbours(cell)} - inner))

    def line(self, x: int, y: int, length: int, horizontal: bool) -> tuple[int, ...] | None:
        """The cells of a straight ship whose top-left cell is ``(x, y)``, or ``None`` if it leaves the sea."""
        dx, dy = (1, 0) if horizontal else (0, 1)
        end_x, end_y = x + dx * (length - 1), y + dy * (length - 1)
        if length < 1 or not (self.inside(x, y) and self.inside(end_x, end_y)):
            return None
        return tuple(self.cell(x + dx * i, y + dy * i) for i in range(length))

    def is_line(self, cells: Iterable[int]) -> bool:
        """Whether ``cells`` are one straight, gapless, horizontal or vertical run (one cell is one)."""
        run = sorted(set(cells))
        if not run or any(not 0 <= cell < self.size for cell in run):
            return False
        x, y = self.xy(run[0])
        return run == list(self.line(x, y, len(run), True) or ()) or run == list(self.line(x, y, len(run), False) or ())

    def component(self, cells: Iterable[int], start: int) -> tuple[int, ...]:
        """The cells of ``cells`` connected to ``start`` side by side, sorted (``start`` must be one)."""
        pool = set(cells)
        seen, todo = {start}, [start]
        while todo:
            for n in self.orthogonal(todo.pop()):
                if n in pool and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return tuple(sorted(seen))


SEA = Grid(10, 10)
"""The fleet duel's sea: columns 1–10, rows A–J."""
FIELD = Grid(20, 10)
"""The space battle's star field: columns 1–20, rows A–J."""
