"""A toy free-for-all for 2..6 seats: owned decks, blind cards, a card put back on a pile, and
timed simultaneous choices. It exists to exercise the session.

Each seat builds a deck of 6 distinct cards from the catalogue 0..9 summing to at most 30
(rule ``blind.deck``), known to itself only; every seat shuffles every deck, so nobody, the
owner included, knows the order. From its own deck each seat gets 2 blind cards (face down,
unknown to everyone) and a hand of 2. Each of 2 rounds: a public random index picks which
blind card of every seat is opened; the seats choose a hand card at once (timed; on timeout
the lowest card); the chosen cards are revealed; the highest blind + chosen sum wins the
round. After the first round each seat puts its other hand card back face down on top of
its pile and draws 2: that card again (the others know which handle, not its face) and one
new. Most rounds won wins. A seat that leaves is out and loses; the others play on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import (
    Chosen,
    Deal,
    Dealt,
    Decide,
    Finished,
    Forfeit,
    GameError,
    PublicRandom,
    RandomValue,
    Request,
    Result,
    Reveal,
    Revealed,
    Rng,
    RuleError,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Timeout,
)
from fairtable.games.rules import Rules

CATALOGUE = tuple(range(10))
SIZE = 6
MAX_SUM = 30
ROUNDS = 2


@dataclass(frozen=True)
class BlindState:
    """The game in progress: decks built, hands and piles, the round's pick and choices, wins and seats out."""
    options: Mapping[str, Any]
    seats: int
    step: str = "build"
    built: int = 0
    round: int = 0
    compositions: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    hands: tuple[tuple[int, ...], ...] = ()
    piles: tuple[tuple[int, ...], ...] = ()
    pick: int = 0
    chosen: tuple[int | None, ...] = ()
    wins: tuple[int, ...] = ()
    defaults: tuple[int, ...] = ()
    timeouts: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    faces: Mapping[int, int] = field(default_factory=dict)
    revealed: Mapping[int, int] = field(default_factory=dict)
    result: Result | None = None

    @property
    def present(self) -> tuple[int, ...]:
        """The seats not out of the game: the ones a forfeit may still name."""
        return tuple(seat for seat in range(self.seats) if seat not in self.out)


def blinds(seat: int) -> tuple[int, int]:
    """The handles of ``seat``'s two blind cards: the top of its own deck."""
    return seat * SIZE, seat * SIZE + 1


class Blind(Rules[BlindState]):
    """See the module docstring."""

    id = "blind"
    variants = ("plain",)
    min_seats = 2
    max_seats = 6
    state_type = BlindState
    timed = True

    def start(self, variant: str, options: dict[str, Any], seats: int) -> BlindState:
        return BlindState(options, seats, wins=(0,) * seats, defaults=(0,) * seats, timeouts=(0,) * seats)

    def pending(self, state: BlindState) -> Request:
        if state.result is not None:
            return Finished(state.result)
        if state.step == "build":
            return ShuffleOwned(state.built, SIZE, CATALOGUE, state.built * SIZE)
        if state.step == "deal":
            return Deal(tuple((seat, state.hands[seat]) for seat in state.present))
        if state.step == "pick":
            return PublicRandom(2)
        if state.step == "blind":
            return Reveal(tuple(blinds(seat)[state.pick] for seat in state.present))
        if state.step == "choose":
            return Simultaneous(state.present)
        return Reveal(tuple(handle for handle in state.chosen if handle is not None))

    def check_composition(self, state: BlindState, seat: int, cards: tuple[int, ...]) -> None:
        if len(set(cards)) != SIZE or sum(cards) > MAX_SUM:
            raise RuleError("blind.deck", f"seat {seat}'s deck must be {SIZE} distinct cards summing to at most {MAX_SUM}, not {list(cards)}")

    def random_hidden(self, state: BlindState, seat: int, request: Request, rng: Rng) -> tuple[int, ...]:
        while True:
            pool = list(CATALOGUE)
            cards = tuple(sorted(pool.pop(rng.randrange(len(pool))) for _ in range(SIZE)))
            if sum(cards) <= MAX_SUM:
                return cards

    # ------------------------------------------------------------------ events

    def present(self, state: BlindState) -> tuple[int, ...]:
        return state.present

    def on_forfeit(self, state: BlindState, event: Forfeit) -> BlindState:
        """The seat is out and loses; the game goes on without it (a last seat standing wins)."""
        state = dataclasses.replace(state, out=(*state.out, event.seat))
        if len(state.present) == 1 or state.step == "build":
            return dataclasses.replace(state, result=Result(state.present if len(state.present) == 1 else (), f"forfeit: {event.reason}",
                                                            state.wins, losers=state.out))
        return state

    def on_owned_shuffled(self, state: BlindState, request: ShuffleOwned, event: Shuffled) -> BlindState:
        built = state.built + 1
        known = {request.owner: event.composition} if event.composition else {}
        state = dataclasses.replace(state, built=built, faces={**state.faces, **event.faces}, compositions={**state.compositions, **known})
        if built < state.seats:
            return state
        hands = tuple((seat * SIZE + 2, seat * SIZE + 3) for seat in range(state.seats))
        piles = tuple((seat * SIZE + 4, seat * SIZE + 5) for seat in range(state.seats))
        return dataclasses.replace(state, step="deal", hands=hands, piles=piles)

    def on_dealt(self, state: BlindState, request: Deal, event: Dealt) -> BlindState:
        return dataclasses.replace(state, step="pick", faces={**state.faces, **event.faces})

    def on_random(self, state: BlindState, request: PublicRandom, event: RandomValue) -> BlindState:
        return dataclasses.replace(state, step="blind", pick=event.value)

    def on_revealed(self, state: BlindState, request: Reveal, event: Revealed) -> BlindState:
        faces = {**state.faces, **event.faces}
        state = dataclasses.replace(state, revealed={**state.revealed, **event.faces})
        if state.step == "blind":
            return dataclasses.replace(state, step="choose", faces=faces)
        totals = {seat: faces[blinds(seat)[state.pick]] + faces[handle] for seat, handle in enumerate(state.chosen) if handle is not None}
        best = max(totals.values())
        winners = [seat for seat, total in totals.items() if total == best]
        wins = tuple(count + (winners == [seat]) for seat, count in enumerate(state.wins))
        state = dataclasses.replace(state, faces=faces, wins=wins)
        if state.round + 1 == ROUNDS:
            top = max(wins[seat] for seat in state.present)
            return dataclasses.replace(state, result=Result(tuple(s for s in state.present if wins[s] == top), "rounds", wins, losers=state.out))
        hands, piles = list(state.hands), list(state.piles)
        for seat, handle in enumerate(state.chosen):
            if handle is None:
                continue
            back = tuple(h for h in hands[seat] if h != handle)  # put back face down on top of the pile
            pile = back + piles[seat]
            hands[seat], piles[seat] = pile[:2], pile[2:]
        return dataclasses.replace(state, step="deal", round=state.round + 1, hands=tuple(hands), piles=tuple(piles), chosen=())

    def on_chosen(self, state: BlindState, request: Simultaneous, event: Chosen, late: tuple[Timeout, ...] = ()) -> BlindState:
        chosen: list[int | None] = [None] * state.seats
        for seat, choice in zip(request.seats, event.choices):
            if seat in event.absent:
                continue
            if not (isinstance(choice, Mapping) and set(choice) == {"play"} and choice["play"] in state.hands[seat]):
                raise RuleError("blind.choice", f"seat {seat} plays {{'play': handle}} from its hand, not {choice!r}")
            chosen[seat] = choice["play"]
        defaults = tuple(count + (seat in event.defaults) for seat, count in enumerate(state.defaults))
        return dataclasses.replace(state, step="show", chosen=tuple(chosen), defaults=defaults)

    # ------------------------------------------------------------------ moves and views

    def moves(self, state: BlindState, request: Decide | Simultaneous, seat: int) -> tuple[Any, ...]:
        return tuple({"play": handle} for handle in state.hands[seat])

    def reveals(self, state: BlindState, move: Any) -> tuple[int, ...]:
        return ()

    def default_move(self, state: BlindState, seat: int) -> Any:
        """The lowest card of the hand: only a state that knows the hand can say which."""
        hand = state.hands[seat]
        if any(handle not in state.faces for handle in hand):
            raise GameError(f"this state does not know seat {seat}'s hand")
        return {"play": min(hand, key=lambda handle: (state.faces[handle], handle))}

    def view(self, state: BlindState, seat: int | None) -> dict:
        return {
            "deck": None if seat is None else state.compositions.get(seat),
            "defaults": list(state.defaults),
            "hand": None if seat is None or state.step in ("build", "deal") else [[h, state.faces.get(h)] for h in state.hands[seat]],
            "out": list(state.out),
            "revealed": [[h, face] for h, face in sorted(state.revealed.items())],
            "result": None if state.result is None else state.result.to_value(),
            "round": state.round,
            "step": state.step,
            "wins": list(state.wins),
        }


BLIND = Blind()
