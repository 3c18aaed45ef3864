"""Property tests over whole random drachenherz games and matches played by the local referee:
they end, every card is in exactly one place, replays are identical, and each seat's own
partial knowledge agrees with the verifier's full one."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.bots import RandomBot
from fairtable.games.contract import Decide, Move
from fairtable.games.drachenherz.bots import GreedyBot
from fairtable.games.drachenherz.catalogue import CARDS, FIELDS, SET
from fairtable.games.drachenherz.game import hand_limit
from fairtable.protocol import codec
from tests.games.drachenherz.positions import GAME

MAX_EVENTS = 20_000
ALL = set(range(2 * len(SET)))


class FlakyBot(RandomBot):
    """A random player that sometimes lets its timer run out."""

    def choose(self, game, state, seat):
        return referee.TIMEOUT if self.rng.randrange(10) == 0 else super().choose(game, state, seat)


BOTS = {"random": RandomBot, "flaky": FlakyBot, "greedy": lambda rng: GreedyBot()}
tables = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from([{}, {"match": 2}, {"sumof": 2}, {"turn_seconds": 0}, {"max_timeouts": 1}]),
    st.sampled_from(sorted(BOTS)),
    st.sampled_from(sorted(BOTS)),
)


def run(table, lockstep=False):
    seed, options, first, second = table
    rng = random.Random(seed)
    kinds = [RandomBot if options.get("turn_seconds") == 0 and kind == "flaky" else BOTS[kind] for kind in (first, second)]
    return options, referee.play(GAME, "standard", options, [kind(rng) for kind in kinds], rng, lockstep=lockstep, max_steps=MAX_EVENTS)


def places(state) -> list[int]:
    """Every handle of the game in progress, from every place a card can be."""
    found = [h for pile in state.piles for h in pile] + [h for hand in state.hands for h in hand]
    found += [h for field in FIELDS for h in state.board[field]] + [h for pile in state.collected for h in pile] + list(state.out)
    return found


def check_invariants(state, request):
    found = places(state)
    if state.decks == 2:
        # Conservation: each of the 100 cards in exactly one place, and the full state knows
        # each set's composition.
        assert Counter(found) == Counter(ALL)
        for seat in (0, 1):
            assert sorted(state.faces[h] for h in range(seat * 50, seat * 50 + 50)) == list(SET)
    elif state.decks == 1:
        assert sorted(found) == list(range(50))
    assert set(state.returned) <= {h for pile in state.piles for h in pile}
    assert 0 <= state.marks <= 4 and (state.left is None or 0 <= state.left <= 3)
    for field in FIELDS:
        kinds = {CARDS[state.faces[h]].kind for h in state.board[field]}
        assert field == "special" or kinds <= {field}
    if isinstance(request, Decide):
        assert state.owed == (0, 0) and state.giving is None
        seat = request.seat
        assert len(state.hands[seat]) <= hand_limit(state, seat)
        assert len(state.hands[seat]) == hand_limit(state, seat) or not state.piles[seat] or state.returned


@settings(max_examples=60, deadline=None)
@given(tables)
def test_random_games_end_conserve_every_card_and_replay_identically(table):
    options, played = run(table)
    assert played.result.reason in ("points", "dragon", "draw", "match", "sumof", "timeouts")
    state = GAME.setup("standard", options, 2)
    for index, event in enumerate(played.events):
        request = GAME.pending(state)
        check_invariants(state, request)
        if isinstance(event, Move):
            assert event.move in GAME.legal_moves(state, event.seat) or event.move.get("timeout")
        if index % 11 == 0:
            assert GAME.from_value(codec.decode(codec.encode(GAME.to_value(state)))) == state
        state = GAME.apply(state, event)
    assert state == played.state
    assert GAME.to_value(referee.replay(GAME, "standard", options, 2, played.events)) == GAME.to_value(state)
    assert codec.encode(GAME.view(state, 0)) and codec.encode(GAME.view(state, None))


@settings(max_examples=25, deadline=None)
@given(tables)
def test_each_seat_s_partial_knowledge_agrees_with_the_full_one(table):
    options, played = run(table, lockstep=True)
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert referee.replay(GAME, "standard", options, 2, events) == state
        assert GAME.view(state, None) == GAME.view(played.state, None)
        assert GAME.view(state, seat) == GAME.view(played.state, seat)


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
