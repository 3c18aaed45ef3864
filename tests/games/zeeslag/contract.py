"""Zeeslag's own invariants for the contract check (``tests/games/test_contract.py``), the
classic seas and the space battle alike."""

from __future__ import annotations

from fairtable.games.contract import Committed
from fairtable.games.zeeslag.fleet import FLEETS, IDS, SHIPS
from fairtable.games.zeeslag.purchase import bought
from fairtable.games.zeeslag.starships import CATALOGUE
from fairtable.games.zeeslag.targets import is_out, living, teams_for, waters

REASONS = ("sunk", "timeouts", "forfeit: timeouts")
TABLES = (
    ("duel", 3, {"fleet": "ten"}, "greedy"),
    ("duel", 3, {"salvo": "focus", "shots": 2}, "flaky"),
    ("duel", 4, {"teams": 2}, "greedy"),
    ("duel", 5, {"shots": 2, "water_ring": False}, "random"),
    ("duel", 2, {"turn_seconds": 0}, "greedy"),
    ("duel", 2, {"max_timeouts": 1}, "flaky", (0, 1, 2)),
    ("shared", 4, {"teams": 2, "salvo": "focus"}, "flaky"),
    ("shared", 5, {"shots": 2}, "flaky", (128,)),  # ends in two passes
    ("space", 2, {"money": 200, "water_ring": False}, "greedy"),
    ("space", 3, {"salvo": "focus"}, "flaky"),
    ("space", 4, {"shots": 2, "max_timeouts": 1}, "flaky"),
)
"""Salvos, teams, the shared sea, both fleets, the space battle's budgets and the timer."""


def invariants(state, request):
    if state.variant == "space":
        return
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


def finished(played, table):
    variant, seats, options = table.variant, table.seats, table.options
    state = played.state
    assert played.result.reason in REASONS or (
        # in the shared sea two fleets can end out of each other's reach: two passes, a draw
        variant == "shared" and played.result.reason == "no targets" and not played.result.winners
    )
    for seat, (events, seat_state) in enumerate(zip(played.seat_events, played.seat_states)):
        # Hidden stays hidden: a seat is told only its own fleet, every other board it only sees opened.
        assert events[0] == Committed({seat: played.events[0].data[seat]})
        assert seat_state.boards[seat].own and not any(board.own for other, board in enumerate(seat_state.boards) if other != seat)
        # A later commitment (a reserve's fighters) tells every other seat nothing of it.
        for mine, full in zip(events, played.events):
            if isinstance(full, Committed):
                assert mine == Committed({key: value for key, value in full.data.items() if key == seat})
    if variant == "space":
        return finished_space(played, table)
    # Openings, sums, choices and moves reach every node alike.
    for full, *seats_events in zip(played.events[1:], *(events[1:] for events in played.seat_events)):
        assert seats_events == [full] * seats
    assert state.opening == 2 * seats  # the full opening happened whoever won
    # The result names the last team with ships, or the team left when the others left.
    teams = teams_for(options, seats)
    if played.result.winners:
        (team,) = [team for team in teams if set(team) == set(played.result.winners)]
        if played.result.reason == "sunk":
            assert all(is_out(state, seat) for other in teams if other != team for seat in other)
            assert any(seat in living(state) for seat in team)


def finished_space(played, table):
    state, seats = played.state, table.seats
    for seat, board in enumerate(state.boards):
        ships = bought(board.own[IDS])
        assert CATALOGUE.purchase_problem(ships, table.options.get("money", 500)) is None and board.declared == len(ships)
        assert state.opening >= 2 * seats  # every board opened in full, squadrons too
        sunk = [record.ship for record in state.seas[seat].sunk]
        assert len(sunk) == len(set(sunk)) <= board.declared + CATALOGUE.squadron * len(board.squadrons)
        assert all(ship in ships or ship >= len(CATALOGUE.fleet.ships) for ship in sunk)
        for name, last in board.used.items():
            assert last >= CATALOGUE.with_ability(name).cycle  # never before its first round
