"""The base class of a game's rules: setup validation and event dispatch, so a game writes only its rules.

:meth:`Rules.setup` refuses an unknown variant, a seat count outside the variant's range and
bad options (against the declared ``options``) with an :class:`OptionsError` naming what was
wrong, then calls :meth:`Rules.start` with the options filled in. :meth:`Rules.apply`
refuses any event once the game is over (``<id>.over``) and any event that does not answer
the pending request (``<id>.sequence``), sends a :class:`Forfeit` to :meth:`Rules.on_forfeit`
and every other event to the handler the request table names for it (``games.requests``: ``Move`` -> :meth:`Rules.on_move`, a
``Shuffled`` of a ``ShuffleOwned`` -> :meth:`Rules.on_owned_shuffled`, ...), called as
``handler(state, request, event)``. A game overrides the handlers of the requests it makes;
the others keep refusing.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import (
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
)
from fairtable.games.options import validate
from fairtable.games.requests import answers


class Rules(Game[S]):
    """A game on the contract with the common parts done; see the module docstring."""

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
            raise RuleError(f"{self.id}.over", "the game is over")
        if isinstance(event, Forfeit):
            return self.on_forfeit(state, event)
        handler = answers(event, request)
        if handler is None:
            raise self._sequence(request, event)
        return getattr(self, handler)(state, request, event)

    def _sequence(self, request: Request, event: Event) -> RuleError:
        return RuleError(f"{self.id}.sequence", f"{type(request).__name__} is pending, not answered by {type(event).__name__}")

    @abstractmethod
    def on_forfeit(self, state: S, event: Forfeit) -> S:
        """The game's forfeit policy: end (e.g. ``Result.forfeit`` over its teams) or go on without the seat."""

    def on_move(self, state: S, request: Decide, event: Move) -> S:
        """The state after a ``Move`` answers the pending ``Decide``; refused as out of sequence unless the game makes that request."""
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

    def on_chosen(self, state: S, request: Simultaneous, event: Chosen) -> S:
        """The state after a ``Chosen`` answers the pending ``Simultaneous``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)

    def on_deal_started(self, state: S, request: NextDeal, event: DealStarted) -> S:
        """The state after a ``DealStarted`` answers the pending ``NextDeal``; refused as out of sequence unless the game makes that request."""
        raise self._sequence(request, event)
