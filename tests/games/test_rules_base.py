"""The routine the rules base does for every game (``games/rules.py``), checked on every game and
variant through one seeded playout each: the same rule ids a game had when it wrote the checks
itself, and the turn timer as a declared capability."""

from __future__ import annotations

import dataclasses
import random

import pytest

from fairtable.games import registry
from fairtable.games.bots import random_bot
from fairtable.games.contract import (
    Decide,
    Forfeit,
    GameError,
    Move,
    PublicRandom,
    RandomValue,
    RuleError,
    Shuffle,
    ShuffleOwned,
    Simultaneous,
    Timer,
)
from fairtable.games.options import TIMER
from fairtable.games.referee import play
from fairtable.games.rules import Rules

CASES = [(game_id, variant) for game_id in registry.ids() for variant in registry.get(game_id).variants]
OPTIONS = {"shengji": {"deals": 1}}


def walk(game_id: str, variant: str, seed: int = 1):
    """Every (state, request, event) of one seeded random playout, the verifier's events."""
    game = registry.get(game_id)
    seats = game.seat_range(variant)[0]
    options = OPTIONS.get(game_id, {})
    played = play(game, variant, options, [random_bot(game, random.Random(seed + seat)) for seat in range(seats)], random.Random(seed))
    state = game.setup(variant, options, seats)
    steps = []
    for event in played.events:
        steps.append((state, game.pending(state), event))
        state = game.apply(state, event)
    return game, steps


def rule(game, state, event) -> str:
    with pytest.raises(RuleError) as caught:
        game.apply(state, event)
    return caught.value.rule


@pytest.mark.parametrize("game_id, variant", CASES)
def test_the_base_checks_turns_forfeits_bounds_and_shuffles_under_each_games_own_rule_ids(game_id, variant):
    game, steps = walk(game_id, variant)
    assert isinstance(game, Rules)
    state, request, _ = steps[0]
    assert rule(game, state, Forfeit(99, "resigned")) == f"{game_id}.seat"
    assert rule(game, state, Forfeit(True, "resigned")) == f"{game_id}.seat"
    checked = set()
    for state, request, event in steps:
        if isinstance(request, Decide):
            other = next(seat for seat in game.present(state) if seat != request.seat)
            assert game.legal_moves(state, other) == ()
            assert rule(game, state, Move(other, event.move, event.faces)) == f"{game_id}.turn"
            checked.add("turn")
        elif isinstance(request, PublicRandom):
            assert rule(game, state, RandomValue(request.bound)) == f"{game_id}.random"
            assert rule(game, state, RandomValue(-1)) == f"{game_id}.random"
            checked.add("random")
        elif isinstance(request, Shuffle | ShuffleOwned) and event.faces:
            wrong = dict(event.faces)
            first = min(wrong)
            wrong[first + len(wrong)] = wrong.pop(first)  # a handle outside the deck
            assert rule(game, state, dataclasses.replace(event, faces=wrong)) == f"{game_id}.shuffle"
            checked.add("shuffle")
    assert checked  # duel's blind variant has no moves: its cards are picked at random


@pytest.mark.parametrize("game_id, variant", CASES)
def test_a_timed_game_gets_the_timers_options_and_answers_its_timer(game_id, variant):
    game = registry.get(game_id)
    assert game.timed
    declared = game.options_for(variant)
    assert list(declared)[-len(TIMER):] == list(TIMER)
    assert game.timer({**{name: option.default for name, option in declared.items()}, "turn_seconds": 9}) == Timer(9, 3, 300)


@pytest.mark.parametrize("game_id, variant", CASES)
def test_the_base_strips_checks_and_counts_the_timers_marker_and_hands_the_game_its_timeout(game_id, variant):
    game, steps = walk(game_id, variant)
    for state, request, event in steps:
        if not (isinstance(request, Decide) and request.timed):
            continue
        try:
            default = game.default_move(state, request.seat)
        except GameError:
            continue  # this state does not know what the timer would play
        seat, counts = request.seat, game.timeouts(state)
        faces = {handle: state.faces[handle] for handle in game.reveals(state, default)}
        assert default["timeout"] is True
        assert game.timeouts(game.apply(state, Move(seat, default, faces)))[seat] == counts[seat] + 1
        assert rule(game, state, Move(seat, {**default, "timeout": 1}, faces)) == f"{game_id}.move"
        late = game.with_timeouts(state, tuple(2 if s == seat else count for s, count in enumerate(counts)))
        assert game.timeouts(game.apply(late, event))[seat] == 0, "a move of the seat's own resets its count"
        last = game.apply(game.with_timeouts(state, tuple(2 if s == seat else c for s, c in enumerate(counts))), Move(seat, default, faces))
        ended = game.view(last, None)["result"]
        assert (ended and ended["reason"] == "timeouts") or seat not in game.present(last), "the third timeout in a row ends the seat's game"
        return
    pytest.skip(f"{game_id} {variant}: the playout has no timed decision whose default this state knows")


def test_legal_moves_of_a_simultaneous_choice_are_the_games_for_its_seats_only():
    game, steps = walk("zeeslag", "duel")
    for state, request, _ in steps:
        if isinstance(request, Simultaneous):
            assert all(game.legal_moves(state, seat) == () for seat in range(len(game.timeouts(state))))
