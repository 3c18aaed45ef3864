"""Who is still in, who is whose enemy, and which cells a seat may shoot at.

A seat is **out** once all its ships are sunk or it left (forfeit, timeouts); the others are
**living**. Its **enemies** are the living seats of other teams. A cell of an enemy's waters
(its ``reach``) is a **public target** for a shooter while not opened: everyone can tell.
In the shared sea a seat may not aim at a cell of its own ship; only its own node knows
those, so its **aimable** cells are the public targets minus its ship cells where the state
knows its fleet, and everyone else checks the rest at the full opening.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from fairtable.games.contract import RuleError, Teams
from fairtable.games.zeeslag.fleet import SHIPS
from fairtable.games.zeeslag.sea import FIELD, SEA
from fairtable.games.zeeslag.state import Shot, ZeeslagState, fleet_size
from fairtable.games.zeeslag.waters import OwnSeas, SharedSea, Waters


@cache
def waters_for(variant: str, seats: int) -> Waters:
    """The layout of a variant's seas for ``seats`` seats: one shared sea, or a sea (or star field) each."""
    return SharedSea(seats) if variant == "shared" else OwnSeas(seats, FIELD if variant == "space" else SEA)


def waters(state: ZeeslagState) -> Waters:
    """The layout of this game's seas: which sea holds whose ships, and how board cells map onto it."""
    return waters_for(state.variant, len(state.boards))


def teams_for(options: Mapping[str, Any], seats: int) -> Teams:
    """Option ``teams`` = t: seat ``s`` plays in team ``s mod t`` (neighbours are enemies); 0: alone."""
    count = options.get("teams", 0)
    if not count:
        return tuple((seat,) for seat in range(seats))
    return tuple(tuple(seat for seat in range(seats) if seat % count == team) for team in range(count))


def team_of(state: ZeeslagState, seat: int) -> tuple[int, ...]:
    """The seats of ``seat``'s team, itself included (alone: just itself)."""
    return next(team for team in teams_for(state.options, len(state.boards)) if seat in team)


def sunk_ships(state: ZeeslagState, seat: int) -> tuple[int, ...]:
    """The ships of ``seat`` sunk so far, by ship id."""
    sea = state.seas[waters(state).sea_of(seat)]
    return tuple(sunk.ship for sunk in sea.sunk if sunk.seat == seat)


def is_out(state: ZeeslagState, seat: int) -> bool:
    """Whether ``seat`` is out: it left (forfeit, timeouts, absence) or every ship of its fleet sank
    (in the space battle, of the size it declared and its reserves)."""
    size = fleet_size(state, seat)
    return seat in state.left or (size is not None and len(sunk_ships(state, seat)) == size)


def living(state: ZeeslagState) -> tuple[int, ...]:
    """The seats still in the game, in seat order."""
    return tuple(seat for seat in range(len(state.boards)) if not is_out(state, seat))


def enemies(state: ZeeslagState, seat: int) -> tuple[int, ...]:
    """The living seats not on ``seat``'s team, in seat order: whom it may shoot at."""
    mates = team_of(state, seat)
    return tuple(other for other in living(state) if other not in mates)


def public_targets(state: ZeeslagState, target: int) -> tuple[int, ...]:
    """The cells of ``target``'s waters not opened yet, in reading order."""
    layout = waters(state)
    opened = state.seas[layout.sea_of(target)].opened
    return tuple(cell for cell in layout.reach(target) if cell not in opened)


def not_a_target(state: ZeeslagState, target: int, cell: Any, message: str) -> RuleError:
    """``zeeslag.target`` for a ``cell`` that is none of ``target``'s public targets, in words: a
    cell of its waters was already shot, any other value is off them."""
    layout = waters(state)
    if type(cell) is int and cell in layout.reach(target):
        return RuleError("zeeslag.target", message, "zeeslag.target:shot", cell=layout.seas[layout.sea_of(target)].name(cell))
    return RuleError("zeeslag.target", message, "zeeslag.target:off")


def own_ship_cells(state: ZeeslagState, seat: int) -> frozenset[int] | None:
    """The sea cells of ``seat``'s ships, if this state knows its fleet (the shared sea only
    needs them: in own seas a shooter's fleet is never in the enemy's sea)."""
    ships = state.boards[seat].own.get(SHIPS)
    if ships is None:
        return None
    layout = waters(state)
    cells = (layout.to_sea(seat, cell) for cell, value in enumerate(ships) if value)
    return frozenset(cell for cell in cells if cell is not None)


def aimable(state: ZeeslagState, seat: int, target: int) -> tuple[int, ...]:
    """The cells ``seat`` may aim at in ``target``'s waters, as far as this state knows."""
    cells = public_targets(state, target)
    own = own_ship_cells(state, seat) if waters(state).shared else None
    return cells if own is None else tuple(cell for cell in cells if cell not in own)


def candidates(state: ZeeslagState, sea: int, cell: int, volley: tuple[Shot, ...], alive: frozenset[int] | None = None) -> tuple[int, ...]:
    """The seats whose ships may lie at an unopened ``cell`` of ``sea`` this volley: its living
    holders (``alive``, if the caller has them), except those who aimed at it (an aimed shot
    says its shooter has no ship there)."""
    layout = waters(state)
    aimers = {shot.seat for shot in volley if shot.cell == cell and not shot.timer and layout.sea_of(shot.target) == sea}
    alive = frozenset(living(state)) if alive is None else alive
    return tuple(seat for seat in layout.holders(sea, cell) if seat in alive and seat not in aimers)
