"""Malformed and illegal moves, the turn timer's default moves, and consecutive timeouts."""

from __future__ import annotations

import pytest

from fairtable.games.contract import Decide, Finished, GameError, Move, RuleError
from fairtable.games.duel.catalogue import CARDS
from tests.games.duel.positions import GAME, start_1v1
from tests.games.duel.test_match import DECK_0, DECK_1


def rule(state, event) -> str:
    with pytest.raises(RuleError) as error:
        GAME.apply(state, event)
    return error.value.rule


def test_malformed_and_illegal_moves_are_refused_with_their_rule():
    table = start_1v1([DECK_0, DECK_1])
    state, hand = table.full, table.full.players[0].hand
    face = {hand[0]: DECK_0[0]}
    assert rule(state, Move(0, {"attack": "x"}, face)) == "duel.move"
    assert rule(state, Move(0, {"attack": hand[0], "extra": 1}, face)) == "duel.move"
    assert rule(state, Move(0, {"attack": hand[0], "target": 1}, face)) == "duel.move"  # a duel of two names no target
    assert rule(state, Move(0, {"defend": hand[0]}, face)) == "duel.move"
    assert rule(state, Move(0, {"pick": 3})) == "duel.move"
    assert rule(state, Move(1, {"attack": hand[0]}, face)) == "duel.turn"
    assert rule(state, Move(0, {"attack": 30}, {30: 1})) == "duel.hand"
    assert rule(state, Move(0, {"attack": hand[0]}, {})) == "duel.reveal"
    assert rule(state, Move(0, {"attack": hand[0]}, {hand[0]: DECK_0[1]})) == "duel.face"  # not the card it is
    assert rule(state, Move(0, {"attack": hand[0]}, {hand[0]: 108})) == "duel.face"
    assert GAME.legal_moves(state, 1) == () and len(GAME.legal_moves(state, 0)) == 6


def test_a_timeout_plays_the_weakest_card_for_the_role_which_only_knowing_states_can_check():
    table = start_1v1([DECK_0, DECK_1])
    weakest = min(DECK_0[:6], key=lambda c: (CARDS[c].attack, c))
    assert GAME.default_move(table.seats[0], 0) == {"attack": table.handle(0, weakest), "timeout": True}
    with pytest.raises(GameError):
        GAME.default_move(table.seats[1], 0)  # seat 1 does not know seat 0's hand
    other = table.handle(0, next(c for c in DECK_0[:6] if c != weakest))
    wrong = Move(0, {"attack": other, "timeout": True}, {other: table.faces[other]})
    assert rule(table.full, wrong) == rule(table.seats[0], wrong) == "duel.timeout"
    GAME.apply(table.seats[1], wrong)  # the opponent cannot tell, the verifier will
    table.move(0, GAME.default_move(table.full, 0))
    weakest_defence = min(DECK_1[:6], key=lambda c: (CARDS[c].defence, c))
    assert GAME.default_move(table.seats[1], 1) == {"defend": table.handle(1, weakest_defence), "timeout": True}


def test_without_a_timer_no_timeout_move_is_accepted():
    table = start_1v1([DECK_0, DECK_1], options={"turn_seconds": 0})
    assert table.pending == Decide(0, timed=False)
    assert rule(table.full, Move(0, GAME.default_move(table.full, 0), {h: table.faces[h] for h in table.full.players[0].hand})) == "duel.timer"


def test_consecutive_timeouts_lose_and_a_move_in_time_resets_the_count():
    table = start_1v1([DECK_0, DECK_1], options={"max_timeouts": 2})
    table.move(0, GAME.default_move(table.full, 0))
    table.move(1, {"defend": table.full.players[1].hand[0]})
    assert table.full.players[0].timeouts == 1
    table.move(1, {"attack": table.full.players[1].hand[0]})
    table.move(0, GAME.default_move(table.full, 0))
    assert table.pending == Finished(table.full.result) and table.full.result.winners == (1,) and table.full.result.reason == "timeouts"

    table = start_1v1([DECK_0, DECK_1], options={"max_timeouts": 2})
    table.move(0, GAME.default_move(table.full, 0))
    table.move(1, {"defend": table.full.players[1].hand[0]})
    table.move(1, {"attack": table.full.players[1].hand[0]})
    table.move(0, {"defend": table.full.players[0].hand[0]})
    assert table.full.players[0].timeouts == 0
