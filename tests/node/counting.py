"""A tiny game for any number of seats, registered for the node tests: seats take turns adding 1..3."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from fairtable.games.contract import Decide, Finished, Forfeit, Game, Move, OptionsError, Result, RuleError, Timer
from fairtable.protocol.session.replica import IDLE_SECONDS

TARGET = 12


@dataclass(frozen=True)
class CountState:
    options: dict
    seats: int
    total: int = 0
    turn: int = 0
    last: int = 0
    out: int | None = None


class Counting(Game):
    id = "counting"
    variants = ("normal",)
    min_seats = 2
    max_seats = 8
    state_type = CountState

    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> CountState:
        if variant != "normal" or set(options) - {"turn_seconds"}:
            raise OptionsError("counting has the variant normal and the option turn_seconds")
        return CountState(dict(options), seats)

    def pending(self, state: CountState):
        if state.out is not None:
            return Finished(Result(tuple(s for s in range(state.seats) if s != state.out), "forfeit"))
        if state.total >= TARGET:
            return Finished(Result((state.last,), "count"))
        return Decide(state.turn, timed=bool(state.options.get("turn_seconds")))

    def apply(self, state: CountState, event) -> CountState:
        if isinstance(event, Forfeit):
            return replace(state, out=event.seat)
        if not isinstance(event, Move) or event.move not in (1, 2, 3):
            raise RuleError("counting.move", "a move is 1, 2 or 3")
        return replace(state, total=state.total + event.move, last=event.seat, turn=(state.turn + 1) % state.seats)

    def timer(self, options: Mapping[str, Any]) -> Timer:
        return Timer(options.get("turn_seconds", 0), max_timeouts=1, idle_seconds=IDLE_SECONDS)

    def legal_moves(self, state: CountState, seat: int) -> tuple[Any, ...]:
        return (1, 2, 3)

    def reveals(self, state: CountState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: CountState, seat: int) -> Any:
        return 1

    def view(self, state: CountState, seat: int | None) -> dict:
        return {"total": state.total, "turn": state.turn}


COUNTING = Counting()
