"""How a zeeslag game is decided: the last team with ships wins; leaving and the forfeit policy.

A team is out when all its seats are out. After every volley: one team left wins (all its
seats, sunk ones too), none left (the last fleets sank in one salvo) is a draw. A seat that
leaves (resigns, times out too often, is declared absent) in a game **with teams** loses
with its team (``Result.forfeit``); **without teams** it is out and the others play on, the
last one left winning: its sink answers still due are dropped, and the shots at its
waters find nothing it could be asked for. ``scores`` are the enemy ships each seat helped to sink.
"""

from __future__ import annotations

import dataclasses

from fairtable.games.contract import Result
from fairtable.games.zeeslag.fleet import LAYERS
from fairtable.games.zeeslag.state import ZeeslagState
from fairtable.games.zeeslag.targets import living, teams_for


def teams(state: ZeeslagState) -> tuple[tuple[int, ...], ...]:
    """The game's teams from its options (a seat alone is a team of one)."""
    return teams_for(state.options, len(state.boards))


def result(state: ZeeslagState, winners: tuple[int, ...], reason: str) -> Result:
    """The game's result with ``winners``, ``reason`` and the ships each seat helped sink as scores;
    with teams it names them, so a forfeit loses for the whole team."""
    partners = teams(state) if state.options.get("teams") else ()
    return Result(tuple(sorted(winners)), reason, state.sank, teams=partners)


def decide(state: ZeeslagState, reason: str = "sunk") -> ZeeslagState:
    """The outcome once at most one team has seats living; else ``state`` unchanged."""
    alive = set(living(state))
    standing = [team for team in teams(state) if alive & set(team)]
    if len(standing) > 1:
        return state
    return dataclasses.replace(state, outcome=result(state, standing[0] if standing else (), reason))


def leave(state: ZeeslagState, seat: int, reason: str) -> ZeeslagState:
    """``seat`` leaves during play (``reason`` as the result will say it)."""
    if state.options.get("teams"):
        outcome = Result.forfeit(teams(state), (seat,), reason, state.sank)
        return dataclasses.replace(state, outcome=outcome)
    answering = tuple(other for other in state.answering if other != seat)
    stage, proving = state.stage, state.proving
    if state.answering[:1] == (seat,):
        stage, proving = "answer", ()
    late = tuple(entry for entry in state.late if entry.seat != seat)
    if state.stage in ("beam", "trace", "scan") and state.tasks[0].target == seat:
        stage = "open"
    tasks = tuple(task for task in state.tasks if task.target != seat)
    landing = tuple(other for other in state.landing if other != seat)
    if state.stage == "land" and not landing:
        stage = "open"
    state = dataclasses.replace(state, left=state.left + (seat,), answering=answering, stage=stage, proving=proving, late=late,
                                tasks=tasks, landing=landing)
    return decide(state, reason)


def opening_steps(state: ZeeslagState) -> tuple[tuple[int, str], ...]:
    """The full opening once the outcome is decided, in order: each seat's ``ships`` layer,
    then its ``ids`` layer, then each of its squadrons' layers (space battle)."""
    return tuple((seat, layer) for seat, board in enumerate(state.boards) for layer in (*LAYERS, *board.field_layers[1:]))


def opening_step(state: ZeeslagState) -> int | None:
    """The index of the next full-opening step, skipping seats that withheld; ``None`` when done."""
    steps = opening_steps(state)
    return next((i for i in range(state.opening, len(steps)) if steps[i][0] not in state.withheld), None)
