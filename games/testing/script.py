"""Script, the configurable toy game that asks for whatever requests it is given, in order.

A :class:`Script` walks through its ``steps`` (any of the contract's requests: a shuffle, an
owned shuffle, a deal, a show, a reveal, a public random value, a private draw, hidden data
and its openings, masked sums, simultaneous choices, a decision, the next deal) and then ends
with its ``result``. It keeps track of faces as any card game must: each seat's view shows the
faces of the handles it holds, was shown, drew or saw revealed, and nothing else, so the
referee's lockstep and :func:`~fairtable.games.testing.check_game` hold for it, and a test that
breaks one of those (a leaky view) sees the check catch it.

Its decisions are ``{"show": handle}`` (a card the seat holds, shown to everyone) and
``{"bid": n}``; its simultaneous choices ``{"bid": n}`` (``n`` in ``1 .. seats``); its default
(a timer run out) shows the seat's lowest card not yet shown, else bids 1. Owned decks must be
``owned`` exactly; hidden data is integers below :data:`HIDDEN`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairtable.games import values
from fairtable.games.contract import (
    Chosen,
    CommitHidden,
    Committed,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Event,
    Face,
    Finished,
    Forfeit,
    Handle,
    Move,
    NextDeal,
    Opened,
    OpenHidden,
    OpenSums,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    Reveal,
    Revealed,
    Rng,
    RuleError,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
    Timeout,
)
from fairtable.games.rules import Rules

DONE = Result((0,), "script")
"""The result a script ends with unless it is given another."""
HIDDEN = 100
"""Every value of hidden data is below this (so masked sums of two seats stay below ``2 * HIDDEN``)."""


@dataclass(frozen=True)
class ScriptState:
    """How far the script is, the faces this state knows, what each seat may see, and the public log."""

    options: Mapping[str, Any]
    seats: int
    step: int = 0
    faces: Mapping[Handle, Face] = field(default_factory=dict)
    held: tuple[tuple[Handle, ...], ...] = ()
    """Per seat: the handles whose faces it may see (dealt, drawn, shown to it)."""
    public: tuple[Handle, ...] = ()
    """Handles revealed to everyone (by a reveal or a move that shows them)."""
    log: tuple[str, ...] = ()
    """What everyone learnt at each step (a random value, a move, an opening...), written out, for the views."""
    result: Result | None = None


class Script(Rules[ScriptState]):
    """See the module docstring. ``steps`` are requests; ``id``, seats, ``owned`` (the composition of
    every owned deck) and the final ``result`` are the game's configuration."""

    variants = ("plain",)
    state_type = ScriptState

    def __init__(self, steps: Sequence[Request], *, id: str = "script", seats: tuple[int, int] = (2, 2),
                 owned: tuple[Face, ...] = (), result: Result = DONE) -> None:
        self.id = id
        self.steps = tuple(steps)
        self.min_seats, self.max_seats = seats
        self.owned = owned
        self.result = result

    def start(self, variant: str, options: dict[str, Any], seats: int) -> ScriptState:
        return ScriptState(options, seats, held=((),) * seats)

    def pending(self, state: ScriptState) -> Request:
        if state.result is not None:
            return Finished(state.result)
        return self.steps[state.step] if state.step < len(self.steps) else Finished(self.result)

    # ------------------------------------------------------------------ events

    def present(self, state: ScriptState) -> range:
        return range(state.seats)

    def on_forfeit(self, state: ScriptState, event: Forfeit) -> ScriptState:
        teams = tuple((seat,) for seat in range(state.seats))
        return dataclasses.replace(state, result=Result.forfeit(teams, (event.seat,), f"forfeit: {event.reason}"))

    def _next(self, state: ScriptState, event: Event, logged: Any = None, *, to: Mapping[int, Sequence[Handle]] = {},
              public: Sequence[Handle] = ()) -> ScriptState:
        faces = {**state.faces, **getattr(event, "faces", {})}
        held = tuple(handles + tuple(to.get(seat, ())) for seat, handles in enumerate(state.held))
        return dataclasses.replace(state, step=state.step + 1, faces=faces, held=held, public=state.public + tuple(public),
                                   log=(*state.log, repr(values.to_value(logged))))

    def on_shuffled(self, state: ScriptState, request: Shuffle, event: Shuffled) -> ScriptState:
        return self._next(state, event)

    def on_owned_shuffled(self, state: ScriptState, request: ShuffleOwned, event: Shuffled) -> ScriptState:
        return self._next(state, event)

    def on_dealt(self, state: ScriptState, request: Deal, event: Dealt) -> ScriptState:
        return self._next(state, event, to=dict(request.to))

    def on_shown(self, state: ScriptState, request: Show, event: Shown) -> ScriptState:
        return self._next(state, event, to={seat: request.handles for seat in request.to})

    def on_revealed(self, state: ScriptState, request: Reveal, event: Revealed) -> ScriptState:
        return self._next(state, event, dict(event.faces), public=request.handles)

    def on_random(self, state: ScriptState, request: PublicRandom, event: RandomValue) -> ScriptState:
        if type(event.value) is not int or not 0 <= event.value < request.bound:
            raise RuleError("script.random", f"{event.value!r} is not below {request.bound}")
        return self._next(state, event, event.value)

    def on_drawn(self, state: ScriptState, request: PrivateDraw, event: PrivateDrawn) -> ScriptState:
        handles = tuple(range(request.first_handle, request.first_handle + request.count))
        return self._next(state, event, to={request.seat: handles})

    def on_committed(self, state: ScriptState, request: CommitHidden, event: Committed) -> ScriptState:
        return self._next(state, event)

    def on_opened(self, state: ScriptState, request: OpenHidden, event: Opened) -> ScriptState:
        return self._next(state, event, dict(event.cells))

    def on_summed(self, state: ScriptState, request: OpenSums, event: Summed) -> ScriptState:
        return self._next(state, event, list(event.sums))

    def on_chosen(self, state: ScriptState, request: Simultaneous, event: Chosen, timeouts: tuple[Timeout, ...] = ()) -> ScriptState:
        for seat, choice in zip(request.seats, event.choices):
            if seat in event.defaults:
                if choice != self.default_move(state, seat):
                    raise RuleError("script.default", f"seat {seat}'s default is {self.default_move(state, seat)!r}, not {choice!r}")
            elif seat not in event.absent:
                self.check_choice(state, seat, choice)
        return self._next(state, event, list(event.choices))

    def on_move(self, state: ScriptState, request: Decide, event: Move, timeout: Timeout | None = None) -> ScriptState:
        if event.move not in self.legal_moves(state, event.seat):
            raise RuleError("script.move", f"seat {request.seat} decides one of its legal moves, not {event.move!r}")
        shown = self.reveals(state, event.move)
        if set(event.faces) != set(shown):
            raise RuleError("script.move", f"the move shows handles {list(shown)}, not {sorted(event.faces)}")
        return self._next(state, event, event.move, public=shown)

    def on_deal_started(self, state: ScriptState, request: NextDeal, event: DealStarted) -> ScriptState:
        return self._next(state, event)

    # ------------------------------------------------------------------ decisions and views

    def check_hidden(self, state: ScriptState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        request = self.pending(state)
        if not isinstance(request, CommitHidden) or set(data) != set(request.layers) or any(
                len(values) != request.width * request.height or any(type(v) is not int or not 0 <= v < HIDDEN for v in values)
                for values in data.values()):
            raise RuleError("script.hidden", f"seat {seat}'s hidden data must be an integer below {HIDDEN} per cell of each layer")

    def judge_hidden(self, state: ScriptState, seat: int, data: Mapping[str, tuple[int, ...]]) -> None:
        return None

    def check_composition(self, state: ScriptState, seat: int, cards: tuple[Face, ...]) -> None:
        if cards != self.owned:
            raise RuleError("script.deck", f"seat {seat} owns {list(self.owned)}, not {list(cards)}")

    def random_hidden(self, state: ScriptState, seat: int, request: Request, rng: Rng) -> Any:
        if isinstance(request, ShuffleOwned):
            return self.owned
        if isinstance(request, CommitHidden):
            return {layer: tuple(rng.randrange(10) for _ in range(request.width * request.height)) for layer in request.layers}
        return super().random_hidden(state, seat, request, rng)

    def moves(self, state: ScriptState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        bids = tuple({"bid": n} for n in range(1, state.seats + 1))
        if isinstance(request, Simultaneous):
            return bids
        return tuple({"show": handle} for handle in state.held[seat] if handle not in state.public) + bids

    def reveals(self, state: ScriptState, move: Any) -> tuple[Handle, ...]:
        handle = move.get("show") if isinstance(move, Mapping) else None
        return (handle,) if type(handle) is int else ()

    def default_move(self, state: ScriptState, seat: int) -> Any:
        """Show the seat's lowest card not yet shown, else bid 1."""
        unshown = [handle for handle in state.held[seat] if handle not in state.public]
        return {"show": min(unshown)} if unshown else {"bid": 1}

    def view(self, state: ScriptState, seat: int | None) -> dict:
        visible = sorted({*state.public, *(state.held[seat] if seat is not None else ())})
        return {"faces": [[h, state.faces.get(h)] for h in visible], "log": list(state.log), "step": state.step}


EVERY_KIND: tuple[Request, ...] = (
    PublicRandom(3),
    Shuffle((10, 11, 12, 13, 14), 0),
    Deal(((0, (0,)), (1, (1,)))),
    Reveal((2,)),
    PrivateDraw(0, 10, 2, 5),
    CommitHidden((0, 1), 2, 1),
    OpenHidden(1, "cells", (1,)),
    Simultaneous((0, 1)),
    Decide(0, timed=False),
    ShuffleOwned(1, 2, (20, 21, 22), 10),
    Show((0,), (1,)),
    OpenSums("cells", (((0, 0), (1, 0)),), HIDDEN),
    NextDeal(Result((1,), "deal")),
)
"""One request of each kind the session fulfils, for two seats."""

SCRIPT = Script(EVERY_KIND, owned=(20, 22))
"""Two seats through :data:`EVERY_KIND`."""
