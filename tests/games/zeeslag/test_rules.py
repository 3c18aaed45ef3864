"""The fleet duel's rules from explicit tables: options, sequence, shots, sinks, rings,
victory, the timer and forfeits. Salvos, teams and the shared sea: test_salvo.py,
test_teams.py, test_shared.py."""

from __future__ import annotations

import pytest

from fairtable.games.contract import (
    CommitHidden,
    Committed,
    Decide,
    Finished,
    Forfeit,
    GameError,
    Move,
    Opened,
    OpenHidden,
    OptionsError,
    PublicRandom,
    RandomValue,
    Result,
    RuleError,
    Simultaneous,
)
from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, GAME, TEN_0, TEN_1, Table, cell, cells

ALL = tuple(range(100))


def rule(excinfo) -> str:
    return excinfo.value.rule


# ------------------------------------------------------------------ setup and options


def test_defaults_and_the_first_requests():
    state = GAME.setup("duel", {}, 2)
    assert state.options == {"fleet": "classic", "water_ring": True, "salvo": "spread", "shots": 1, "teams": 0,
                             "turn_seconds": 60, "max_timeouts": 3, "idle_seconds": 300}
    assert GAME.options_of(state) == state.options
    assert GAME.pending(state) == CommitHidden((0, 1), 10, 10, ("ships", "ids"))
    state = GAME.apply(state, Committed({}))
    assert GAME.pending(state) == PublicRandom(2)
    assert GAME.legal_moves(state, 0) == ()
    state = GAME.apply(state, RandomValue(1))
    assert GAME.pending(state) == Decide(1, timed=True)
    assert GAME.view(state, None)["phase"] == "aim"


def test_three_or_more_seats_fire_salvos_from_the_start():
    state = GAME.apply(GAME.setup("duel", {}, 3), Committed({}))
    assert GAME.pending(state) == Simultaneous((0, 1, 2), timed=True)
    shared = GAME.setup("shared", {}, 4)
    assert GAME.pending(shared) == CommitHidden((0, 1, 2, 3), 12, 10, ("ships", "ids"))
    assert "water_ring" not in shared.options and "water_ring" not in GAME.options_for("shared")
    assert GAME.seat_range("duel") == (2, 8) and GAME.seat_range("shared") == (3, 8)


@pytest.mark.parametrize(
    "variant, options, seats, words",
    [
        ("duel", {"fleet": "armada"}, 2, "option 'fleet' must be one of classic, ten"),
        ("duel", {"water_ring": 1}, 2, "option 'water_ring' must be true or false"),
        ("duel", {"turn_seconds": -1}, 2, "option 'turn_seconds' must be an integer in 0..3600"),
        ("duel", {"turn_seconds": True}, 2, "option 'turn_seconds'"),
        ("duel", {"max_timeouts": 0}, 2, "option 'max_timeouts' must be an integer in 1..100"),
        ("duel", {"salvo": "all"}, 3, "option 'salvo' must be one of spread, focus"),
        ("duel", {"shots": 0}, 3, "option 'shots' must be an integer in 1..5"),
        ("duel", {"teams": 2}, 3, "cannot make 2"),
        ("duel", {"teams": 1}, 4, "cannot make 1"),
        ("duel", {"teams": 3}, 4, "cannot make 3"),
        ("duel", {"teams": 4}, 6, "cannot make 4"),
        ("shared", {"water_ring": True}, 3, "unknown option 'water_ring'"),
        ("duel", [], 2, "options must be a map"),
        ("space", {}, 2, "unknown variant 'space'"),
        ("duel", {}, 9, "zeeslag duel is played by 2 to 8 seats"),
        ("shared", {}, 2, "zeeslag shared is played by 3 to 8 seats"),
    ],
)
def test_options_errors_name_the_option(variant, options, seats, words):
    with pytest.raises(OptionsError, match=words):
        GAME.setup(variant, options, seats)


def test_teams_alternate_around_the_table():
    assert GAME.teams("duel", {"teams": 2}, 6) == ((0, 2, 4), (1, 3, 5))
    assert GAME.teams("shared", {"teams": 3}, 6) == ((0, 3), (1, 4), (2, 5))
    assert GAME.teams("duel", {"teams": 0}, 3) == ((0,), (1,), (2,))


def test_check_hidden_commits_only_legal_fleets_and_only_when_due():
    state = GAME.setup("duel", {"fleet": "ten"}, 2)
    GAME.check_hidden(state, 1, TEN_1)
    with pytest.raises(RuleError) as excinfo:
        GAME.check_hidden(state, 1, CLASSIC_1)
    assert rule(excinfo) == "zeeslag.fleet" and "seat 1" in str(excinfo.value)
    with pytest.raises(RuleError) as excinfo:
        GAME.check_hidden(Table().full, 0, CLASSIC_0)
    assert rule(excinfo) == "zeeslag.sequence"


def test_committed_data_must_be_well_formed():
    state = GAME.setup("duel", {}, 2)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Committed({1: {"ships": CLASSIC_1["ships"]}}))
    assert rule(excinfo) == "zeeslag.hidden"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Committed({2: CLASSIC_1}))
    assert rule(excinfo) == "zeeslag.hidden"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, RandomValue(0))
    assert rule(excinfo) == "zeeslag.sequence"
    started = GAME.apply(state, Committed({}))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(started, RandomValue(2))
    assert rule(excinfo) == "zeeslag.random"


# ------------------------------------------------------------------ shots


def test_a_miss_passes_the_turn_and_a_hit_shoots_again():
    table = Table()
    table.apply(Move(0, {"shoot": cell("J10")}))
    assert table.pending == OpenHidden(1, "ships", (cell("J10"),))
    table.apply(table.opened())
    assert table.pending == Decide(1, timed=True)  # a miss: seat 1 shoots
    table.apply(Move(1, {"shoot": cell("A1")}))
    table.apply(table.opened())
    assert table.pending == Decide(0, timed=False)  # a hit: seat 0 answers, untimed
    assert GAME.legal_moves(table.states[0], 0) == ({"sunk": []},)  # its own state knows the truth
    assert GAME.legal_moves(table.states[1], 0) == ()
    assert GAME.legal_moves(table.states[1], 1) == ()
    table.apply(Move(0, {"sunk": []}))
    assert table.pending == Decide(1, timed=True)  # the hit shoots again
    sea = table.full.seas[0]
    assert sea.shots == cells("A1") and sea.hits == cells("A1") and table.full.boards[0].answers == (1,)
    assert table.full.seas[1].shots == cells("J10") and table.full.seas[1].hits == ()
    recent = GAME.view(table.full, None)["recent"]
    assert [(s["seat"], s["cell"], s["hit"]) for s in recent] == [(0, cell("J10"), 0), (1, cell("A1"), 1)]


def test_targets_are_cells_not_opened_yet():
    table = Table()
    moves = GAME.legal_moves(table.full, 0)
    assert moves[0] == {"shoot": 0} and len(moves) == 100
    table.shoot("E5")
    table.shoot("F5")  # seat 1 misses at F5 of seat 0's sea
    assert {"shoot": cell("E5")} not in GAME.legal_moves(table.full, 0) and len(GAME.legal_moves(table.full, 0)) == 99
    for bad in ({"shoot": cell("E5")}, {"shoot": 100}, {"shoot": -1}):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.full, Move(0, bad))
        assert rule(excinfo) == "zeeslag.target"
    for bad in ({"shoot": True}, {"shoot": "E6"}, {"shoot": 3, "timeout": False}, {"sunk": []}, {"fire": 3}, {"pass": True}):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.full, Move(0, bad))
        assert rule(excinfo) in ("zeeslag.move", "zeeslag.pass")
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(1, {"shoot": 3}))
    assert rule(excinfo) == "zeeslag.turn"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(0, {"shoot": 3}, {1: 2}))
    assert rule(excinfo) == "zeeslag.reveal"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Opened(1, "ships", {3: 0}))
    assert rule(excinfo) == "zeeslag.sequence"


# ------------------------------------------------------------------ sinks and the water ring


def test_a_sink_is_announced_then_proven_then_ringed():
    table = Table()
    table.shoot("A1")  # a hit, answered "nothing sank"
    assert table.pending == Decide(0, timed=True)
    table.apply(Move(0, {"shoot": cell("A2")}))
    table.apply(table.opened())
    destroyer = {"sunk": [list(cells("A1", "A2"))]}
    assert GAME.legal_moves(table.states[1], 1) == (destroyer,)
    table.apply(Move(1, destroyer))
    assert table.pending == OpenHidden(1, "ids", cells("A1", "A2"))
    table.apply(table.opened())
    ring = cells("A3", "B1", "B2", "B3")
    assert table.pending == OpenHidden(1, "ships", ring)
    table.apply(table.opened())
    assert table.pending == Decide(0, timed=True)  # the sink shoots again
    sea = table.full.seas[1]
    assert [(s.seat, s.ship, s.cells) for s in sea.sunk] == [(1, 4, cells("A1", "A2"))]
    assert sea.water == ring and table.full.boards[1].answers == (1, 2)
    assert not {cell for move in GAME.legal_moves(table.full, 0) for cell in move.values()} & set(ring)
    view = GAME.view(table.states[None], None)
    assert view["seas"][1]["sunk"] == [{"seat": 1, "ship": 4, "cells": list(cells("A1", "A2"))}]
    assert view["recent"][-1]["sunk"] == [[1, 4]] and view["seas"][1]["water"] == list(ring)
    assert table.full.sank == (1, 0)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(0, {"shoot": cell("B2")}))
    assert rule(excinfo) == "zeeslag.target"


def test_without_the_water_ring_the_neighbours_stay_targets():
    table = Table(options={"water_ring": False})
    table.shoot("A1")
    table.shoot("A2")
    assert table.pending == Decide(0, timed=True)
    assert table.full.seas[1].water == () and len(table.full.seas[1].sunk) == 1
    assert {"shoot": cell("B2")} in GAME.legal_moves(table.full, 0)
    assert not GAME.view(table.full, None)["water_ring"]


def test_the_ring_opens_only_cells_not_known_and_is_skipped_when_none_are_left():
    table = Table(fleets=(TEN_0, TEN_1), options={"fleet": "ten"})
    # Seat 1's submarine (ship 6) at A10: its neighbours are shot first, then it.
    table.shoot("A9")
    table.shoot("J10")  # seat 1 misses at J10 of seat 0's sea
    table.shoot("B9")
    table.shoot("J9")
    table.shoot("B10")
    table.shoot("J8")
    table.shoot("A10")
    assert [s.ship for s in table.full.seas[1].sunk] == [6]
    assert table.full.seas[1].water == ()  # every ring cell was shot already
    assert table.pending == Decide(0, timed=True)
    # The cruiser at J8..J10 next, after a miss at I9 beside it: the ring opens the rest.
    table.shoot("I9")
    table.shoot("J7")  # seat 1 misses
    table.shoot("J8")
    table.shoot("J9")
    table.apply(Move(0, {"shoot": cell("J10")}))
    table.apply(table.opened())
    table.apply(Move(1, {"sunk": [list(cells("J8", "J9", "J10"))]}))
    table.apply(table.opened())
    assert table.pending == OpenHidden(1, "ships", cells("I7", "I8", "I10", "J7"))
    table.apply(table.opened())
    assert table.full.seas[1].water == cells("I7", "I8", "I10", "J7")


def test_sinking_every_ship_wins_and_everything_is_opened():
    table = Table(fleets=(CLASSIC_0, CLASSIC_1), start=1)
    table.shoot("J10")  # seat 1 misses
    for name in ("A1", "A2", "J1", "J2", "J3", "J4", "C3", "D3", "E3", "D6", "D7", "D8", "A10", "B10", "C10", "D10"):
        table.shoot(name)
        assert table.full.outcome is None
    table.shoot("E10")
    assert table.full.outcome == Result((0,), "sunk", (5, 0))
    assert GAME.legal_moves(table.full, 0) == () and GAME.view(table.full, 0)["phase"] == "opening"
    requests = []
    while isinstance(table.pending, OpenHidden):
        requests.append(table.pending)
        table.apply(table.opened())
    assert requests == [OpenHidden(0, "ships", ALL), OpenHidden(0, "ids", ALL), OpenHidden(1, "ships", ALL), OpenHidden(1, "ids", ALL)]
    assert table.pending == Finished(Result((0,), "sunk", (5, 0)))
    spectator = GAME.view(table.states[None], None)
    layout = [[c, v] for c, v in enumerate(CLASSIC_0["ids"]) if v]
    assert spectator["phase"] == "over" and spectator["fleets"][0]["layout"] == layout
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Forfeit(1, "late"))
    assert rule(excinfo) == "zeeslag.over"


def test_the_own_layout_is_shown_to_its_seat_only_until_the_opening():
    table = Table()
    assert GAME.view(table.states[0], 0)["fleets"][0]["layout"] == [[c, v] for c, v in enumerate(CLASSIC_0["ids"]) if v]
    assert GAME.view(table.full, 0)["fleets"][1]["layout"] is None
    assert GAME.view(table.full, None)["fleets"][0]["layout"] is None


# ------------------------------------------------------------------ the timer


def test_timeouts_shoot_the_first_target_and_too_many_lose():
    table = Table(options={"max_timeouts": 2})
    assert GAME.default_move(table.full, 0) == {"shoot": 0, "timeout": True}
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(0, {"shoot": 5, "timeout": True}))
    assert rule(excinfo) == "zeeslag.timeout"
    table.shoot("A1", timeout=True)  # a hit on the destroyer
    assert table.full.timeouts == (1, 0) and GAME.view(table.full, 0)["recent"][-1]["timer"]
    assert GAME.default_move(table.full, 0) == {"shoot": cell("A2"), "timeout": True}
    table.shoot("A3")  # in time: the count starts over; a miss
    assert table.full.timeouts == (0, 0) and table.pending == Decide(1, timed=True)


def test_timeouts_lose_before_the_shot_is_answered():
    table = Table(options={"max_timeouts": 2})
    table.shoot("A3", timeout=False)  # miss, seat 1's turn
    table.shoot("A1", timeout=True)  # seat 1: hit on seat 0's carrier
    assert table.full.timeouts == (0, 1) and table.pending == Decide(1, timed=True)
    table.apply(Move(1, {"shoot": cell("A2"), "timeout": True}))
    assert table.full.outcome == Result((0,), "timeouts", (0, 0))
    assert table.full.seas[0].shots == cells("A1")  # the losing shot is not fired
    assert table.pending == OpenHidden(0, "ships", ALL)


def test_without_a_timer_decisions_are_untimed_and_timeout_moves_refused():
    table = Table(options={"turn_seconds": 0})
    assert table.pending == Decide(0, timed=False)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(0, {"shoot": 0, "timeout": True}))
    assert rule(excinfo) == "zeeslag.timer"


def test_the_default_sink_answer_is_the_truth_and_needs_the_fleet():
    table = Table()
    table.apply(Move(0, {"shoot": cell("A1")}))
    table.apply(table.opened())
    assert GAME.default_move(table.states[1], 1) == {"sunk": []}
    with pytest.raises(GameError):
        GAME.default_move(table.states[0], 1)
    with pytest.raises(GameError):
        GAME.default_move(table.states[0], 0)
