"""The referee fulfils every request kind of the contract, in full knowledge and in lockstep."""

from __future__ import annotations

import random

import pytest

from fairtable.games import referee
from fairtable.games.bots import RandomBot, heuristic
from fairtable.games.contract import (
    Chosen,
    Committed,
    DealStarted,
    Dealt,
    Decide,
    Move,
    Opened,
    PrivateDrawn,
    RandomValue,
    Result,
    Revealed,
    Shown,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
    Summed,
)
from fairtable.games.testing.script import EVERY_KIND, SCRIPT, Script
from fairtable.games.towers.bots import GreedyBot
from tests.games.towers.positions import GAME

EXPECTED = (RandomValue, Shuffled, Dealt, Revealed, PrivateDrawn, Committed, Opened, Chosen, Move, Shuffled, Shown, Summed, DealStarted)
"""The events answering :data:`EVERY_KIND`, one request of each kind."""


class ToyBot:
    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, game, state, seat):
        return {"show": 0} if isinstance(game.pending(state), Decide) else {"bid": seat + 1}

    def commit(self, game, state, seat, request):
        if isinstance(request, ShuffleOwned):
            return (22, 20)
        return {"cells": tuple(10 * seat + cell for cell in range(request.width * request.height))}


@pytest.mark.parametrize("lockstep", [False, True])
def test_referee_fulfils_every_request_kind(lockstep):
    rng = random.Random(5)
    played = referee.play(SCRIPT, "plain", {}, [ToyBot(0), ToyBot(1)], rng, lockstep=lockstep)
    assert played.result == Result((0,), "script")
    assert [type(event) for event in played.events] == list(EXPECTED)
    shuffled, dealt, revealed, drawn, opened, chosen, moved = (played.events[i] for i in (1, 2, 3, 4, 6, 7, 8))
    assert sorted(shuffled.faces.values()) == [10, 11, 12, 13, 14] and set(shuffled.faces) == set(range(5))
    assert dealt.faces == {0: shuffled.faces[0], 1: shuffled.faces[1]}
    assert revealed.faces == {2: shuffled.faces[2]}
    assert set(drawn.faces) == {5, 6} and all(0 <= face < 10 for face in drawn.faces.values())
    assert opened == Opened(1, "cells", {1: 11})
    assert chosen == Chosen(({"bid": 1}, {"bid": 2}))
    assert moved == Move(0, {"show": 0}, {0: shuffled.faces[0]})
    assert played.moves == 1
    owned, shown = played.events[9], played.events[10]
    assert sorted(owned.faces.values()) == [20, 22] and set(owned.faces) == {10, 11} and owned.composition == (20, 22)
    assert shown == Shown({0: shuffled.faces[0]})
    assert played.events[11] == Summed((0 + 10,))
    if not lockstep:
        assert played.seat_states == ()
        return
    seat0, seat1 = played.seat_states
    assert seat0.faces == {0: shuffled.faces[0], 2: shuffled.faces[2], **drawn.faces}
    assert seat1.faces == {0: shuffled.faces[0], 1: shuffled.faces[1], 2: shuffled.faces[2]}
    assert played.seat_events[1][1] == Shuffled() and played.seat_events[1][4] == PrivateDrawn()
    assert played.seat_events[1][9] == Shuffled({}, (20, 22)) and played.seat_events[0][9] == Shuffled()
    assert played.seat_events[1][10] == Shown({0: shuffled.faces[0]}) and played.seat_events[0][10] == Shown()


class LeakyToy(Script):
    """A broken game whose public view shows what only the full state knows."""

    def view(self, state, seat):
        return {"faces": repr(sorted(state.faces.items()))}


def test_lockstep_catches_a_view_that_depends_on_hidden_faces():
    with pytest.raises(referee.Divergence):
        referee.play(LeakyToy(EVERY_KIND, owned=(20, 22)), "plain", {}, [ToyBot(0), ToyBot(1)], random.Random(1), lockstep=True)


def test_timeout_plays_the_default_move_and_unfinished_games_are_reported():
    class Sleeper(ToyBot):
        def choose(self, game, state, seat):
            return referee.TIMEOUT if isinstance(game.pending(state), Decide) else super().choose(game, state, seat)

    played = referee.play(SCRIPT, "plain", {}, [Sleeper(0), Sleeper(1)], random.Random(2))
    assert played.events[8].move == {"show": 0}

    class Dreamer(ToyBot):
        def choose(self, game, state, seat):
            return referee.TIMEOUT if isinstance(game.pending(state), Simultaneous) and seat == 1 else super().choose(game, state, seat)

    played = referee.play(SCRIPT, "plain", {}, [Dreamer(0), Dreamer(1)], random.Random(2))
    assert played.events[7] == Chosen(({"bid": 1}, {"show": 1}), defaults=(1,))
    with pytest.raises(RuntimeError, match="did not finish"):
        referee.play(SCRIPT, "plain", {}, [ToyBot(0), ToyBot(1)], random.Random(2), max_steps=5)


def test_shuffle_is_a_permutation_driven_by_randrange_only():
    class Counting:
        calls = 0

        def randrange(self, n):
            Counting.calls += 1
            return n - 1

    assert sorted(referee.shuffled(range(20), Counting())) == list(range(20))
    assert Counting.calls == 19
    seen = {tuple(referee.shuffled("abc", random.Random(seed))) for seed in range(200)}
    assert len(seen) == 6


def test_greedy_bot_clearly_beats_random():
    games = 160
    wins = 0
    for seed in range(games):
        rng = random.Random(seed)
        greedy = seed % 2
        bots = [RandomBot(rng), RandomBot(rng)]
        bots[greedy] = GreedyBot()
        variant = GAME.variants[seed // 2 % 2]
        wins += greedy in referee.play(GAME, variant, {}, bots, rng).result.winners
    assert wins / games > 0.85


def test_heuristic_finds_a_games_own_bot():
    assert isinstance(heuristic(GAME, random.Random(0)), GreedyBot)
    assert isinstance(heuristic(SCRIPT, random.Random(0)), RandomBot)
