"""Pig, a sixth game written against the contract alone: the contract test checks it with no
change anywhere else but the line that registers it (``tests/games/test_testing.py``).

Seats take turns; on its turn a seat rolls a die (a public random value) as often as it likes,
adding each roll to its turn total, and holds to bank the total; a 1 loses the turn total and
ends the turn. The first seat to bank ``target`` points wins. Variants: ``pig`` (target 30 by
default) and ``quick`` (15). It declares the turn timer (``timed``) and the base does the rest:
the timer's options, the marker, the count; the timer's move holds, and a seat whose timer runs
out too often loses, as does a seat that forfeits, while the others win.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import (
    Decide,
    Finished,
    Forfeit,
    Move,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    RuleError,
    Simultaneous,
    Timeout,
)
from fairtable.games.options import Integer, Option
from fairtable.games.rules import Rules, timer_on

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
    timeouts: tuple[int, ...] = ()


class Pig(Rules[PigState]):
    id = "pig"
    variants = ("pig", "quick")
    min_seats = 2
    max_seats = 4
    state_type = PigState
    options: dict[str, Option] = {"target": Integer(0, 100, 0)}
    timed = True
    reasons = {"target": "banked the target first"}

    def start(self, variant: str, options: dict[str, Any], seats: int) -> PigState:
        return PigState(options, seats, options["target"] or TARGETS[variant], (0,) * seats, timeouts=(0,) * seats)

    def pending(self, state: PigState) -> Request:
        if state.result is not None:
            return Finished(state.result)
        if state.rolling:
            return PublicRandom(6)
        return Decide(state.turn, timed=timer_on(state.options))

    def present(self, state: PigState) -> range:
        return range(state.seats)

    def on_forfeit(self, state: PigState, event: Forfeit) -> PigState:
        others = tuple(seat for seat in range(state.seats) if seat != event.seat)
        return dataclasses.replace(state, result=Result(others, f"forfeit: {event.reason}", state.banked))

    def on_move(self, state: PigState, request: Decide, event: Move, timeout: Timeout | None = None) -> PigState:
        if event.move not in MOVES or (timeout and event.move != "hold"):
            raise RuleError("pig.move", f"seat {request.seat} rolls or holds (the timer holds); got {event.move!r}")
        if timeout and timeout.final:
            others = tuple(seat for seat in range(state.seats) if seat != request.seat)
            return dataclasses.replace(state, result=Result(others, "timeouts", state.banked))
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

    def moves(self, state: PigState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        return MOVES

    def reveals(self, state: PigState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: PigState, seat: int) -> Any:
        return "hold"

    def view(self, state: PigState, seat: int | None) -> dict:
        return {"banked": list(state.banked), "target": state.target, "total": state.total, "turn": state.turn}


PIG = Pig()
