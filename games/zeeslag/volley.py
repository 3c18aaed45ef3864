"""Answering a volley: the shots of a duel turn or of a salvo, from openings to sinks.

Every variant answers its shots alike, stage by stage, each stage one request:

- ``open``: each shot cell not opened yet is answered by its **candidates** (``targets``).
  None: nobody living can have a ship there, it is water at once. One: that seat opens the
  cell of its ``ships`` layer, ``OpenHidden(seat, "ships", board cells)`` (seats in order).
  Two or more (a border cell of the shared sea): ``OpenSums("ships", one sum per cell, 2)``
  tells everyone how many ships lie there, not whose; the hit shows "?" until a sink names
  its owner. A cell with ships is a hit.
- ``answer``: every living candidate of a hit of the volley, in seat order, answers which of
  its ships sank: ``Decide(seat, timed=False)``, ``{"sunk": [[sea cells], ...]}`` (``sinks``).
- ``prove``: a seat that named ships opens their cells in its ``ids`` layer (judged by ``sinks``).
- ``ring`` (own seas with ``water_ring``): it opens the unopened 8-neighbourhood of those
  ships in its ``ships`` layer; every value must be 0 (``zeeslag.ring``).

Then the volley is ``done`` and the turn rules (``duel``, ``salvo``) say what follows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from fairtable.games.contract import Decide, Move, Opened, OpenHidden, OpenSums, Request, RuleError, Summed
from fairtable.games.zeeslag.fleet import IDS, SHIPS
from fairtable.games.zeeslag.sinks import complete_ships, false_sink, parse_answer
from fairtable.games.zeeslag.state import RECENT, Board, Sea, Shot, Sunk, ZeeslagState, fleet_of, replace_at, with_board, with_sea
from fairtable.games.zeeslag.targets import candidates, living, sunk_ships, team_of, waters

STAGES = ("open", "answer", "prove", "ring")


def begin(state: ZeeslagState, shots: tuple[Shot, ...]) -> ZeeslagState:
    """Fire ``shots``: record them on their seas and start answering them."""
    layout = waters(state)
    seas = list(state.seas)
    for shot in shots:
        index = layout.sea_of(shot.target)
        seas[index] = dataclasses.replace(seas[index], shots=seas[index].shots + (shot.cell,))
    recent = (state.recent + shots)[-RECENT:]
    return dataclasses.replace(state, seas=tuple(seas), volley=shots, recent=recent, stage="open", answering=(), proving=())


def _unopened(state: ZeeslagState) -> list[tuple[int, int]]:
    """The volley's ``(sea, cell)`` not opened yet, each once, in order."""
    layout = waters(state)
    cells = {(layout.sea_of(shot.target), shot.cell) for shot in state.volley}
    return sorted((sea, cell) for sea, cell in cells if cell not in state.seas[sea].opened)


def _opening(state: ZeeslagState) -> tuple[dict[int, list[tuple[int, int]]], list[tuple[int, int]]]:
    """The unopened cells by their one candidate, and those with several."""
    single: dict[int, list[tuple[int, int]]] = {}
    shared = []
    alive = frozenset(living(state))
    for sea, cell in _unopened(state):
        seats = candidates(state, sea, cell, state.volley, alive)
        if len(seats) == 1:
            single.setdefault(seats[0], []).append((sea, cell))
        elif seats:
            shared.append((sea, cell))
    return single, shared


def pending(state: ZeeslagState) -> Request:
    layout = waters(state)
    if state.stage == "open":
        single, shared = _opening(state)
        if single:
            seat = min(single)
            return OpenHidden(seat, SHIPS, tuple(sorted(_board_cell(state, seat, cell) for _, cell in single[seat])))
        alive = frozenset(living(state))
        sums = tuple(tuple((seat, _board_cell(state, seat, cell)) for seat in candidates(state, sea, cell, state.volley, alive))
                     for sea, cell in shared)
        return OpenSums(SHIPS, sums, 2)
    seat = state.answering[0]
    if state.stage == "answer":
        return Decide(seat, timed=False)
    if state.stage == "prove":
        return OpenHidden(seat, IDS, tuple(sorted(_board_cell(state, seat, c) for ship in state.proving for c in ship)))
    sea = state.seas[layout.sea_of(seat)]
    return OpenHidden(seat, SHIPS, tuple(_board_cell(state, seat, cell) for cell in _ring(state, seat, sea)))


def _board_cell(state: ZeeslagState, seat: int, cell: int) -> int:
    local = waters(state).to_board(seat, cell)
    assert local is not None, f"sea cell {cell} is outside seat {seat}'s board"
    return local


def _ring(state: ZeeslagState, seat: int, sea: Sea) -> tuple[int, ...]:
    """The unopened 8-neighbourhood of the ships being proven (own seas, ``water_ring``)."""
    grid = waters(state).seas[waters(state).sea_of(seat)]
    return tuple(cell for cell in grid.ring(c for ship in state.proving for c in ship) if cell not in sea.opened)


def step(state: ZeeslagState) -> ZeeslagState:
    """The volley's automatic steps: cells nobody living can hold are water, an opening with
    nothing left moves to the answers, an empty queue of answers ends the volley."""
    if state.stage == "open":
        alive = frozenset(living(state))
        nobody = [(sea, cell) for sea, cell in _unopened(state) if not candidates(state, sea, cell, state.volley, alive)]
        if nobody:
            return _found(state, {(sea, cell): (0, ()) for sea, cell in nobody})
        if not _unopened(state):
            return dataclasses.replace(state, stage="answer", answering=_answerers(state))
        return state
    if state.stage == "answer" and not state.answering:
        return dataclasses.replace(state, stage="done")
    return state


def _answerers(state: ZeeslagState) -> tuple[int, ...]:
    """The living seats that may own a hit of the volley."""
    layout = waters(state)
    alive = set(living(state))
    seats = {seat for shot in state.volley for seat in state.seas[layout.sea_of(shot.target)].holders.get(shot.cell, ())}
    return tuple(sorted(seats & alive))


def _found(state: ZeeslagState, found: Mapping[tuple[int, int], tuple[int, tuple[int, ...]]]) -> ZeeslagState:
    """Record what was found at volley cells: ``(sea, cell) -> (ships there, their possible owners)``."""
    seas = list(state.seas)
    for (index, cell), (count, holders) in sorted(found.items()):
        sea = seas[index]
        sea = dataclasses.replace(sea, opened={**sea.opened, cell: count})
        if count:
            sea = dataclasses.replace(sea, hits=sea.hits + (cell,), holders={**sea.holders, cell: holders})
        seas[index] = sea
    layout = waters(state)

    def marked(shot: Shot) -> Shot:
        key = (layout.sea_of(shot.target), shot.cell)
        return dataclasses.replace(shot, hit=found[key][0]) if key in found else shot

    volley = tuple(map(marked, state.volley))
    recent = tuple(map(marked, state.recent))
    return dataclasses.replace(state, seas=tuple(seas), volley=volley, recent=recent)


# ------------------------------------------------------------------ events


def opened(state: ZeeslagState, request: OpenHidden, board: Board, event: Opened) -> ZeeslagState:
    """``board`` is the opening seat's board with the cells learnt (and checked) already."""
    seat = request.seat
    layout = waters(state)
    state = with_board(state, seat, board)
    index = layout.sea_of(seat)
    if state.stage == "open":
        return _found(state, {(index, _sea_cell(state, seat, cell)): (value, (seat,)) for cell, value in event.cells.items()})
    if state.stage == "prove":
        return _proven(state, seat, event.cells)
    ships = [cell for cell in request.cells if event.cells[cell] != 0]
    if ships:
        grid = layout.board
        raise RuleError("zeeslag.ring", f"seat {seat}: a ship lies at {grid.name(ships[0])}, next to a sunk ship")
    sea = state.seas[index]
    water = tuple(_sea_cell(state, seat, cell) for cell in request.cells)
    sea = dataclasses.replace(sea, opened={**sea.opened, **{cell: 0 for cell in water}}, water=sea.water + water)
    return _next_answer(with_sea(state, index, sea))


def _sea_cell(state: ZeeslagState, seat: int, cell: int) -> int:
    sea_cell = waters(state).to_sea(seat, cell)
    assert sea_cell is not None, f"board cell {cell} of seat {seat} lies off the sea"
    return sea_cell


def summed(state: ZeeslagState, request: OpenSums, event: Summed) -> ZeeslagState:
    if len(event.sums) != len(request.sums) or any(type(total) is not int or not 0 <= total <= len(terms)
                                                    for total, terms in zip(event.sums, request.sums)):
        raise RuleError("zeeslag.opened", f"the sums must be one per cell, each at most its number of seats, got {event.sums!r}")
    layout = waters(state)
    found = {}
    for terms, total in zip(request.sums, event.sums):
        seat, local = terms[0]
        found[(layout.sea_of(seat), _sea_cell(state, seat, local))] = (total, tuple(seat for seat, _ in terms))
    return _found(state, found)


def answered(state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
    """A sink answer: checked against the public hits, and against the truth where this state
    knows the seat's fleet (its own node); ships named are proven next."""
    seat = request.seat
    ships = parse_answer(event.move)
    layout = waters(state)
    sea = state.seas[layout.sea_of(seat)]
    name = layout.seas[layout.sea_of(seat)].name
    sunk = {cell for s in sea.sunk if s.seat == seat for cell in s.cells}
    for ship in ships:
        for cell in ship:
            if seat not in sea.holders.get(cell, ()) or cell in sunk:
                raise RuleError("zeeslag.false_sink", f"seat {seat}: {name(cell)} is no hit one of its ships may have taken")
    ids = state.boards[seat].own.get(IDS)
    if ids is not None:
        truth = complete_ships(layout, seat, fleet_of(state), ids, set(sea.hits), set(sunk_ships(state, seat)))
        false = [ship for ship in ships if ship not in truth]
        if false:
            raise RuleError("zeeslag.false_sink", f"seat {seat}: no ship of it lies exactly at {', '.join(map(name, false[0]))}")
        missing = [ship for ship in truth if ship not in ships]
        if missing:
            raise RuleError("zeeslag.missing_sink", f"seat {seat}: its ship at {', '.join(map(name, missing[0]))} sank")
    board = dataclasses.replace(state.boards[seat], answers=state.boards[seat].answers + (len(sea.hits),))
    state = with_board(state, seat, board)
    if ships:
        return dataclasses.replace(state, stage="prove", proving=ships)
    return _next_answer(state)


def truth(state: ZeeslagState, seat: int) -> dict | None:
    """The true sink answer due from ``seat``, if this state knows its fleet."""
    ids = state.boards[seat].own.get(IDS)
    if ids is None:
        return None
    layout = waters(state)
    sea = state.seas[layout.sea_of(seat)]
    ships = complete_ships(layout, seat, fleet_of(state), ids, set(sea.hits), set(sunk_ships(state, seat)))
    return {"sunk": [list(ship) for ship in ships]}


def _proven(state: ZeeslagState, seat: int, ids: Mapping[int, int]) -> ZeeslagState:
    layout = waters(state)
    fleet = fleet_of(state)
    index = layout.sea_of(seat)
    sunk = set(sunk_ships(state, seat))
    records = []
    for ship in state.proving:
        cells = tuple(_board_cell(state, seat, cell) for cell in ship)
        problem = false_sink(layout.board, fleet, cells, ids, sunk)
        if problem is not None:
            raise RuleError("zeeslag.false_sink", f"seat {seat}: {problem}")
        number = ids[cells[0]] - 1
        sunk.add(number)
        records.append(Sunk(seat, number, ship, len(state.boards[seat].answers) - 1))
    sea = state.seas[index]
    state = with_sea(state, index, dataclasses.replace(sea, sunk=sea.sunk + tuple(records)))
    state = _credit(state, records)
    if state.options.get("water_ring") and not layout.shared and _ring(state, seat, state.seas[index]):
        return dataclasses.replace(state, stage="ring")
    return _next_answer(state)


def _credit(state: ZeeslagState, records: list[Sunk]) -> ZeeslagState:
    """Each sink counts for every enemy of its owner whose shot of this volley hit the ship,
    and is marked on those shots."""
    layout = waters(state)
    sank = state.sank
    sinking: dict[Shot, tuple[tuple[int, int], ...]] = {}
    for record in records:
        mates = team_of(state, record.seat)
        shots = [shot for shot in state.volley if shot.hit and shot.cell in record.cells
                 and layout.sea_of(shot.target) == layout.sea_of(record.seat)]
        for shooter in sorted({shot.seat for shot in shots if shot.seat not in mates}):
            sank = replace_at(sank, shooter, sank[shooter] + 1)
        for shot in shots:
            sinking[shot] = sinking.get(shot, ()) + ((record.seat, record.ship),)

    def marked(shot: Shot) -> Shot:
        return dataclasses.replace(shot, sunk=shot.sunk + sinking[shot]) if shot in sinking else shot

    return dataclasses.replace(state, sank=sank, volley=tuple(map(marked, state.volley)), recent=tuple(map(marked, state.recent)))


def _next_answer(state: ZeeslagState) -> ZeeslagState:
    return dataclasses.replace(state, stage="answer", answering=state.answering[1:], proving=())
