"""Whose ships may lie where: each seat's committed board against the seas everyone shoots at.

A seat commits its fleet on its **board** (the grid of its ``CommitHidden``); shots name cells
of a public **sea**. Two layouts:

- :class:`OwnSeas` (the fleet duel, and the space battle on its 20×10 star fields): one sea per
  seat, and the board is that sea. Only its owner's ships lie there.
- :class:`SharedSea`: one sea of 10 columns per seat, side by side (seat ``s`` owns the home
  block of columns ``10s .. 10s + 9``). A seat's board is its **window**: its home block plus
  the border column of each neighbouring block, 12 columns; board column ``c`` is sea column
  ``10s - 1 + c`` (the end seats' outer column lies off the sea and must stay empty). A ship
  has at least one cell in its home block; the window lets a straight ship out by one cell
  at most, so only a horizontal ship reaches a neighbour, by one cell. A border cell may hold the ships of both seats whose
  windows cover it: they are its **holders**.

Nothing here knows turns or fleets, so every variant's rules ask the same questions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from fairtable.games.zeeslag.sea import SEA, Grid

BLOCK = 10
"""Columns of a home block in the shared sea."""


@dataclass(frozen=True)
class OwnSeas:
    """Every seat its own sea, which is its board."""

    seats: int
    board: Grid = SEA
    shared = False

    @property
    def seas(self) -> tuple[Grid, ...]:
        """One grid per seat: each seat's sea is its board."""
        return (self.board,) * self.seats

    def sea_of(self, seat: int) -> int:
        """The sea holding ``seat``'s fleet."""
        return seat

    def to_sea(self, seat: int, cell: int) -> int | None:
        """The sea cell of board cell ``cell`` of ``seat`` (None if it lies off the sea)."""
        return cell

    def to_board(self, seat: int, cell: int) -> int | None:
        """The board cell of ``seat`` at sea cell ``cell`` of its sea, or None if its board does not cover it."""
        return cell

    def reach(self, seat: int) -> tuple[int, ...]:
        """The cells of its sea where ``seat``'s ships may lie, in reading order."""
        return tuple(range(self.board.size))

    def holders(self, sea: int, cell: int) -> tuple[int, ...]:
        """The seats whose ships may lie at ``cell`` of ``sea``, increasing."""
        return (sea,)

    def place_problem(self, seat: int, cells: Sequence[int]) -> str | None:
        """Why a ship on these board cells breaks the layout's placement rule (none here)."""
        return None


@dataclass(frozen=True)
class SharedSea:
    """One sea of ``BLOCK`` columns per seat; each seat's board is its 12-column window."""

    seats: int
    height: int = SEA.height
    shared = True

    @property
    def board(self) -> Grid:
        """A seat's window: its home block and one border column either side."""
        return Grid(BLOCK + 2, self.height)

    @property
    def sea(self) -> Grid:
        """The one sea: ``BLOCK`` columns per seat, side by side."""
        return Grid(BLOCK * self.seats, self.height)

    @property
    def seas(self) -> tuple[Grid, ...]:
        """The one shared sea, as a one-element tuple (the layouts answer alike)."""
        return (self.sea,)

    def sea_of(self, seat: int) -> int:
        """Every seat's fleet lies in sea 0, the shared one."""
        return 0

    def to_sea(self, seat: int, cell: int) -> int | None:
        """The sea cell of ``seat``'s board cell ``cell``; None for the outer column of an end seat, which lies off the sea."""
        x, y = self.board.xy(cell)
        column = BLOCK * seat - 1 + x
        return self.sea.cell(column, y) if 0 <= column < self.sea.width else None

    def to_board(self, seat: int, cell: int) -> int | None:
        """``seat``'s board cell at sea cell ``cell``, or None outside its window."""
        column, y = self.sea.xy(cell)
        x = column - BLOCK * seat + 1
        return self.board.cell(x, y) if 0 <= x < self.board.width else None

    def reach(self, seat: int) -> tuple[int, ...]:
        """The sea cells of ``seat``'s window, in reading order: where its ships may lie."""
        return _reach(self, seat)

    def holders(self, sea: int, cell: int) -> tuple[int, ...]:
        """The seats whose windows cover sea cell ``cell``: two on a border column, else one."""
        return _holders(self)[cell]

    def home(self, cell: int) -> bool:
        """Whether board cell ``cell`` lies in the window's home block."""
        return 1 <= self.board.xy(cell)[0] <= BLOCK

    def place_problem(self, seat: int, cells: Sequence[int]) -> str | None:
        """Why a ship on these board cells breaks the shared sea's rule: off the sea, or no cell in its home block."""
        if any(self.to_sea(seat, cell) is None for cell in cells):
            return "leaves the sea"
        if not any(self.home(cell) for cell in cells):
            return "has no cell in its owner's home block"
        return None


Waters = OwnSeas | SharedSea


@cache
def _reach(layout: SharedSea, seat: int) -> tuple[int, ...]:
    return tuple(cell for cell in range(layout.sea.size) if layout.to_board(seat, cell) is not None)


@cache
def _holders(layout: SharedSea) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(seat for seat in range(layout.seats) if layout.to_board(seat, cell) is not None) for cell in range(layout.sea.size))
