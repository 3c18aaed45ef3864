"""The duel rules, whenever exactly two seats are living: alternate shots, a hit shoots again.

Who shoots first is a public random value over the two (``PublicRandom(2)``), drawn after
the fleets are committed, or when a game of more seats comes down to two. A turn of shooter
``s`` at its enemy ``e``:

- ``Decide(s, timed=turn_seconds > 0)``: ``{"shoot": cell}``, a cell of ``e``'s waters not
  opened yet (in the shared sea not one of ``s``'s own ship cells); on timeout the timer's
  ``{"shoot": cell, "timeout": true}`` at the first such cell in reading order (the timer does
  not know ``s``'s fleet: ``s`` may then hit its own ship). In the shared sea a seat whose
  every target holds its own ship (fleets may share a border cell) passes: ``{"pass": true}``.
- The volley of that one shot (``volley``). A hit: ``s`` shoots again; else ``e`` shoots.

``max_timeouts`` consecutive timeouts lose at once, before that shot is fired. Every cell of
``e``'s waters opened with ``e`` still afloat means a sink answer was false: ``s`` wins
(``no targets``) and the full opening names the lie. Two passes in a row end in a draw.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import Decide, Move, PublicRandom, Request, RuleError
from fairtable.games.zeeslag import outcome, volley
from fairtable.games.zeeslag.state import Excuse, Shot, ZeeslagState, replace_at, turn_of, with_board
from fairtable.games.zeeslag.targets import aimable, enemies, living, own_ship_cells, public_targets, team_of, waters


def parse_move(move: Any) -> tuple[str, int | None, bool]:
    """``(kind, cell, timeout)`` of a duel move, or :class:`RuleError` ``zeeslag.move``."""
    if isinstance(move, Mapping):
        keys = set(move)
        if keys in ({"shoot"}, {"shoot", "timeout"}) and type(move["shoot"]) is int and move.get("timeout", True) is True:
            return "shoot", move["shoot"], "timeout" in keys
        if move == {"pass": True}:
            return "pass", None, False
    raise RuleError("zeeslag.move", f"a shot is {{'shoot': cell}}, {{'shoot': cell, 'timeout': true}} or {{'pass': true}}, got {move!r}")


def enemy(state: ZeeslagState, seat: int) -> int:
    (other,) = enemies(state, seat)
    return other


def pending(state: ZeeslagState) -> Request:
    if state.turn is None:
        return PublicRandom(2)
    return Decide(state.turn, timed=state.options["turn_seconds"] > 0)


def started(state: ZeeslagState, value: int) -> ZeeslagState:
    return dataclasses.replace(state, turn=living(state)[value], passes=0)


def step(state: ZeeslagState) -> ZeeslagState:
    """No target left for the shooter: a sink answer was false, the shooter wins."""
    if state.turn is not None and not public_targets(state, enemy(state, state.turn)):
        return dataclasses.replace(state, outcome=outcome.result(state, team_of(state, state.turn), "no targets"))
    return state


def moved(state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
    shooter = request.seat
    target = enemy(state, shooter)
    kind, cell, timeout = parse_move(event.move)
    public = public_targets(state, target)
    layout = waters(state)
    if kind == "pass":
        stuck = own_ship_cells(state, shooter) is None or not aimable(state, shooter, target)
        if not layout.shared or not public or not set(public) <= set(layout.reach(shooter)) or not stuck:
            raise RuleError("zeeslag.pass", f"seat {shooter} has targets to aim at; only one whose every target holds its own ship passes")
        board = state.boards[shooter]
        board = dataclasses.replace(board, excuses=board.excuses + (Excuse(public, len(public), 0, 1),))
        state = with_board(state, shooter, board, timeouts=replace_at(state.timeouts, shooter, 0), passes=state.passes + 1)
        if state.passes >= 2:
            return dataclasses.replace(state, outcome=outcome.result(state, (), "no targets"))
        return dataclasses.replace(state, turn=target)
    assert cell is not None
    if cell not in public:
        raise RuleError("zeeslag.target", f"{cell!r} is no cell of the enemy's waters that is still a target")
    if timeout:
        if not request.timed:
            raise RuleError("zeeslag.timer", "this table has no turn timer")
        if cell != public[0]:
            raise RuleError("zeeslag.timeout", f"the timer shoots the first target in reading order, {layout.seas[0].name(public[0])}")
        count = state.timeouts[shooter] + 1
        state = dataclasses.replace(state, timeouts=replace_at(state.timeouts, shooter, count))
        if count >= state.options["max_timeouts"]:
            return outcome.leave(state, shooter, "timeouts")
    else:
        if cell not in aimable(state, shooter, target):
            raise RuleError("zeeslag.own_target", f"seat {shooter} aims at its own ship")
        state = dataclasses.replace(state, timeouts=replace_at(state.timeouts, shooter, 0))
        if layout.shared:
            board = state.boards[shooter]
            state = with_board(state, shooter, dataclasses.replace(board, aimed=board.aimed + (cell,)))
    return volley.begin(dataclasses.replace(state, passes=0), (Shot(shooter, target, cell, timeout),))


def after(state: ZeeslagState) -> ZeeslagState:
    """After the volley: a hit shoots again, else the enemy shoots."""
    shooter = turn_of(state)
    hit = any(shot.hit for shot in state.volley)
    turn = shooter if hit else enemy(state, shooter)
    return dataclasses.replace(state, stage="aim", volley=(), turn=turn)


def legal_moves(state: ZeeslagState, seat: int) -> tuple[Any, ...]:
    if state.turn != seat:
        return ()
    target = enemy(state, seat)
    cells = aimable(state, seat, target)
    if not cells and public_targets(state, target):
        return ({"pass": True},)
    return tuple({"shoot": cell} for cell in cells)


def default_move(state: ZeeslagState, seat: int) -> Any:
    """The timer's shot: the first target in reading order (the timer does not know the fleet)."""
    return {"shoot": public_targets(state, enemy(state, seat))[0], "timeout": True}
