"""The draft: the 108 cards are a common pool, picked one at a time in snake order, picks public.

The first picker is a public random value; then the order runs up the seats and back down
(0 1 2 2 1 0 0 1 2 ... from seat 0), until every seat holds a deck. A pick nobody makes in
time is the rules' default: the card of the pool with the highest worth in its better role
(:func:`catalogue.expected`), the lower id on a tie; everyone can compute it.
"""

from __future__ import annotations

from fairtable.games.contract import Face
from fairtable.games.duel.catalogue import IDS, expected
from fairtable.games.duel.decks import DECK_SIZE


def picker(first: int, seats: int, pick: int) -> int:
    """The seat making pick number ``pick`` (from 0) in snake order from ``first``."""
    lap, place = divmod(pick, seats)
    return (first + (place if lap % 2 == 0 else seats - 1 - place)) % seats


def picks_of(first: int, seats: int, picks: tuple[Face, ...], seat: int) -> tuple[Face, ...]:
    """The cards ``seat`` has picked so far: the picks at the places snake order gives it."""
    return tuple(card for index, card in enumerate(picks) if picker(first, seats, index) == seat)


def total(seats: int) -> int:
    """How many picks the draft has: a full deck per seat."""
    return DECK_SIZE * seats


def pool(picks: tuple[Face, ...]) -> tuple[Face, ...]:
    """The cards still to pick, in id order (every seat computes the same pool from the public picks)."""
    taken = set(picks)
    return tuple(card for card in IDS if card not in taken)


def default_pick(picks: tuple[Face, ...]) -> Face:
    """The pick the timer makes: the pool's card with the highest worth in its better role, the lower id on a tie."""
    return min(pool(picks), key=lambda card: (-max(expected(card)), card))
