"""A tiny card game for 2 to 4 seats, so the session's decks and draws are tested beyond two seats.

"Highcard": variant ``deck`` shuffles a mental deck of ``3n + 1`` distinct cards, deals two to
each seat, reveals the last card to everyone (the "trump", for show), and refills a seat's hand
with one card after its first play; variant ``draw`` draws the same hands privately (faces
below 10). Two rounds, seats in order, each play shows one card from the hand; the highest
total wins. It exists to exercise the session.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import (
    Deal,
    Dealt,
    Decide,
    Event,
    Finished,
    Forfeit,
    Game,
    Move,
    OptionsError,
    PrivateDraw,
    PrivateDrawn,
    Request,
    Result,
    Reveal,
    Revealed,
    RuleError,
    Shuffle,
    Shuffled,
)

HAND = 2
ROUNDS = 2
DRAW_BOUND = 10


@dataclass(frozen=True)
class HighcardState:
    """The game in progress: hands, cards owed to each seat, the trump, plays and totals."""
    variant: str
    options: Mapping[str, Any]
    hands: tuple[tuple[int, ...], ...]
    owed: tuple[int, ...]
    faces: Mapping[int, int] = field(default_factory=dict)
    next_handle: int = 0
    shuffled: bool = False
    trump: int | None = None
    turn: int = 0
    plays: int = 0
    totals: tuple[int, ...] = ()
    result: Result | None = None


def _replace_at(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


class Highcard(Game):
    """See the module docstring."""

    id = "highcard"
    variants = ("deck", "draw")
    min_seats = 2
    max_seats = 4
    state_type = HighcardState

    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> HighcardState:
        if variant not in self.variants or not self.min_seats <= seats <= self.max_seats:
            raise OptionsError(f"highcard is deck or draw, for 2..4 seats; got {variant!r} for {seats}")
        return HighcardState(variant, dict(options), ((),) * seats, (HAND,) * seats, totals=(0,) * seats)

    def deck_size(self, state: HighcardState) -> int:
        """``3n + 1`` cards: two each, one refill each, and the trump."""
        return 3 * len(state.hands) + 1

    def pending(self, state: HighcardState) -> Request:
        if state.result is not None:
            return Finished(state.result)
        seats = len(state.hands)
        if state.variant == "deck" and not state.shuffled:
            return Shuffle(tuple(range(self.deck_size(state))), 0)
        if any(state.owed):
            if state.variant == "draw":
                seat = next(s for s, count in enumerate(state.owed) if count)
                return PrivateDraw(seat, DRAW_BOUND, state.owed[seat], state.next_handle)
            plan, handle = [], state.next_handle
            for seat, count in enumerate(state.owed):
                if count:
                    plan.append((seat, tuple(range(handle, handle + count))))
                    handle += count
            return Deal(tuple(plan))
        if state.variant == "deck" and state.trump is None:
            return Reveal((self.deck_size(state) - 1,))
        if state.plays == ROUNDS * seats:
            best = max(state.totals)
            winners = tuple(s for s, total in enumerate(state.totals) if total == best)
            return Finished(Result(winners if len(winners) == 1 else (), "score", state.totals))
        return Decide(state.turn)

    def apply(self, state: HighcardState, event: Event) -> HighcardState:
        request = self.pending(state)
        if isinstance(request, Finished):
            raise RuleError("highcard.over", "the game is over")
        if isinstance(event, Forfeit):
            others = tuple(s for s in range(len(state.hands)) if s != event.seat)
            return dataclasses.replace(state, result=Result(others, f"forfeit: {event.reason}"))
        if isinstance(request, Shuffle) and isinstance(event, Shuffled):
            return dataclasses.replace(state, shuffled=True, faces={**state.faces, **event.faces})
        if isinstance(request, Deal) and isinstance(event, Dealt):
            hands, handle = state.hands, state.next_handle
            for seat, handles in request.to:
                hands = _replace_at(hands, seat, hands[seat] + handles)
                handle = max(handle, handles[-1] + 1)
            return dataclasses.replace(state, hands=hands, owed=(0,) * len(hands), next_handle=handle,
                                       faces={**state.faces, **event.faces})
        if isinstance(request, PrivateDraw) and isinstance(event, PrivateDrawn):
            handles = tuple(range(request.first_handle, request.first_handle + request.count))
            return dataclasses.replace(state, hands=_replace_at(state.hands, request.seat, state.hands[request.seat] + handles),
                                       owed=_replace_at(state.owed, request.seat, 0), next_handle=handles[-1] + 1,
                                       faces={**state.faces, **event.faces})
        if isinstance(request, Reveal) and isinstance(event, Revealed):
            handle = request.handles[0]
            return dataclasses.replace(state, trump=event.faces.get(handle, -1), faces={**state.faces, **event.faces})
        if isinstance(request, Decide) and isinstance(event, Move):
            return self._played(state, request, event)
        raise RuleError("highcard.sequence", f"{type(event).__name__} does not answer {type(request).__name__}")

    def _played(self, state: HighcardState, request: Decide, event: Move) -> HighcardState:
        seat = request.seat
        handle = event.move.get("play") if isinstance(event.move, dict) else None
        if event.seat != seat or handle not in state.hands[seat] or set(event.faces) != {handle}:
            raise RuleError("highcard.play", f"seat {seat} must show one card of its hand")
        seats = len(state.hands)
        plays = state.plays + 1
        refill = plays <= seats
        return dataclasses.replace(
            state,
            hands=_replace_at(state.hands, seat, tuple(h for h in state.hands[seat] if h != handle)),
            owed=_replace_at(state.owed, seat, 1) if refill else state.owed,
            totals=_replace_at(state.totals, seat, state.totals[seat] + event.faces[handle]),
            plays=plays,
            turn=plays % seats,
        )

    def legal_moves(self, state: HighcardState, seat: int) -> tuple[Any, ...]:
        if not isinstance(self.pending(state), Decide) or state.turn != seat:
            return ()
        return tuple({"play": handle} for handle in state.hands[seat])

    def reveals(self, state: HighcardState, move: Any) -> tuple[int, ...]:
        handle = move.get("play") if isinstance(move, dict) else None
        return (handle,) if type(handle) is int else ()

    def default_move(self, state: HighcardState, seat: int) -> Any:
        return {"play": state.hands[seat][0]}

    def view(self, state: HighcardState, seat: int | None) -> dict:
        return {"totals": list(state.totals), "turn": state.turn}


HIGHCARD = Highcard()
