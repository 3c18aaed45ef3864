"""The towers catalogue, loaded from this package's data files and checked once at import.

``cards.json`` holds the 102 cards of the Latvian rule text (a card's id is its face: its
position in the list, red 0–33, blue 34–67, green 68–101) and ``battlefields.json`` the
8 battlefields with the starting resources of the rulings. Keeping them as data means a
reader can check each card against the text without reading the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fairtable.games.towers.effects import Side, Step, parse

COLOURS = {"red": "ore", "blue": "mana", "green": "soldiers"}
HAND_SIZE = 6


@dataclass(frozen=True)
class Card:
    """One towers card from ``cards.json``: its id is its face, with names, colour, cost, the
    Latvian text and its effect as data steps, plus what follows it (``after``)."""

    id: int
    name: str
    name_en: str
    colour: str
    cost: int
    text: str
    effect: tuple[Step, ...]
    after: str | None

    @property
    def resource(self) -> str:
        """The resource the card costs (its colour's)."""
        return COLOURS[self.colour]


@dataclass(frozen=True)
class Battlefield:
    """A battlefield: both players' starting numbers and the tower and resource totals that win."""

    id: str
    name: str
    name_en: str
    start: Side
    victory_tower: int
    victory_resource: int


def _load(name: str) -> Any:
    return json.loads(resources.files("fairtable.games.towers").joinpath(name).read_text(encoding="utf-8"))


def _card(index: int, entry: dict) -> Card:
    if entry["id"] != index or entry["colour"] not in COLOURS or entry.get("after") not in (None, "play_again", "draw_discard"):
        raise ValueError(f"cards.json entry {index} is malformed")
    try:
        effect = parse(entry["effect"])
    except ValueError as exc:
        raise ValueError(f"cards.json card {index}: {exc}") from None
    return Card(index, entry["name"], entry["name_en"], entry["colour"], entry["cost"], entry["text"], effect, entry.get("after"))


def _battlefield(entry: dict) -> Battlefield:
    start = Side(**{name: entry[name] for name in Side.__dataclass_fields__})
    return Battlefield(entry["id"], entry["name"], entry["name_en"], start, entry["victory_tower"], entry["victory_resource"])


CARDS: tuple[Card, ...] = tuple(_card(index, entry) for index, entry in enumerate(_load("cards.json")))
BATTLEFIELDS: dict[str, Battlefield] = {field.id: field for field in map(_battlefield, _load("battlefields.json"))}
DEFAULT_BATTLEFIELD = "archmage_citadel"
