"""The zeeslag state: everything one node knows about a game, as a frozen value.

The same type serves every seat and the verifier; they differ only in :attr:`Board.own`,
the committed data a state knows (a seat its own, the verifier every seat's). Everything
else is public and identical in every state: what was shot, and what was opened.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Result, RuleError
from fairtable.games.zeeslag.fleet import FLEETS, SHIPS, Fleet

RECENT = 6


@dataclass(frozen=True)
class Sunk:
    """A sink, proven by opening the ship's cells in the ``ids`` layer."""

    ship: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """What a state knows of one seat's waters."""

    own: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """The seat's committed layers, if this state knows them; else empty."""
    ships: Mapping[int, int] = field(default_factory=dict)
    """Opened cells of the ``ships`` layer: shots, ring water, and the full opening."""
    ids: Mapping[int, int] = field(default_factory=dict)
    """Opened cells of the ``ids`` layer: sunk ships, and the full opening."""
    shots: tuple[int, ...] = ()
    """Cells shot at, in order."""
    hits: tuple[int, ...] = ()
    """Cells hit, in order."""
    answers: tuple[bool, ...] = ()
    """The seat's sink answer to each hit (one behind ``hits`` while an answer is due)."""
    sunk: tuple[Sunk, ...] = ()
    water: tuple[int, ...] = ()
    """Cells revealed as water by water rings, in order."""

    def known(self, layer: str, cell: int) -> int | None:
        """The cell's value in ``layer`` if this state knows it (own data or an opening)."""
        if layer in self.own:
            return self.own[layer][cell]
        return (self.ships if layer == SHIPS else self.ids).get(cell)


@dataclass(frozen=True)
class Shot:
    """A shot, for everyone to see; ``hit`` and ``sunk`` (a ship index) fill in as they are proven."""

    seat: int
    target: int
    cell: int
    timeout: bool
    hit: bool | None = None
    sunk: int | None = None


@dataclass(frozen=True)
class ZeeslagState:
    variant: str
    options: Mapping[str, Any]
    boards: tuple[Board, ...]
    committed: bool = False
    turn: int | None = None
    """The seat shooting now; ``None`` before the start is drawn."""
    stage: str = "shoot"
    """Where the turn is: ``shoot``, ``open_shot``, ``answer``, ``open_ship`` or ``open_ring``."""
    aim: int | None = None
    """The cell shot at, while its answers are due."""
    timeouts: tuple[int, ...] = ()
    """Consecutive timeouts per seat."""
    recent: tuple[Shot, ...] = ()
    """The last :data:`RECENT` shots, oldest first."""
    outcome: Result | None = None
    """The result once decided; the game is over when the full opening is done too."""
    opening: int = 0
    """Steps of the full opening done (see ``game.OPENING``)."""
    withheld: tuple[int, ...] = ()
    """Seats that forfeited during the full opening: their remaining openings are skipped."""


def turn_of(state: ZeeslagState) -> int:
    """The seat in turn, once the start is drawn (a turn's rules only run after it)."""
    if state.turn is None:
        raise RuleError("zeeslag.sequence", "no seat is in turn before the start is drawn")
    return state.turn


def aim_of(state: ZeeslagState) -> int:
    """The cell shot at, while its answers are due."""
    if state.aim is None:
        raise RuleError("zeeslag.sequence", "no shot is being answered")
    return state.aim


def fleet_of(state: ZeeslagState) -> Fleet:
    return FLEETS[state.options["fleet"]]


def with_board(state: ZeeslagState, seat: int, board: Board, **changes: Any) -> ZeeslagState:
    """``state`` with ``seat``'s board replaced (and any other ``changes``)."""
    boards = state.boards[:seat] + (board,) + state.boards[seat + 1 :]
    return dataclasses.replace(state, boards=boards, **changes)
