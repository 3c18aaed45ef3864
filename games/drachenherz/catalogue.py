"""The drachenherz card set, loaded from ``cards.json`` and checked once at import.

``cards.json`` holds the nine kinds (Dutch and English names, their field and what they take)
and the 50 cards of one player's set (a card's id is its face, its position in the list), plus
the hand size, the dragon and the number of ship marks that ends a game. The counts and values
are this project's ruling; keeping them as data lets a reader check them without the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fairtable.games.lang import choose, named

FULL = (None, "special", "collect", "out")
"""Where a slotted field's cards go once it is full and has acted: on the special field, into
the mover's collection, or out of the game. Stacks keep their cards (None)."""


@dataclass(frozen=True)
class Kind:
    """One of the nine kinds as ``cards.json`` defines it: its names, its field (a stack or n
    slots) and what its action takes."""

    id: str
    name: str
    name_en: str
    plural_en: str
    code: str
    """Two letters a player types for the kind (``dw`` for dwarves)."""
    slots: int | None
    """None: a stack without limit that acts at once; n: a field of n slots that acts when full."""
    takes: tuple[str, ...]
    """The fields one of which this kind's action takes (a choice when there are two)."""
    full: str | None
    mark: bool
    """A full field adds a ship mark."""
    dragon: bool
    """Taking at least one card of this kind brings the dragon."""

    @property
    def choice(self) -> bool:
        """True when the kind's action takes one of two fields, so a play of it must say which (``take``)."""
        return len(self.takes) > 1


@dataclass(frozen=True)
class Card:
    """One card of a player's set: its id is its face (its place in ``cards.json``), its kind and its point value."""

    id: int
    kind: str
    value: int


@dataclass(frozen=True)
class Field:
    """The special field: not a kind, but a field the ships take."""

    id: str
    name: str
    name_en: str
    code: str


def _load() -> Any:
    return json.loads(resources.files("fairtable.games.drachenherz").joinpath("cards.json").read_text(encoding="utf-8"))


def _kind(entry: dict) -> Kind:
    kind = Kind(entry["id"], entry["name"], entry["name_en"], entry["plural_en"], entry["code"], entry["slots"], tuple(entry["takes"]),
                entry.get("full"), entry.get("mark", False), entry.get("dragon", False))
    if kind.full not in FULL or (kind.slots is None) != (kind.full is None) or len(kind.takes) > 2:
        raise ValueError(f"cards.json kind {kind.id!r} is malformed")
    return kind


_DATA = _load()
KINDS: dict[str, Kind] = {kind.id: kind for kind in map(_kind, _DATA["kinds"])}
SPECIAL = Field(**_DATA["special"])
FIELDS: tuple[str, ...] = (*KINDS, SPECIAL.id)
"""Every field of the board, in the board's order: one per kind, then the special field."""
CARDS: tuple[Card, ...] = tuple(Card(entry["id"], entry["kind"], entry["value"]) for entry in _DATA["cards"])
HAND: int = _DATA["hand"]
DRAGON_HAND: int = _DATA["dragon"]["hand"]
DRAGON_POINTS: int = _DATA["dragon"]["points"]
MARKS: int = _DATA["marks"]
SET: tuple[int, ...] = tuple(card.id for card in CARDS)
"""One player's 50 cards, as faces."""

if any(card.id != index or card.kind not in KINDS for index, card in enumerate(CARDS)) or any(
    take not in FIELDS for kind in KINDS.values() for take in kind.takes
):
    raise ValueError("cards.json cards are malformed")


def kind_of(face: int) -> Kind:
    """The kind of the card with face ``face``."""
    return KINDS[CARDS[face].kind]


def field_name(field: str) -> str:
    """A field's name in the language in use, in English plural for a kind's (``dwarves``, ``special field``)."""
    if field in KINDS:
        return choose(KINDS[field].plural_en, KINDS[field].name)
    return named(SPECIAL).lower()
