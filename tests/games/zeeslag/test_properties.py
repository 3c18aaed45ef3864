"""Property tests over whole zeeslag games played by the local referee, and the bots."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.bots import heuristic, random_bot
from fairtable.games.contract import Committed, Move, OpenHidden
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot
from fairtable.games.zeeslag.fleet import FLEETS, IDS, fleet_problem
from fairtable.games.zeeslag.sea import SEA
from fairtable.protocol import codec
from tests.games.zeeslag.positions import GAME

REASONS = ("sunk", "timeouts")


class FlakyBot(RandomBot):
    """A random player that sometimes lets its timer run out."""

    def choose(self, game, state, seat):
        return referee.TIMEOUT if self.rng.randrange(6) == 0 else super().choose(game, state, seat)


tables = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(FLEETS)),
    st.sampled_from([{}, {"water_ring": False}, {"turn_seconds": 0}, {"max_timeouts": 1}]),
    st.sampled_from(["random", "flaky", "greedy"]),
)


def run(table, lockstep=False):
    seed, fleet, extra, kind = table
    rng = random.Random(seed)
    options = {"fleet": fleet, **extra}
    if kind == "flaky" and extra.get("turn_seconds") != 0:
        bots = [FlakyBot(rng), FlakyBot(rng)]
    elif kind == "greedy":
        bots = [GreedyBot(rng), RandomBot(rng)]
    else:
        bots = [RandomBot(rng), RandomBot(rng)]
    return options, referee.play(GAME, "duel", options, bots, rng, lockstep=lockstep)


def check_invariants(state):
    fleet = FLEETS[state.options["fleet"]]
    for board in state.boards:
        assert len(board.answers) in (len(board.hits), len(board.hits) - 1)
        assert set(board.hits) <= set(board.shots) and len(set(board.shots)) == len(board.shots)
        assert not set(board.water) & set(board.shots)
        assert len({sunk.ship for sunk in board.sunk}) == len(board.sunk) <= len(fleet.ships)
        if board.own:
            # Full knowledge: every shot's opening agrees with the fleet, every sink is a ship.
            assert all(board.ships[c] == board.own["ships"][c] for c in board.ships)
            for sunk in board.sunk:
                assert {board.own[IDS][c] for c in sunk.cells} == {sunk.ship + 1}
    assert all(count < state.options["max_timeouts"] for count in state.timeouts) or state.outcome is not None


@settings(max_examples=40, deadline=None)
@given(tables)
def test_random_games_end_keep_invariants_replay_and_round_trip(table):
    options, played = run(table)
    assert played.result.reason in REASONS
    assert played.state.opening == 4  # the full opening happened whoever won
    state = GAME.setup("duel", options, 2)
    for index, event in enumerate(played.events):
        check_invariants(state)
        if isinstance(event, Move):
            assert event.move in GAME.legal_moves(state, event.seat) or event.move.get("timeout")
        if index % 11 == 0:
            value = GAME.to_value(state)
            assert GAME.from_value(codec.decode(codec.encode(value))) == state
        state = GAME.apply(state, event)
    assert state == played.state
    assert GAME.to_value(state) == GAME.to_value(referee.replay(GAME, "duel", options, 2, played.events))
    assert GAME.from_value(codec.decode(codec.encode(GAME.to_value(state)))) == state
    assert codec.encode(GAME.view(state, 0)) and codec.encode(GAME.view(state, None))
    winner = played.result.winners[0]
    if played.result.reason == "sunk":
        assert len(state.boards[1 - winner].sunk) == len(FLEETS[options["fleet"]].ships)


@settings(max_examples=12, deadline=None)
@given(tables)
def test_partial_knowledge_lockstep_agrees_with_full_knowledge(table):
    options, played = run(table, lockstep=True)
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert len(events) == len(played.events)
        assert referee.replay(GAME, "duel", options, 2, events) == state
        assert GAME.view(state, None) == GAME.view(played.state, None)
        assert GAME.view(state, seat) == GAME.view(played.state, seat)
        # Hidden stays hidden: a seat is told only its own fleet.
        assert events[0] == Committed({seat: played.events[0].data[seat]})
        assert not state.boards[1 - seat].own and state.boards[seat].own
    # Openings and moves reach every node alike.
    for full, *seats in zip(played.events[1:], *(events[1:] for events in played.seat_events)):
        assert seats == [full, full]


def test_requests_of_a_game_follow_the_documented_sequence():
    rng = random.Random(7)
    played = referee.play(GAME, "duel", {}, [RandomBot(rng), GreedyBot(rng)], rng)
    state, requests = GAME.setup("duel", {}, 2), []
    for event in played.events:
        requests.append(GAME.pending(state))
        state = GAME.apply(state, event)
    kinds = [type(r).__name__ for r in requests]
    assert kinds[:3] == ["CommitHidden", "PublicRandom", "Decide"]
    everything = tuple(range(SEA.size))
    assert requests[-4:] == [OpenHidden(0, "ships", everything), OpenHidden(0, "ids", everything),
                             OpenHidden(1, "ships", everything), OpenHidden(1, "ids", everything)]
    # Every shot is opened at once; every hit gets an answer; every sink opens its ids.
    for _request, event, following in zip(requests, played.events, requests[1:]):
        if isinstance(event, Move) and "shoot" in event.move:
            assert following == OpenHidden(1 - event.seat, "ships", (event.move["shoot"],))
        if isinstance(event, Move) and event.move == {"sunk": True}:
            assert isinstance(following, OpenHidden) and following.layer == "ids"
    assert type(GAME.pending(state)).__name__ == "Finished"


def test_bots_commit_legal_fleets_and_answer_truthfully():
    for seed in range(20):
        rng = random.Random(seed)
        fleet = sorted(FLEETS)[seed % 2]
        state = GAME.setup("duel", {"fleet": fleet}, 2)
        request = GAME.pending(state)
        for bot in (RandomBot(rng), GreedyBot(rng)):
            data = bot.commit(GAME, state, 0, request)
            assert fleet_problem(SEA, FLEETS[fleet], data) is None
    # Lockstep runs each bot on its own seat's state; the verifier state would refuse any lie.
    rng = random.Random(3)
    played = referee.play(GAME, "duel", {"fleet": "ten"}, [GreedyBot(rng), GreedyBot(rng)], rng, lockstep=True)
    assert played.result.reason == "sunk"


def test_hunt_and_target_clearly_beats_random():
    games = wins = 0
    for seed in range(60):
        rng = random.Random(1000 + seed)
        greedy = seed % 2
        bots = [RandomBot(rng), RandomBot(rng)]
        bots[greedy] = GreedyBot(rng)
        fleet = sorted(FLEETS)[seed // 2 % 2]
        wins += greedy in referee.play(GAME, "duel", {"fleet": fleet}, bots, rng).result.winners
        games += 1
    assert wins / games >= 0.9


def test_the_generic_lookups_find_the_zeeslag_bots():
    assert isinstance(heuristic(GAME, random.Random(0)), GreedyBot)
    assert isinstance(random_bot(GAME, random.Random(0)), RandomBot)


def test_a_seed_replays_the_same_game():
    def events(seed):
        rng = random.Random(seed)
        return referee.play(GAME, "duel", {"fleet": "ten"}, [GreedyBot(rng), RandomBot(rng)], rng).events

    assert events(5) == events(5) and events(5) != events(6)
