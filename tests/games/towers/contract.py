"""Towers' own invariants for the contract check (``tests/games/test_contract.py``)."""

from __future__ import annotations

import dataclasses
from collections import Counter

from fairtable.games.contract import Decide, Move, Shuffle
from fairtable.games.towers.catalogue import BATTLEFIELDS

TABLES = (
    *(("normal", 2, {"battlefield": field}, "random") for field in sorted(BATTLEFIELDS)),
    ("infinite", 2, {"battlefield": sorted(BATTLEFIELDS)[-1]}, "flaky"),
    ("normal", 2, {"turn_seconds": 0}, "random"),
    ("normal", 2, {"max_timeouts": 1}, "flaky", (0, 1, 2)),
    ("infinite", 2, {"max_timeouts": 1}, "flaky"),
)
"""Every battlefield, the timer off, and one timeout too many."""


def invariants(state, request):
    for side in state.sides:
        assert min(dataclasses.astuple(side)) >= 0
    assert all(len(hand) <= 6 for hand in state.hands)
    if isinstance(request, Decide):
        assert [len(hand) for hand in state.hands] == [6, 6]
        assert state.owed == (0, 0)
    live = set(state.deck) | {h for hand in state.hands for h in hand}
    assert set(state.faces) <= live
    if state.variant == "normal":
        assert len(state.deck) + sum(map(len, state.hands)) + len(state.discard) == 102
        if state.deck or state.hands != ((), ()):
            # Full knowledge: every card exists exactly once.
            assert Counter(state.faces[h] for h in live) + Counter(state.discard) == Counter(range(102))
    else:
        assert state.discard == () and state.deck == ()
        assert not isinstance(request, Shuffle)
    assert all(count < state.options["max_timeouts"] for count in state.timeouts) or state.result is not None


def finished(played, table):
    assert played.result.reason in ("tower", "resource", "destroyed", "simultaneous", "timeouts")
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert len(events) == len(played.events)
        # Hidden stays hidden: a seat never learns the other hand or the deck order.
        assert not set(state.faces) & (set(state.hands[1 - seat]) | set(state.deck))
    # The verifier's events carry every face; the seats' carry only their own.
    for full, *seats in zip(played.events, *played.seat_events):
        if isinstance(full, Move):
            assert seats == [full, full]
