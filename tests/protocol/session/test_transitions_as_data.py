"""Transitions as data: one request table, one decision table, and the timer's policy in the replica.

The request table (``games.requests``) is what the rules base routes events by and what the
referee and the session each fulfil in full; the decision table (``protocol.session.own``) is the
one place that branches on the kind of a seat's decision; the replica answers "what must this
seat send now, given this time", so a node only feeds it time.
"""

from __future__ import annotations

import random

import pytest

from fairtable.games import referee
from fairtable.games.contract import Decide, Move, Shuffle, Shuffled, ShuffleOwned
from fairtable.games.requests import REQUESTS, answers, check_covers, kind_of, missing
from fairtable.games.testing import Counting
from fairtable.protocol.session import rounds
from fairtable.protocol.session.own import DECISIONS
from fairtable.protocol.session.replica import DEFAULT, FORCED
from fairtable.protocol.session.slots import CHOICE, DECK, HIDDEN, MOVE
from tests.protocol.session.replicas import Replicas, genesis, kinds

pytestmark = pytest.mark.usefixtures("counting_game")

RNG = random.Random(7)


def started(options: dict) -> Replicas:
    """Two seats of the counting game, both committed at time 0: seat 0 is due to move."""
    table = Replicas(genesis("counting", 2, options))
    for seat in range(2):
        table[seat].tick(0.0)
        table.gossip(0.0)
    assert kinds(table[0]) == [(0, "commit"), (1, "commit")]
    return table


# ------------------------------------------------------------------ the request table


def test_every_request_kind_is_fulfilled_by_the_referee_and_by_the_session():
    assert missing(referee.FULFIL) == ()
    assert missing(rounds.FULFIL) == ("NextDeal",)  # no round: it ends a game of a match, and the flow starts the next


def test_a_fulfiller_missing_a_request_kind_fails_naming_it():
    with pytest.raises(TypeError, match="Shuffle, ShuffleOwned"):
        check_covers("a half-done referee", [row.request for row in REQUESTS if row.event is not Shuffled])


def test_an_event_goes_to_the_handler_of_the_pending_requests_row_and_nowhere_else():
    assert answers(Move(0, 1), Decide(0)) == "on_move"
    assert answers(Shuffled(), Shuffle((1, 2), 0)) == "on_shuffled"
    assert answers(Shuffled(), ShuffleOwned(0, 2, (1, 2), 0)) == "on_owned_shuffled"
    assert answers(Move(0, 1), Shuffle((1, 2), 0)) is None
    assert kind_of(object()) is None


# ------------------------------------------------------------------ the decision table


def test_every_decision_kind_has_one_row_with_its_body_and_its_default():
    assert set(DECISIONS) == {MOVE, HIDDEN, CHOICE, DECK}
    assert {kind for kind, row in DECISIONS.items() if row.placement} == {HIDDEN, DECK}


def test_a_move_outside_the_listed_legal_moves_is_unlisted_and_no_seat_but_the_due_one_has_a_list():
    table = started({})
    own, other = table[0].session, table[1].session
    assert own.unlisted(4) and not own.unlisted(2)
    assert not other.unlisted(4)  # not its decision: playing refuses it, not the list


# ------------------------------------------------------------------ the timer's policy, in the replica


def test_a_timed_decision_falls_to_the_rules_default_at_its_deadline_and_not_before():
    table = started({"turn_seconds": 5})
    assert table[0].due_decision() == (5.0, DEFAULT)
    assert table[1].due_decision() is None
    assert table[0].play_due(4.9, RNG) is None
    assert len(table[0].chain) == 2
    envelope = table[0].play_due(5.0, RNG)
    assert envelope is not None and envelope.kind == MOVE and envelope.body["move"] == 1  # the counting game's default


def test_an_untimed_decision_waits_for_the_seat():
    table = started({})
    assert table[0].due_decision() is None
    assert table[0].play_due(1e9, RNG) is None


def test_a_decision_with_one_legal_move_is_played_at_once(monkeypatch):
    monkeypatch.setattr(Counting, "legal_moves", lambda self, state, seat: (2,))
    table = started({"turn_seconds": 5})
    assert table[0].due_decision() == (0.0, FORCED)
    envelope = table[0].play_due(0.0, RNG)
    assert envelope is not None and envelope.body["move"] == 2


def test_the_turn_clock_counts_down_the_due_seats_timed_decision():
    table = started({"turn_seconds": 5})
    assert table[1].turn_clock(2.0) == {"seat": 0, "seconds": 3.0}
    assert started({}).replicas[1].turn_clock(2.0) is None


def test_every_seats_clock_shows_at_once_the_due_one_running_then_its_grace():
    table = started({"turn_seconds": 5})  # grace 10 s
    waiting = {"grace": 10.0, "running": False, "seat": 1, "turn": 5.0}
    assert table[1].clocks(2.0) == [{"grace": 10.0, "running": True, "seat": 0, "turn": 3.0}, waiting]
    assert table[1].clocks(8.5) == [{"grace": 6.5, "running": True, "seat": 0, "turn": 0.0}, waiting]
    assert table[1].clocks(99.0)[0] == {"grace": 0.0, "running": True, "seat": 0, "turn": 0.0}
    assert started({}).replicas[1].clocks(2.0) is None
