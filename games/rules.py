"""The base class of a game's rules: setup validation, the routine checks, the turn timer and
event dispatch, so a game writes only its rules, its reasons and its view.

:meth:`Rules.setup` refuses an unknown variant, a seat count outside the variant's range and
bad options (against the declared ``options``) with an :class:`OptionsError` naming what was
wrong, then calls :meth:`Rules.start` with the options filled in. :meth:`Rules.apply`
refuses any event once the game is over (``<id>.over``) and any event that does not answer
the pending request (``<id>.sequence``), makes the checks every game needs under the game's
own rule ids (a forfeiting seat is :meth:`Rules.present`, ``<id>.seat``; a move comes from the
deciding seat, ``<id>.turn``; a public value is below its bound, ``<id>.random``; a shuffle's
faces are its cards, ``<id>.shuffle``), runs the turn timer of a game declared
:attr:`Rules.timed` (the marker, the count, the :class:`Timeout`), sends a :class:`Forfeit` to
:meth:`Rules.on_forfeit` and every other event to the handler the request table names for it
(``games.requests``: ``Move`` ->
:meth:`Rules.on_move`, a ``Shuffled`` of a ``ShuffleOwned`` -> :meth:`Rules.on_owned_shuffled`,
...), called as ``handler(state, request, event)``. A game overrides the handlers of the
requests it makes; the others keep refusing. ``spec/games.md`` describes it all.
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Collection, Mapping
from typing import Any

from fairtable.games.contract import (
    GENERIC,
    Chosen,
    CommitHidden,
    Committed,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Event,
    Finished,
    Forfeit,
    Game,
    Move,
    NextDeal,
    Opened,
    OpenHidden,
    OpenSums,
    OptionsError,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    RuleError,
    S,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
    Timeout,
    Timer,
)
from fairtable.games.options import TIMER, Option, validate
from fairtable.games.requests import answers

MARK = "timeout"
"""The key that marks a move as the timer's (``"timeout": true``), the rules' default for a late seat."""


def timer_on(options: Mapping[str, Any]) -> bool:
    """Whether a timed game's table runs its turn timer (``turn_seconds`` above 0): the ``timed`` of its decisions."""
    return options["turn_seconds"] > 0


def unmarked(move: Any) -> Any:
    """``move`` without the timer's marker: what a timed game's own move parser reads."""
    return {key: value for key, value in move.items() if key != MARK} if isinstance(move, Mapping) else move


class Rules(Game[S]):
    """A game on the contract with the common parts done; see the module docstring."""

    timed: bool = False
    """The game runs the turn timer: the base adds the timer's options (:data:`TIMER`), answers
    :meth:`timer`, strips and checks the marker of a timed move, counts each seat's consecutive
    timeouts (:meth:`timeouts`, :meth:`with_timeouts`) and hands the game a :class:`Timeout`."""

    def options_for(self, variant: str) -> Mapping[str, Option]:
        """The game's own options, then the timer's when it is timed: a game never lists them itself."""
        own = self.variant_options(variant)
        return {**own, **TIMER} if self.timed else own

    def variant_options(self, variant: str) -> Mapping[str, Option]:
        """The game's own options for a table of ``variant`` (all of ``options`` unless it says otherwise)."""
        return self.options

    def timer(self, options: Mapping[str, Any]) -> Timer | None:
        """A timed game's timer, read from the options the base added; None for an untimed one."""
        if not self.timed:
            return None
        return Timer(options["turn_seconds"], options["max_timeouts"], options["idle_seconds"])

    def timeouts(self, state: S) -> tuple[int, ...]:
        """A timed game's consecutive timeouts per seat: by default its (frozen dataclass) state's
        ``timeouts`` field, so a game that keeps them there writes nothing."""
        return state.timeouts  # type: ignore[attr-defined]

    def with_timeouts(self, state: S, counts: tuple[int, ...]) -> S:
        """``state`` with these consecutive timeouts per seat: by default a copy with its ``timeouts`` field replaced."""
        return dataclasses.replace(state, timeouts=counts)  # type: ignore[type-var]

    def setup(self, variant: str, options: Mapping[str, Any], seats: int) -> S:
        """Check the variant, the seat count and the options against what the game declares, then
        :meth:`start`: a game never sees a setup it did not declare."""
        if variant not in self.variants:
            raise OptionsError(f"unknown variant {variant!r}; {self.id} variants are: {', '.join(self.variants)}")
        low, high = self.seat_range(variant)
        if type(seats) is not int or not low <= seats <= high:
            same = all(self.seat_range(other) == (low, high) for other in self.variants)
            name = self.id if same else f"{self.id} {variant}"
            count = f"exactly {low}" if low == high else f"{low} to {high}"
            raise OptionsError(f"{name} is played by {count} seats, got {seats}")
        return self.start(variant, validate(self.id, self.options_for(variant), options), seats)

    @abstractmethod
    def start(self, variant: str, options: dict[str, Any], seats: int) -> S:
        """The initial state of a checked setup (``options`` complete, defaults filled in)."""

    def apply(self, state: S, event: Event) -> S:
        """Route ``event`` to the handler the request table names for the pending request, refusing
        events after the end and out of sequence, so no game writes that check itself."""
        request = self.pending(state)
        if isinstance(request, Finished):
            raise RuleError(f"{self.id}.over", "the game is over", "over")
        if isinstance(event, Forfeit):
            if type(event.seat) is not int or event.seat not in self.present(state):
                raise RuleError(f"{self.id}.seat", f"seat {event.seat!r} is not playing")
            return self.on_forfeit(state, event)
        handler = answers(event, request)
        if handler is None:
            raise self._sequence(request, event)
        self._routine(request, event)
        if self.timed and isinstance(event, Move) and isinstance(request, Decide):
            return self._timed_move(state, request, event)
        if self.timed and isinstance(event, Chosen) and isinstance(request, Simultaneous) and request.timed:
            state, late = self._count(state, tuple(seat for seat in request.seats if seat not in event.absent), event.defaults)
            return self.on_chosen(state, request, event, late)
        return getattr(self, handler)(state, request, event)

    def _timed_move(self, state: S, request: Decide, event: Move) -> S:
        """The timer's routine for a move: strip and check the marker, count the mover's timeouts
        (on a timed decision: one more, or back to 0), hand the game the :class:`Timeout`."""
        marked = isinstance(event.move, Mapping) and MARK in event.move
        if marked and event.move[MARK] is not True:
            raise RuleError(f"{self.id}.move", f"the timer's marker is 'timeout': true, got {event.move!r}")
        if marked and not request.timed:
            raise RuleError(f"{self.id}.timer", "this table has no turn timer", "timeout")
        move = Move(event.seat, unmarked(event.move), event.faces)
        if not request.timed:
            return self.on_move(state, request, move)
        state, late = self._count(state, (event.seat,), (event.seat,) if marked else ())
        return self.on_move(state, request, move, *late)

    def _count(self, state: S, seats: tuple[int, ...], late: tuple[int, ...]) -> tuple[S, tuple[Timeout, ...]]:
        """``seats`` decided: the ``late`` ones by the timer (one more timeout each), the others
        themselves (back to 0); the state with the new counts, and a :class:`Timeout` per late seat."""
        counts = list(self.timeouts(state))
        for seat in seats:
            counts[seat] = counts[seat] + 1 if seat in late else 0
        timer = self.timer(self.options_of(state))
        assert timer is not None  # only a timed game counts
        limit = timer.max_timeouts
        return self.with_timeouts(state, tuple(counts)), tuple(Timeout(seat, counts[seat], counts[seat] >= limit) for seat in seats if seat in late)

    def _routine(self, request: Request, event: Event) -> None:
        """The checks every game makes alike, before its own handler sees the event."""
        if isinstance(event, Move) and isinstance(request, Decide) and event.seat != request.seat:
            raise RuleError(f"{self.id}.turn", f"seat {request.seat} is to move, not seat {event.seat}", "turn")
        if isinstance(event, RandomValue) and isinstance(request, PublicRandom):
            if type(event.value) is not int or not 0 <= event.value < request.bound:
                raise RuleError(f"{self.id}.random", f"the public value must be below {request.bound}, got {event.value!r}")
        if isinstance(event, Shuffled) and event.faces and isinstance(request, Shuffle | ShuffleOwned):
            # A public deck's faces are its cards; an owned deck's are its owner's composition (sorted).
            if isinstance(request, Shuffle):
                size, shuffled = len(request.cards), sorted(request.cards)
            else:
                size, shuffled = request.size, list(event.composition)
            handles = range(request.first_handle, request.first_handle + size)
            if set(event.faces) != set(handles) or sorted(event.faces.values()) != shuffled:
                raise RuleError(f"{self.id}.shuffle", "the shuffled faces are not the cards that were shuffled")

    @abstractmethod
    def present(self, state: S) -> Collection[int]:
        """The seats still playing: the only ones a :class:`Forfeit` may name (``<id>.seat``)."""

    def legal_moves(self, state: S, seat: int) -> tuple[Any, ...]:
        """Nothing for a seat that does not decide now; else the game's :meth:`moves`."""
        request = self.pending(state)
        if (isinstance(request, Decide) and request.seat == seat) or (isinstance(request, Simultaneous) and seat in request.seats):
            return self.moves(state, request, seat)
        return ()

    @abstractmethod
    def moves(self, state: S, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        """The moves (or simultaneous choices) of ``seat``, which decides ``request`` now, as far
        as this state's knowledge allows; empty where they are too many to list."""

    def _sequence(self, request: Request, event: Event) -> RuleError:
        return RuleError(f"{self.id}.sequence", f"{type(request).__name__} is pending, not answered by {type(event).__name__}",
                         "wait" if isinstance(event, Move) else GENERIC)

    @abstractmethod
    def on_forfeit(self, state: S, event: Forfeit) -> S:
        """The game's forfeit policy: end (e.g. ``Result.forfeit`` over its teams) or go on without the seat."""

    def on_move(self, state: S, request: Decide, event: Move, timeout: Timeout | None = None) -> S:
        """A move of the deciding seat; in a timed game without the marker, and with the
        :class:`Timeout` when the timer made it."""
        raise self._sequence(request, event)

    def on_shuffled(self, state: S, request: Shuffle, event: Shuffled) -> S:
        """The state after a ``Shuffled`` answers the pending ``Shuffle``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_owned_shuffled(self, state: S, request: ShuffleOwned, event: Shuffled) -> S:
        """The state after a ``Shuffled`` answers the pending ``ShuffleOwned``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_dealt(self, state: S, request: Deal, event: Dealt) -> S:
        """The state after a ``Dealt`` answers the pending ``Deal``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_shown(self, state: S, request: Show, event: Shown) -> S:
        """The state after a ``Shown`` answers the pending ``Show``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_revealed(self, state: S, request: Reveal, event: Revealed) -> S:
        """The state after a ``Revealed`` answers the pending ``Reveal``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_random(self, state: S, request: PublicRandom, event: RandomValue) -> S:
        """The state after a ``RandomValue`` answers the pending ``PublicRandom``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_drawn(self, state: S, request: PrivateDraw, event: PrivateDrawn) -> S:
        """The state after a ``PrivateDrawn`` answers the pending ``PrivateDraw``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_committed(self, state: S, request: CommitHidden, event: Committed) -> S:
        """The state after a ``Committed`` answers the pending ``CommitHidden``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_opened(self, state: S, request: OpenHidden, event: Opened) -> S:
        """The state after a ``Opened`` answers the pending ``OpenHidden``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_summed(self, state: S, request: OpenSums, event: Summed) -> S:
        """The state after a ``Summed`` answers the pending ``OpenSums``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_chosen(self, state: S, request: Simultaneous, event: Chosen, timeouts: tuple[Timeout, ...] = ()) -> S:
        """The simultaneous choices; in a timed game, a :class:`Timeout` per seat the timer chose for."""
        raise self._sequence(request, event)

    def on_deal_started(self, state: S, request: NextDeal, event: DealStarted) -> S:
        """The state after a ``DealStarted`` answers the pending ``NextDeal``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)
