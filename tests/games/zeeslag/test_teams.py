"""Teams: the own team's waters are no targets, a team is out when all its ships are sunk, the
last team with ships wins, results name the teams, and a seat that leaves takes its team with it."""

from __future__ import annotations

import dataclasses

import pytest

from fairtable.games.contract import Chosen, Decide, Forfeit, OpenHidden, PublicRandom, RandomValue, Result, RuleError, Simultaneous
from fairtable.games.zeeslag.state import Sea, Sunk
from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, CLASSIC_2, CLASSIC_3, GAME, TIMEOUT, Table, cell

FLEETS = (CLASSIC_0, CLASSIC_1, CLASSIC_2, CLASSIC_3)
TEAMS = ((0, 2), (1, 3))


def rule(excinfo) -> str:
    return excinfo.value.rule


def salvo(shots: dict[int, str]) -> dict:
    return {"salvo": sorted([foe, cell(name)] for foe, names in shots.items() for name in names.split())}


def sink_all_but(table: Table, seat: int, keep: str | None) -> None:
    """Every ship of ``seat`` sunk (all but the one at ``keep``, hit everywhere else, if given)."""
    data = table.fleets[seat]
    last = None if keep is None else data["ids"][cell(keep)] - 1
    hit = tuple(c for c in range(100) if data["ids"][c] and (keep is None or c != cell(keep)))
    sunk = tuple(Sunk(seat, ship, tuple(c for c in range(100) if data["ids"][c] == ship + 1), 0) for ship in range(5) if ship != last)
    sea = Sea(opened={c: 1 for c in hit}, shots=hit, hits=hit, holders={c: (seat,) for c in hit}, sunk=sunk)
    states = {}
    for who, state in table.states.items():
        board = dataclasses.replace(state.boards[seat], answers=(len(hit),))
        states[who] = dataclasses.replace(state, seas=state.seas[:seat] + (sea,) + state.seas[seat + 1:],
                                          boards=state.boards[:seat] + (board,) + state.boards[seat + 1:])
    table.states = states


def test_the_teams_are_in_the_genesis_options_and_only_enemies_are_targets():
    table = Table(fleets=FLEETS, options={"teams": 2})
    assert GAME.teams("duel", table.full.options, 4) == TEAMS
    assert table.pending == Simultaneous((0, 1, 2, 3), timed=True)
    assert GAME.view(table.states[0], 0)["due"] == [[1, 1], [3, 1]]  # seat 2 is its partner
    assert GAME.view(table.states[0], 0)["teams"] == [[0, 2], [1, 3]]
    GAME.check_choice(table.full, 0, salvo({1: "J10", 3: "J10"}))
    with pytest.raises(RuleError) as excinfo:
        GAME.check_choice(table.full, 0, salvo({1: "J10", 2: "J10", 3: "J10"}))
    assert rule(excinfo) == "zeeslag.target" and "no living enemy" in str(excinfo.value)


def test_a_team_stays_in_while_one_of_its_seats_has_ships_and_the_sunk_one_watches():
    table = Table(fleets=FLEETS, options={"teams": 2})
    sink_all_but(table, 1, "A2")
    table.salvo({0: {1: "A2", 3: "J10"}, 1: {0: "J10", 2: "J10"}, 2: {1: "J10", 3: "J9"}, 3: {0: "J9", 2: "J9"}})
    assert table.full.outcome is None and GAME.view(table.states[1], 1)["watching"]
    assert table.pending == Simultaneous((0, 2, 3), timed=True)
    assert GAME.view(table.states[0], 0)["due"] == [[3, 1]]
    assert GAME.view(table.states[3], 3)["due"] == [[0, 1], [2, 1]]


def test_the_last_team_with_ships_wins_all_its_seats_and_the_result_names_the_teams():
    table = Table(fleets=FLEETS, options={"teams": 2})
    sink_all_but(table, 1, None)
    sink_all_but(table, 3, "B2")
    sink_all_but(table, 2, None)  # seat 2 is out, its partner plays on
    # Two living seats of two teams: the duel rules.
    table.settle()
    assert table.pending == PublicRandom(2)
    table.apply(RandomValue(0))
    assert table.pending == Decide(0, timed=True)
    table.shoot("B2")
    result = table.full.outcome
    assert result == Result((0, 2), "sunk", (1, 0, 0, 0), teams=TEAMS) and result.winning_teams == (0,)
    assert result.to_value()["winning_teams"] == [0] and result.to_value()["teams"] == [[0, 2], [1, 3]]


def test_a_seat_that_leaves_takes_its_team_with_it():
    table = Table(fleets=FLEETS, options={"teams": 2})
    table.apply(Forfeit(3, "resigned"))
    assert table.full.outcome == Result((0, 2), "forfeit: resigned", (0, 0, 0, 0), teams=TEAMS)
    assert table.pending == OpenHidden(0, "ships", tuple(range(100)))


def test_too_many_timeouts_lose_for_the_team():
    table = Table(fleets=FLEETS, options={"teams": 2, "max_timeouts": 1})
    table.apply(Chosen((salvo({1: "J10", 3: "J10"}), salvo({0: "J10", 2: "J10"}), TIMEOUT, salvo({0: "J9", 2: "J9"})), defaults=(2,)))
    assert table.full.outcome == Result((1, 3), "timeouts", (0, 0, 0, 0), teams=TEAMS)
    assert table.full.seas[1].shots == ()  # no shot of the round was fired


def test_friends_may_not_be_targets_in_the_duel_either():
    table = Table(fleets=FLEETS, options={"teams": 2})
    sink_all_but(table, 1, None)
    sink_all_but(table, 2, None)
    table.settle()
    table.apply(RandomValue(1))
    assert table.pending == Decide(3, timed=True)
    assert len(GAME.legal_moves(table.full, 3)) == 100  # seat 0's sea only
    assert CLASSIC_1 is FLEETS[1]
