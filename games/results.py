"""A game's result in words, the one way every command, log line and client says who won.

Each game declares the words for its own reason codes (``Game.reasons``); the reasons any
game's result may carry (a forfeit, too many timeouts, a seat declared absent) have their words
here. A reason not listed anywhere is already words (e.g. shengji's ``past A``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairtable.games import registry
from fairtable.games.contract import Result
from fairtable.games.people import player, players

COMMON_REASONS: Mapping[str, str] = {
    "timeouts": "a player let the turn timer run out too often",
    "absent": "a player stopped answering and was declared absent",
    "forfeit: resigned": "a player resigned",
    "forfeit: absent": "a player stopped answering and was declared absent",
    "forfeit: withheld": "a player withheld a seed or deck after the game",
}
"""Words for the reasons of the contract and the session, the same for every game."""


def reason_words(reason: str, game: str | None = None) -> str:
    """``reason`` in words: the common words, else ``game``'s own (any registered game's when
    no game is named; where two games share a code they share its words), else the code."""
    if reason in COMMON_REASONS:
        return COMMON_REASONS[reason]
    for game_id in (game,) if game else registry.ids():
        words = registry.get(game_id).reasons.get(reason)
        if words is not None:
            return words
    return reason


def describe(result: Result | None, names: Sequence[str] = (), game: str | None = None) -> str:
    """E.g. ``alice won: enemy tower destroyed``; ``bob and dan won: sunk`` when a team won (its
    players, never its number); ``a draw: ...``; ``no result`` for a table not over. Players are named by ``names``
    (the genesis's; see :mod:`~fairtable.games.people`), else as :func:`~fairtable.games.people.seated` set them."""
    if result is None:
        return "no result"
    words = reason_words(result.reason, game)
    if not result.winners:
        return f"a draw ({words})" if result.reason != "disputed" else "no winner: the game was disputed"
    return f"{players(result.winners, None, names or None)} won: {words}"


def final_standing(renderer: Any, view: dict, result: Result) -> str | None:
    """How a finished game was reached, said after "Final": the renderer's own ``standing(view)``
    where it has one (scores not one per seat, or counting something other than points), else
    the scores by name (``score: you 3, bob 1``, the view's seat as "you"); None without scores.
    The node sends it with the result (``TableUpdate.standing``), so every client says the same."""
    own = getattr(renderer, "standing", None)
    if own is not None:
        return str(own(view))
    if not result.scores:
        return None
    return "score: " + ", ".join(f"{player(seat, view.get('seat'))} {points}" for seat, points in enumerate(result.scores))
