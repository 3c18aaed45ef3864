"""Property tests over whole random towers games played by the local referee."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.bots import RandomBot
from fairtable.games.contract import Decide, Move, Shuffle
from fairtable.games.towers.catalogue import BATTLEFIELDS
from fairtable.protocol import codec
from tests.games.towers.positions import GAME

MAX_EVENTS = 20_000


class FlakyBot(RandomBot):
    """A random player that sometimes lets its timer run out."""

    def choose(self, game, state, seat):
        return referee.TIMEOUT if self.rng.randrange(8) == 0 else super().choose(game, state, seat)


tables = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from(GAME.variants),
    st.sampled_from(sorted(BATTLEFIELDS)),
    st.sampled_from([{}, {"turn_seconds": 0}, {"max_timeouts": 1}]),
    st.booleans(),
)


def run(table, lockstep=False):
    seed, variant, field, extra, flaky = table
    rng = random.Random(seed)
    options = {"battlefield": field, **extra}
    bot = FlakyBot if flaky and extra.get("turn_seconds") != 0 else RandomBot
    return variant, options, referee.play(GAME, variant, options, [bot(rng), bot(rng)], rng, lockstep=lockstep, max_steps=MAX_EVENTS)


def check_invariants(state, request):
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


@settings(max_examples=60, deadline=None)
@given(tables)
def test_random_games_end_keep_invariants_replay_and_round_trip(table):
    variant, options, played = run(table)
    assert played.result.reason in ("tower", "resource", "destroyed", "simultaneous", "timeouts")
    state = GAME.setup(variant, options, 2)
    for index, event in enumerate(played.events):
        request = GAME.pending(state)
        check_invariants(state, request)
        if isinstance(event, Move):
            assert event.move in GAME.legal_moves(state, event.seat) or event.move.get("timeout")
        if index % 7 == 0:
            value = GAME.to_value(state)
            assert GAME.from_value(codec.decode(codec.encode(value))) == state
        state = GAME.apply(state, event)
    assert state == played.state
    assert GAME.to_value(state) == GAME.to_value(referee.replay(GAME, variant, options, 2, played.events))
    assert codec.encode(GAME.view(state, 0)) and codec.encode(GAME.view(state, None))


@settings(max_examples=25, deadline=None)
@given(tables)
def test_partial_knowledge_lockstep_agrees_with_full_knowledge(table):
    variant, options, played = run(table, lockstep=True)
    assert len(played.seat_states) == 2
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert len(events) == len(played.events)
        assert referee.replay(GAME, variant, options, 2, events) == state
        assert GAME.view(state, None) == GAME.view(played.state, None)
        assert GAME.view(state, seat) == GAME.view(played.state, seat)
        # Hidden stays hidden: a seat never learns the other hand or the deck order.
        assert not set(state.faces) & (set(state.hands[1 - seat]) | set(state.deck))
    # The verifier's events carry every face; the seats' carry only their own.
    for full, *seats in zip(played.events, *played.seat_events):
        if isinstance(full, Move):
            assert seats == [full, full]


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
