"""Drachenherz positions built by hand: cards named by code and value (``dw1``: a dwarf of 1).

Each seat's cards get handles from its own set's range (seat 0: 0..49, seat 1: 50..99), so
the positions look like real ones to the bots. States are the verifier's (every face known)
unless a test forgets faces on purpose.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from fairtable.games.contract import Deal, Dealt, Move, RandomValue
from fairtable.games.drachenherz.board import EMPTY
from fairtable.games.drachenherz.catalogue import CARDS, FIELDS, KINDS, SET
from fairtable.games.drachenherz.state import DrachenherzState
from fairtable.games.registry import get

GAME = get("drachenherz")
CODES = {kind.code: kind.id for kind in KINDS.values()}


def face(card: str) -> int:
    """The first face of a kind and value, e.g. ``face("pr3")``."""
    kind, value = CODES[card[:2]], int(card[2:])
    return next(c.id for c in CARDS if c.kind == kind and c.value == value)


class Cards:
    """Hands out fresh handles from each seat's set and remembers their faces."""

    def __init__(self) -> None:
        self.next = [0, len(SET)]
        self.faces: dict[int, int] = {}

    def take(self, seat: int, cards: Iterable[str]) -> tuple[int, ...]:
        handles = []
        for card in cards:
            handle = self.next[seat]
            self.next[seat] += 1
            self.faces[handle] = face(card)
            handles.append(handle)
        return tuple(handles)


def position(
    hand: Iterable[str] = ("ch1",),
    other: Iterable[str] = ("dw1", "dw1", "dw1", "dw2", "dw2"),
    board: Mapping[str, Iterable[str]] | None = None,
    piles: tuple[int, int] = (20, 20),
    collected: tuple[Iterable[str], Iterable[str]] = ((), ()),
    options: dict | None = None,
    turn: int = 0,
    **fields,
) -> DrachenherzState:
    """``turn`` to move with ``hand``; the other seat holds ``other``; board cards belong to
    seat 1, piles are ``piles`` unknown cards (faces: the chests of the set, for the verifier)."""
    cards = Cards()
    hands = [(), ()]
    hands[turn] = cards.take(turn, hand)
    hands[1 - turn] = cards.take(1 - turn, other)
    laid = {field: cards.take(1, (board or {}).get(field, ())) for field in FIELDS}
    taken = (cards.take(0, collected[0]), cards.take(1, collected[1]))
    stacks = tuple(cards.take(seat, ("ch1",) * piles[seat]) for seat in (0, 1))
    base = GAME.setup("standard", options or {}, 2)
    return dataclasses.replace(
        base, first=0, turn=turn, decks=2, hands=tuple(hands), piles=stacks, board={**EMPTY, **laid},
        collected=taken, faces=cards.faces, **fields,
    )


def play(state: DrachenherzState, handles: Iterable[int], take: str | None = None, seat: int | None = None,
         timeout: bool = False) -> DrachenherzState:
    """Apply a play by the seat in turn (or ``seat``), showing the faces this state knows."""
    handles = tuple(sorted(handles))
    move: dict = {"play": list(handles)}
    if take is not None:
        move["take"] = take
    if timeout:
        move["timeout"] = True
    mover = state.turn if seat is None else seat
    return GAME.apply(state, Move(mover, move, {h: state.faces[h] for h in handles}))


def hand_of(state: DrachenherzState, seat: int, *cards: str) -> tuple[int, ...]:
    """Handles of ``seat``'s hand with these faces, in the order named (each handle once)."""
    free = list(state.hands[seat])
    chosen = []
    for card in cards:
        handle = next(h for h in free if state.faces.get(h) == face(card))
        free.remove(handle)
        chosen.append(handle)
    return tuple(chosen)


def values(state: DrachenherzState, field: str) -> list[int]:
    return sorted(CARDS[state.faces[h]].value for h in state.board[field])


def finish_turn(state: DrachenherzState, give: int = 0) -> DrachenherzState:
    """Answer what the turn still asks: the card back's random index, then the refill."""
    for _ in range(2):
        request = GAME.pending(state)
        if isinstance(request, Deal):
            dealt = {h: state.faces[h] for _, handles in request.to for h in handles if h in state.faces}
            state = GAME.apply(state, Dealt(dealt))
        elif state.giving is not None:
            state = GAME.apply(state, RandomValue(give))
    return state
