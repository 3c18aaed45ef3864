"""Scripted duel positions: decks in a chosen order, public values and moves given by the test.

``Table`` keeps the verifier's state (``full``) and one state per seat, fed each event as that
seat's node would receive it, and fulfils deals, reveals, shuffles and private draws itself.
Decks are given top card first, by catalogue id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairtable.games.contract import (
    Deal,
    Dealt,
    Event,
    Move,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
    ShuffleOwned,
)
from fairtable.games.duel.catalogue import CARDS
from fairtable.games.registry import get

GAME = get("duel")


def card(name: str) -> int:
    """The id of the card with this Dutch name."""
    return next(c.id for c in CARDS if c.name == name)


def of(type_: str, attack: int | None = None, defence: int | None = None, skip: Sequence[int] = ()) -> int:
    """A card of ``type_`` with these values (the first such card not in ``skip``)."""
    return next(c.id for c in CARDS if c.type == type_ and c.id not in skip
                and (attack is None or c.attack == attack) and (defence is None or c.defence == defence))


def filler(exclude: Sequence[int], count: int) -> list[int]:
    return [c.id for c in CARDS if c.id not in set(exclude)][:count]


class Table:
    def __init__(self, variant: str = "1v1", options: dict | None = None, seats: int = 2) -> None:
        self.options = options or {}
        self.full = GAME.setup(variant, self.options, seats)
        self.seats = [self.full] * seats
        self.events: list[Event] = []
        self.faces: dict[int, int] = {}
        self.orders: list[list[int]] = []
        """Deck orders still to be used, in the order the game asks for decks."""
        self.draws: list[int] = []

    @property
    def pending(self):
        return GAME.pending(self.full)

    def apply(self, full: Event, per_seat=None) -> None:
        self.full = GAME.apply(self.full, full)
        self.events.append(full)
        self.seats = [GAME.apply(state, full if per_seat is None else per_seat(seat)) for seat, state in enumerate(self.seats)]

    def random(self, value: int) -> None:
        assert isinstance(self.pending, PublicRandom), self.pending
        self.apply(RandomValue(value))

    def move(self, seat: int, move: dict) -> None:
        shown = GAME.reveals(self.full, move)
        self.apply(Move(seat, move, {h: self.faces[h] for h in shown}))

    def settle(self) -> None:
        """Fulfil every request that needs no decision or public value."""
        while True:
            request = self.pending
            if isinstance(request, ShuffleOwned):
                if not self.orders:
                    return  # the test chooses the composition
                order = self.orders.pop(0)
                deck = {request.first_handle + j: face for j, face in enumerate(order)}
                self.faces.update(deck)
                cards = tuple(sorted(order))
                self.apply(Shuffled(deck, cards), lambda seat, r=request, c=cards: Shuffled({}, c if seat == r.owner else ()))
            elif isinstance(request, Shuffle):
                order = self.orders.pop(0) if self.orders else list(request.cards)
                assert sorted(order) == sorted(request.cards)
                deck = {request.first_handle + j: face for j, face in enumerate(order)}
                self.faces.update(deck)
                self.apply(Shuffled(deck), lambda seat: Shuffled())
            elif isinstance(request, Deal):
                dealt = {h: self.faces[h] for _, hs in request.to for h in hs}
                self.apply(Dealt(dealt), lambda seat, r=request: Dealt({h: self.faces[h] for s, hs in r.to if s == seat for h in hs}))
            elif isinstance(request, Reveal):
                self.apply(Revealed({h: self.faces[h] for h in request.handles}))
            elif isinstance(request, PrivateDraw):
                if not self.draws:
                    return  # the test chooses the draw
                drawn = {request.first_handle: self.draws.pop(0)}
                self.apply(PrivateDrawn(drawn), lambda seat, r=request, d=drawn: PrivateDrawn(d if seat == r.seat else {}))
            else:
                return

    def hand(self, seat: int) -> list[int]:
        """The seat's hand as card ids (full knowledge)."""
        return [self.faces[h] for h in self.full.players[seat].hand]

    def handle(self, seat: int, face: int) -> int:
        return next(h for h in self.full.players[seat].hand if self.faces[h] == face)

    def duel(self, attack: int, defend: int, target: int | None = None) -> None:
        """The due attacker plays ``attack`` and its defender ``defend`` (card ids)."""
        attacker = self.full.attacker
        move: dict[str, Any] = {"attack": self.handle(attacker, attack)}
        if target is not None:
            move["target"] = target
        self.move(attacker, move)
        if defend is not None:
            self.move(self.full.defender, {"defend": self.handle(self.full.defender, defend)})
        self.settle()


def start_1v1(decks: Sequence[Sequence[int]], first: int = 0, variant: str = "1v1", options: dict | None = None) -> Table:
    """A match whose decks are ``decks`` (top first, 20 each), seat ``first`` attacking first."""
    table = Table(variant, options, len(decks))
    table.orders = [list(deck) for deck in decks]
    table.settle()
    table.random(first)
    table.settle()
    return table
