"""Whole towers games played by the local referee: the sequence of requests and the reshuffles
(the contract check, ``tests/games/test_contract.py``, plays the rest with ``contract.py``'s invariants)."""

from __future__ import annotations

import random

from fairtable.games import referee
from fairtable.games.bots import RandomBot
from fairtable.games.contract import Shuffle
from tests.games.towers.positions import GAME


def test_requests_of_a_normal_game_follow_the_documented_sequence():
    rng = random.Random(7)
    played = referee.play(GAME, "normal", {}, [RandomBot(rng), RandomBot(rng)], rng)
    state, kinds = GAME.setup("normal", {}, 2), []
    for event in played.events:
        kinds.append(type(GAME.pending(state)).__name__)
        state = GAME.apply(state, event)
    assert kinds[:4] == ["PublicRandom", "Shuffle", "Deal", "Decide"]
    assert set(kinds) <= {"PublicRandom", "Shuffle", "Deal", "Decide"}
    assert type(GAME.pending(state)).__name__ == "Finished"


def test_long_games_reshuffle_the_discard_pile():
    rng = random.Random(11)
    played = referee.play(GAME, "normal", {"battlefield": "free_steppe"}, [RandomBot(rng), RandomBot(rng)], rng)
    state, shuffles = GAME.setup("normal", {"battlefield": "free_steppe"}, 2), []
    for event in played.events:
        request = GAME.pending(state)
        if isinstance(request, Shuffle):
            shuffles.append((request, sum(map(len, state.hands))))
            assert state.deck == () and request.cards == tuple(sorted(state.discard))
        state = GAME.apply(state, event)
    assert len(shuffles) >= 2 and shuffles[1][0].first_handle == 102
    assert all(len(request.cards) + in_hands == 102 for request, in_hands in shuffles)
