"""Counting, the turn-only toy game: seats take turns adding 1, 2 or 3 to a total; whoever
reaches ``target`` wins the deal, and a match is ``deals`` deals.

It asks for nothing but decisions and, in a match, the next deal, so a table of it costs only
signatures and hashes: the node tests play it over real links and the memory bench plays a
100,000-envelope match of it (``{"target": 100, "deals": 2000}``). A seat that forfeits loses
and every other seat wins. It is registered only where used (:func:`fairtable.games.testing.registered`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import (
    DealStarted,
    Decide,
    Finished,
    Forfeit,
    Move,
    NextDeal,
    Request,
    Result,
    RuleError,
    Simultaneous,
    Timeout,
    Timer,
)
from fairtable.games.options import IDLE_SECONDS, Integer, Option
from fairtable.games.rules import Rules

MOVES = (1, 2, 3)

OPTIONS: dict[str, Option] = {
    "target": Integer(1, 1000, 12),
    "deals": Integer(1, 100_000, 1),
    "turn_seconds": Integer(0, 3600, 0),
}
"""The count to reach, the deals of a match, and the turn timer (off unless set)."""


@dataclass(frozen=True)
class CountState:
    """A deal in progress: the total, whose turn it is and who added last."""

    options: dict
    seats: int
    deal: int = 0
    total: int = 0
    turn: int = 0
    last: int = 0
    out: int | None = None


class Counting(Rules[CountState]):
    """See the module docstring."""

    id = "counting"
    variants = ("normal",)
    min_seats = 2
    max_seats = 8
    state_type = CountState
    options = OPTIONS

    def start(self, variant: str, options: dict[str, Any], seats: int) -> CountState:
        return CountState(options, seats)

    def pending(self, state: CountState) -> Request:
        if state.out is not None:
            return Finished(Result(tuple(seat for seat in range(state.seats) if seat != state.out), "forfeit"))
        if state.total < state.options["target"]:
            return Decide(state.turn, timed=bool(state.options["turn_seconds"]))
        result = Result((state.last,), "count")
        if state.deal + 1 < state.options["deals"]:
            return NextDeal(result)
        return Finished(result, result if state.options["deals"] > 1 else None)

    def present(self, state: CountState) -> range:
        return range(state.seats)

    def on_forfeit(self, state: CountState, event: Forfeit) -> CountState:
        return dataclasses.replace(state, out=event.seat)

    def on_move(self, state: CountState, request: Decide, event: Move, timeout: Timeout | None = None) -> CountState:
        if event.move not in MOVES or type(event.move) is not int:
            raise RuleError("counting.move", "a move is 1, 2 or 3")
        return dataclasses.replace(state, total=state.total + event.move, last=event.seat, turn=(state.turn + 1) % state.seats)

    def on_deal_started(self, state: CountState, request: NextDeal, event: DealStarted) -> CountState:
        deal = state.deal + 1
        return dataclasses.replace(state, deal=deal, total=0, turn=deal % state.seats)

    def moves(self, state: CountState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        return MOVES

    def timer(self, options: Mapping[str, Any]) -> Timer:
        """The table's own ``turn_seconds``; one timeout loses (the toy keeps no count), and an
        untimed decision waits as long as a timed game's default."""
        return Timer(options["turn_seconds"], 1, IDLE_SECONDS)

    def reveals(self, state: CountState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: CountState, seat: int) -> Any:
        return 1

    def view(self, state: CountState, seat: int | None) -> dict:
        return {"deal": state.deal, "total": state.total, "turn": state.turn}


COUNTING = Counting()
