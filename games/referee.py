"""A local, full-knowledge referee for any game on the contract: tests, benchmarks and bots.

It stands in for the table session: it fulfils every request with plain randomness from a
caller-supplied ``rng`` (anything with ``randrange(n)``, e.g. ``SeededRng(seed)``; the
rules never see it), asks bots for moves, and records the events as the verifier sees
them, every face known.

With ``lockstep=True`` it also runs one state per seat that learns only what its node
would: its own deals and private draws, and what is revealed. After every event the seat
states must accept the same events, ask for the same next request, and agree with the
full state on the public view and on their own seat's view; anything else raises
:class:`Divergence`. That is the live validation each node will do, checked locally.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairtable.games.bots import decision
from fairtable.games.contract import (
    Bot,
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
    Game,
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
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
)
from fairtable.games.requests import check_covers


class Timeout:
    """What a bot returns to let its turn timer run out: the referee plays ``default_move``
    (for a simultaneous choice too, marked as the default)."""


TIMEOUT = Timeout()


class Divergence(AssertionError):
    """A seat's partial-knowledge state disagreed with the full-knowledge one."""


@dataclass(frozen=True)
class Played:
    """A finished game: the verifier's events and final state, and (in lockstep) each seat's."""

    result: Result
    events: tuple[Event, ...]
    state: Any
    seat_events: tuple[tuple[Event, ...], ...] = ()
    seat_states: tuple[Any, ...] = ()

    @property
    def moves(self) -> int:
        """How many moves the game took (benchmarks and tests compare lengths)."""
        return sum(isinstance(event, Move) for event in self.events)


def shuffled(cards: Sequence[Face], rng: Rng) -> list[Face]:
    """A uniform permutation (Fisher–Yates) drawing only on ``rng.randrange``."""
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def play(
    game: Game,
    variant: str,
    options: Mapping[str, Any],
    bots: Sequence[Bot],
    rng: Rng,
    *,
    lockstep: bool = False,
    max_steps: int = 100_000,
) -> Played:
    """Play one game to its end; :class:`RuntimeError` if it is not over after ``max_steps`` events."""
    table = _Table(game, game.setup(variant, options, len(bots)), len(bots), lockstep)
    for _ in range(max_steps):
        request = game.pending(table.full)
        if isinstance(request, Finished):
            return table.played(request.result)
        table.fulfil(request, bots, rng)
    raise RuntimeError(f"{game.id} did not finish within {max_steps} events")


def replay(game: Game, variant: str, options: Mapping[str, Any], seats: int, events: Sequence[Event]) -> Any:
    """The state after ``events`` from a fresh setup."""
    state = game.setup(variant, options, seats)
    for event in events:
        state = game.apply(state, event)
    return state


class _Table:
    """The full state, the seat states in lockstep, every face, and the events so far."""

    def __init__(self, game: Game, state: Any, seats: int, lockstep: bool) -> None:
        self.game = game
        self.full = state
        self.seats = [state] * seats if lockstep else []
        self.faces: dict[Handle, Face] = {}
        self.hidden: dict[int, Mapping[str, tuple[int, ...]]] = {}
        """Each seat's latest data of every layer it committed (a game may commit more layers later)."""
        self.events: list[Event] = []
        self.seat_events: list[list[Event]] = [[] for _ in self.seats]

    def played(self, result: Result) -> Played:
        return Played(result, tuple(self.events), self.full, tuple(map(tuple, self.seat_events)), tuple(self.seats))

    def state_of(self, seat: int) -> Any:
        return self.seats[seat] if self.seats else self.full

    def fulfil(self, request: Request, bots: Sequence[Bot], rng: Rng) -> None:
        """Answer ``request`` the way its row in :data:`FULFIL` says."""
        fulfil = FULFIL.get(type(request))
        if fulfil is None:
            raise TypeError(f"the referee cannot fulfil {request!r}")
        fulfil(self, request, bots, rng)

    def _decide(self, request: Decide, bots: Sequence[Bot], rng: Rng) -> None:
        move = bots[request.seat].choose(self.game, self.state_of(request.seat), request.seat)
        if move is TIMEOUT:
            move = self.game.default_move(self.state_of(request.seat), request.seat)
        shown = self.game.reveals(self.state_of(request.seat), move)
        self.publish(Move(request.seat, move, self._faces(shown)))

    def _shuffle(self, request: Shuffle, bots: Sequence[Bot], rng: Rng) -> None:
        deck = {request.first_handle + j: face for j, face in enumerate(shuffled(request.cards, rng))}
        self.faces.update(deck)
        self.publish(Shuffled(deck), lambda seat: Shuffled())

    def _shuffle_owned(self, request: ShuffleOwned, bots: Sequence[Bot], rng: Rng) -> None:
        owner = request.owner
        cards = tuple(sorted(decision(bots[owner], self.game, self.state_of(owner), owner)))
        self.game.check_composition(self.state_of(owner), owner, cards)
        deck = {request.first_handle + j: face for j, face in enumerate(shuffled(cards, rng))}
        self.faces.update(deck)
        self.publish(Shuffled(deck, cards), lambda seat: Shuffled({}, cards if seat == owner else ()))

    def _deal(self, request: Deal, bots: Sequence[Bot], rng: Rng) -> None:
        self.publish(
            Dealt(self._faces(h for _, handles in request.to for h in handles)),
            lambda seat: Dealt(self._faces(h for to, handles in request.to if to == seat for h in handles)),
        )

    def _private_draw(self, request: PrivateDraw, bots: Sequence[Bot], rng: Rng) -> None:
        drawn = {request.first_handle + i: rng.randrange(request.bound) for i in range(request.count)}
        self.faces.update(drawn)
        self.publish(PrivateDrawn(drawn), lambda seat: PrivateDrawn(drawn if seat == request.seat else {}))

    def _show(self, request: Show, bots: Sequence[Bot], rng: Rng) -> None:
        seen = self._faces(request.handles)
        self.publish(Shown(seen), lambda seat: Shown(seen if seat in request.to else {}))

    def _reveal(self, request: Reveal, bots: Sequence[Bot], rng: Rng) -> None:
        self.publish(Revealed(self._faces(request.handles)))

    def _public_random(self, request: PublicRandom, bots: Sequence[Bot], rng: Rng) -> None:
        self.publish(RandomValue(rng.randrange(request.bound)))

    def _commit_hidden(self, request: CommitHidden, bots: Sequence[Bot], rng: Rng) -> None:
        new = {}
        for seat in request.seats:
            data = decision(bots[seat], self.game, self.state_of(seat), seat)
            self.game.check_hidden(self.state_of(seat), seat, data)
            new[seat] = data
            self.hidden[seat] = {**self.hidden.get(seat, {}), **data}
        self.publish(Committed(new), lambda seat: Committed({seat: new[seat]} if seat in new else {}))

    def _open_hidden(self, request: OpenHidden, bots: Sequence[Bot], rng: Rng) -> None:
        values = self.hidden[request.seat][request.layer]
        self.publish(Opened(request.seat, request.layer, {cell: values[cell] for cell in request.cells}))

    def _open_sums(self, request: OpenSums, bots: Sequence[Bot], rng: Rng) -> None:
        self.publish(Summed(tuple(sum(self.hidden[seat][request.layer][cell] for seat, cell in terms) for terms in request.sums)))

    def _simultaneous(self, request: Simultaneous, bots: Sequence[Bot], rng: Rng) -> None:
        choices, defaults = [], []
        for seat in request.seats:
            choice = bots[seat].choose(self.game, self.state_of(seat), seat)
            if choice is TIMEOUT:
                choice = self.game.default_move(self.state_of(seat), seat)
                defaults.append(seat)
            choices.append(choice)
        self.publish(Chosen(tuple(choices), tuple(defaults)))

    def _next_deal(self, request: NextDeal, bots: Sequence[Bot], rng: Rng) -> None:
        self.publish(DealStarted())

    def _faces(self, handles: Any) -> dict[Handle, Face]:
        return {h: self.faces[h] for h in handles}

    def publish(self, full: Event, seat_event: Callable[[int], Event] | None = None) -> None:
        """Apply ``full`` to the full state and ``seat_event(seat)`` (default ``full``) to each seat's."""
        self.full = self.game.apply(self.full, full)
        self.events.append(full)
        if not self.seats:
            return
        expected = self.game.pending(self.full)
        public = self.game.view(self.full, None)
        for seat in range(len(self.seats)):
            event = full if seat_event is None else seat_event(seat)
            try:
                state = self.seats[seat] = self.game.apply(self.seats[seat], event)
            except Exception as exc:
                raise Divergence(f"seat {seat} rejected {event!r}: {exc}") from exc
            self.seat_events[seat].append(event)
            if self.game.pending(state) != expected:
                raise Divergence(f"seat {seat} expects {self.game.pending(state)!r}, the full state {expected!r}")
            if self.game.view(state, None) != public:
                raise Divergence(f"seat {seat}'s public view differs after {event!r}")
            if self.game.view(state, seat) != self.game.view(self.full, seat):
                raise Divergence(f"seat {seat}'s own view differs after {event!r}")


FULFIL: Mapping[type, Callable[[_Table, Any, Sequence[Bot], Rng], None]] = {
    Decide: _Table._decide,
    Shuffle: _Table._shuffle,
    ShuffleOwned: _Table._shuffle_owned,
    Deal: _Table._deal,
    Show: _Table._show,
    Reveal: _Table._reveal,
    PublicRandom: _Table._public_random,
    PrivateDraw: _Table._private_draw,
    CommitHidden: _Table._commit_hidden,
    OpenHidden: _Table._open_hidden,
    OpenSums: _Table._open_sums,
    Simultaneous: _Table._simultaneous,
    NextDeal: _Table._next_deal,
}
"""How the referee fulfils each request kind of ``games.requests.REQUESTS``, with plain randomness."""
check_covers("the referee", FULFIL)
