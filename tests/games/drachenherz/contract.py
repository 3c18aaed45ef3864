"""Drachenherz's own invariants for the contract check (``tests/games/test_contract.py``)."""

from __future__ import annotations

from collections import Counter

from fairtable.games.contract import Decide
from fairtable.games.drachenherz.catalogue import CARDS, FIELDS, SET
from fairtable.games.drachenherz.game import hand_limit
from fairtable.games.testing import Sampling

ALL = set(range(2 * len(SET)))
SAMPLING = Sampling(complete=False)
"""``legal_moves`` lists one play per multiset of card values (the lowest handles); ``apply``
takes any cards of those values, so only malformed moves are offered as wrong ones."""
TABLES = (
    ("standard", 2, {"match": 2}, "flaky"),
    ("standard", 2, {"sumof": 2}, "greedy"),
    ("standard", 2, {"turn_seconds": 0}, "greedy"),
    ("standard", 2, {"max_timeouts": 1}, "flaky", (0, 1, 2)),
)
"""A match, a sum-of match, the timer off, one timeout too many."""


def places(state) -> list[int]:
    """Every handle of the game in progress, from every place a card can be."""
    found = [h for pile in state.piles for h in pile] + [h for hand in state.hands for h in hand]
    found += [h for field in FIELDS for h in state.board[field]] + [h for pile in state.collected for h in pile] + list(state.out)
    return found


def invariants(state, request):
    found = places(state)
    if state.decks == 2:
        # Conservation: each of the 100 cards in exactly one place, and the full state knows
        # each set's composition.
        assert Counter(found) == Counter(ALL)
        for seat in (0, 1):
            assert sorted(state.faces[h] for h in range(seat * 50, seat * 50 + 50)) == list(SET)
    elif state.decks == 1:
        assert sorted(found) == list(range(50))
    assert set(state.returned) <= {h for pile in state.piles for h in pile}
    assert 0 <= state.marks <= 4 and (state.left is None or 0 <= state.left <= 3)
    for field in FIELDS:
        kinds = {CARDS[state.faces[h]].kind for h in state.board[field]}
        assert field == "special" or kinds <= {field}
    if isinstance(request, Decide):
        assert state.owed == (0, 0) and state.giving is None
        seat = request.seat
        assert len(state.hands[seat]) <= hand_limit(state, seat)
        assert len(state.hands[seat]) == hand_limit(state, seat) or not state.piles[seat] or state.returned


def finished(played, table):
    assert played.result.reason in ("points", "dragon", "draw", "match", "sumof", "timeouts")
