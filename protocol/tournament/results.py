"""A table's outcome as the tournament counts it, read from the verifier's report only.

A valid transcript gives the result: each seat's points and duels won (``games/duel/results.py``),
the winners, and the seats that lost by leaving (absent, timeouts, a forfeit). A transcript that
names a cheating seat makes that seat lose the table; the others keep the points of the result
where the game ended, else none. Any other status (damaged, incomplete) is no outcome: the
tournament waits for a valid copy of that table.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairtable.games.duel.results import SeatStats, stats
from fairtable.protocol.session.verify import VALID, VIOLATION, Report

NOTHING = SeatStats(0, 0, 0)
"""The figures of a seat whose table gave no readable duel result."""


@dataclass(frozen=True)
class Outcome:
    """Per seat of the table: ``stats``; ``winners`` and ``out`` (lost by leaving or cheating) are seats."""

    stats: tuple[SeatStats, ...]
    winners: tuple[int, ...]
    out: tuple[int, ...]
    note: str

    def to_value(self) -> dict:
        """The outcome as plain values, for the client API and the verifier's report."""
        return {"note": self.note, "out": list(self.out), "winners": list(self.winners),
                "stats": [{"attacks_won": s.attacks_won, "defences_won": s.defences_won, "points": s.points} for s in self.stats]}


def outcome(report: Report) -> Outcome | None:
    """The outcome a report gives, or None when the transcript is not a finished, checkable table."""
    seats = len(report.seats)
    if report.status not in (VALID, VIOLATION) or (report.status == VALID and report.result is None):
        return None
    result = report.result
    try:
        figures = stats(result, seats) if result is not None else (NOTHING,) * seats
    except ValueError:
        figures = (NOTHING,) * seats
    cheats = sorted({v.seat for v in report.violations if v.seat is not None})
    if report.status == VIOLATION:
        if not cheats:
            return None  # a violation nobody is named for leaves nothing to count
        winners = tuple(s for s in (result.winners if result else ()) if s not in cheats)
        if not winners and seats - len(cheats) == 1:
            winners = tuple(s for s in range(seats) if s not in cheats)
        return Outcome(figures, winners, tuple(cheats), "cheating: " + ", ".join(f"seat {s}" for s in cheats))
    assert result is not None
    out = tuple(sorted({*result.losers, *(a.seat for a in report.absences)}))
    return Outcome(figures, result.winners, out, result.reason)
