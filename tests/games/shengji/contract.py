"""Shengji's own invariants for the contract check (``tests/games/test_contract.py``): the 200
points are conserved in every deal and hands stay even."""

from __future__ import annotations

from fairtable.games import registry
from fairtable.games.contract import DealStarted, Decide, Finished, NextDeal
from fairtable.games.shengji.order import points
from fairtable.games.testing import Sampling

SAMPLING = Sampling(complete=False)
"""``legal_moves`` names one copy of each card (the two decks hold two of each); ``apply`` takes
either copy, so only malformed moves are offered as wrong ones."""
TABLES = (
    ("standard", 4, {"deals": 1, "max_timeouts": 100}, "greedy"),
    ("standard", 4, {"deals": 2, "start": 13, "max_timeouts": 100}, "flaky"),
    ("standard", 4, {"deals": 3, "target": 3, "max_timeouts": 100}, "greedy"),
    ("standard", 4, {"start": 14, "deals": 2, "max_timeouts": 100}, "random"),
)
"""Matches of one to three deals from several levels, timeouts never ending them."""


def check_deal_end(state) -> None:
    """The 200 points: taken in tricks by either team, or buried; the attackers' score adds only the bonus."""
    faces = [state.faces[h] for h in state.buried]
    assert sum(state.points) + points(faces) == 200
    attackers = state.attackers
    assert state.deal_result.scores[attackers] == state.points[attackers] + state.bonus  # seat t plays for team t
    assert state.bonus in (0, points(faces) * 2 * len(state.last.plays[0].handles))
    assert not any(state.hands) and len(state.buried) == 8


def invariants(state, request):
    if isinstance(request, Decide) and state.step == "play" and not state.trick:
        assert len({len(hand) for hand in state.hands}) == 1  # everyone played as many cards


def finished(played, table):
    game = registry.get("shengji")
    state = game.setup(table.variant, table.options, table.seats)
    deals = 0
    for event in played.events:
        state = game.apply(state, event)
        if isinstance(game.pending(state), (NextDeal, Finished)) and state.deal_result is not None and state.step == "done":
            check_deal_end(state)
            deals += 1
    if played.result.reason != "timeouts":
        assert deals == sum(isinstance(event, DealStarted) for event in played.events) + 1
