"""A game's result in words, the one way every command, log line and client says who won."""

from __future__ import annotations

from collections.abc import Sequence

from fairtable.games.contract import Result

REASONS = {
    "tower": "own tower built to the goal",
    "resource": "a resource reached the goal",
    "destroyed": "enemy tower destroyed",
    "simultaneous": "both reached a goal at once",
    "timeouts": "the other side let its timer run out too often",
    "sunk": "every enemy ship sunk",
    "no targets": "no cell left to shoot at",
    "forfeit: resigned": "the other side resigned",
    "forfeit: absent": "the other side stopped answering and was declared absent",
    "forfeit: withheld": "the other side withheld its seed or deck after the game",
}
"""Words for the reason codes of results (``Result.reason``); a reason not listed is already words."""


def reason_words(reason: str) -> str:
    return REASONS.get(reason, reason)


def describe(result: Result | None, names: Sequence[str] = ()) -> str:
    """E.g. ``seat 0 (alice) won: enemy tower destroyed``; ``team 1: seat 1 (bob), seat 3 (dan) won: sunk`` when the
    game has teams; ``a draw: ...``; ``no result`` for a table not over."""
    if result is None:
        return "no result"
    if not result.winners:
        return f"a draw ({reason_words(result.reason)})" if result.reason != "disputed" else "no winner: the game was disputed"
    who = ", ".join(f"seat {seat} ({names[seat]})" if seat < len(names) else f"seat {seat}" for seat in result.winners)
    if result.winning_teams:
        who = f"team {', '.join(map(str, result.winning_teams))}: {who}"
    return f"{who} won: {reason_words(result.reason)}"
