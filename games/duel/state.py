"""The duel state: everything one node knows about a match, as a frozen value.

The same type serves every seat and the verifier; they differ in ``faces`` (the faces this
state knows), in :attr:`Player.cards` (a seat's deck composition: its own, every seat's for
the verifier, everyone's in a draft) and in :attr:`Player.draws` (swap candidates, known to
their seat and the verifier). Everything else is public and identical in every state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Face, Handle, Result

RECENT = 6


@dataclass(frozen=True)
class Player:
    """One seat's part of the match: its deck and hand as handles, its counts, and its composition where known."""

    deck: tuple[Handle, ...] = ()
    """Face-down deck positions, top first."""
    hand: tuple[Handle, ...] = ()
    """Cards in hand (dealt to the seat), or in blind play the cards lying face down."""
    used: tuple[Face, ...] = ()
    """Cards played since the deck last took its used cards back (public)."""
    owed: int = 0
    """Cards to draw into the hand before play goes on."""
    points: int = 0
    round_points: int = 0
    rounds_won: int = 0
    attacks_won: int = 0
    """Offensive duels won: attack above defence."""
    defences_won: int = 0
    """Defensive duels won: defence above attack."""
    timeouts: int = 0
    """Consecutive timeouts."""
    cards: tuple[Face, ...] | None = None
    """The seat's deck composition (its cards, used ones too), where this state knows it."""
    built: bool = False
    reshuffle: bool = False
    """Its deck must be rebuilt with the used cards back in before the next hand."""
    swap: bool = False
    """Its deck must be rebuilt with up to 2 cards swapped for the cards drawn for it."""
    regather: bool = False
    """Its deck must be rebuilt with the cards a short round left in its hand back in."""
    draws: tuple[int | None, ...] = ()
    """The swap draws so far: indices into the cards outside its deck (None where not known)."""

    @property
    def rebuilding(self) -> bool:
        """Its deck must be rebuilt before the next hand."""
        return self.reshuffle or self.swap or self.regather


@dataclass(frozen=True)
class OwnedDeck:
    """One secret deck: whose, where its handles start, and what a knowing state found."""

    owner: int
    first: Handle
    composition: tuple[Face, ...] | None = None
    rule: str = ""
    flaw: str = ""
    """Why the composition breaks the rules (found by the owner's state and the verifier's)."""


@dataclass(frozen=True)
class Duel:
    """A finished duel, for everyone to see. ``defence`` is None when the defender had no card."""

    round: int
    attacker: int
    defender: int
    attack: Face
    defence: Face | None
    bonus: bool
    points: tuple[int, int]
    playoff: bool = False


@dataclass(frozen=True)
class DuelState:
    """Everything one node knows of a duel match; states differ only in ``faces``, compositions and
    swap draws, so one rule engine serves every seat and the verifier."""

    variant: str
    options: Mapping[str, Any]
    seats: int
    players: tuple[Player, ...]
    step: str
    """What happens next: ``order``, ``draft``, ``prepare``, ``start``, ``attack``, ``defend``,
    ``pick``, ``reveal``, ``dice`` or ``over``."""
    after: str = "start"
    """The step that follows ``prepare``."""
    faces: Mapping[Handle, Face] = field(default_factory=dict)
    next_handle: Handle = 0
    picks: tuple[Face, ...] = ()
    """Draft picks in order (the picker of each follows from the snake order)."""
    first: int | None = None
    """The first picker of the draft."""
    starter: int | None = None
    """1v1: the attacker of the first duel of the current round (or playoff); FFA: the first attacker."""
    round: int = 0
    """Rounds begun (1v1 and blind), rematches included."""
    duel: int = 0
    """Duels played in the current round; in FFA the turns taken."""
    attacker: int | None = None
    defender: int | None = None
    attack: Handle | None = None
    """The attack card on the table; in blind play the attacker's card picked to be revealed."""
    defence: Handle | None = None
    """In blind play, the defender's card picked to be revealed."""
    tiebreaks: int = 0
    drawn: int = 0
    """Rounds (rematches too) that ended level on points: nobody won them, so the rounds won
    alone do not say how many were played."""
    playoff: bool = False
    decks: tuple[OwnedDeck, ...] = ()
    recent: tuple[Duel, ...] = ()
    """The last :data:`RECENT` duels, oldest first."""
    out: tuple[int, ...] = ()
    """Seats that left a free-for-all."""
    result: Result | None = None

    @property
    def present(self) -> tuple[int, ...]:
        """The seats still playing (in a free-for-all, those that have not left), in seat order."""
        return tuple(seat for seat in range(self.seats) if seat not in self.out)

    def player(self, seat: int, **changes: Any) -> DuelState:
        """The state with ``seat``'s player changed."""
        players = list(self.players)
        players[seat] = dataclasses.replace(players[seat], **changes)
        return dataclasses.replace(self, players=tuple(players))
