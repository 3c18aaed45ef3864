"""A toy match for the memory bench: deal after deal of counting to :data:`TARGET` by 1 to 3.

No real game's match runs to 100,000 envelopes (shengji ends when a team reaches its target
level, a few thousand envelopes in), and this one costs only signatures and hashes (no
shuffles), so a 100,000-envelope transcript is played and verified in minutes. It is
registered only in the bench's own child processes (:func:`register`), never listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from fairtable.games import DealStarted, Decide, Finished, Forfeit, Game, Move, NextDeal, OptionsError, Request, Result, RuleError, registry

TARGET = 100
"""Each deal's count: about 50 moves, so the match is mostly moves, not commit and seed rounds."""


@dataclass(frozen=True)
class MarathonState:
    options: dict
    seats: int
    deal: int = 0
    total: int = 0
    turn: int = 0
    last: int = 0
    out: int | None = None


class Marathon(Game):
    id = "marathon"
    variants = ("normal",)
    min_seats = 2
    max_seats = 2
    state_type = MarathonState

    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> MarathonState:
        deals = options.get("deals")
        if variant != "normal" or set(options) != {"deals"} or type(deals) is not int or deals < 1:
            raise OptionsError("marathon has the variant normal and the option deals (a positive integer)")
        return MarathonState(dict(options), seats)

    def pending(self, state: MarathonState) -> Request:
        if state.out is not None:
            return Finished(Result((1 - state.out,), "forfeit"))
        if state.total < TARGET:
            return Decide(state.turn)
        result = Result((state.last,), "count")
        return Finished(result, result) if state.deal + 1 >= state.options["deals"] else NextDeal(result)

    def apply(self, state: MarathonState, event: Any) -> MarathonState:
        if isinstance(event, DealStarted):
            return replace(state, deal=state.deal + 1, total=0, turn=(state.deal + 1) % state.seats)
        if isinstance(event, Forfeit):
            return replace(state, out=event.seat)
        if not isinstance(event, Move) or event.move not in (1, 2, 3):
            raise RuleError("marathon.move", "a move is 1, 2 or 3")
        return replace(state, total=state.total + event.move, last=event.seat, turn=(state.turn + 1) % state.seats)

    def legal_moves(self, state: MarathonState, seat: int) -> tuple[Any, ...]:
        return (1, 2, 3)

    def reveals(self, state: MarathonState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: MarathonState, seat: int) -> Any:
        return 1

    def view(self, state: MarathonState, seat: int | None) -> dict:
        return {"deal": state.deal, "total": state.total, "turn": state.turn}


MARATHON = Marathon()
PER_DEAL = TARGET // 2 + 4
"""About how many envelopes a deal takes: its moves, two commits and two seeds."""


def register() -> None:
    registry.register(MARATHON)
