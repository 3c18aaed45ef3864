"""Pig, a sixth game written against the contract alone: the contract test checks it with no
change anywhere else but the line that registers it (``tests/games/test_testing.py``).

Seats take turns; on its turn a seat rolls a die (a public random value) as often as it likes,
adding each roll to its turn total, and holds to bank the total; a 1 loses the turn total and
ends the turn. The first seat to bank ``target`` points wins. Variants: ``pig`` (target 30 by
default) and ``quick`` (15). The turn timer holds (``turn_seconds``; the default move holds),
and a seat that forfeits loses while the others win.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import Decide, Finished, Forfeit, Move, PublicRandom, RandomValue, Request, Result, RuleError
from fairtable.games.options import TIMER, Integer, Option
from fairtable.games.rules import Rules

MOVES = ("roll", "hold")
TARGETS = {"pig": 30, "quick": 15}


@dataclass(frozen=True)
class PigState:
    options: dict
    seats: int
    target: int
    banked: tuple[int, ...]
    turn: int = 0
    total: int = 0
    rolling: bool = False
    result: Result | None = None


class Pig(Rules[PigState]):
    id = "pig"
    variants = ("pig", "quick")
    min_seats = 2
    max_seats = 4
    state_type = PigState
    options: dict[str, Option] = {"target": Integer(0, 100, 0), **TIMER}

    def start(self, variant: str, options: dict[str, Any], seats: int) -> PigState:
        return PigState(options, seats, options["target"] or TARGETS[variant], (0,) * seats)

    def pending(self, state: PigState) -> Request:
        if state.result is not None:
            return Finished(state.result)
        if state.rolling:
            return PublicRandom(6)
        return Decide(state.turn, timed=bool(state.options["turn_seconds"]))

    def on_forfeit(self, state: PigState, event: Forfeit) -> PigState:
        if type(event.seat) is not int or not 0 <= event.seat < state.seats:
            raise RuleError("pig.seat", f"no seat {event.seat!r}")
        others = tuple(seat for seat in range(state.seats) if seat != event.seat)
        return dataclasses.replace(state, result=Result(others, f"forfeit: {event.reason}", state.banked))

    def on_move(self, state: PigState, request: Decide, event: Move) -> PigState:
        if event.seat != request.seat or event.move not in MOVES:
            raise RuleError("pig.move", f"seat {request.seat} rolls or holds; got {event.move!r} from seat {event.seat}")
        if event.move == "roll":
            return dataclasses.replace(state, rolling=True)
        banked = list(state.banked)
        banked[state.turn] += state.total
        if banked[state.turn] >= state.target:
            return dataclasses.replace(state, banked=tuple(banked), total=0, result=Result((state.turn,), "target", tuple(banked)))
        return dataclasses.replace(state, banked=tuple(banked), total=0, turn=(state.turn + 1) % state.seats)

    def on_random(self, state: PigState, request: PublicRandom, event: RandomValue) -> PigState:
        face = event.value + 1
        if face == 1:
            return dataclasses.replace(state, rolling=False, total=0, turn=(state.turn + 1) % state.seats)
        return dataclasses.replace(state, rolling=False, total=state.total + face)

    def legal_moves(self, state: PigState, seat: int) -> tuple[Any, ...]:
        request = self.pending(state)
        return MOVES if isinstance(request, Decide) and request.seat == seat else ()

    def reveals(self, state: PigState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: PigState, seat: int) -> Any:
        return "hold"

    def view(self, state: PigState, seat: int | None) -> dict:
        return {"banked": list(state.banked), "target": state.target, "total": state.total, "turn": state.turn}


PIG = Pig()
