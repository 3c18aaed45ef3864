"""The shengji cards, loaded from ``cards.json`` and checked once at import.

A face is a card *kind*: 52 suited cards (id ``suit * 13 + rank - 2``, suits clubs, diamonds,
hearts, spades; ranks 2..14, 14 the ace) and the two jokers (52 the black, small joker; 53 the
red, big one). The game uses :data:`PACKS` packs, so every face is in the deck twice and two
cards of one face are *identical*: the only pairs there are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

SUITS = ("clubs", "diamonds", "hearts", "spades")
JOKER = "joker"
SMALL_JOKER = 15
BIG_JOKER = 16
RANKS = tuple(range(2, 15))
"""Ranks of the suited cards and the levels: 2..10, jack 11, queen 12, king 13, ace 14."""
RANK_CODES = {11: "J", 12: "Q", 13: "K", 14: "A"}
PACKS = 2
HAND = 25
KITTY = 8
SEATS = 4


@dataclass(frozen=True)
class Card:
    """One card kind from ``cards.json``: its id is its face (two identical cards share it),
    with suit, rank, the code players type, names and card points."""

    id: int
    suit: str
    rank: int
    """2..14 for suited cards; :data:`SMALL_JOKER` or :data:`BIG_JOKER`."""
    code: str
    """Typed and shown in text: suit letter and rank (``H10``, ``SA``), ``BJ`` / ``RJ`` for the jokers."""
    name: str
    name_en: str
    points: int

    @property
    def joker(self) -> bool:
        """True for the two jokers, which have no suit and are always trump."""
        return self.suit == JOKER

    @property
    def suit_index(self) -> int:
        """0..3 for suited cards; 4 for jokers."""
        return SUITS.index(self.suit) if not self.joker else len(SUITS)


def level_name(level: int) -> str:
    """``2`` .. ``10``, ``J``, ``Q``, ``K``, ``A``; past the ace ``past A``."""
    return "past A" if level > 14 else RANK_CODES.get(level, str(level))


def _card(index: int, entry: dict) -> Card:
    card = Card(entry["id"], entry["suit"], entry["rank"], entry["code"], entry["name"], entry["name_en"], entry["points"])
    suited = card.suit in SUITS and card.rank in RANKS and card.id == SUITS.index(card.suit) * 13 + card.rank - 2
    joker = card.joker and (card.id, card.rank) in ((52, SMALL_JOKER), (53, BIG_JOKER))
    points = {5: 5, 10: 10, 13: 10}.get(card.rank, 0) if suited else 0
    if card.id != index or not (suited or joker) or card.points != points:
        raise ValueError(f"cards.json entry {index} is malformed")
    return card


CARDS: tuple[Card, ...] = tuple(
    _card(index, entry)
    for index, entry in enumerate(json.loads(resources.files("fairtable.games.shengji").joinpath("cards.json").read_text(encoding="utf-8")))
)
if len(CARDS) != 54 or PACKS * sum(card.points for card in CARDS) != 200:
    raise ValueError("cards.json must hold 54 card kinds worth 100 points a pack")
DECK: tuple[int, ...] = tuple(card.id for card in CARDS for _ in range(PACKS))
"""The composition shuffled for every deal: each face :data:`PACKS` times (108 cards)."""
CODES = {card.code: card.id for card in CARDS}
