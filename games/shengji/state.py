"""The shengji state: everything one node knows about the match, as a frozen value.

The same type serves every seat and the verifier; they differ only in ``faces``, the faces
this state knows (a seat: its hand, the kitty if it deals, and what was shown to everyone;
the verifier: every card). ``faces`` is emptied at each new deal: handles are never reused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Face, Handle, Result, Teams
from fairtable.games.shengji.order import Order, order_for

TEAMS: Teams = ((0, 2), (1, 3))
"""Partners sit opposite: seats 0 and 2 against 1 and 3."""


def team_of(seat: int) -> int:
    """The team of ``seat``: partners sit opposite, so team 0 is seats 0 and 2."""
    return seat % 2


@dataclass(frozen=True)
class Declaration:
    """The standing trump declaration: ``seat`` showed ``handles``; ``strength`` 1 a level
    card, 2 a level pair, 3 a small-joker pair, 4 a big-joker pair; ``trump`` its suit (None: no trump)."""

    seat: int
    handles: tuple[Handle, ...]
    strength: int
    trump: int | None


@dataclass(frozen=True)
class Play:
    """The cards one seat put into a trick, in the order played (a follower's may be incomplete)."""

    seat: int
    handles: tuple[Handle, ...]


@dataclass(frozen=True)
class Trick:
    """A finished trick, for the view: who played what and who won it."""

    plays: tuple[Play, ...]
    winner: int


@dataclass(frozen=True)
class ShengjiState:
    """Everything one node knows of a shengji match; states differ only in ``faces``, so one rule
    engine serves every seat and the verifier."""

    options: Mapping[str, Any]
    levels: tuple[int, int]
    """Each team's level (team 0: seats 0 and 2), 2..14; past the target wins."""
    level: int
    """This deal's level rank: the dealing team's level as the deal began (both teams start equal)."""
    step: str = "start"
    """``start`` (who begins), ``shuffle``, ``deal``, ``declare``, ``kitty`` (to the dealer),
    ``trump`` (the kitty revealed: nobody declared), ``bury``, ``play``, ``buried`` (revealed), ``done``."""
    deal: int = 0
    starter: int = 0
    """The seat the match's first declaration round starts with (a public random value)."""
    dealer: int | None = None
    """None in the first deal until its first declaration (or its end: the starter deals)."""
    first_handle: Handle = 0
    faces: Mapping[Handle, Face] = field(default_factory=dict)
    hands: tuple[tuple[Handle, ...], ...] = ((), (), (), ())
    turn: int = 0
    passes: int = 0
    """Consecutive passes in the declaration round."""
    declaration: Declaration | None = None
    trump: int | None = None
    """The trump suit the revealed kitty gave when nobody declared (see :attr:`standing_trump`)."""
    kitty: tuple[Handle, ...] = ()
    buried: tuple[Handle, ...] = ()
    trick: tuple[Play, ...] = ()
    tricks: int = 0
    """Tricks finished in this deal."""
    last: Trick | None = None
    points: tuple[int, int] = (0, 0)
    """Card points each team took in tricks this deal."""
    bonus: int = 0
    """The attackers' kitty bonus, once the buried cards are revealed."""
    timeouts: tuple[int, ...] = (0, 0, 0, 0)
    """Consecutive timeouts per seat."""
    deal_result: Result | None = None
    result: Result | None = None

    @property
    def standing_trump(self) -> int | None:
        """The trump suit as it stands: the standing declaration's (final once the round ends),
        else the one the revealed kitty gave; None for no trump suit or none yet."""
        return self.declaration.trump if self.declaration is not None else self.trump

    @property
    def order(self) -> Order:
        """The card order of the deal as it stands: the level rank and the standing trump."""
        return order_for(self.level, self.standing_trump)

    @property
    def attackers(self) -> int | None:
        """The attacking team (the one not dealing), None until a dealer is known."""
        return None if self.dealer is None else 1 - team_of(self.dealer)
