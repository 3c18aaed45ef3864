"""Card order, shapes, the follow rule and trick winners, over faces only (no game state).

Everything depends on the deal's :class:`Order`: the level rank and the trump suit (None when a
joker pair declared no trump). A card's *effective suit* is :data:`TRUMP` for jokers, level
cards and cards of the trump suit, else its own suit. Its *rank* is its place on its effective
suit's ladder, and it is both its strength and what "consecutive" means for tractors:

- a plain suit: 2..A without the level rank, so the ranks either side of it are neighbours;
- trump: the trump suit's 2..A without the level rank, then every off-suit level card (one
  rank for all of them: equal strength, and two different off-suit level pairs never form a
  tractor), then the trump-suit level card, the small joker, the big joker.

So the trump chain runs A -> off-suit level pair -> trump-suit level pair -> small-joker pair
-> big-joker pair, and a tractor is pairs on consecutive ranks of one effective suit.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from fairtable.games.contract import Face
from fairtable.games.shengji.catalogue import BIG_JOKER, CARDS, RANKS, SUITS

TRUMP = len(SUITS)
"""The effective suit of every trump card."""
SINGLE, PAIR, TRACTOR = "single", "pair", "tractor"


@dataclass(frozen=True)
class Shape:
    """A lead's or a play's form: ``pairs`` is 0 for a single, 1 for a pair, k for a tractor of
    k pairs; ``top`` the rank of its highest card."""

    suit: int
    pairs: int
    top: int

    @property
    def kind(self) -> str:
        """``single``, ``pair`` or ``tractor``: the words the follow rule and refusals use."""
        return SINGLE if not self.pairs else PAIR if self.pairs == 1 else TRACTOR

    @property
    def size(self) -> int:
        """How many cards the shape holds: what a follower must play."""
        return max(1, 2 * self.pairs)


@dataclass(frozen=True)
class Order:
    """The deal's card order: ``level`` rank and ``trump`` suit (None: no trump). Every comparison
    of cards goes through it, because both change from deal to deal."""

    level: int
    trump: int | None

    @functools.cached_property
    def _table(self) -> tuple[tuple[int, int], ...]:
        plain = [rank for rank in RANKS if rank != self.level]
        base = len(plain) if self.trump is not None else 0
        table = []
        for card in CARDS:
            if card.joker:
                small = base + (2 if self.trump is not None else 1)
                table.append((TRUMP, small + (card.rank == BIG_JOKER)))
            elif card.rank == self.level:
                table.append((TRUMP, base + (card.suit_index == self.trump)))
            else:
                table.append((TRUMP if card.suit_index == self.trump else card.suit_index, plain.index(card.rank)))
        return tuple(table)

    def suit(self, face: Face) -> int:
        """The face's effective suit: :data:`TRUMP` for jokers, level cards and the trump suit, else its own."""
        return self._table[face][0]

    def rank(self, face: Face) -> int:
        """The face's place on its effective suit's ladder: its strength, and what ``consecutive`` means for tractors."""
        return self._table[face][1]

    def strength(self, face: Face) -> tuple[int, int]:
        """Any trump above any plain card, then the rank: the hand's sort order and "lowest"."""
        suit, rank = self._table[face]
        return (suit == TRUMP, rank)

    def sort_key(self, face: Face) -> tuple[int, int, int]:
        """Grouped by effective suit (trump last), then by strength, then by face."""
        suit, rank = self._table[face]
        return (suit, rank, face)


def pairs(faces: Sequence[Face]) -> int:
    """How many pairs (two identical cards) ``faces`` hold."""
    return sum(count // 2 for count in Counter(faces).values())


def shape(order: Order, faces: Sequence[Face]) -> Shape | None:
    """The shape of ``faces`` as a lead: a single, a pair or a tractor in one effective suit; None otherwise."""
    suits = {order.suit(face) for face in faces}
    if len(suits) != 1:
        return None
    (suit,) = suits
    if len(faces) == 1:
        return Shape(suit, 0, order.rank(faces[0]))
    counts = Counter(faces)
    if any(count != 2 for count in counts.values()):
        return None
    ranks = sorted(order.rank(face) for face in counts)
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return None
    return Shape(suit, len(ranks), ranks[-1])


@dataclass(frozen=True)
class Lead:
    """What a trick asks of the followers: ``size`` cards, the effective ``suit``, ``pairs`` pairs."""

    suit: int
    size: int
    pairs: int


def follow_fault(order: Order, lead: Lead, hand: Sequence[Face], chosen: Sequence[Face]) -> str | None:
    """Why ``chosen`` (the cards played so far, all from ``hand``, the seat's cards when the
    trick reached it) cannot be completed to a legal follow, or None if it can.

    The follow rule: with at least ``size`` cards of the led suit, play only that suit and as
    many pairs as you can (up to the lead's pairs; consecutive pairs are not required); with
    fewer, play all of them and fill freely; void, play anything. Returns ``"follow"`` (a card
    off the led suit too many) or ``"pairs"`` (too few pairs left possible).
    """
    suited = [face for face in hand if order.suit(face) == lead.suit]
    off_suit = sum(order.suit(face) != lead.suit for face in chosen)
    if len(suited) < lead.size:
        return None if off_suit <= lead.size - len(suited) else "follow"
    if off_suit:
        return "follow"
    picked = Counter(chosen)
    left = Counter(suited) - picked
    room = lead.size - len(chosen)
    complete = sum(count // 2 for count in picked.values())
    halves = min(room, sum(1 for face, count in picked.items() if count == 1 and left[face]))
    fresh = sum(1 for face, count in left.items() if count == 2)
    best = complete + halves + min(fresh, (room - halves) // 2)
    return None if best >= min(lead.pairs, pairs(suited)) else "pairs"


def winner(order: Order, plays: Sequence[Sequence[Face]]) -> int:
    """The index of the winning play: only the lead's shape can win, in the led suit or, for a
    plain lead, all in trump; higher beats lower, and on equal strength the earlier play wins."""
    lead = shape(order, plays[0])
    assert lead is not None, "a trick starts with a legal lead"
    best, best_key = 0, (lead.suit == TRUMP, lead.top)
    for index, faces in enumerate(plays[1:], start=1):
        form = shape(order, faces)
        if form is None or form.pairs != lead.pairs or form.suit not in (lead.suit, TRUMP):
            continue
        key = (form.suit == TRUMP, form.top)
        if key > best_key:
            best, best_key = index, key
    return best


def points(faces: Sequence[Face]) -> int:
    """The card points ``faces`` hold (5s, 10s and kings), what the attackers collect."""
    return sum(CARDS[face].points for face in faces)


def level_change(attackers: int) -> tuple[bool, int]:
    """``(defenders keep the deal, levels up)`` for the attackers' points: 0 -> defenders +3;
    5-35 -> +2; 40-75 -> +1; 80-115 -> attackers take over, no promotion; from 120 the
    attackers go up one level per 40 beyond 80 (120 -> 1, 160 -> 2, 200 -> 3, ...)."""
    if attackers == 0:
        return True, 3
    if attackers < 40:
        return True, 2
    if attackers < 80:
        return True, 1
    return False, (attackers - 80) // 40


@functools.cache
def order_for(level: int, trump: int | None) -> Order:
    """One shared :class:`Order` per level and trump, so its table is computed once."""
    return Order(level, trump)
