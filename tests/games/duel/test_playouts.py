"""Whole duel matches played by the local referee: the bots and a seed's replay (the contract
check, ``tests/games/test_contract.py``, plays the rest with ``contract.py``'s invariants)."""

from __future__ import annotations

import random

from fairtable.games import referee
from fairtable.games.bots import heuristic, random_bot
from fairtable.games.duel.bots import GreedyBot, RandomBot, built_deck
from tests.games.duel.positions import GAME


def test_the_greedy_bot_clearly_beats_random_in_a_duel_of_two_and_in_a_free_for_all():
    for variant, seats, games, floor in (("1v1", 2, 40, 0.9), ("ffa", 4, 40, 0.6)):
        wins = 0
        for index in range(games):
            rng = random.Random(500 + index)
            bots = [RandomBot(rng) for _ in range(seats)]
            bots[index % seats] = GreedyBot(rng)
            wins += index % seats in referee.play(GAME, variant, {}, bots, rng).result.winners
        assert wins / games >= floor, (variant, wins)


def test_the_built_deck_is_legal_and_the_generic_lookups_find_the_bots():
    state = GAME.setup("1v1", {}, 2)
    for variant in ("1v1", "blind"):
        GAME.check_composition(state, 0, built_deck(variant))
    assert built_deck("1v1") != built_deck("blind")
    assert isinstance(heuristic(GAME, random.Random(0)), GreedyBot) and isinstance(random_bot(GAME, random.Random(0)), RandomBot)


def test_a_seed_replays_the_same_match():
    def events(seed):
        rng = random.Random(seed)
        return referee.play(GAME, "blind", {"swap_after_round": True}, [GreedyBot(rng), RandomBot(rng)], rng).events

    assert events(5) == events(5) and events(5) != events(6)
