"""The referee fulfils every request kind of the contract, in full knowledge and in lockstep."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from fairtable.games import referee
from fairtable.games.bots import RandomBot, heuristic
from fairtable.games.contract import (
    Chosen,
    CommitHidden,
    Committed,
    Deal,
    DealStarted,
    Dealt,
    Decide,
    Finished,
    Game,
    Move,
    NextDeal,
    Opened,
    OpenHidden,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Result,
    Reveal,
    Revealed,
    RuleError,
    Show,
    Shown,
    Shuffle,
    Shuffled,
    ShuffleOwned,
    Simultaneous,
)
from fairtable.games.towers.bots import GreedyBot
from tests.games.towers.positions import GAME

# The toy game's script: one request of each kind, then the end.
SCRIPT = (
    (PublicRandom(3), RandomValue),
    (Shuffle((10, 11, 12, 13, 14), 0), Shuffled),
    (Deal(((0, (0,)), (1, (1,)))), Dealt),
    (Reveal((2,)), Revealed),
    (PrivateDraw(0, 10, 2, 5), PrivateDrawn),
    (CommitHidden((0, 1), 2, 1), Committed),
    (OpenHidden(1, "cells", (1,)), Opened),
    (Simultaneous((0, 1)), Chosen),
    (Decide(0, timed=False), Move),
    (ShuffleOwned(1, 2, (20, 21, 22), 10), Shuffled),
    (Show((0,), (1,)), Shown),
    (NextDeal(Result((1,), "deal")), DealStarted),
)


@dataclasses.dataclass(frozen=True)
class ToyState:
    step: int
    faces: Mapping[int, int]
    log: tuple[Any, ...]


class Toy(Game):
    """Walks through :data:`SCRIPT`, learning faces like any game."""

    id = "toy"
    variants = ("plain",)
    min_seats = max_seats = 2
    state_type = ToyState

    def setup(self, variant, options, seats):
        return ToyState(0, {}, ())

    def check_hidden(self, state, seat, data):
        pass

    def check_composition(self, state, seat, cards):
        if cards != (20, 22):
            raise RuleError("toy.deck", f"seat {seat} owns 20 and 22, not {cards}")

    def pending(self, state):
        if state.step == len(SCRIPT):
            return Finished(Result((0,), "script"))
        return SCRIPT[state.step][0]

    def apply(self, state, event):
        if state.step == len(SCRIPT) or not isinstance(event, SCRIPT[state.step][1]):
            raise RuleError("toy.sequence", f"unexpected {event!r}")
        faces = {**state.faces, **getattr(event, "faces", {})}
        public = {
            RandomValue: lambda: event.value,
            Opened: lambda: dict(event.cells),
            Chosen: lambda: list(event.choices),
            Move: lambda: event.move,
            Revealed: lambda: dict(event.faces),
        }.get(type(event), lambda: None)()
        return ToyState(state.step + 1, faces, state.log + (public,))

    def legal_moves(self, state, seat):
        return ({"show": seat}, {"bid": seat + 1})

    def reveals(self, state, move):
        return (move["show"],) if "show" in move else ()

    def default_move(self, state, seat):
        return {"show": seat}

    def view(self, state, seat):
        dealt = state.step >= 3
        own = {0: (0,) * dealt + (5, 6) * (state.step >= 5), 1: (1,) * dealt}.get(seat, ())
        return {"log": repr(state.log), "own": {str(h): state.faces.get(h) for h in own}, "step": state.step}


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
    played = referee.play(Toy(), "plain", {}, [ToyBot(0), ToyBot(1)], rng, lockstep=lockstep)
    assert played.result == Result((0,), "script")
    assert [type(event) for event in played.events] == [kind for _, kind in SCRIPT]
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
    if not lockstep:
        assert played.seat_states == ()
        return
    seat0, seat1 = played.seat_states
    assert seat0.faces == {0: shuffled.faces[0], 2: shuffled.faces[2], **drawn.faces}
    assert seat1.faces == {0: shuffled.faces[0], 1: shuffled.faces[1], 2: shuffled.faces[2]}
    assert played.seat_events[1][1] == Shuffled() and played.seat_events[1][4] == PrivateDrawn()
    assert played.seat_events[1][9] == Shuffled({}, (20, 22)) and played.seat_events[0][9] == Shuffled()
    assert played.seat_events[1][10] == Shown({0: shuffled.faces[0]}) and played.seat_events[0][10] == Shown()


class LeakyToy(Toy):
    """A broken game whose public view shows what only the full state knows."""

    def view(self, state, seat):
        return {"faces": repr(sorted(state.faces.items()))}


def test_lockstep_catches_a_view_that_depends_on_hidden_faces():
    with pytest.raises(referee.Divergence):
        referee.play(LeakyToy(), "plain", {}, [ToyBot(0), ToyBot(1)], random.Random(1), lockstep=True)


def test_timeout_plays_the_default_move_and_unfinished_games_are_reported():
    class Sleeper(ToyBot):
        def choose(self, game, state, seat):
            return referee.TIMEOUT if isinstance(game.pending(state), Decide) else super().choose(game, state, seat)

    played = referee.play(Toy(), "plain", {}, [Sleeper(0), Sleeper(1)], random.Random(2))
    assert played.events[8].move == {"show": 0}

    class Dreamer(ToyBot):
        def choose(self, game, state, seat):
            return referee.TIMEOUT if isinstance(game.pending(state), Simultaneous) and seat == 1 else super().choose(game, state, seat)

    played = referee.play(Toy(), "plain", {}, [Dreamer(0), Dreamer(1)], random.Random(2))
    assert played.events[7] == Chosen(({"bid": 1}, {"show": 1}), defaults=(1,))
    with pytest.raises(RuntimeError, match="did not finish"):
        referee.play(Toy(), "plain", {}, [ToyBot(0), ToyBot(1)], random.Random(2), max_steps=5)


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
    assert isinstance(heuristic(Toy(), random.Random(0)), RandomBot)
