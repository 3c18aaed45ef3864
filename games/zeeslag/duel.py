"""The fleet duel: two seats, each with its own sea; alternating shots, a hit shoots again.

A turn walks through stages, each one request (shooter ``s``, target ``t = 1 - s``):

- ``shoot``: ``Decide(s)``, move ``{"shoot": cell}``, a cell of ``t``'s sea not opened yet.
- ``open_shot``: ``OpenHidden(t, "ships", (cell,))``. 0 is a miss and ``t`` shoots next; 1 a hit.
- ``answer``: ``Decide(t, timed=False)``, move ``{"sunk": false}`` (``s`` shoots again) or
  ``{"sunk": true}``: the target's node answers from its own data, so it is untimed.
- ``open_ship``: ``OpenHidden(t, "ids", hit cells joined to the shot)``, judged by ``sinks``.
- ``open_ring`` (option ``water_ring``, if any ring cell is not opened yet):
  ``OpenHidden(t, "ships", those cells)``; all must be 0. Then ``s`` shoots again, unless
  every ship of ``t`` is sunk: ``s`` wins.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import Decide, GameError, Move, Opened, OpenHidden, Request, Result, RuleError
from fairtable.games.zeeslag.fleet import IDS, SHIPS
from fairtable.games.zeeslag.sea import SEA
from fairtable.games.zeeslag.sinks import complete, false_sink, ring_cells, ship_cells
from fairtable.games.zeeslag.state import RECENT, Board, Shot, Sunk, ZeeslagState, aim_of, fleet_of, turn_of, with_board


def targets(board: Board) -> tuple[int, ...]:
    """The cells of ``board`` one may shoot at, in reading order: those not opened yet
    (shots and ring water are opened)."""
    return tuple(cell for cell in range(SEA.size) if cell not in board.ships)


def parse_move(move: Any) -> tuple[str, Any, bool]:
    """``(kind, value, timeout)`` of a move value, or :class:`RuleError` ``zeeslag.move``."""
    if isinstance(move, Mapping):
        keys = set(move)
        if keys in ({"shoot"}, {"shoot", "timeout"}) and type(move["shoot"]) is int and move.get("timeout", True) is True:
            return "shoot", move["shoot"], "timeout" in keys
        if keys == {"sunk"} and type(move["sunk"]) is bool:
            return "sunk", move["sunk"], False
    raise RuleError("zeeslag.move", f"a move is {{'shoot': cell}}, {{'shoot': cell, 'timeout': true}} or {{'sunk': bool}}, got {move!r}")


def truthful_answer(state: ZeeslagState) -> dict | None:
    """The true sink answer due now, if this state knows the target's ``ids`` layer."""
    board = state.boards[1 - turn_of(state)]
    ids = board.own.get(IDS)
    if ids is None:
        return None
    return {"sunk": complete(ids, aim_of(state), set(board.hits))}


class Duel:
    """The duel's turns; the game (``games.zeeslag.game``) handles start, forfeits and the full opening."""

    seats = 2

    def pending(self, state: ZeeslagState) -> Request:
        shooter = turn_of(state)
        target = 1 - shooter
        board = state.boards[target]
        if state.stage == "shoot":
            return Decide(shooter, timed=state.options["turn_seconds"] > 0)
        if state.stage == "open_shot":
            return OpenHidden(target, SHIPS, (aim_of(state),))
        if state.stage == "answer":
            return Decide(target, timed=False)
        if state.stage == "open_ship":
            return OpenHidden(target, IDS, ship_cells(SEA, board, aim_of(state)))
        return OpenHidden(target, SHIPS, ring_cells(SEA, board, board.sunk[-1].cells))

    def result(self, state: ZeeslagState, winners: tuple[int, ...], reason: str) -> Result:
        """A result whose scores are the ships each seat sank."""
        return Result(winners, reason, (len(state.boards[1].sunk), len(state.boards[0].sunk)))

    def start(self, state: ZeeslagState, seat: int) -> ZeeslagState:
        return self._shoot(state, seat)

    # ------------------------------------------------------------------ moves

    def moved(self, state: ZeeslagState, request: Decide, event: Move) -> ZeeslagState:
        if event.seat != request.seat:
            raise RuleError("zeeslag.turn", f"seat {request.seat} is to move, not seat {event.seat}")
        if event.faces:
            raise RuleError("zeeslag.reveal", "zeeslag moves show no cards")
        kind, value, timeout = parse_move(event.move)
        expected = "shoot" if state.stage == "shoot" else "sunk"
        if kind != expected:
            raise RuleError("zeeslag.move", f"seat {request.seat} must {'shoot' if expected == 'shoot' else 'answer whether the hit sank a ship'}")
        if kind == "shoot":
            return self._shot(state, request, value, timeout)
        return self._answered(state, value)

    def _shot(self, state: ZeeslagState, request: Decide, cell: int, timeout: bool) -> ZeeslagState:
        shooter = turn_of(state)
        target = 1 - shooter
        board = state.boards[target]
        legal = targets(board)
        if cell not in legal:
            raise RuleError("zeeslag.target", f"{cell!r} is no cell of the enemy sea that is still a target")
        if timeout:
            if not request.timed:
                raise RuleError("zeeslag.timer", "this table has no turn timer")
            if cell != legal[0]:
                raise RuleError("zeeslag.timeout", f"the timer shoots the first target in reading order, {SEA.name(legal[0])}")
        count = state.timeouts[shooter] + 1 if timeout else 0
        timeouts = state.timeouts[:shooter] + (count,) + state.timeouts[shooter + 1 :]
        if count >= state.options["max_timeouts"]:
            # Checked before the shot is answered: the late seat loses, its last shot is not fired.
            return dataclasses.replace(state, timeouts=timeouts, outcome=self.result(state, (target,), "timeouts"))
        recent = (state.recent + (Shot(shooter, target, cell, timeout),))[-RECENT:]
        board = dataclasses.replace(board, shots=board.shots + (cell,))
        return with_board(state, target, board, timeouts=timeouts, recent=recent, stage="open_shot", aim=cell)

    def _answered(self, state: ZeeslagState, sunk: bool) -> ZeeslagState:
        target = 1 - turn_of(state)
        board = state.boards[target]
        ids = board.own.get(IDS)
        if ids is not None:
            # The target's own node and the verifier judge the answer now; others when the ids are opened.
            cells = ship_cells(SEA, board, aim_of(state))
            problem = false_sink(SEA, fleet_of(state), board, cells, {cell: ids[cell] for cell in cells}) if sunk else None
            if problem is not None:
                raise RuleError("zeeslag.false_sink", f"seat {target}: {problem}")
            if not sunk and complete(ids, aim_of(state), set(board.hits)):
                raise RuleError("zeeslag.missing_sink", f"seat {target}: the hit at {SEA.name(aim_of(state))} sank a ship")
        board = dataclasses.replace(board, answers=board.answers + (sunk,))
        if sunk:
            return with_board(state, target, board, stage="open_ship")
        return self._shoot(with_board(state, target, board), turn_of(state))

    # ------------------------------------------------------------------ openings

    def opened(self, state: ZeeslagState, request: OpenHidden, board: Board, event: Opened) -> ZeeslagState:
        """``board`` is the target's board with the opened cells learnt (and checked) already."""
        target = request.seat
        if state.stage == "open_shot":
            hit = event.cells[aim_of(state)] == 1
            recent = state.recent[:-1] + (dataclasses.replace(state.recent[-1], hit=hit),)
            if not hit:
                return self._shoot(with_board(state, target, board, recent=recent), target)
            board = dataclasses.replace(board, hits=board.hits + (aim_of(state),))
            return with_board(state, target, board, recent=recent, stage="answer")
        if state.stage == "open_ship":
            problem = false_sink(SEA, fleet_of(state), board, request.cells, event.cells)
            if problem is not None:
                raise RuleError("zeeslag.false_sink", f"seat {target}: {problem}")
            ship = event.cells[request.cells[0]] - 1
            recent = state.recent[:-1] + (dataclasses.replace(state.recent[-1], sunk=ship),)
            board = dataclasses.replace(board, sunk=board.sunk + (Sunk(ship, request.cells),))
            state = with_board(state, target, board, recent=recent)
            if state.options["water_ring"] and ring_cells(SEA, board, request.cells):
                return dataclasses.replace(state, stage="open_ring")
            return self._after_sink(state)
        ships = [cell for cell in request.cells if event.cells[cell] != 0]
        if ships:
            raise RuleError("zeeslag.ring", f"seat {target}: a ship lies at {SEA.name(ships[0])}, next to a sunk ship")
        return self._after_sink(with_board(state, target, dataclasses.replace(board, water=board.water + request.cells)))

    def _after_sink(self, state: ZeeslagState) -> ZeeslagState:
        target = 1 - turn_of(state)
        if len(state.boards[target].sunk) == len(fleet_of(state).ships):
            return dataclasses.replace(state, outcome=self.result(state, (turn_of(state),), "sunk"), stage="shoot", aim=None)
        return self._shoot(state, turn_of(state))

    def _shoot(self, state: ZeeslagState, shooter: int) -> ZeeslagState:
        """``shooter`` shoots next; with no target left, a sink answer must have been false: the
        shooter wins, and the full opening names the lie."""
        state = dataclasses.replace(state, turn=shooter, stage="shoot", aim=None)
        if not targets(state.boards[1 - shooter]):
            return dataclasses.replace(state, outcome=self.result(state, (shooter,), "no targets"))
        return state

    # ------------------------------------------------------------------ choices

    def legal_moves(self, state: ZeeslagState, seat: int) -> tuple[Any, ...]:
        request = self.pending(state)
        if not isinstance(request, Decide) or request.seat != seat:
            return ()
        if state.stage == "shoot":
            return tuple({"shoot": cell} for cell in targets(state.boards[1 - seat]))
        truth = truthful_answer(state)
        return (truth,) if truth is not None else ({"sunk": False}, {"sunk": True})

    def default_move(self, state: ZeeslagState, seat: int) -> Any:
        """On timeout: a shot at the first target in reading order (A1, A2, … J10). A sink
        answer is the node's own, untimed, and always the true one."""
        request = self.pending(state)
        if not isinstance(request, Decide) or request.seat != seat:
            raise GameError(f"seat {seat} has no decision to make")
        if state.stage == "shoot":
            return {"shoot": targets(state.boards[1 - seat])[0], "timeout": True}
        truth = truthful_answer(state)
        if truth is None:
            raise GameError(f"this state does not know seat {seat}'s fleet")
        return truth
