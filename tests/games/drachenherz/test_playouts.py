"""Whole drachenherz games played by the local referee: what a seat learns of the cards, and
the greedy bot (the contract check, ``tests/games/test_contract.py``, plays the rest with
``contract.py``'s invariants: every card in exactly one place)."""

from __future__ import annotations

import random

from fairtable.games import referee
from fairtable.games.bots import RandomBot
from fairtable.games.drachenherz.bots import GreedyBot
from tests.games.drachenherz.positions import GAME


def test_a_seat_knows_its_own_hand_played_cards_and_what_it_put_back_nothing_else():
    put_back = 0
    for seed in range(12):
        rng = random.Random(seed)
        played = referee.play(GAME, "standard", {}, [GreedyBot(), RandomBot(rng)], rng, lockstep=True)
        states = [GAME.setup("standard", {}, 2)] * 2
        for events in zip(*played.seat_events):
            for seat in (0, 1):
                state = states[seat] = GAME.apply(states[seat], events[seat])
                known, other = set(state.faces), 1 - seat
                assert not known & set(state.hands[other])  # never the other hand
                assert known & set(state.piles[seat]) == set(state.returned) & set(state.piles[seat])  # of its pile, what it put back
                assert not known & set(state.piles[other])
                assert set(state.hands[seat]) <= known
                put_back += bool(set(state.returned) & set(state.piles[seat]))
    assert put_back  # some game moved the dragon, so a card went back on a pile


def test_the_greedy_bot_clearly_beats_the_random_one():
    wins = 0
    for index in range(60):
        rng = random.Random(index)
        bots = [RandomBot(rng), RandomBot(rng)]
        bots[index % 2] = GreedyBot()
        wins += index % 2 in referee.play(GAME, "standard", {}, bots, rng).result.winners
    assert wins >= 54
