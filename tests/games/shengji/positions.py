"""shengji positions for tests, written with card codes (``H10``, ``SK``, ``BJ``, ``RJ``).

:class:`Table` drives a real deal through the rules from a chosen deck order, with every face
known (the verifier's state) and, where asked, each seat's own partial state beside it;
:func:`trick_state` builds a play-phase state by hand for the trick rules.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

from fairtable.games.contract import Dealt, Event, Move, RandomValue, Revealed, Shuffled
from fairtable.games.registry import get
from fairtable.games.shengji.catalogue import CARDS, CODES, DECK, HAND, KITTY, SUITS
from fairtable.games.shengji.state import Declaration, Play, ShengjiState

GAME = get("shengji")
SEATS = (0, 1, 2, 3)


def faces(codes: str) -> list[int]:
    return [CODES[code] for code in codes.split()]


def arranged(hands: Sequence[str] = ("", "", "", ""), kitty: str = "") -> list[int]:
    """A deck order: each seat's hand and the kitty start with the cards given; the rest of the
    108 cards fill them up in catalogue order, the 2s and jokers left over going to the kitty
    first and to the hands last (so seat 3 holds any that the kitty cannot)."""
    given = [faces(hand) for hand in hands] + [faces(kitty)]
    left = Counter(DECK)
    for part in given:
        left.subtract(part)
    if min(left.values()) < 0:
        raise ValueError("more copies given than two packs hold")
    special = [face for face in sorted(left.elements()) if CARDS[face].joker or CARDS[face].rank == 2]
    plain = [face for face in sorted(left.elements()) if not (CARDS[face].joker or CARDS[face].rank == 2)]
    pool = special + plain
    fill = given[4] + pool[: KITTY - len(given[4])]
    rest = iter(sorted(pool[KITTY - len(given[4]) :], key=lambda face: (face in special, face)))
    hands_filled = [part + [next(rest) for _ in range(HAND - len(part))] for part in given[:4]]
    return [face for part in hands_filled for face in part] + fill


class Table:
    """One deal through ``GAME.apply``: the full state and (``seats=True``) each seat's own."""

    def __init__(self, hands: Sequence[str] = ("", "", "", ""), kitty: str = "", options: dict | None = None,
                 starter: int = 0, seats: bool = False, state: ShengjiState | None = None) -> None:
        self.full = state if state is not None else GAME.setup("standard", options or {}, 4)
        self.seats = {seat: self.full for seat in SEATS} if seats else {}
        if self.full.step == "start":
            self.apply(RandomValue(starter))
        first = self.full.first_handle
        self.deck = {first + position: face for position, face in enumerate(arranged(hands, kitty))}
        self.apply(Shuffled(self.deck), lambda seat: Shuffled())
        self.apply(Dealt(self.dealt(range(first, first + 4 * HAND))),
                   lambda seat: Dealt(self.dealt(range(first + seat * HAND, first + (seat + 1) * HAND))))

    def dealt(self, handles: Any) -> dict[int, int]:
        return {handle: self.deck[handle] for handle in handles}

    def apply(self, event: Event, per_seat: Any = None) -> None:
        self.full = GAME.apply(self.full, event)
        for seat in self.seats:
            self.seats[seat] = GAME.apply(self.seats[seat], event if per_seat is None else per_seat(seat))

    def handles(self, seat: int, codes: str) -> list[int]:
        return handles_of(self.full, seat, codes)

    def move(self, seat: int, kind: str, codes: str = "", **extra: Any) -> Move:
        """The move ``kind`` (pass, declare, bury, lead, play) of ``seat`` with these cards."""
        handles = self.handles(seat, codes)
        value: Any = True if kind == "pass" else handles if kind in ("declare", "lead") else handles[0]
        move = {kind: value, **extra}
        shown = GAME.reveals(self.full, move)
        return Move(seat, move, {handle: self.full.faces[handle] for handle in shown})

    def play(self, seat: int, kind: str, codes: str = "", **extra: Any) -> None:
        self.apply(self.move(seat, kind, codes, **extra))

    def passes(self, *seats: int) -> None:
        for seat in seats:
            self.play(seat, "pass")

    def kitty(self) -> None:
        """The kitty dealt to the dealer (only the dealer's state learns it)."""
        kitty = self.full.kitty
        dealer = self.full.dealer
        self.apply(Dealt(self.dealt(kitty)), lambda seat: Dealt(self.dealt(kitty) if seat == dealer else {}))

    def reveal(self, handles: Sequence[int]) -> None:
        self.apply(Revealed(self.dealt(handles)))

    def bury(self, codes: str) -> None:
        for code in codes.split():
            self.play(self.full.dealer, "bury", code)

    @property
    def pending(self):
        return GAME.pending(self.full)


def trick_state(hands: Sequence[str], level: int = 2, trump: str | None = "hearts", dealer: int = 0, leader: int = 0,
                trick: Sequence[tuple[int, str]] = (), buried: str = "", **fields: Any) -> ShengjiState:
    """Play phase, ``leader`` to lead (or the trick so far), every face known; hands as codes."""
    options = {"start": level}
    base = GAME.setup("standard", options, 4)
    handle = iter(range(1000))
    known: dict[int, int] = {}
    held = []
    for hand in hands:
        mine = []
        for face in faces(hand):
            h = next(handle)
            known[h] = face
            mine.append(h)
        held.append(tuple(mine))
    plays = []
    for seat, codes in trick:
        mine = []
        for face in faces(codes):
            h = next(handle)
            known[h] = face
            mine.append(h)
        plays.append(Play(seat, tuple(mine)))
    hidden = []
    for face in faces(buried):
        h = next(handle)
        known[h] = face
        hidden.append(h)
    suit = None if trump is None else SUITS.index(trump)
    turn = leader if not plays else (plays[-1].seat + (len(plays[-1].handles) == len(plays[0].handles))) % 4
    return dataclasses.replace(base, step="play", dealer=dealer, hands=tuple(held), faces=known, trump=suit, turn=turn,
                               declaration=Declaration(dealer, (), 1, suit), trick=tuple(plays), buried=tuple(hidden), **fields)


def codes_of(state: ShengjiState, handles: Sequence[int]) -> str:
    return " ".join(CARDS[state.faces[h]].code for h in handles)


def handles_of(state: ShengjiState, seat: int, codes: str) -> list[int]:
    """Handles of ``seat``'s hand with these faces, each copy once."""
    free = list(state.hands[seat])
    picked = []
    for face in faces(codes):
        handle = next(h for h in free if state.faces[h] == face)
        free.remove(handle)
        picked.append(handle)
    return picked


def play(state: ShengjiState, seat: int, kind: str, codes: str) -> ShengjiState:
    """``seat`` leads or plays these cards of its hand (a follow, one card after another)."""
    handles = handles_of(state, seat, codes)
    if kind == "lead":
        return GAME.apply(state, Move(seat, {"lead": handles}, {h: state.faces[h] for h in handles}))
    for h in handles:
        state = GAME.apply(state, Move(seat, {"play": h}, {h: state.faces[h]}))
    return state
