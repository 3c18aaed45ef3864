"""Games and matches: the options ``match X`` and ``sumof X``, a game's result, and the match's.

A table plays one game unless the host sets ``match`` (first to X game wins; a drawn game
counts for nobody) or ``sumof`` (X games; the highest total of points, the dragon's included,
wins; equal totals are a draw). The two exclude each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairtable.games.contract import OptionsError, Result
from fairtable.games.drachenherz.catalogue import CARDS, DRAGON_POINTS
from fairtable.games.drachenherz.state import SEATS, DrachenherzState
from fairtable.games.options import Integer

OPTIONS = {"match": Integer(0, 99, 0), "sumof": Integer(0, 99, 0)}
"""0: off. Both off: a single game."""


def check(options: Mapping[str, Any]) -> None:
    """Raise :class:`OptionsError` unless at most one of ``match`` and ``sumof`` is set: they exclude each other."""
    if options["match"] and options["sumof"]:
        raise OptionsError("options 'match' and 'sumof' exclude each other: set one of them")


def mode(options: Mapping[str, Any]) -> str:
    """``single``, ``match`` or ``sumof``."""
    return "match" if options["match"] else "sumof" if options["sumof"] else "single"


def points(state: DrachenherzState, seat: int) -> int:
    """The values of the cards ``seat`` collected (all played in the open), and the dragon's."""
    return sum(CARDS[state.faces[h]].value for h in state.collected[seat]) + (DRAGON_POINTS if state.dragon == seat else 0)


def game_result(state: DrachenherzState) -> Result:
    """Most points wins; equal points: the dragon's holder; nobody holds it: a draw."""
    scores = tuple(points(state, seat) for seat in range(SEATS))
    if scores[0] != scores[1]:
        return Result((scores.index(max(scores)),), "points", scores)
    if state.dragon is not None:
        return Result((state.dragon,), "dragon", scores)
    return Result((), "draw", scores)


def match_scores(state: DrachenherzState) -> tuple[int, ...]:
    """What a match result's scores count: game wins (``match``), points (``sumof``), or the
    game's points (a single game)."""
    kind = mode(state.options)
    if kind == "match":
        return state.wins
    if kind == "sumof":
        return state.totals
    return tuple(points(state, seat) for seat in range(SEATS))


def after_game(state: DrachenherzState, result: Result) -> tuple[tuple[int, ...], tuple[int, ...], Result | None]:
    """The wins and totals with ``result`` counted, and the match result if the match is over."""
    wins = tuple(count + (seat in result.winners) for seat, count in enumerate(state.wins))
    totals = tuple(total + score for total, score in zip(state.totals, result.scores))
    kind = mode(state.options)
    if kind == "single":
        return wins, totals, result
    if kind == "match":
        leaders = [seat for seat in range(SEATS) if wins[seat] >= state.options["match"]]
        return wins, totals, Result(tuple(leaders), "match", wins) if leaders else None
    if state.deal + 1 < state.options["sumof"]:
        return wins, totals, None
    best = max(totals)
    leaders = [seat for seat in range(SEATS) if totals[seat] == best]
    return wins, totals, Result(tuple(leaders) if len(leaders) == 1 else (), "sumof", totals)


def starter(state: DrachenherzState, deal: int) -> int:
    """Who starts game ``deal``: the first game's starter, then alternating."""
    assert state.first is not None
    return (state.first + deal) % SEATS
