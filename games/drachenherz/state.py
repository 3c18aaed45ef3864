"""The drachenherz state: everything one node knows about a match, as a frozen value.

The same type serves both seats and the verifier; they differ only in ``faces``. A seat's
state knows the faces of its own hand (and of the card it put back on its pile), and those of
every played card; the verifier's knows every face. Everything else (hands, piles, the board,
collections) is handles, which every state agrees on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Face, Handle, Result
from fairtable.games.drachenherz.board import EMPTY, Board

RECENT = 4
SEATS = 2


@dataclass(frozen=True)
class Play:
    """A play for everyone to see: the cards laid, the chosen field, what it collected."""

    seat: int
    cards: tuple[Face, ...]
    take: str | None = None
    taken: tuple[Face, ...] = ()
    dragon: bool = False
    """The play brought the dragon to its seat."""
    timeout: bool = False


@dataclass(frozen=True)
class DrachenherzState:
    """Everything one node knows of a drachenherz match; seats' and verifier's states differ
    only in ``faces``, so one rule engine serves both."""

    options: Mapping[str, Any]
    deal: int = 0
    """The game of the match being played, from 0."""
    first: int | None = None
    """Who started the first game (a public random value); later games alternate."""
    turn: int | None = None
    moved: bool = False
    """The seat in turn has played; the card back and its refill end the turn."""
    decks: int = 0
    """Piles shuffled in this game (seat 0's, then seat 1's)."""
    piles: tuple[tuple[Handle, ...], ...] = ((), ())
    """Each seat's face-down draw pile, top first."""
    hands: tuple[tuple[Handle, ...], ...] = ((), ())
    """Each seat's hand in the order its cards were dealt (positions are public)."""
    owed: tuple[int, ...] = (0, 0)
    board: Board = field(default_factory=lambda: dict(EMPTY))
    collected: tuple[tuple[Handle, ...], ...] = ((), ())
    out: tuple[Handle, ...] = ()
    """Ships that left the game."""
    marks: int = 0
    dragon: int | None = None
    giving: int | None = None
    """The seat that lost the dragon and must put a random hand card back on its pile."""
    returned: tuple[Handle, ...] = ()
    """Cards put back on a pile and not drawn again: their owner knows them, the other seat only which handle."""
    left: int | None = None
    """Turns still to play once the end is in sight (None: not yet)."""
    faces: Mapping[Handle, Face] = field(default_factory=dict)
    timeouts: tuple[int, ...] = (0, 0)
    """Consecutive timeouts per seat (over the whole match)."""
    recent: tuple[Play, ...] = ()
    wins: tuple[int, ...] = (0, 0)
    totals: tuple[int, ...] = (0, 0)
    deal_result: Result | None = None
    """The result of the game just played, while the next one of the match is due."""
    result: Result | None = None
