"""The duel catalogue, loaded from ``cards.json`` and checked once at import, and the duel itself.

A card's id is its face: its position in the list (Mare 0–35, Terra 36–71, Aria 72–107).
Balance is in the data, not in code: every card but "De Jongen" has attack + defence in
340..380, and the attack values of each type spread evenly over 60..300 with defence
mirroring them, so a card strong in one value is weak in the other and no card dominates.
:func:`share` measures it: a card's expected share of the points against every other card,
attacking and defending; ``spec/games.md`` reports the spread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

TYPES = ("Mare", "Terra", "Aria")
BEATS = {"Mare": "Terra", "Terra": "Aria", "Aria": "Mare"}
"""The superiority triangle: each type beats the next."""
BONUS = 50
"""Attack added for the attacker only, when its type beats the defender's."""
PER_TYPE = 36
LOWEST, HIGHEST, STEP = 50, 300, 10
BAND = (340, 380)
"""Attack + defence of every card but the weak one."""
WEAK = "De Jongen"
"""The one card outside the balance band: the rulings make De Jongen (50/50) a weak card."""


@dataclass(frozen=True)
class Card:
    """One duel card from ``cards.json``: its id is its face, with both names, its type (for the
    superiority triangle) and its attack and defence values."""

    id: int
    name: str
    name_en: str
    type: str
    attack: int
    defence: int

    def line(self) -> str:
        """E.g. ``Witte Haai (Great White Shark), Mare, attack 210, defence 130``."""
        return f"{self.name} ({self.name_en}), {self.type}, attack {self.attack}, defence {self.defence}"


def _card(index: int, entry: dict) -> Card:
    card = Card(entry["id"], entry["name"], entry["name_en"], entry["type"], entry["attack"], entry["defence"])
    values_ok = all(type(v) is int and LOWEST <= v <= HIGHEST and v % STEP == 0 for v in (card.attack, card.defence))
    if card.id != index or card.type not in TYPES or not values_ok or not card.name or not card.name_en:
        raise ValueError(f"cards.json entry {index} is malformed")
    if card.name != WEAK and not BAND[0] <= card.attack + card.defence <= BAND[1]:
        raise ValueError(f"cards.json card {index}: attack + defence is outside {BAND}")
    return card


def _load() -> tuple[Card, ...]:
    text = resources.files("fairtable.games.duel").joinpath("cards.json").read_text(encoding="utf-8")
    cards = tuple(_card(index, entry) for index, entry in enumerate(json.loads(text)))
    for language in ("name", "name_en"):
        if len({getattr(card, language).casefold() for card in cards}) != len(cards):
            raise ValueError(f"cards.json: the {language} of each card must be unique")
    if len(cards) != PER_TYPE * len(TYPES) or any(sum(c.type == t for c in cards) != PER_TYPE for t in TYPES):
        raise ValueError(f"cards.json must hold {PER_TYPE} cards of each type")
    return cards


CARDS: tuple[Card, ...] = _load()
IDS: tuple[int, ...] = tuple(card.id for card in CARDS)


def is_card(face: object) -> bool:
    """True when ``face`` is a card id; checks come before any lookup, since faces arrive in
    moves and openings from other seats."""
    return type(face) is int and 0 <= face < len(CARDS)


def beats(attacker: Card, defender: Card) -> bool:
    """Whether the attacker's type beats the defender's in the type triangle (the bonus applies)."""
    return BEATS[attacker.type] == defender.type


def attack_value(attacker: Card, defender: Card) -> int:
    """The attack as compared: with the triangle bonus when the attacker's type beats the defender's."""
    return attacker.attack + (BONUS if beats(attacker, defender) else 0)


def points(attacker: Card, defender: Card) -> tuple[int, int]:
    """``(attacker's, defender's)`` points of one duel: 2-0, 1-1 or 0-2."""
    attack = attack_value(attacker, defender)
    if attack > defender.defence:
        return 2, 0
    return (1, 1) if attack == defender.defence else (0, 2)


@cache
def expected(card_id: int) -> tuple[Fraction, Fraction]:
    """The card's mean points attacking and defending against each other card: its worth in each role."""
    card = CARDS[card_id]
    others = [other for other in CARDS if other.id != card_id]
    attacking = sum(points(card, other)[0] for other in others)
    defending = sum(points(other, card)[1] for other in others)
    return Fraction(attacking, len(others)), Fraction(defending, len(others))


def share(card_id: int) -> Fraction:
    """The card's share of the points in random duels (a random opponent card, a random role)."""
    attacking, defending = expected(card_id)
    return (attacking + defending) / 4
