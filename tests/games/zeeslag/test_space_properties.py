"""Property tests over whole space battles played by the local referee: every game ends, replays
identically, round-trips its state, keeps its counts, and every seat's partial knowledge agrees
with full knowledge (lockstep) while it knows nothing of the other fleets but their openings."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games import referee
from fairtable.games.contract import Chosen, Committed, Move
from fairtable.games.zeeslag.bots import GreedyBot, RandomBot
from fairtable.games.zeeslag.fleet import IDS
from fairtable.games.zeeslag.purchase import bought
from fairtable.games.zeeslag.starships import CATALOGUE
from fairtable.protocol import codec
from tests.games.zeeslag.positions import GAME
from tests.games.zeeslag.test_properties import FlakyBot

MODES = [
    (2, {}),
    (2, {"money": 200, "water_ring": False}),
    (3, {}),
    (3, {"salvo": "focus"}),
    (4, {"shots": 2}),
]

tables = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from(MODES),
    st.sampled_from([{}, {"max_timeouts": 1}]),
    st.sampled_from(["random", "flaky", "greedy"]),
)


def run(table, lockstep=False):
    seed, (seats, mode), extra, kind = table
    rng = random.Random(seed)
    options = {**mode, **extra}
    if kind == "flaky":
        bots = [FlakyBot(rng) for _ in range(seats)]
    elif kind == "greedy":
        bots = [GreedyBot(rng) if seat % 2 == 0 else RandomBot(rng) for seat in range(seats)]
    else:
        bots = [RandomBot(rng) for _ in range(seats)]
    return seats, options, referee.play(GAME, "space", options, bots, rng, lockstep=lockstep)


@settings(max_examples=20, deadline=None)
@given(tables)
def test_random_space_battles_end_replay_and_keep_their_counts(table):
    seats, options, played = run(table)
    assert played.result.reason in ("sunk", "timeouts", "forfeit: timeouts")
    state = GAME.setup("space", options, seats)
    for index, event in enumerate(played.events):
        request = GAME.pending(state)
        if isinstance(event, Move) and state.stage == "aim":
            assert event.move in GAME.legal_moves(state, event.seat) or event.move.get("timeout")
        if isinstance(event, Chosen):
            for seat, choice in zip(request.seats, event.choices):
                if seat not in event.defaults:
                    GAME.check_choice(state, seat, choice)
        if index % 13 == 0:
            assert GAME.from_value(codec.decode(codec.encode(GAME.to_value(state)))) == state
        state = GAME.apply(state, event)
    assert state == played.state == referee.replay(GAME, "space", options, seats, played.events)
    for seat, board in enumerate(state.boards):
        ships = bought(board.own[IDS])
        assert CATALOGUE.purchase_problem(ships, options.get("money", 500)) is None and board.declared == len(ships)
        assert state.opening >= 2 * seats  # every board opened in full, squadrons too
        sunk = [record.ship for record in state.seas[seat].sunk]
        assert len(sunk) == len(set(sunk)) <= board.declared + CATALOGUE.squadron * len(board.squadrons)
        assert all(ship in ships or ship >= len(CATALOGUE.fleet.ships) for ship in sunk)
        for name, last in board.used.items():
            assert last >= CATALOGUE.with_ability(name).cycle  # never before its first round
    assert codec.encode(GAME.view(state, 0)) and codec.encode(GAME.view(state, None))


@settings(max_examples=6, deadline=None)
@given(tables)
def test_space_lockstep_agrees_and_hides_the_other_fleets(table):
    seats, options, played = run(table, lockstep=True)
    for seat, (events, state) in enumerate(zip(played.seat_events, played.seat_states)):
        assert referee.replay(GAME, "space", options, seats, events) == state
        assert GAME.view(state, None) == GAME.view(played.state, None)
        assert GAME.view(state, seat) == GAME.view(played.state, seat)
        assert events[0] == Committed({seat: played.events[0].data[seat]})
        # A reserve commitment tells every other seat nothing of the fighters' cells.
        for mine, full in zip(events, played.events):
            if isinstance(full, Committed) and full is not played.events[0]:
                assert mine == Committed({key: value for key, value in full.data.items() if key == seat})
        assert not any(board.own for other, board in enumerate(state.boards) if other != seat)
