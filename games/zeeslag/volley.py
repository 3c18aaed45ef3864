"""Answering a volley: the shots of a duel turn or of a salvo, from openings to sinks.

Every variant answers its shots alike, stage by stage, each stage one request:

- ``land`` (space battle): each seat landing a reserve commits its squadron (``reserve``),
  before any shot of the round is answered.
- ``open``: each shot cell not opened yet is answered by its **candidates** (``targets``).
  None: nobody living can have a ship there, it is water at once. One: that seat opens the
  cell in its ``ships`` layer, ``OpenHidden(seat, "ships", board cells)`` (seats in order), and
  then in each of its squadrons' layers, if it has any (``openings``); a cell whose every layer
  is open already (a scan found a ship there) needs no message. Two or more (a border cell of
  the shared sea): ``OpenSums("ships", one sum per cell, 2)`` tells everyone how many ships lie
  there, not whose; the hit shows "?" until a sink names its owner. A cell with ships is a hit.
- ``beam``, ``trace``, ``scan`` (space battle): the volley's abilities, once its shots are
  open (``effects``); a nuke's blast is opened as shots of the volley.
- ``answer``: every living candidate of a hit of the volley, in seat order, answers which of
  its ships sank: ``Decide(seat, timed=False)``, ``{"sunk": [[sea cells], ...]}`` (``sinks``).
  A reserve fighter hit is sunk, and everyone knows it: it must be named, as a one-cell ship.
- ``prove``: a seat that named ships of its fleet opens their cells in its ``ids`` layer
  (judged by ``sinks``); a fighter's opening proved it already.
- ``ring`` (own seas with ``water_ring``): it opens the unopened 8-neighbourhood of those
  ships in its field layers; every value must be 0 (``zeeslag.ring``).

Then the volley is ``done`` and the turn rules (``duel``, ``salvo``) say what follows.
"""

from __future__ import annotations

import dataclasses

from fairtable.games.contract import Decide, Move, OpenHidden, OpenSums, Request, RuleError, Summed
from fairtable.games.zeeslag import effects, reserve
from fairtable.games.zeeslag.blame import blame
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.openings import board_cell, contents, fire, found, layer_due, sea_cell, water
from fairtable.games.zeeslag.sinks import complete_ships, false_sink, parse_answer
from fairtable.games.zeeslag.starships import CATALOGUE
from fairtable.games.zeeslag.state import Board, Sea, Shot, Sunk, ZeeslagState, fleet_of, replace_at, with_board, with_sea
from fairtable.games.zeeslag.targets import candidates, living, sunk_ships, team_of, waters

STAGES = ("land", "open", "beam", "trace", "scan", "answer", "prove", "ring")


def begin(state: ZeeslagState, shots: tuple[Shot, ...]) -> ZeeslagState:
    """Fire ``shots`` and start answering them, after the reserves landing this round (``landing``)
    and before the round's abilities (``tasks``)."""
    state = fire(dataclasses.replace(state, volley=(), answering=(), proving=()), shots)
    return dataclasses.replace(state, stage="land" if state.landing else "open")


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
    """What answering the volley asks next: a reserve landing, a cell opening (one seat's layer, or
    a masked sum for a shared border cell), an ability's answer, a sink answer or its proof."""
    if state.stage == "land":
        return reserve.request(state)
    if state.stage == "open":
        single, shared = _opening(state)
        if single:
            seat = min(single)
            request = layer_due(state, seat, [cell for _, cell in single[seat]])
            assert request is not None, "a cell whose every layer is open is found at once"
            return request
        alive = frozenset(living(state))
        sums = tuple(tuple((seat, board_cell(state, seat, cell)) for seat in candidates(state, sea, cell, state.volley, alive))
                     for sea, cell in shared)
        return OpenSums("ships", sums, 2)
    if state.stage in effects.STAGES:
        return effects.pending(state)
    seat = state.answering[0]
    if state.stage == "answer":
        return Decide(seat, timed=False)
    if state.stage == "prove":
        return OpenHidden(seat, IDS, _proof_cells(state, seat))
    request = layer_due(state, seat, _ring(state, seat, state.seas[waters(state).sea_of(seat)]))
    assert request is not None, "a ring whose every layer is open is judged at once"
    return request


def _ring(state: ZeeslagState, seat: int, sea: Sea) -> tuple[int, ...]:
    """The unopened 8-neighbourhood of the ships being proven (own seas, ``water_ring``)."""
    grid = waters(state).seas[waters(state).sea_of(seat)]
    return tuple(cell for cell in grid.ring(c for ship in state.proving for c in ship) if cell not in sea.opened)


def step(state: ZeeslagState) -> ZeeslagState:
    """The volley's automatic steps: cells nobody living can hold are water, cells whose every
    layer is open are found, the abilities follow the shots, an empty queue of answers ends the
    volley; a proof or a ring whose cells are all open is judged."""
    if state.stage == "open":
        alive = frozenset(living(state))
        settled = {}
        for sea, cell in _unopened(state):
            seats = candidates(state, sea, cell, state.volley, alive)
            held = contents(state, seats[0], (cell,)) if len(seats) == 1 else None
            if not seats or held is not None:
                settled[(sea, cell)] = (held[cell], (seats[0],)) if held is not None else (0, ())
        if settled:
            return found(state, settled)
        if not _unopened(state):
            following = effects.next_task(state)
            return dataclasses.replace(state, stage="answer", answering=_answerers(state)) if following is state else following
        return state
    if state.stage in effects.STAGES:
        return effects.step(state)
    if state.stage == "answer" and not state.answering:
        return dataclasses.replace(state, stage="done")
    if state.stage == "prove" and all(cell in state.boards[state.answering[0]].ids for cell in _proof_cells(state, state.answering[0])):
        return _proven(state, state.answering[0])
    if state.stage == "ring":
        seat = state.answering[0]
        cells = _ring(state, seat, state.seas[waters(state).sea_of(seat)])
        if layer_due(state, seat, cells) is None:
            return _ringed(state, seat, cells)
    return state


def _answerers(state: ZeeslagState) -> tuple[int, ...]:
    """The living seats that may own a hit of the volley."""
    layout = waters(state)
    alive = set(living(state))
    seats = {seat for shot in state.volley for seat in state.seas[layout.sea_of(shot.target)].holders.get(shot.cell, ())}
    return tuple(sorted(seats & alive))


# ------------------------------------------------------------------ events


def opened(state: ZeeslagState, request: OpenHidden, board: Board) -> ZeeslagState:
    """``board`` is the opening seat's board with the cells learnt (and checked) already; what
    they show is taken in by :func:`step`."""
    return with_board(state, request.seat, board)


def summed(state: ZeeslagState, request: OpenSums, event: Summed) -> ZeeslagState:
    """Apply the masked sums of shared border cells: how many ships lie at each, not whose; raises
    :class:`RuleError` for a sum that is out of range or missing."""
    if len(event.sums) != len(request.sums) or any(type(total) is not int or not 0 <= total <= len(terms)
                                                    for total, terms in zip(event.sums, request.sums)):
        raise RuleError("zeeslag.opened", f"the sums must be one per cell, each at most its number of seats, got {event.sums!r}")
    layout = waters(state)
    cells = {}
    for terms, total in zip(request.sums, event.sums):
        seat, local = terms[0]
        cells[(layout.sea_of(seat), sea_cell(state, seat, local))] = (total, tuple(seat for seat, _ in terms))
    return found(state, cells)


def _fighters(state: ZeeslagState, seat: int) -> dict[int, int]:
    """The seat's reserve fighters found on hit cells and not sunk yet: sea cell -> ship id."""
    board = state.boards[seat]
    sea = state.seas[waters(state).sea_of(seat)]
    sunk = {cell for record in sea.sunk if record.seat == seat for cell in record.cells}
    downed = {}
    for wing, squadron in enumerate(board.squadrons, 1):
        for local, number in squadron.opened.items():
            cell = sea_cell(state, seat, local)
            if number and cell in sea.hits and cell not in sunk:
                downed[cell] = CATALOGUE.fighter(wing, number)
    return downed


def answered(state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
    """A sink answer: checked against the public hits (and the fighters everyone saw hit), and
    against the truth where this state knows the seat's fleet (its own node); ships named are
    proven next."""
    seat = request.seat
    ships = parse_answer(event.move)
    layout = waters(state)
    sea = state.seas[layout.sea_of(seat)]
    name = layout.seas[layout.sea_of(seat)].name
    sunk = {cell for s in sea.sunk if s.seat == seat for cell in s.cells}
    for ship in ships:
        for cell in ship:
            if seat not in sea.holders.get(cell, ()) or cell in sunk:
                raise blame(state, seat, "zeeslag.false_sink", f"seat {seat}: {name(cell)} is no hit one of its ships may have taken")
    fighters = _fighters(state, seat)
    missing = sorted(set(fighters) - {ship[0] for ship in ships if len(ship) == 1})
    if missing:
        raise blame(state, seat, "zeeslag.missing_sink", f"seat {seat}: its fighter at {name(missing[0])} was hit, so it sank")
    ids = state.boards[seat].own.get(IDS)
    if ids is not None:
        truth = _true_ships(state, seat, ids)
        false = [ship for ship in ships if ship not in truth]
        if false:
            raise blame(state, seat, "zeeslag.false_sink", f"seat {seat}: no ship of it lies exactly at {', '.join(map(name, false[0]))}")
        missing_ships = [ship for ship in truth if ship not in ships]
        if missing_ships:
            raise blame(state, seat, "zeeslag.missing_sink", f"seat {seat}: its ship at {', '.join(map(name, missing_ships[0]))} sank")
    board = dataclasses.replace(state.boards[seat], answers=state.boards[seat].answers + (len(sea.hits),))
    state = with_board(state, seat, board)
    if ships:
        return dataclasses.replace(state, stage="prove", proving=ships)
    return _next_answer(state)


def _true_ships(state: ZeeslagState, seat: int, ids: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The ships of ``seat`` a true sink answer names now: its fleet's complete ships and its fighters hit."""
    layout = waters(state)
    sea = state.seas[layout.sea_of(seat)]
    ships = complete_ships(layout, seat, fleet_of(state), ids, set(sea.hits), set(sunk_ships(state, seat)))
    return tuple(sorted(ships + tuple((cell,) for cell in _fighters(state, seat))))


def truth(state: ZeeslagState, seat: int) -> dict | None:
    """The true sink answer due from ``seat``, if this state knows its fleet."""
    ids = state.boards[seat].own.get(IDS)
    if ids is None:
        return None
    return {"sunk": [list(ship) for ship in _true_ships(state, seat, ids)]}


def _proof_cells(state: ZeeslagState, seat: int) -> tuple[int, ...]:
    """The board cells of the fleet ships being proven (fighters need no proof)."""
    fighters = _fighters(state, seat)
    return tuple(sorted(board_cell(state, seat, c) for ship in state.proving if not (len(ship) == 1 and ship[0] in fighters) for c in ship))


def _proven(state: ZeeslagState, seat: int) -> ZeeslagState:
    layout = waters(state)
    fleet = fleet_of(state)
    index = layout.sea_of(seat)
    sunk = set(sunk_ships(state, seat))
    fighters = _fighters(state, seat)
    ids = state.boards[seat].ids
    records = []
    for ship in state.proving:
        answer = len(state.boards[seat].answers) - 1
        if len(ship) == 1 and ship[0] in fighters:
            records.append(Sunk(seat, fighters[ship[0]], ship, answer))
            continue
        cells = tuple(board_cell(state, seat, cell) for cell in ship)
        problem = false_sink(layout.board, fleet, cells, ids, sunk)
        if problem is not None:
            raise blame(state, seat, "zeeslag.false_sink", f"seat {seat}: {problem}")
        number = ids[cells[0]] - 1
        sunk.add(number)
        records.append(Sunk(seat, number, ship, answer))
    sea = state.seas[index]
    state = with_sea(state, index, dataclasses.replace(sea, sunk=sea.sunk + tuple(records)))
    state = _credit(state, records)
    if state.options.get("water_ring") and not layout.shared and _ring(state, seat, state.seas[index]):
        return dataclasses.replace(state, stage="ring")
    return _next_answer(state)


def _ringed(state: ZeeslagState, seat: int, cells: tuple[int, ...]) -> ZeeslagState:
    """The ring's cells are open: all water, or the seat's fleet touches the sunk ship."""
    held = contents(state, seat, cells)
    assert held is not None
    ships = [cell for cell in cells if held[cell]]
    if ships:
        grid = waters(state).seas[waters(state).sea_of(seat)]
        raise RuleError("zeeslag.ring", f"seat {seat}: a ship lies at {grid.name(ships[0])}, next to a sunk ship")
    return _next_answer(water(state, waters(state).sea_of(seat), cells))


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
