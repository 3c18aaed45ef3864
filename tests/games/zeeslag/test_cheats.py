"""Every lie a zeeslag target can tell, caught: live by whoever knows enough, else at the full
opening; and forfeits, after which the fleets are opened all the same."""

from __future__ import annotations

import pytest

from fairtable.games.contract import Committed, Decide, Finished, Forfeit, Move, Opened, OpenHidden, Result, RuleError
from fairtable.games.zeeslag.targets import public_targets
from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, GAME, Table, cell, cells, fleet, raw

ALL = tuple(range(100))
OBSERVERS = (0, None)
"""The shooter's node and a spectator: they know nothing of seat 1's fleet but its openings."""

# Seat 1's classic fleet again, but cheating in one place each (the rest as in CLASSIC_1).
REST = {"A10": 1, "B10": 1, "C10": 1, "D10": 1, "E10": 1, "J1": 2, "J2": 2, "J3": 2, "J4": 2, "D6": 4, "D7": 4, "D8": 4}
TOUCHING = raw({**REST, "A1": 5, "A2": 5, "A3": 3, "A4": 3, "A5": 3})  # destroyer and cruiser end to end
BENT = raw({**REST, "A1": 5, "A2": 5, "C3": 3, "D3": 3, "D4": 3})  # an L-shaped cruiser
NO_IDS = {"ships": CLASSIC_1["ships"], "ids": tuple(0 if c == cell("D3") else v for c, v in enumerate(CLASSIC_1["ids"]))}
TWICE = raw({**REST, "A1": 5, "A2": 5, "C3": 3, "D3": 3, "E3": 3, "H8": 5, "H9": 5})  # a second "destroyer"


def rule(excinfo) -> str:
    return excinfo.value.rule


def hits(table: Table, *names: str) -> None:
    """Seat 0 shoots at every name (all hits on seat 1), answered as the table says."""
    for name in names:
        table.shoot(name)


def sunk(*names: str) -> dict:
    return {"sunk": [list(cells(*names))]} if names else {"sunk": []}


def shoot_unanswered(table: Table, name: str, knowers=None) -> None:
    """Seat 0 hits ``name``; the sink answer is left due."""
    table.apply(Move(0, {"shoot": cell(name)}), knowers)
    table.apply(table.opened(), knowers)
    assert table.pending == Decide(1, timed=False)


def replay(table: Table, knower) -> object:
    """``table``'s game so far, as ``knower`` would have it (it knows what the observers saw, and its fleets)."""
    state = GAME.setup("duel", {}, 2)
    for event in table.events[table.knowers[0]]:
        if isinstance(event, Committed):
            event = Committed({seat: table.fleets[seat] for seat in (0, 1) if knower in ("full", seat)})
        state = GAME.apply(state, event)
    return state


# ------------------------------------------------------------------ false sinks: caught live


@pytest.mark.parametrize(
    "fleet1, shots, last, named, told, seen",
    [
        # A legal fleet, a lie: two of a cruiser's three cells named as a sunk ship.
        (CLASSIC_1, ("C3",), "D3", ("C3", "D3"), ("zeeslag.false_sink", "seat 1"), ("zeeslag.false_sink", "is 3 long, 2 of its cells are hit")),
        # Illegal fleets: whoever knows the fleet names its fault; the opening alone shows a false sink.
        (TOUCHING, ("A2",), "A3", ("A2", "A3"), ("zeeslag.fleet", "touch"), ("zeeslag.false_sink", "are not one ship")),
        (NO_IDS, ("C3",), "D3", ("C3", "D3"), ("zeeslag.fleet", "the ids layer 0"), ("zeeslag.false_sink", "are not one ship")),
        # Bent: complete by its own (illegal) ids, so its own node answers so too; the opening
        # shows everyone a cruiser that is no line: the fleet broke its shape.
        (BENT, ("C3", "D3"), "D4", ("C3", "D3", "D4"), None, ("zeeslag.fleet", "is not one straight line")),
    ],
)
def test_false_sinks_are_caught_when_the_ids_open_and_an_illegal_fleet_is_named_as_such(fleet1, shots, last, named, told, seen):
    table = Table(fleets=(CLASSIC_0, fleet1), knowers=OBSERVERS)
    table.lies = {1}
    for name in shots:
        table.shoot(name)
        table.apply(Move(1, sunk()))
        table.settle()
    shoot_unanswered(table, last, OBSERVERS)
    # Seat 1's node and the referee know the ids: the lie is refused as it is told.
    for knower in ("full", 1) if told else ():
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(replay(table, knower), Move(1, sunk(*named)))
        assert rule(excinfo) in (told[0], "zeeslag.missing_sink") and told[1] in str(excinfo.value)
    # Everyone else learns it from the opening the sink demands.
    table.apply(Move(1, sunk(*named)), OBSERVERS)
    assert table.pending == OpenHidden(1, "ids", cells(*named))
    for knower in OBSERVERS if told else (*OBSERVERS, 1):
        if knower not in table.states:
            table.states[knower] = replay(table, knower)
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], table.opened())
        assert rule(excinfo) == seen[0] and "seat 1" in str(excinfo.value) and seen[1] in str(excinfo.value)


def test_a_sink_must_name_hits_its_ships_may_have_taken():
    table = Table(knowers=OBSERVERS)
    shoot_unanswered(table, "A1", OBSERVERS)
    for bad in (sunk("A1", "A2"), sunk("A2"), {"sunk": [[cell("A1"), cell("A1")]]}, {"sunk": True}, {"sunk": [[]]}):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.full, Move(1, bad))
        assert rule(excinfo) in ("zeeslag.false_sink", "zeeslag.move")


def test_a_ship_sunk_twice_is_a_fleet_with_too_many_cells_of_it():
    table = Table(fleets=(CLASSIC_0, TWICE), knowers=OBSERVERS)
    table.lies = {1}  # by the whole (illegal) ids layer the destroyer is not complete yet
    hits(table, "A1")
    table.apply(Move(1, sunk()))
    table.settle()
    hits(table, "A2")
    table.apply(Move(1, sunk("A1", "A2")))
    table.settle()
    assert [s.ship for s in table.full.seas[1].sunk] == [4]
    table.shoot("H8")
    table.apply(Move(1, sunk()))
    table.settle()
    shoot_unanswered(table, "H9")
    table.apply(Move(1, sunk("H8", "H9")))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())
    assert rule(excinfo) == "zeeslag.fleet" and "Destroyer (ship 4) has 4 cells, not 2" in str(excinfo.value)


def test_a_ship_in_the_water_ring_is_caught():
    table = Table(fleets=(CLASSIC_0, TOUCHING), knowers=OBSERVERS)
    hits(table, "A1")
    shoot_unanswered(table, "A2")
    table.apply(Move(1, sunk("A1", "A2")))
    table.apply(table.opened())
    assert table.pending == OpenHidden(1, "ships", cells("A3", "B1", "B2", "B3"))
    for knower in table.knowers:
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], table.opened())
        assert rule(excinfo) == "zeeslag.ring" and "A3" in str(excinfo.value)


# ------------------------------------------------------------------ missing sinks


def test_a_missing_sink_is_refused_by_who_knows_and_found_at_the_full_opening():
    table = Table(knowers=OBSERVERS)
    hits(table, "A1")
    shoot_unanswered(table, "A2")  # the destroyer is complete
    for knower in ("full", 1):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(replay(table, knower), Move(1, sunk()))
        assert rule(excinfo) == "zeeslag.missing_sink"
    table.apply(Move(1, sunk()))
    assert table.pending == Decide(0, timed=True)
    table.apply(Forfeit(1, "resigned"))
    table.apply(table.opened())  # seat 0 ships
    table.apply(table.opened())  # seat 0 ids
    table.apply(table.opened())  # seat 1 ships
    assert table.pending == OpenHidden(1, "ids", ALL)
    for knower in OBSERVERS:
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], table.opened())
        assert rule(excinfo) == "zeeslag.missing_sink"
        assert str(excinfo.value) == "zeeslag.missing_sink: seat 1: its sink answer 2 (after 2 hits on its sea) did not name the ship at A1, A2"


def test_a_hidden_sink_runs_the_shooter_out_of_targets_and_the_opening_names_it():
    table = Table(knowers=OBSERVERS)
    table.lies = {1}
    lied = []
    water = iter(c for c in range(100) if not CLASSIC_0["ships"][c])  # seat 1 only ever misses
    while table.full.outcome is None:
        request = table.pending
        if isinstance(request, Decide) and not request.timed:
            truth = table.truth(1)
            answer = {"sunk": [ship for ship in truth["sunk"] if cell("A2") not in ship]}  # the destroyer never sinks
            lied.append(answer != truth)
            table.apply(Move(1, answer))
            table.settle()
            continue
        shooter = table.full.turn
        target = next(water) if shooter == 1 else public_targets(table.full, 1)[0]
        table.apply(Move(shooter, {"shoot": target}))
        table.settle()
    assert any(lied)
    assert table.full.outcome == Result((0,), "no targets", (4, 0))
    assert len(table.full.seas[1].sunk) == 4
    while table.pending != OpenHidden(1, "ids", ALL):
        table.apply(table.opened())
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())
    assert rule(excinfo) == "zeeslag.missing_sink" and "A1, A2" in str(excinfo.value)


# ------------------------------------------------------------------ illegal fleets


@pytest.mark.parametrize(
    "fleet1, words",
    [
        (fleet(("A10", 5, "v"), ("J1", 4, "h"), ("C3", 3, "v"), ("F4", 3, "h"), ("A1", 2, "h")), "touch"),  # diagonal
        (fleet(("A10", 5, "v"), ("J1", 4, "h"), ("C3", 3, "v"), ("D6", 3, "h")), "has 0 cells, not 2"),  # a ship short
    ],
)
def test_an_illegal_fleet_is_found_at_the_full_opening_whatever_the_knowledge(fleet1, words):
    table = Table(fleets=(CLASSIC_0, fleet1))
    hits(table, "J1", "J2")
    table.shoot("H5")  # a miss
    table.apply(Forfeit(0, "resigned"))
    assert table.full.outcome == Result((1,), "forfeit: resigned", (0, 0))
    for _ in range(3):
        table.apply(table.opened())
    for knower in table.knowers:
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], table.opened())
        assert rule(excinfo) == "zeeslag.fleet" and "seat 1" in str(excinfo.value) and words in str(excinfo.value)


# ------------------------------------------------------------------ openings


def test_openings_must_be_the_requested_cells_in_range_and_consistent():
    table = Table()
    table.apply(Move(0, {"shoot": cell("A1")}))
    for bad in (
        Opened(0, "ships", {0: 1}),
        Opened(1, "ids", {0: 1}),
        Opened(1, "ships", {0: 1, 1: 1}),
        Opened(1, "ships", {1: 1}),
        Opened(1, "ships", {0: 2}),
        Opened(1, "ships", {0: True}),
    ):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.full, bad)
        assert rule(excinfo) == "zeeslag.opened"
    # Contradicting the committed data: refused by the seat's own node and the referee only.
    lie = Opened(1, "ships", {0: 0})
    for knower in ("full", 1):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], lie)
        assert rule(excinfo) == "zeeslag.opened"
    GAME.apply(table.states[0], lie)
    # Contradicting an earlier opening: refused by everyone.
    table.settle()
    table.apply(Forfeit(1, "resigned"))
    table.apply(table.opened())
    table.apply(table.opened())
    request = table.pending
    values = {**table.opened().cells, 0: 0}
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.states[None], Opened(1, "ships", values))
    assert rule(excinfo) == "zeeslag.opened" and "known as 1" in str(excinfo.value) and request.seat == 1


# ------------------------------------------------------------------ forfeits


def test_a_forfeit_before_the_fleets_are_committed_ends_at_once():
    state = GAME.apply(GAME.setup("duel", {}, 2), Forfeit(0, "absent"))
    assert GAME.pending(state) == Finished(Result((1,), "forfeit: absent", (0, 0)))
    assert GAME.view(state, None)["phase"] == "over"
    for seat in (2, -1, "0"):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(GAME.setup("duel", {}, 2), Forfeit(seat, "x"))
        assert rule(excinfo) == "zeeslag.seat"


def test_after_a_forfeit_both_fleets_are_opened_and_an_unanswered_hit_is_no_lie():
    table = Table()
    hits(table, "A1", "A2")
    shoot_unanswered(table, "J1")
    table.apply(Forfeit(1, "resigned"))
    assert table.full.outcome == Result((0,), "forfeit: resigned", (1, 0))
    assert table.pending == OpenHidden(0, "ships", ALL) and GAME.legal_moves(table.full, 1) == ()
    table.open_all()
    assert table.pending == Finished(Result((0,), "forfeit: resigned", (1, 0)))


def test_a_seat_leaving_during_the_opening_withholds_its_fleet_and_loses():
    table = Table()
    table.apply(Forfeit(1, "resigned"))
    table.apply(Forfeit(1, "absent"))  # the loser leaves: its fleet stays closed
    assert table.full.withheld == (1,) and table.full.outcome.winners == (0,)
    table.open_all()
    assert table.pending == Finished(Result((0,), "forfeit: resigned", (0, 0)))
    assert [e.seat for e in table.events["full"] if isinstance(e, Opened)] == [0, 0]

    table = Table()
    table.apply(Forfeit(1, "resigned"))
    table.apply(table.opened())
    table.apply(Forfeit(0, "absent"))  # the winner withholds its ids: it loses
    assert table.pending == OpenHidden(1, "ships", ALL)
    table.open_all()
    assert table.pending == Finished(Result((1,), "forfeit: absent", (0, 0)))


def test_both_seats_withholding_is_a_draw_and_nobody_leaves_twice():
    table = Table()
    table.apply(Forfeit(0, "resigned"))
    table.apply(Forfeit(1, "absent"))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Forfeit(1, "again"))
    assert rule(excinfo) == "zeeslag.seat"
    table.apply(Forfeit(0, "absent"))
    assert table.pending == Finished(Result((), "forfeit: absent", (0, 0), losers=(0, 1)))
