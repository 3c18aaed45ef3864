"""Duel results, laid out so a tournament can be computed from verified results alone.

``Result.scores`` holds three blocks of one integer per seat, in seat order: the points, then
the offensive duels won (attack above defence), then the defensive duels won (defence above
attack). Group standings add the points; the best defender and the top attacker prizes add
the other two blocks. :func:`stats` reads them back; :func:`prize_winners` says who takes a prize.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fairtable.games.contract import Result
from fairtable.games.duel.state import DuelState

BLOCKS = ("points", "attacks_won", "defences_won")

REASONS = {
    "points": "more points",
    "rounds": "equal points, more rounds won",
    "playoff": "the playoff after a tie",
    "rematch": "the rematch after a tie",
    "draw": "level on every count",
    "tie": "still level after the most tiebreaks",
}
"""Words for the reason codes of this game's results (``games/results.py``)."""


@dataclass(frozen=True)
class SeatStats:
    """One seat's figures from a duel result: what standings and prizes add up."""

    points: int
    attacks_won: int
    defences_won: int


def scores(state: DuelState) -> tuple[int, ...]:
    """The ``Result.scores`` a match reports: points, attacks won, defences won, each block in
    seat order, so a tournament reads a seat's figures from the verified result alone."""
    return tuple(getattr(player, block) for block in BLOCKS for player in state.players)


def stats(result: Result, seats: int) -> tuple[SeatStats, ...]:
    """Each seat's figures from a result's ``scores``; ValueError unless they have the duel layout."""
    values = result.scores
    if len(values) != len(BLOCKS) * seats or any(type(v) is not int or v < 0 for v in values):
        raise ValueError(f"a duel result has {len(BLOCKS)} scores per seat, got {list(values)!r} for {seats} seats")
    return tuple(SeatStats(*(values[block * seats + seat] for block in range(len(BLOCKS)))) for seat in range(seats))


def match_result(state: DuelState) -> Result | None:
    """A match of two decided by total points, then rounds won; None when both are level."""
    a, b = state.players
    for reason, first, second in (("points", a.points, b.points), ("rounds", a.rounds_won, b.rounds_won)):
        if first != second:
            return Result((0 if first > second else 1,), reason, scores(state))
    return None


def prize_winners(won: Mapping[int, int]) -> tuple[int, ...]:
    """Who takes a prize (best defender, top attacker) from each player's duels of its kind won:
    the most, a tie shares it; nobody when nobody won one, as players expect no prize for 0
    (the rulings are silent; a prize shared by every player alike would reward nothing)."""
    best = max(won.values(), default=0)
    return tuple(sorted(player for player, count in won.items() if count == best)) if best > 0 else ()
