"""Property tests over whole duel matches played by the local referee, and the bots."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.bots import heuristic, random_bot
from fairtable.games.contract import Move, Shuffled, ShuffleOwned
from fairtable.games.duel.bots import GreedyBot, RandomBot, built_deck
from fairtable.games.duel.results import stats
from fairtable.protocol import codec
from tests.games.duel.positions import GAME

SETUPS = [
    ("1v1", 2, {}), ("1v1", 2, {"tie": "playoff", "rounds": 1}), ("1v1", 2, {"tie": "playoff", "playoff_attacker": "dice", "rounds": 1}),
    ("1v1", 2, {"draft": True, "rounds": 4}), ("1v1", 2, {"max_timeouts": 1}), ("1v1", 2, {"turn_seconds": 0, "rounds": 5}),
    ("blind", 2, {"swap_after_round": True, "rounds": 4}), ("blind", 2, {"reshuffle_every": 2, "round_starter": "lowest", "rounds": 5}),
    ("blind", 2, {"draft": True, "tie": "playoff", "rounds": 1}),
    ("ffa", 3, {}), ("ffa", 5, {"draft": True, "cycles": 2}), ("ffa", 6, {"cycles": 6}), ("ffa", 4, {"max_timeouts": 2}),
]


class FlakyBot(RandomBot):
    """A random player that sometimes lets its timer run out."""

    def choose(self, game, state, seat):
        return referee.TIMEOUT if self.rng.randrange(5) == 0 else super().choose(game, state, seat)


tables = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(SETUPS), st.sampled_from(["random", "greedy", "flaky"]))


def run(table, lockstep=False):
    seed, (variant, seats, options), kind = table
    rng = random.Random(seed)
    timed = options.get("turn_seconds") != 0
    make = {"random": RandomBot, "greedy": GreedyBot, "flaky": FlakyBot if timed else RandomBot}[kind]
    bots = [make(rng) if seat % 2 == 0 else RandomBot(rng) for seat in range(seats)]
    return variant, seats, options, referee.play(GAME, variant, options, bots, rng, lockstep=lockstep)


def check_invariants(state, full: bool):
    assert len(state.recent) <= 6
    total = sum(p.points for p in state.players)
    offence = sum(p.attacks_won for p in state.players)
    defence = sum(p.defences_won for p in state.players)
    assert total % 2 == 0 and offence + defence <= total // 2
    for seat, player in enumerate(state.players):
        assert len(player.hand) <= 6
        if full and player.cards is not None and player.built and not (player.reshuffle or player.swap):
            # Conservation: every card of the seat is in its deck, its hand or among its used cards.
            held = Counter(state.faces[h] for h in (*player.deck, *player.hand)) + Counter(player.used)
            assert held == Counter(player.cards), seat


@settings(max_examples=40, deadline=None)
@given(tables)
def test_random_matches_end_keep_invariants_replay_and_round_trip(table):
    variant, seats, options, played = run(table)
    result = played.result
    assert len(result.scores) == 3 * seats and stats(result, seats)
    state = GAME.setup(variant, options, seats)
    for index, event in enumerate(played.events):
        check_invariants(state, full=True)
        if isinstance(event, Move):
            legal = GAME.legal_moves(state, event.seat)
            assert event.move in legal or event.move.get("timeout")
        if isinstance(event, Shuffled) and isinstance(GAME.pending(state), ShuffleOwned):
            GAME.check_composition(state, GAME.pending(state).owner, event.composition)
        if index % 7 == 0:
            assert GAME.from_value(codec.decode(codec.encode(GAME.to_value(state)))) == state
        state = GAME.apply(state, event)
    assert state == played.state and not any(d.flaw for d in state.decks)
    assert GAME.to_value(referee.replay(GAME, variant, options, seats, played.events)) == GAME.to_value(state)
    assert codec.encode(GAME.view(state, 0)) and codec.encode(GAME.view(state, None))
    points = result.scores[:seats]
    if result.reason == "points" and variant != "ffa":
        assert points[result.winners[0]] > points[1 - result.winners[0]]
    if variant == "ffa" and result.reason == "points":
        assert {points[w] for w in result.winners} == {max(points[s] for s in range(seats) if s not in result.losers)}


@settings(max_examples=15, deadline=None)
@given(tables)
def test_partial_knowledge_lockstep_agrees_with_full_knowledge(table):
    variant, seats, options, played = run(table, lockstep=True)
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert referee.replay(GAME, variant, options, seats, events) == state
        assert GAME.view(state, seat) == GAME.view(played.state, seat)
        for other in range(seats):
            if other != seat and not options.get("draft"):
                assert state.players[other].cards is None  # nobody learns another seat's deck during play
        # A seat knows the faces of its hands and of what was played, never of a face-down deck.
        decks = {h for p in state.players for h in p.deck}
        assert not decks & set(state.faces)


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
