"""The towers state: everything one node knows about a game, as a frozen value.

The same type serves every seat and the verifier; they differ only in ``faces``, the
faces this state knows. Handles leave ``faces`` when their card leaves a hand (the face
then lives on in ``discard``), so a state never grows with the game's length.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairtable.games.contract import Face, Handle, Result
from fairtable.games.towers.effects import Side

RECENT = 6


@dataclass(frozen=True)
class Action:
    """A card that left a hand, for everyone to see: played, or discarded (by the timer, maybe)."""

    seat: int
    card: Face
    played: bool
    timeout: bool


@dataclass(frozen=True)
class TowersState:
    """Everything one node knows of a towers game; states differ only in ``faces``, so one rule
    engine serves every seat and the verifier."""

    variant: str
    options: Mapping[str, Any]
    sides: tuple[Side, ...]
    hands: tuple[tuple[Handle, ...], ...]
    deck: tuple[Handle, ...]
    discard: tuple[Face, ...]
    faces: Mapping[Handle, Face]
    next_handle: Handle
    owed: tuple[int, ...]
    """Cards each seat must draw before anyone decides."""
    turn: int | None = None
    must_discard: bool = False
    """The seat in turn drew for a "draw a card, discard a card" card and must now discard."""
    timeouts: tuple[int, ...] = (0, 0)
    """Consecutive timeouts per seat."""
    recent: tuple[Action, ...] = ()
    """The last :data:`RECENT` cards that left a hand, oldest first."""
    result: Result | None = None
