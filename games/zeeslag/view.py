"""What a seat (or a spectator) sees of a zeeslag game, as a canonical value for any client.

Everything but the fleets is public: every node computes the same spectator view. A seat's
own view adds its fleet's layout and, while it must fire a salvo, what is due. A seat that is
out watches with the full view there is: every sea as it is opened, and every fleet once the
full opening shows it (nobody, out or not, sees a fleet before that; the protocol never
shows it to anyone).

The space battle adds the catalogue (shapes in every turn, prices, counts, abilities) and the
slots a fleet's ``ids`` name, so a client can let its player buy and place ships by hand; the
fleet sizes declared, squadrons, own rounds and when each ability is ready; scanned ships.
``spec/games.md`` documents every field.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fairtable.games.contract import CommitHidden, Request, Simultaneous
from fairtable.games.zeeslag import abilities, reserve
from fairtable.games.zeeslag.duel import ACTIONS
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.outcome import opening_step
from fairtable.games.zeeslag.salvo import due, due_beside
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.starships import ABILITIES, CAPITALS, CATALOGUE, SPACE
from fairtable.games.zeeslag.state import Sea, Shot, ZeeslagState, fleet_of, fleet_size
from fairtable.games.zeeslag.targets import aimable, enemies, is_out, living, sunk_ships, teams_for, waters
from fairtable.games.zeeslag.waters import SharedSea, Waters


def view(state: ZeeslagState, seat: int | None, request: Request) -> dict:
    """What ``seat`` (None: a spectator) sees, as a canonical value for clients, given the pending
    ``request``: every sea, plus the seat's own fleet and what its salvo owes; no other fleet
    before the full opening."""
    layout = waters(state)
    seats = len(state.boards)
    salvo_due: list[list[int]] = []
    aiming = None
    if seat is not None and isinstance(request, Simultaneous) and seat in request.seats:
        salvo_due = [[foe, count] for foe, count in due(state, seat, None)]
        aiming = seat if salvo_due else None
    space = state.variant == "space"
    value = {
        "variant": state.variant,
        "fleet": fleet_of(state).id,
        "salvo": state.options["salvo"],
        "shots": state.options["shots"],
        "water_ring": bool(state.options.get("water_ring")) and not layout.shared,
        "seat": seat,
        "seats": seats,
        "teams": [list(team) for team in teams_for(state.options, seats)] if state.options["teams"] else [],
        "phase": phase(state),
        "turn": state.turn,
        "answering": _answering(state),
        "living": list(living(state)),
        "left": list(state.left),
        "watching": seat is not None and is_out(state, seat),
        "due": salvo_due,
        "targets": [] if aiming is None else _targets(state, aiming, salvo_due),
        "seas": [_sea(sea, layout.seas[index].width, layout.seas[index].height, space) for index, sea in enumerate(state.seas)],
        "fleets": [_fleet(state, index, index == seat) for index in range(seats)],
        "timeouts": list(state.timeouts),
        "sank": list(state.sank),
        "recent": [_shot(shot, space) for shot in state.recent],
        "result": None if state.outcome is None else state.outcome.to_value(),
    }
    if isinstance(layout, SharedSea):
        value["seas"][0]["holders"] = [list(seats) for seats in _holders(layout)]
    if space:
        value |= _space(state, seat, request)
        value["due_with_ability"] = [] if aiming is None else [[foe, [list(pair) for pair in due_beside(state, aiming, foe)]]
                                                               for foe in enemies(state, aiming)]
    else:
        value["placing"] = None if seat is None or _committing(seat, request) is None else _berths(layout, seat)
    return value


def _targets(state: ZeeslagState, seat: int, owed: list[list[int]]) -> list[list[Any]]:
    """``[sea, cell, [enemy, ...]]`` for every cell a shot of ``seat``'s salvo may go at, as the
    salvo's check reads it (``aimable``: not opened, in the shared sea not its own ship), with the
    due enemies it may count for, the one whose home block it is first."""
    layout = waters(state)
    cells: dict[tuple[int, int], list[int]] = {}
    for foe, count in owed:
        if count:
            for cell in aimable(state, seat, foe):
                cells.setdefault((layout.sea_of(foe), cell), []).append(foe)
    order = _holders(layout) if isinstance(layout, SharedSea) else None
    return [[sea, cell, foes if order is None else sorted(foes, key=order[cell].index)] for (sea, cell), foes in sorted(cells.items())]


@cache
def _holders(layout: SharedSea) -> tuple[tuple[int, ...], ...]:
    """Per cell of the shared sea, the seats whose ships may lie there (a shot there may go at
    them), the one whose home block it is first."""
    def home_last(seat: int, cell: int) -> bool:
        board = layout.to_board(seat, cell)
        return board is None or not layout.home(board)
    return tuple(tuple(sorted(layout.holders(0, cell), key=lambda seat: home_last(seat, cell))) for cell in range(layout.sea.size))


def _committing(seat: int | None, request: Request) -> CommitHidden | None:
    """``request`` if it asks ``seat`` for hidden data (its fleet or a squadron), else None."""
    return request if isinstance(request, CommitHidden) and seat in request.seats else None


def _berths(layout: Waters, seat: int) -> dict[str, Any]:
    """Where this seat may put its ships (or fighters), by the rules' own geometry, so a client
    tells a legal placement without a rule of its own: its board's size and ``first`` sea column
    (the shared sea's window), ``home`` (the board cells a ship needs one of; every cell in its
    own sea), ``off`` (board cells outside the sea) and ``neighbours`` (per board cell, the cells
    no other ship of the fleet may take: ships never touch, not even diagonally)."""
    grid = layout.board
    first = 0
    if isinstance(layout, SharedSea):  # the window's column 1 is its home block's first
        home = layout.to_sea(seat, 1)
        first = 0 if home is None else layout.sea.xy(home)[0] - 1
    return {
        "width": grid.width,
        "height": grid.height,
        "first": first,
        "home": list(_home(layout)),
        "off": [cell for cell in range(grid.size) if layout.to_sea(seat, cell) is None],
        "neighbours": [list(cells) for cells in _neighbours(grid)],
    }


@cache
def _home(layout: Waters) -> tuple[int, ...]:
    cells = range(layout.board.size)
    return tuple(cell for cell in cells if layout.home(cell)) if isinstance(layout, SharedSea) else tuple(cells)


@cache
def _neighbours(grid: Grid) -> tuple[tuple[int, ...], ...]:
    return tuple(grid.neighbours(cell) for cell in range(grid.size))


def _answering(state: ZeeslagState) -> int | None:
    """The seat whose node answers now: a sink, its proof or ring, a laser or scan at it, its landing."""
    if state.answering and state.stage in ("answer", "prove", "ring"):
        return state.answering[0]
    if state.tasks and state.stage in ("beam", "trace", "scan"):
        return state.tasks[0].target
    return state.landing[0] if state.landing and state.stage == "land" else None


def _space(state: ZeeslagState, seat: int | None, request: Request) -> dict:
    """The space battle's fields: the catalogue, the slots, and what this seat places now."""
    placing = None
    commit = _committing(seat, request)
    if seat is not None and commit is not None:
        free = reserve.free_cells(state, seat) if state.committed else None
        placing = {"layers": list(commit.layers), "fighters": CATALOGUE.squadron if state.committed else 0,
                   "free": None if free is None else list(free), **_berths(waters(state), seat)}
    return {
        "money": state.options["money"],
        "capitals": CAPITALS,
        "catalogue": [
            {"kind": kind.id, "name": kind.name, "name_en": kind.name_en, "cells": kind.cells, "price": kind.price,
             "max": kind.most, "capital": kind.capital, "ability": kind.ability, "cycle": kind.cycle,
             "turns": [[list(point) for point in turn] for turn in kind.shape.turns]}
            for kind in CATALOGUE.kinds
        ],
        "slots": [[ship.kind, CATALOGUE.slots(ship.kind).index(ship.index) + 1] for ship in SPACE.ships],
        "squadron": CATALOGUE.squadron,
        "aims": {name: list(abilities.aims(waters(state).board, name)) for name in ("laser", "scan")},
        "actions": state.actions,
        "most_actions": ACTIONS,
        "placing": placing,
    }


def _sea(sea: Sea, width: int, height: int, space: bool) -> dict:
    """One sea: its shots, hits and ring water in order, its sunk ships, and the hits whose
    owner is not known yet (the shared sea's "?"); space: the sunk ships' kinds, scanned ships."""
    sunk = [{"seat": record.seat, "ship": record.ship, "cells": list(record.cells)} for record in sea.sunk]
    if space:
        for entry, record in zip(sunk, sea.sunk):
            kind = CATALOGUE.kind_of(record.ship)
            entry["kind"] = "fighter" if kind is None else kind.id
        return {**_sea(sea, width, height, False), "sunk": sunk, "seen": sorted(cell for cell in sea.seen if cell not in sea.opened)}
    return {
        "width": width,
        "height": height,
        "shots": list(sea.shots),
        "hits": list(sea.hits),
        "water": list(sea.water),
        "unknown": [cell for cell in sea.hits if _unknown(sea, cell)],
        "sunk": [{"seat": sunk.seat, "ship": sunk.ship, "cells": list(sunk.cells)} for sunk in sea.sunk],
    }


def _unknown(sea: Sea, cell: int) -> bool:
    holders, found = sea.holders.get(cell, ()), sea.opened.get(cell, 0)
    owners = {sunk.seat for sunk in sea.sunk if cell in sunk.cells}
    return len(holders) > found and len(owners) < found


def _fleet(state: ZeeslagState, seat: int, own: bool) -> dict:
    """One seat's fleet: where it lies (to its owner, or to all once fully opened), what is afloat."""
    layout = waters(state)
    board = state.boards[seat]
    ids = board.own.get(IDS) if own else None
    if ids is None and len(board.ids) == layout.board.size:
        ids = tuple(board.ids[cell] for cell in range(layout.board.size))
    cells = None
    if ids is not None:
        cells = [[sea_cell, value] for cell, value in enumerate(ids) if value and (sea_cell := layout.to_sea(seat, cell)) is not None]
        cells.sort()
    size = fleet_size(state, seat)
    entry = {
        "sea": layout.sea_of(seat),
        "layout": cells,
        "sunk": list(sunk_ships(state, seat)),
        "afloat": None if size is None else size - len(sunk_ships(state, seat)),
        "out": is_out(state, seat),
    }
    if state.variant == "space":
        entry |= _space_fleet(state, seat, own)
    return entry


def _space_fleet(state: ZeeslagState, seat: int, own: bool) -> dict:
    """What everyone knows of a seat's space fleet, and its fighters where this view may show them."""
    board = state.boards[seat]
    return {
        "ships": fleet_size(state, seat),
        "squadrons": len(board.squadrons),
        "fighters": _fighters(state, seat, own),
        "rounds": board.rounds,
        "round": abilities.own_round(state, seat),
        "abilities": [{"ability": name, "next": abilities.next_round(state, seat, name), "ready": abilities.ready(state, seat, name),
                       "afloat": abilities.afloat(state, seat, name, knowing=own)} for name in ABILITIES],
    }


def _fighters(state: ZeeslagState, seat: int, own: bool) -> list[list[int]] | None:
    """``[[cell, ship id], ...]`` of the seat's reserve fighters, to its owner or once fully opened; else None."""
    board = state.boards[seat]
    size = waters(state).board.size
    found = []
    for number, layer in enumerate(board.field_layers[1:], 1):
        values = board.own.get(layer) if own else None
        if values is None and len(board.opened_in(layer)) == size:
            values = tuple(board.opened_in(layer)[cell] for cell in range(size))
        if values is None:
            return None
        found += [[cell, CATALOGUE.fighter(number, value)] for cell, value in enumerate(values) if value]
    return sorted(found)


def _shot(shot: Shot, space: bool = False) -> dict:
    value = {"seat": shot.seat, "target": shot.target, "cell": shot.cell, "timer": shot.timer, "hit": shot.hit,
             "sunk": [list(pair) for pair in shot.sunk]}
    return value | {"kind": shot.kind} if space else value


def phase(state: ZeeslagState) -> str:
    """``placement``, ``muster`` (space: fleet sizes declared), ``start`` (drawing the duel's
    first shooter), a stage (``aim``, ``pick``, ``fill``, ``land``, ``open``, ``beam``, ``trace``,
    ``scan``, ``answer``, ``prove``, ``ring``), ``opening`` or ``over``."""
    if state.outcome is not None:
        return "opening" if state.committed and opening_step(state) is not None else "over"
    if not state.committed:
        return "placement"
    if state.stage == "aim" and state.turn is None and len(living(state)) == 2:
        return "start"
    return state.stage
