"""What a seat (or a spectator) sees of a zeeslag game, as a canonical value for any client.

Everything but the fleets is public: every node computes the same spectator view. A seat's
own view adds its fleet's layout and, while it must fire a salvo, what is due. A seat that is
out watches with the full view there is: every sea as it is opened, and every fleet once the
full opening shows it (nobody, out or not, sees a fleet before that; the protocol never
shows it to anyone).
"""

from __future__ import annotations

from fairtable.games.contract import Request, Simultaneous
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.outcome import opening_step
from fairtable.games.zeeslag.salvo import due
from fairtable.games.zeeslag.state import Sea, Shot, ZeeslagState, fleet_of
from fairtable.games.zeeslag.targets import is_out, living, sunk_ships, teams_for, waters


def view(state: ZeeslagState, seat: int | None, request: Request) -> dict:
    layout = waters(state)
    seats = len(state.boards)
    salvo_due = []
    if seat is not None and isinstance(request, Simultaneous) and seat in request.seats:
        salvo_due = [[foe, count] for foe, count in due(state, seat, None)]
    return {
        "variant": state.variant,
        "fleet": state.options["fleet"],
        "salvo": state.options["salvo"],
        "shots": state.options["shots"],
        "water_ring": bool(state.options.get("water_ring")) and not layout.shared,
        "seat": seat,
        "seats": seats,
        "teams": [list(team) for team in teams_for(state.options, seats)] if state.options["teams"] else [],
        "phase": phase(state),
        "turn": state.turn,
        "answering": state.answering[0] if state.answering and state.stage in ("answer", "prove", "ring") else None,
        "living": list(living(state)),
        "left": list(state.left),
        "watching": seat is not None and is_out(state, seat),
        "due": salvo_due,
        "seas": [_sea(sea, layout.seas[index].width, layout.seas[index].height) for index, sea in enumerate(state.seas)],
        "fleets": [_fleet(state, index, index == seat) for index in range(seats)],
        "timeouts": list(state.timeouts),
        "sank": list(state.sank),
        "recent": [_shot(shot) for shot in state.recent],
        "result": None if state.outcome is None else state.outcome.to_value(),
    }


def _sea(sea: Sea, width: int, height: int) -> dict:
    """One sea: its shots, hits and ring water in order, its sunk ships, and the hits whose
    owner is not known yet (the shared sea's "?")."""
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
    return {
        "sea": layout.sea_of(seat),
        "layout": cells,
        "sunk": list(sunk_ships(state, seat)),
        "afloat": len(fleet_of(state).ships) - len(sunk_ships(state, seat)),
        "out": is_out(state, seat),
    }


def _shot(shot: Shot) -> dict:
    return {"seat": shot.seat, "target": shot.target, "cell": shot.cell, "timer": shot.timer, "hit": shot.hit,
            "sunk": [list(pair) for pair in shot.sunk]}


def phase(state: ZeeslagState) -> str:
    """``placement``, ``start`` (drawing the duel's first shooter), a stage (``aim``, ``pick``,
    ``fill``, ``open``, ``answer``, ``prove``, ``ring``), ``opening`` or ``over``."""
    if state.outcome is not None:
        return "opening" if state.committed and opening_step(state) is not None else "over"
    if not state.committed:
        return "placement"
    if state.stage == "aim" and state.turn is None and len(living(state)) == 2:
        return "start"
    return state.stage
