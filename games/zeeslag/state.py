"""The zeeslag state: everything one node knows about a game, as a frozen value.

The same type serves every seat and the verifier; they differ only in :attr:`Board.own`,
the committed data a state knows (a seat its own, a full-knowledge referee every seat's).
Everything else is public and identical in every state: the seas (what was shot, what was
opened, what sank) and the turn. Boards are in board cells, seas in sea cells (``waters``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Result, RuleError
from fairtable.games.zeeslag.fleet import FLEETS, SHIPS, Fleet

RECENT = 12


@dataclass(frozen=True)
class Excuse:
    """Shots a seat left unfired, on its word that its own ships fill the cells: of its ``total``
    public targets at one enemy it fired ``fired`` of ``due``; ``cells`` (sea cells) are those
    it did not fire at that may hold its ships. The full opening checks that ``fired`` is
    ``min(due, total - its ships among cells)``: exactly what its real targets allowed."""

    cells: tuple[int, ...]
    total: int
    fired: int
    due: int


@dataclass(frozen=True)
class Board:
    """What a state knows of one seat's committed data, and what the seat declared about it."""

    own: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """The seat's committed layers, if this state knows them; else empty."""
    ships: Mapping[int, int] = field(default_factory=dict)
    """Opened cells of the ``ships`` layer (board cells)."""
    ids: Mapping[int, int] = field(default_factory=dict)
    """Opened cells of the ``ids`` layer: sunk ships, and the full opening."""
    answers: tuple[int, ...] = ()
    """The number of hits on the seat's sea when it gave each of its sink answers."""
    aimed: tuple[int, ...] = ()
    """Shared sea: sea cells the seat aimed at itself, none of which may hold its own ship."""
    excuses: tuple[Excuse, ...] = ()

    def known(self, layer: str, cell: int) -> int | None:
        """The cell's value in ``layer`` if this state knows it (own data or an opening)."""
        if layer in self.own:
            return self.own[layer][cell]
        return (self.ships if layer == SHIPS else self.ids).get(cell)


@dataclass(frozen=True)
class Sunk:
    """A sink, proven by opening the ship's cells in the owner's ``ids`` layer."""

    seat: int
    ship: int
    cells: tuple[int, ...]
    """Sea cells."""
    answer: int
    """The index of the owner's sink answer that declared it."""


@dataclass(frozen=True)
class Sea:
    """What everyone knows of one sea."""

    opened: Mapping[int, int] = field(default_factory=dict)
    """Cell -> the number of ships found there (0: water, by a miss, a ring or no possible ship)."""
    shots: tuple[int, ...] = ()
    """Cells shot at, in order."""
    hits: tuple[int, ...] = ()
    """Cells found holding a ship, in order."""
    holders: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Hit cell -> the seats whose ship it may be (one: its owner is known)."""
    water: tuple[int, ...] = ()
    """Cells opened as water by water rings, in order."""
    sunk: tuple[Sunk, ...] = ()


@dataclass(frozen=True)
class Shot:
    """A shot, for everyone to see: who fired it at whose waters, and what it found."""

    seat: int
    target: int
    cell: int
    timer: bool
    """Fired by the timer, not aimed: its shooter may be among the cell's holders."""
    hit: int | None = None
    """The ships found at the cell, once opened."""
    sunk: tuple[tuple[int, int], ...] = ()
    """``(seat, ship)`` of each ship whose sink this shot completed."""


@dataclass(frozen=True)
class Late:
    """A seat whose timer ran out on its salvo: the timer fires at ``target`` (focus, once
    drawn) or at every enemy (spread, ``None``)."""

    seat: int
    target: int | None = None


@dataclass(frozen=True)
class ZeeslagState:
    variant: str
    options: Mapping[str, Any]
    boards: tuple[Board, ...]
    seas: tuple[Sea, ...]
    committed: bool = False
    stage: str = "aim"
    """``aim``, ``pick`` (focus targets of late seats), ``fill`` (their cells), ``open``,
    ``answer``, ``prove`` or ``ring`` (see ``volley`` and ``salvo``)."""
    turn: int | None = None
    """The duel's shooter; ``None`` while it is to be drawn."""
    volley: tuple[Shot, ...] = ()
    """The shots of the turn or salvo being answered."""
    late: tuple[Late, ...] = ()
    answering: tuple[int, ...] = ()
    """Seats still to give their sink answer for the volley, the first one now."""
    proving: tuple[tuple[int, ...], ...] = ()
    """The ships (sea cells) the answering seat declared sunk, while proven."""
    passes: int = 0
    """Consecutive duel turns passed (a seat whose every target holds its own ship)."""
    draws: int = 0
    """Public random values drawn so far (the contract allows ``PUBLIC_VALUES`` a game)."""
    timeouts: tuple[int, ...] = ()
    """Consecutive timeouts per seat."""
    sank: tuple[int, ...] = ()
    """Enemy ships each seat helped to sink."""
    left: tuple[int, ...] = ()
    """Seats out of the game without being sunk (forfeit, timeouts)."""
    recent: tuple[Shot, ...] = ()
    """The last :data:`RECENT` shots, oldest first."""
    outcome: Result | None = None
    """The result once decided; the game is over when the full opening is done too."""
    opening: int = 0
    """Steps of the full opening done (see ``game.opening_steps``)."""
    withheld: tuple[int, ...] = ()
    """Seats that forfeited as absent or during the full opening: their fleets stay closed."""


def turn_of(state: ZeeslagState) -> int:
    """The duel's shooter, once the start is drawn (a turn's rules only run after it)."""
    if state.turn is None:
        raise RuleError("zeeslag.sequence", "no seat is in turn before the start is drawn")
    return state.turn


def fleet_of(state: ZeeslagState) -> Fleet:
    return FLEETS[state.options["fleet"]]


def replace_at(items: tuple[Any, ...], index: int, item: Any) -> tuple[Any, ...]:
    return items[:index] + (item,) + items[index + 1 :]


def with_board(state: ZeeslagState, seat: int, board: Board, **changes: Any) -> ZeeslagState:
    """``state`` with ``seat``'s board replaced (and any other ``changes``)."""
    return dataclasses.replace(state, boards=replace_at(state.boards, seat, board), **changes)


def with_sea(state: ZeeslagState, index: int, sea: Sea, **changes: Any) -> ZeeslagState:
    return dataclasses.replace(state, seas=replace_at(state.seas, index, sea), **changes)
