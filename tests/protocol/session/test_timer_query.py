"""The replica asks the game for its turn timer (``game.timer(options)``) and reads no option
names: a game may call its options anything, or have none."""

from __future__ import annotations

from types import SimpleNamespace

from fairtable.games import registry
from fairtable.games.contract import Decide, Timer
from fairtable.protocol.session import replica


class Clockwork:
    """A stand-in game whose timer owes nothing to option names."""

    def __init__(self, timer: Timer | None) -> None:
        self._timer = timer

    def options_of(self, state):
        return {"pace": "brisk"}

    def timer(self, options):
        assert options == {"pace": "brisk"}
        return self._timer


def session(timer: Timer | None, timed: bool):
    return SimpleNamespace(game=Clockwork(timer), state=None, slot=SimpleNamespace(decision=True), pending=Decide(0, timed))


def test_the_allowance_is_the_games_timer_whatever_its_options_are_called():
    assert replica.turn_seconds(session(Timer(7, 2, 40), True)) == 7
    assert replica.allowance(session(Timer(7, 2, 40), True)) == 7.0
    assert replica.allowance(session(Timer(7, 2, 40), False)) == 40.0
    assert replica.allowance(session(Timer(0, 2, 40), True)) == 40.0


def test_a_game_without_a_timer_bounds_every_decision_by_the_default_idle_time():
    assert replica.turn_seconds(session(None, True)) == 0
    assert replica.allowance(session(None, True)) == float(replica.IDLE_SECONDS)


def test_every_game_answers_its_timer_from_its_own_options():
    for game_id in registry.ids():
        game = registry.get(game_id)
        state = game.setup(game.variants[0], {"turn_seconds": 30, "idle_seconds": 99}, game.seat_range(game.variants[0])[0])
        assert game.timer(game.options_of(state)) == Timer(30, 3, 99)
