"""The zeeslag state: everything one node knows about a game, as a frozen value.

The same type serves every seat and the verifier; they differ only in :attr:`Board.own`,
the committed data a state knows (a seat its own, a full-knowledge referee every seat's).
Everything else is public and identical in every state: the seas (what was shot, what was
opened, what sank) and the turn. Boards are in board cells, seas in sea cells (``waters``).
The space battle adds bought fleets (their declared sizes), squadrons of reserve fighters
(each its own committed layer, ``wing1``, ``wing2``, ...), own rounds and ability uses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Result, RuleError
from fairtable.games.zeeslag.fleet import FLEETS, IDS, SHIPS, Fleet
from fairtable.games.zeeslag.starships import CATALOGUE, SPACE

RECENT = 12
WING = "wing"
"""A squadron's layer is ``wing<k>``: the seat's k-th reserve (from 1)."""


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
class Use:
    """An ability a seat used (space battle), judged at the full opening: a ship of its kind must
    have been afloat, none of the seat's first ``sunk`` sinks."""

    ability: str
    sunk: int


@dataclass(frozen=True)
class Squadron:
    """A reserve the seat landed: its own committed layer (``wing<k>``), one fighter per value 1..3."""

    barred: tuple[int, ...]
    """The cells of the seat's field opened when it landed: no fighter may land there."""
    aimed: tuple[int, ...] = ()
    """The other cells an action of the landing round reached at the seat: fighters keep clear
    of them unless no squadron fits clear of them (``reserve``)."""
    opened: Mapping[int, int] = field(default_factory=dict)
    """Opened cells of the squadron's layer."""


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
    declared: int | None = None
    """Space battle: the number of ships it bought, as it declared; None until it has."""
    squadrons: tuple[Squadron, ...] = ()
    rounds: int = 0
    """Space battle: its own rounds begun (duel turns and salvos)."""
    used: Mapping[str, int] = field(default_factory=dict)
    """Space battle: each ability's own round of its last use."""
    uses: tuple[Use, ...] = ()

    def opened_in(self, layer: str) -> Mapping[int, int]:
        """The opened cells of ``layer`` (``ships``, ``ids`` or a squadron's ``wing<k>``)."""
        if layer == SHIPS:
            return self.ships
        if layer == IDS:
            return self.ids
        return self.squadrons[wing_number(layer) - 1].opened

    def with_opened(self, layer: str, cells: Mapping[int, int]) -> Board:
        """This board with more cells of ``layer`` opened."""
        merged = {**self.opened_in(layer), **cells}
        if layer == SHIPS:
            return dataclasses.replace(self, ships=merged)
        if layer == IDS:
            return dataclasses.replace(self, ids=merged)
        index = wing_number(layer) - 1
        squadron = dataclasses.replace(self.squadrons[index], opened=merged)
        return dataclasses.replace(self, squadrons=replace_at(self.squadrons, index, squadron))

    def known(self, layer: str, cell: int) -> int | None:
        """The cell's value in ``layer`` if this state knows it (own data or an opening)."""
        if layer in self.own:
            return self.own[layer][cell]
        return self.opened_in(layer).get(cell)

    @property
    def field_layers(self) -> tuple[str, ...]:
        """The layers that may hold a ship at a cell: ``ships`` and every squadron's."""
        return (SHIPS, *(wing_layer(k) for k in range(1, len(self.squadrons) + 1)))


def wing_layer(number: int) -> str:
    """The committed layer name of a seat's ``number``-th squadron (from 1): ``wing<number>``."""
    return f"{WING}{number}"


def wing_number(layer: str) -> int:
    """k of ``wing<k>``, or :class:`RuleError` for a layer that is none of the game's."""
    digits = layer.removeprefix(WING)
    if not layer.startswith(WING) or not digits.isdecimal() or digits != str(int(digits)) or int(digits) < 1:
        raise RuleError("zeeslag.opened", f"{layer!r} is no layer of a zeeslag board")
    return int(digits)


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
    """Cells opened as water without a shot (water rings; a laser's path, a scan), in order."""
    sunk: tuple[Sunk, ...] = ()
    seen: Mapping[int, int] = field(default_factory=dict)
    """Space battle: cells a scan found holding a ship, not hit then (still targets)."""


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
    kind: str = "shot"
    """``shot``; in the space battle also ``nuke`` (its centre), ``blast`` (a cell of its
    blast), ``laser`` (the cell its beam hit, or its start when it hit nothing), ``scan`` (the
    centre; ``hit``: the ship cells it found) or ``reserve`` (``cell`` -1), for the log."""


@dataclass(frozen=True)
class Task:
    """An ability of the volley still to resolve after its shots (space battle): a ``nuke``
    whose centre may have hit, a ``laser`` from its start cell (``answer``: the cell its target
    said the beam hits, -1 for none, once said) or a ``scan`` of the 3×3 around ``cell``."""

    kind: str
    seat: int
    target: int
    cell: int
    answer: int | None = None


@dataclass(frozen=True)
class Late:
    """A seat whose timer ran out on its salvo: the timer fires at ``target`` (focus, once
    drawn) or at every enemy (spread, ``None``)."""

    seat: int
    target: int | None = None


@dataclass(frozen=True)
class ZeeslagState:
    """Everything one node knows of a zeeslag game; states differ only in :attr:`Board.own`, so
    one rule engine serves every seat and the verifier."""

    variant: str
    options: Mapping[str, Any]
    boards: tuple[Board, ...]
    seas: tuple[Sea, ...]
    committed: bool = False
    stage: str = "aim"
    """``muster`` (space: the fleet sizes declared), ``aim``, ``pick`` (focus targets of late
    seats), ``fill`` (their cells), ``land`` (space: reserves), ``open``, ``beam``, ``trace``,
    ``scan`` (space: abilities), ``answer``, ``prove`` or ``ring`` (see ``volley``, ``salvo``
    and ``effects``)."""
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
    actions: int = 0
    """Space battle: the actions of the duel turn so far (at most three)."""
    tasks: tuple[Task, ...] = ()
    landing: tuple[int, ...] = ()
    """Space battle: the seats still to land their reserve this round, the first one now."""
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
    """The fleet every seat places (space: every slot it may buy into)."""
    return SPACE if state.variant == "space" else FLEETS[state.options["fleet"]]


def fleet_size(state: ZeeslagState, seat: int) -> int | None:
    """How many ships ``seat`` has in all (sunk ones too): its fleet, or in the space battle the
    size it declared plus its reserve fighters (None before it declared)."""
    if state.variant != "space":
        return len(fleet_of(state).ships)
    board = state.boards[seat]
    return None if board.declared is None else board.declared + CATALOGUE.squadron * len(board.squadrons)


def replace_at(items: tuple[Any, ...], index: int, item: Any) -> tuple[Any, ...]:
    """``items`` with the one at ``index`` replaced: states are frozen, so every change builds a new tuple."""
    return items[:index] + (item,) + items[index + 1 :]


def with_board(state: ZeeslagState, seat: int, board: Board, **changes: Any) -> ZeeslagState:
    """``state`` with ``seat``'s board replaced (and any other ``changes``)."""
    return dataclasses.replace(state, boards=replace_at(state.boards, seat, board), **changes)


def with_sea(state: ZeeslagState, index: int, sea: Sea, **changes: Any) -> ZeeslagState:
    """``state`` with sea ``index`` replaced (and any other ``changes``)."""
    return dataclasses.replace(state, seas=replace_at(state.seas, index, sea), **changes)
