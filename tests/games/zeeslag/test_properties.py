"""Property tests over whole zeeslag games of every mode played by the local referee, and the bots."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.bots import heuristic, random_bot
from fairtable.games.contract import Chosen, Committed, Move, Opened, OpenHidden, Simultaneous
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot
from fairtable.games.zeeslag.fleet import FLEETS, IDS, SHIPS, fleet_problem
from fairtable.games.zeeslag.targets import is_out, living, teams_for, waters
from fairtable.protocol import codec
from tests.games.zeeslag.positions import GAME

REASONS = ("sunk", "timeouts", "forfeit: timeouts")
MODES = [
    ("duel", 2, {}),
    ("duel", 3, {}),
    ("duel", 3, {"salvo": "focus", "shots": 2}),
    ("duel", 4, {"teams": 2}),
    ("duel", 5, {"shots": 2, "water_ring": False}),
    ("shared", 3, {}),
    ("shared", 4, {"teams": 2, "salvo": "focus"}),
    ("shared", 5, {"shots": 2}),
]


class FlakyBot(RandomBot):
    """A random player that sometimes lets its timer run out."""

    def choose(self, game, state, seat):
        if state.stage == "aim" and self.rng.randrange(6) == 0:
            return referee.TIMEOUT
        return super().choose(game, state, seat)


tables = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from(MODES),
    st.sampled_from(sorted(FLEETS)),
    st.sampled_from([{}, {"turn_seconds": 0}, {"max_timeouts": 1}]),
    st.sampled_from(["random", "flaky", "greedy"]),
)


def run(table, lockstep=False):
    seed, (variant, seats, mode), fleet, extra, kind = table
    rng = random.Random(seed)
    options = {"fleet": fleet, **mode, **extra}
    if kind == "flaky" and extra.get("turn_seconds") != 0:
        bots = [FlakyBot(rng) for _ in range(seats)]
    elif kind == "greedy":
        bots = [GreedyBot(rng) if seat % 2 == 0 else RandomBot(rng) for seat in range(seats)]
    else:
        bots = [RandomBot(rng) for _ in range(seats)]
    return variant, seats, options, referee.play(GAME, variant, options, bots, rng, lockstep=lockstep)


def check_invariants(state):
    fleet = FLEETS[state.options["fleet"]]
    layout = waters(state)
    for index, sea in enumerate(state.seas):
        assert set(sea.hits) <= set(sea.opened) and len(set(sea.hits)) == len(sea.hits)
        assert all(sea.opened[cell] >= 1 for cell in sea.hits) and not set(sea.water) & set(sea.shots)
        assert all(set(holders) <= set(layout.holders(index, cell)) for cell, holders in sea.holders.items())
        ships = [(sunk.seat, sunk.ship) for sunk in sea.sunk]
        assert len(set(ships)) == len(ships) and all(set(sunk.cells) <= set(sea.hits) for sunk in sea.sunk)
    for seat, board in enumerate(state.boards):
        assert len([s for s in state.seas[layout.sea_of(seat)].sunk if s.seat == seat]) <= len(fleet.ships)
        if board.own:
            # Full knowledge: every opening agrees with the fleet, every sink is a ship.
            assert all(board.ships[c] == board.own[SHIPS][c] for c in board.ships)
            for sunk in state.seas[layout.sea_of(seat)].sunk:
                if sunk.seat == seat:
                    assert {board.own[IDS][layout.to_board(seat, c)] for c in sunk.cells} == {sunk.ship + 1}
            # A sum is the number of the candidates' ships there.
            for cell, holders in state.seas[layout.sea_of(seat)].holders.items():
                if len(holders) > 1 and all(state.boards[h].own for h in holders):
                    count = sum(state.boards[h].own[SHIPS][layout.to_board(h, cell)] for h in holders)
                    assert count == state.seas[layout.sea_of(seat)].opened[cell]
    assert all(count < state.options["max_timeouts"] for seat, count in enumerate(state.timeouts) if seat not in state.left) \
        or state.outcome is not None


@settings(max_examples=25, deadline=None)
@given(tables)
def test_random_games_end_keep_invariants_replay_and_round_trip(table):
    variant, seats, options, played = run(table)
    assert played.result.reason in REASONS
    state = GAME.setup(variant, options, seats)
    for index, event in enumerate(played.events):
        check_invariants(state)
        request = GAME.pending(state)
        if isinstance(event, Move) and state.stage != "answer":
            assert event.move in GAME.legal_moves(state, event.seat) or event.move.get("timeout")
        if isinstance(event, Chosen):
            for seat, choice in zip(request.seats, event.choices):
                if seat not in event.defaults:
                    GAME.check_choice(state, seat, choice)
        if index % 11 == 0:
            value = GAME.to_value(state)
            assert GAME.from_value(codec.decode(codec.encode(value))) == state
        state = GAME.apply(state, event)
    assert state == played.state
    assert GAME.to_value(state) == GAME.to_value(referee.replay(GAME, variant, options, seats, played.events))
    assert GAME.from_value(codec.decode(codec.encode(GAME.to_value(state)))) == state
    assert codec.encode(GAME.view(state, 0)) and codec.encode(GAME.view(state, None))
    assert state.opening == 2 * seats  # the full opening happened whoever won
    # The result names the last team with ships, or the team left when the others left.
    teams = teams_for(options, seats)
    if played.result.winners:
        (team,) = [team for team in teams if set(team) == set(played.result.winners)]
        if played.result.reason == "sunk":
            assert all(is_out(state, seat) for other in teams if other != team for seat in other)
            assert any(seat in living(state) for seat in team)


@settings(max_examples=8, deadline=None)
@given(tables)
def test_partial_knowledge_lockstep_agrees_with_full_knowledge(table):
    variant, seats, options, played = run(table, lockstep=True)
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert len(events) == len(played.events)
        assert referee.replay(GAME, variant, options, seats, events) == state
        assert GAME.view(state, None) == GAME.view(played.state, None)
        assert GAME.view(state, seat) == GAME.view(played.state, seat)
        # Hidden stays hidden: a seat is told only its own fleet, every other board it only sees opened.
        assert events[0] == Committed({seat: played.events[0].data[seat]})
        assert state.boards[seat].own and not any(board.own for other, board in enumerate(state.boards) if other != seat)
    # Openings, sums, choices and moves reach every node alike.
    for full, *seats_events in zip(played.events[1:], *(events[1:] for events in played.seat_events)):
        assert seats_events == [full] * seats


def test_a_seat_knows_of_the_other_fleets_only_what_was_opened():
    rng = random.Random(11)
    played = referee.play(GAME, "shared", {}, [GreedyBot(rng) for _ in range(4)], rng, lockstep=True)
    state = GAME.setup("shared", {}, 4)
    opened: dict[int, set] = {seat: set() for seat in range(4)}
    for event in played.seat_events[1]:
        state = GAME.apply(state, event)
        if isinstance(event, Opened):
            opened[event.seat] |= {(event.layer, cell) for cell in event.cells}
        for other in (0, 2, 3):
            board = state.boards[other]
            assert not board.own and {(SHIPS, c) for c in board.ships} | {(IDS, c) for c in board.ids} == opened[other]
        if state.outcome is None:
            assert [fleet["layout"] is not None for fleet in GAME.view(state, 1)["fleets"]] == [False, True, False, False]


def test_requests_of_a_duel_follow_the_documented_sequence():
    rng = random.Random(7)
    played = referee.play(GAME, "duel", {}, [RandomBot(rng), GreedyBot(rng)], rng)
    state, requests = GAME.setup("duel", {}, 2), []
    for event in played.events:
        requests.append(GAME.pending(state))
        state = GAME.apply(state, event)
    kinds = [type(r).__name__ for r in requests]
    assert kinds[:3] == ["CommitHidden", "PublicRandom", "Decide"]
    everything = tuple(range(100))
    assert requests[-4:] == [OpenHidden(0, "ships", everything), OpenHidden(0, "ids", everything),
                             OpenHidden(1, "ships", everything), OpenHidden(1, "ids", everything)]
    # Every shot is opened at once; every sink opens its ids.
    for event, following in zip(played.events, requests[1:]):
        if isinstance(event, Move) and "shoot" in event.move:
            assert following == OpenHidden(1 - event.seat, "ships", (event.move["shoot"],))
        if isinstance(event, Move) and event.move.get("sunk"):
            assert isinstance(following, OpenHidden) and following.layer == "ids"
    assert type(GAME.pending(state)).__name__ == "Finished"


def test_a_salvo_game_asks_every_living_seat_each_round():
    rng = random.Random(5)
    played = referee.play(GAME, "duel", {}, [GreedyBot(rng) for _ in range(4)], rng)
    state = GAME.setup("duel", {}, 4)
    rounds = 0
    for event in played.events:
        request = GAME.pending(state)
        if isinstance(request, Simultaneous):
            assert request.seats == living(state) and len(request.seats) >= 3
            rounds += 1
        state = GAME.apply(state, event)
    assert rounds > 5


def test_bots_commit_legal_fleets_and_answer_truthfully():
    for seed in range(20):
        rng = random.Random(seed)
        fleet = sorted(FLEETS)[seed % 2]
        variant, seats = ("duel", 2) if seed % 3 else ("shared", 4)
        state = GAME.setup(variant, {"fleet": fleet}, seats)
        layout = waters(state)
        request = GAME.pending(state)
        for bot in (RandomBot(rng), GreedyBot(rng)):
            seat = seed % seats
            data = bot.commit(GAME, state, seat, request)
            assert fleet_problem(layout.board, FLEETS[fleet], data, lambda cells: layout.place_problem(seat, cells)) is None
    # Lockstep runs each bot on its own seat's state; the full state would refuse any lie.
    rng = random.Random(3)
    played = referee.play(GAME, "duel", {"fleet": "ten"}, [GreedyBot(rng), GreedyBot(rng)], rng, lockstep=True)
    assert played.result.reason == "sunk"


def win_rate(variant: str, seats: int, options: dict, games: int) -> float:
    wins = 0
    for seed in range(games):
        rng = random.Random(1000 + seed)
        greedy = seed % seats
        bots = [RandomBot(rng) for _ in range(seats)]
        bots[greedy] = GreedyBot(rng)
        wins += greedy in referee.play(GAME, variant, options, bots, rng).result.winners
    return wins / games


def test_hunt_and_target_clearly_beats_random_in_every_mode():
    assert win_rate("duel", 2, {}, 30) >= 0.9
    assert win_rate("duel", 3, {}, 15) >= 0.6  # one in three by chance
    assert win_rate("duel", 3, {"salvo": "focus"}, 15) >= 0.6
    assert win_rate("shared", 3, {}, 15) >= 0.6


def test_the_generic_lookups_find_the_zeeslag_bots():
    assert isinstance(heuristic(GAME, random.Random(0)), GreedyBot)
    assert isinstance(random_bot(GAME, random.Random(0)), RandomBot)


def test_a_seed_replays_the_same_game():
    def events(seed):
        rng = random.Random(seed)
        return referee.play(GAME, "shared", {"fleet": "ten"}, [GreedyBot(rng), RandomBot(rng), RandomBot(rng)], rng).events

    assert events(5) == events(5) and events(5) != events(6)
