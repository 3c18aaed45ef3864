"""Whole zeeslag games played by the local referee: what a seat learns of the other fleets, the
sequence of requests, salvos, and the bots (the contract check, ``tests/games/test_contract.py``,
plays every mode with ``contract.py``'s invariants)."""

from __future__ import annotations

import random

from fairtable.games import referee
from fairtable.games.bots import heuristic, random_bot
from fairtable.games.contract import Move, Opened, OpenHidden, Simultaneous
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot
from fairtable.games.zeeslag.fleet import FLEETS, IDS, SHIPS, fleet_problem
from fairtable.games.zeeslag.targets import living, waters
from tests.games.zeeslag.positions import GAME


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
