"""Answering the space battle's abilities inside a volley, after its shots are opened: nukes,
then lasers, then scans (each kind in the order of the seats using them), every answer an
opening of the target's field layers (``openings``), so a false one is caught at once.

- **Nuke** (``nuke``): its centre was a shot of the volley. If it hit, every cell of the
  diamond not opened yet becomes a ``blast`` shot of the volley and is opened like any shot.
- **Laser** (stage ``beam``, then ``trace``): the beam runs along the column from its start,
  through water and hit cells (opened), and hits the first undamaged ship cell. Public
  knowledge decides it when a cell a scan found holding a ship (``seen``) comes before any
  cell nobody knows; otherwise the target answers ``Decide(target, timed=False)`` →
  ``{"beam": cell}``, the first of those unknown cells holding a ship, or ``{"beam": -1}`` for
  none before the next seen cell (or the column's end). It then opens every unknown cell from
  the first up to that cell (or all of them, for -1): each before it must hold no ship, that
  cell must hold one (``zeeslag.laser``). So the answer shows, beyond the rules, the water the
  beam passed; it becomes water for everyone, and so no target any more (the rules say so only
  of the water ring; shooting known water would waste a shot). The cell hit is a hit of the
  volley (``laser``).
- **Scan** (stage ``scan``): the target opens the 3×3 cells nobody knows; water becomes water
  for everyone, no target any more as for a laser, ship cells become ``seen`` (no damage: they
  stay targets). Openings are public,
  so every seat learns what a scan shows, not only the scanner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from fairtable.games.contract import Decide, Move, Request, RuleError
from fairtable.games.zeeslag.abilities import beam_path, blast_area, scan_area
from fairtable.games.zeeslag.openings import contents, fire, found, layer_due, log, water
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.state import Shot, Task, ZeeslagState, replace_at, with_sea
from fairtable.games.zeeslag.targets import waters

ORDER = ("nuke", "laser", "scan")
"""The order abilities of one volley resolve in, after its shots."""
STAGES = ("beam", "trace", "scan")


def tasks_of(tasks: list[Task]) -> tuple[Task, ...]:
    """The volley's ability tasks in resolution order: nukes, lasers, scans, each by seat, target and cell."""
    return tuple(sorted(tasks, key=lambda task: (ORDER.index(task.kind), task.seat, task.target, task.cell)))


def next_task(state: ZeeslagState) -> ZeeslagState:
    """Every shot is open: detonate the next nuke that hit (its blast is opened next, stage
    ``open``), else go to the first laser or scan; ``state`` unchanged when no task is left."""
    while state.tasks and state.tasks[0].kind == "nuke":
        task, state = state.tasks[0], dataclasses.replace(state, tasks=state.tasks[1:])
        sea = state.seas[task.target]
        if sea.opened.get(task.cell):
            blast = tuple(Shot(task.seat, task.target, cell, False, kind="blast") for cell in blast_area(_grid(state), task.cell)
                          if cell != task.cell and cell not in sea.opened)
            return fire(state, blast)
    if state.tasks:
        return dataclasses.replace(state, stage="beam" if state.tasks[0].kind == "laser" else "scan")
    return state


def _grid(state: ZeeslagState) -> Grid:
    return waters(state).board


def _walk(state: ZeeslagState, task: Task) -> tuple[list[int], int | None]:
    """The laser's cells nobody knows, in order, before the first cell known to hold an undamaged
    ship (a seen one), and that cell (None if none)."""
    sea = state.seas[task.target]
    unknown: list[int] = []
    for cell in beam_path(_grid(state), task.cell):
        if cell in sea.opened:
            continue
        if cell in sea.seen:
            return unknown, cell
        unknown.append(cell)
    return unknown, None


def _traced(state: ZeeslagState, task: Task) -> list[int]:
    unknown, _ = _walk(state, task)
    assert task.answer is not None, "a beam is traced once its target answered"
    return unknown if task.answer == -1 else unknown[: unknown.index(task.answer) + 1]


def _scanned(state: ZeeslagState, task: Task) -> list[int]:
    sea = state.seas[task.target]
    return [cell for cell in scan_area(_grid(state), task.cell) if cell not in sea.opened and cell not in sea.seen]


def pending(state: ZeeslagState) -> Request:
    """What the ability being resolved asks next: the target's beam answer (a decision), or the
    opening of the cells its trace or scan must show."""
    task = state.tasks[0]
    if state.stage == "beam":
        return Decide(task.target, timed=False)
    cells = _traced(state, task) if state.stage == "trace" else _scanned(state, task)
    request = layer_due(state, task.target, cells)
    assert request is not None, "a probe with every layer open is resolved at once"
    return request


def step(state: ZeeslagState) -> ZeeslagState:
    """A laser public knowledge decides, or a probe whose cells are all open, resolves at once."""
    task = state.tasks[0]
    if state.stage == "beam":
        unknown, stop = _walk(state, task)
        return _hit(state, task, stop) if not unknown else state
    cells = _traced(state, task) if state.stage == "trace" else _scanned(state, task)
    if layer_due(state, task.target, cells) is None:
        return _resolve(state, task, cells)
    return state


def truth(state: ZeeslagState, seat: int) -> dict | None:
    """The true beam answer due from ``seat``, if this state knows its field."""
    board = state.boards[seat]
    if not all(layer in board.own for layer in board.field_layers):
        return None
    unknown, _ = _walk(state, state.tasks[0])
    ships = [cell for cell in unknown if any(board.own[layer][cell] for layer in board.field_layers)]
    return {"beam": ships[0] if ships else -1}


def beamed(state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
    """The target's beam answer: a cell the beam may hit; the true one where this state knows the field."""
    task = state.tasks[0]
    move = event.move
    answer = move.get("beam") if isinstance(move, Mapping) and set(move) == {"beam"} else None
    unknown, _ = _walk(state, task)
    if type(answer) is not int or answer not in (-1, *unknown):
        raise RuleError("zeeslag.laser", f"seat {request.seat}: a beam answer is {{'beam': cell}}, a cell of the beam nobody "
                                         f"knows yet, or {{'beam': -1}}, got {move!r}")
    known = truth(state, request.seat)
    if known is not None and known["beam"] != answer:
        grid = _grid(state)
        where = "no ship" if known["beam"] == -1 else f"a ship at {grid.name(known['beam'])}"
        raise RuleError("zeeslag.laser", f"seat {request.seat}: the beam meets {where} first")
    return dataclasses.replace(state, stage="trace", tasks=replace_at(state.tasks, 0, dataclasses.replace(task, answer=answer)))


def _resolve(state: ZeeslagState, task: Task, cells: list[int]) -> ZeeslagState:
    held = contents(state, task.target, cells)
    assert held is not None
    grid = _grid(state)
    if state.stage == "scan":
        ships = [cell for cell in cells if held[cell]]
        state = water(state, task.target, [cell for cell in cells if not held[cell]])
        sea = state.seas[task.target]
        state = with_sea(state, task.target, dataclasses.replace(sea, seen={**sea.seen, **{cell: held[cell] for cell in ships}}))
        state = log(state, Shot(task.seat, task.target, task.cell, False, hit=len(ships), kind="scan"))
        return dataclasses.replace(state, stage="open", tasks=state.tasks[1:])
    passed = cells if task.answer == -1 else cells[:-1]
    ship = next((cell for cell in passed if held[cell]), None)
    if ship is not None:
        raise RuleError("zeeslag.laser", f"seat {task.target}: the beam passed a ship at {grid.name(ship)}")
    if task.answer != -1 and not held[cells[-1]]:
        raise RuleError("zeeslag.laser", f"seat {task.target}: no ship lies at {grid.name(cells[-1])}, where it said the beam hits")
    state = water(state, task.target, passed)
    return _hit(state, task, cells[-1] if task.answer != -1 else _walk(state, task)[1], held)


def _hit(state: ZeeslagState, task: Task, stop: int | None, held: Mapping[int, int] | None = None) -> ZeeslagState:
    """The laser hits ``stop`` (a hit of the volley), or nothing."""
    state = dataclasses.replace(state, stage="open", tasks=state.tasks[1:])
    if stop is None:
        return log(state, Shot(task.seat, task.target, task.cell, False, hit=0, kind="laser"))
    count = held[stop] if held is not None and stop in held else state.seas[task.target].seen[stop]
    state = fire(state, (Shot(task.seat, task.target, stop, False, kind="laser"),))
    return found(state, {(task.target, stop): (count, (task.target,))})
