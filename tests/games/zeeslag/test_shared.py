"""The shared sea: home blocks side by side, ships reaching one cell into a neighbour's border
column, ships of different seats touching (even sharing a cell), a border hit shown as "?" to
everyone until its ship sinks, an eliminated seat's water no target, no water ring."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games.contract import Chosen, Decide, Forfeit, Move, OpenHidden, OpenSums, PublicRandom, RandomValue, RuleError, Simultaneous, Summed
from fairtable.games.zeeslag.bots import random_fleet
from fairtable.games.zeeslag.fleet import FLEETS, Placement, fleet_problem, layers
from fairtable.games.zeeslag.state import Excuse, Sea, Sunk
from fairtable.games.zeeslag.targets import enemies, public_targets
from fairtable.games.zeeslag.waters import SharedSea
from tests.games.zeeslag.positions import GAME, TIMEOUT, Table, cell, shared_fleet

LAYOUT = SharedSea(3)
SEA = LAYOUT.sea
FLEETS3 = (
    shared_fleet(3, 0, ("A1", 5, "h"), ("C7", 4, "h"), ("E1", 3, "v"), ("H5", 3, "h"), ("J10", 2, "h")),  # destroyer reaches J11
    shared_fleet(3, 1, ("A11", 5, "v"), ("G10", 4, "h"), ("C15", 3, "h"), ("J14", 3, "h"), ("A20", 2, "h")),  # reaches G10, A21
    shared_fleet(3, 2, ("C21", 5, "v"), ("J27", 4, "h"), ("A24", 3, "h"), ("E25", 3, "h"), ("J20", 2, "h")),  # reaches J20
)
CROSSING = shared_fleet(3, 2, ("C21", 5, "v"), ("J27", 4, "h"), ("A21", 3, "h"), ("H24", 3, "h"), ("J20", 2, "h"))
"""Seat 2's cruiser at A21..A23 shares A21 with seat 1's destroyer reaching in (A20..A21)."""


def rule(excinfo) -> str:
    return excinfo.value.rule


def at(name: str) -> int:
    return cell(name, SEA)


def local(seat: int, *names: str) -> tuple[int, ...]:
    return tuple(sorted(LAYOUT.to_board(seat, at(name)) for name in names))


def salvo(shots: dict[int, str]) -> dict:
    return {"salvo": sorted([foe, at(name)] for foe, names in shots.items() for name in names.split())}


def shared(fleets=FLEETS3, options=None, knowers=None) -> Table:
    return Table(fleets=fleets, options=options, knowers=knowers, variant="shared")


# ------------------------------------------------------------------ the layout


def test_each_seat_has_a_home_block_and_a_window_over_the_neighbours_border_columns():
    assert (SEA.width, SEA.height, LAYOUT.board.width) == (30, 10, 12)
    assert LAYOUT.to_sea(1, 0) == at("A10") and LAYOUT.to_sea(1, 11) == at("A21") and LAYOUT.to_board(1, at("B15")) == 17
    assert LAYOUT.to_sea(0, 0) is None and LAYOUT.to_sea(2, 11) is None  # the end seats' outer columns lie off the sea
    assert [len(LAYOUT.reach(seat)) for seat in range(3)] == [110, 120, 110]
    assert LAYOUT.holders(0, at("J11")) == (0, 1) and LAYOUT.holders(0, at("J10")) == (0, 1)
    assert LAYOUT.holders(0, at("E5")) == (0,) and LAYOUT.holders(0, at("E15")) == (1,) and LAYOUT.holders(0, at("E30")) == (2,)
    assert SEA.name(at("J30")) == "J30"


@pytest.mark.parametrize("seat, ships, words", [
    (1, (("A10", 5, "v"), ("G12", 4, "h"), ("C15", 3, "h"), ("J14", 3, "h"), ("A20", 2, "h")), "no cell in its owner's home block"),
    (1, (("A11", 5, "v"), ("G12", 4, "h"), ("C15", 3, "h"), ("J14", 3, "h"), ("A12", 2, "h")), "touch"),  # one seat's ships never touch
])
def test_a_ship_lies_in_its_home_block_reaching_at_most_one_cell_out(seat, ships, words):
    data = shared_fleet(3, seat, *ships)
    problem = fleet_problem(LAYOUT.board, FLEETS["classic"], data, lambda cells: LAYOUT.place_problem(seat, cells))
    assert problem is not None and words in problem
    state = GAME.setup("shared", {}, 3)
    with pytest.raises(RuleError) as excinfo:
        GAME.check_hidden(state, seat, data)
    assert rule(excinfo) == "zeeslag.fleet"


def test_an_end_seats_outer_column_is_off_the_sea():
    placements = [Placement(0, 0, 5, True), Placement(7, 2, 4, True), Placement(1, 4, 3, False), Placement(5, 7, 3, True), Placement(9, 9, 2, True)]
    data = layers(LAYOUT.board, placements)  # the carrier starts in board column 0 of seat 0, left of the sea
    with pytest.raises(RuleError, match="leaves the sea"):
        GAME.check_hidden(GAME.setup("shared", {}, 3), 0, data)


def test_ships_of_different_seats_may_touch():
    state = GAME.setup("shared", {}, 3)
    for seat in range(3):
        GAME.check_hidden(state, seat, FLEETS3[seat])
    touching = shared_fleet(3, 1, ("A19", 5, "v"), ("D10", 4, "h"), ("C15", 3, "h"), ("J14", 3, "h"), ("H17", 2, "h"))
    GAME.check_hidden(state, 1, touching)  # D10 lies just below seat 0's battleship at C7..C10


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 8), st.sampled_from(sorted(FLEETS)))
def test_random_fleets_are_legal_for_every_seat(seed, seats, fleet):
    state = GAME.setup("shared", {"fleet": fleet}, seats)
    layout = SharedSea(seats)
    seat = seed % seats
    data = random_fleet(state, seat, random.Random(seed))
    assert fleet_problem(layout.board, FLEETS[fleet], data, lambda cells: layout.place_problem(seat, cells)) is None


def test_the_shared_sea_has_no_water_ring():
    assert "water_ring" not in GAME.options_for("shared")
    assert not GAME.view(shared().full, None)["water_ring"]


# ------------------------------------------------------------------ hidden owners


def first_round(table: Table) -> None:
    """Seat 2 hits the border cell J11 (seat 0's reaching destroyer); everything else misses."""
    table.apply(Chosen((salvo({1: "B15", 2: "B25"}), salvo({0: "B5", 2: "B28"}), salvo({0: "J11", 1: "J12"}))))


def test_a_border_hit_shows_a_question_mark_to_everyone_until_its_ship_sinks():
    table = shared()
    first_round(table)
    assert table.pending == OpenHidden(0, "ships", local(0, "B5"))
    table.apply(table.opened())
    assert table.pending == OpenHidden(1, "ships", local(1, "B15", "J12"))
    table.apply(table.opened())
    assert table.pending == OpenHidden(2, "ships", local(2, "B25", "B28"))
    table.apply(table.opened())
    # J11 may hold seat 0's or seat 1's ship: only the sum is opened, not whose it is.
    assert table.pending == OpenSums("ships", (((0, local(0, "J11")[0]), (1, local(1, "J11")[0])),), 2)
    table.apply(Summed((1,)))
    for who in table.knowers:
        view = GAME.view(table.states[who], who if who != "full" else None)
        assert view["seas"][0]["unknown"] == [at("J11")] and view["seas"][0]["hits"] == [at("J11")]
    # Both candidates answer (so their answers say nothing about who was hit), in seat order.
    assert table.pending == Decide(0, timed=False)
    table.apply(Move(0, {"sunk": []}))
    assert table.pending == Decide(1, timed=False)
    assert GAME.legal_moves(table.states[1], 1) == ({"sunk": []},)
    table.apply(Move(1, {"sunk": []}))
    assert table.pending == Simultaneous((0, 1, 2), timed=True)
    assert table.full.seas[0].holders[at("J11")] == (0, 1)
    # Seat 1 hits J10 (it holds that border cell too, but aimed at it: only seat 0 may own it).
    table.salvo({0: {1: "B16", 2: "B26"}, 1: {0: "J10", 2: "B27"}, 2: {0: "B6", 1: "B17"}})
    sunk = table.full.seas[0].sunk
    assert [(s.seat, s.ship, s.cells) for s in sunk] == [(0, 4, (at("J10"), at("J11")))]
    assert GAME.view(table.states[2], 2)["seas"][0]["unknown"] == []  # the sink names the owner
    assert table.full.sank == (0, 1, 0)  # seat 1 fired the shot that completed it


def test_a_claim_of_a_border_hit_not_the_seats_is_a_false_sink():
    table = shared(knowers=(2, None))
    table.lies = {0, 1}
    first_round(table)
    table.settle()
    assert table.pending == Decide(0, timed=False)
    with pytest.raises(RuleError) as excinfo:  # J12 was a miss
        GAME.apply(table.full, Move(0, {"sunk": [[at("J12")]]}))
    assert rule(excinfo) == "zeeslag.false_sink"
    table.apply(Move(0, {"sunk": []}))
    # Seat 1 could hold J11, so it may claim it; its proof then shows its ids there are water.
    table.apply(Move(1, {"sunk": [[at("J11")]]}))
    assert table.pending == OpenHidden(1, "ids", local(1, "J11"))
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())
    assert rule(excinfo) == "zeeslag.false_sink" and "seat 1" in str(excinfo.value)


def test_a_shooter_is_no_candidate_of_the_cell_it_aims_at():
    table = shared()
    table.apply(Chosen((salvo({1: "G10", 2: "B25"}), salvo({0: "B5", 2: "B28"}), salvo({0: "B6", 1: "J12"}))))
    table.settle()
    # G10 is seat 0's border column, but seat 0 aimed at it: seat 1 opened it alone, its owner is known.
    assert table.full.seas[0].holders[at("G10")] == (1,)
    assert GAME.view(table.full, None)["seas"][0]["unknown"] == []
    assert [e for e in table.events["full"] if isinstance(e, Summed)] == []


def test_two_seats_ships_may_share_a_border_cell_and_one_shot_hits_both():
    assert fleet_problem(LAYOUT.board, FLEETS["classic"], CROSSING, lambda cells: LAYOUT.place_problem(2, cells)) is None
    table = shared(fleets=(FLEETS3[0], FLEETS3[1], CROSSING))
    table.apply(Chosen((salvo({1: "A21", 2: "B25"}), salvo({0: "B5", 2: "B28"}), salvo({0: "B6", 1: "J12"}))))
    table.settle()
    assert table.full.seas[0].opened[at("A21")] == 2 and table.full.seas[0].holders[at("A21")] == (1, 2)
    assert GAME.view(table.full, None)["seas"][0]["unknown"] == []  # two ships for two candidates: both are hit
    assert table.full.recent[0].hit == 2


def test_the_timer_does_not_know_the_late_seats_fleet_so_the_late_seat_is_a_candidate():
    table = shared()
    table.apply(Chosen((TIMEOUT, salvo({0: "B5", 2: "B28"}), salvo({0: "B6", 1: "J12"})), defaults=(0,)))
    targets_1, targets_2 = public_targets(table.full, 1), public_targets(table.full, 2)
    assert table.pending == PublicRandom(len(targets_1) * len(targets_2))
    table.apply(RandomValue(targets_1.index(at("G10"))))  # seat 0's timer shot at seat 1's waters lands on G10
    shot = next(s for s in table.full.volley if s.seat == 0 and s.target == 1)
    assert shot.cell == at("G10") and shot.timer
    while not isinstance(table.pending, OpenSums):
        table.apply(table.opened())
    assert ((0, local(0, "G10")[0]), (1, local(1, "G10")[0])) in table.pending.sums


def test_an_eliminated_seats_water_is_no_target_but_a_neighbour_reaching_in_can_still_be_sunk():
    table = shared()
    sea = table.full.seas[0]
    data = FLEETS3[1]
    hits = tuple(sorted(LAYOUT.to_sea(1, c) for c in range(LAYOUT.board.size) if data["ids"][c]))
    sunk = tuple(Sunk(1, ship, tuple(sorted(LAYOUT.to_sea(1, c) for c in range(LAYOUT.board.size) if data["ids"][c] == ship + 1)), 0)
                 for ship in range(5))
    found = dataclasses.replace(sea, opened={c: 1 for c in hits}, shots=hits, hits=hits, holders={c: (1,) for c in hits}, sunk=sunk)
    table.states = {who: dataclasses.replace(state, seas=(found,)) for who, state in table.states.items()}
    assert enemies(table.full, 0) == (2,)
    assert table.pending == PublicRandom(2)  # two seats left: the duel rules
    table.apply(RandomValue(0))
    moves = {move["shoot"] for move in GAME.legal_moves(table.states[0], 0)}
    assert at("J20") in moves and at("E20") in moves  # seat 2 may reach into seat 1's border column
    assert at("E15") not in moves and at("E19") not in moves  # only the eliminated seat could lie there
    table.shoot("J20")  # seat 2's destroyer: a hit, shoots again
    assert GAME.view(table.full, None)["seas"][0]["hits"][-1] == at("J20")
    assert table.full.seas[0].hits[: len(hits)] == hits  # what was found in its water stays visible


# ------------------------------------------------------------------ own ships


def test_a_seat_may_not_aim_at_its_own_ship_and_the_full_opening_finds_it_if_it_does():
    table = shared()
    own = salvo({1: "C10", 2: "B25"})  # C10: seat 0's battleship in its own border column
    with pytest.raises(RuleError) as excinfo:
        GAME.check_choice(table.states[0], 0, own)
    assert rule(excinfo) == "zeeslag.own_target"
    observers = (1, 2, None)
    table.apply(Chosen((own, salvo({0: "B5", 2: "B28"}), salvo({0: "B6", 1: "J12"}))), knowers=observers)
    for who in ("full", 0):
        table.states.pop(who)
    table.knowers = observers
    table.settle()
    assert table.full.seas[0].opened[at("C10")] == 0  # seat 1 alone opened it: water, for seat 1
    table.apply(Forfeit(0, "resigned"))
    table.apply(Forfeit(1, "resigned"))  # seat 2 wins; the fleets are opened
    table.apply(table.opened())  # seat 0's ships
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())  # seat 0's ids: the full fleet shows its ship at C10
    assert rule(excinfo) == "zeeslag.own_target" and "seat 0" in str(excinfo.value) and "C10" in str(excinfo.value)


def test_a_seat_whose_every_target_holds_its_own_ship_passes_and_the_opening_checks_it():
    table = shared(fleets=(FLEETS3[0], FLEETS3[1], CROSSING))
    # Seat 0 out; of seat 1's waters only A21 is left, where seat 2's ship lies too.
    left = at("A21")
    sea = Sea(opened={c: 0 for c in LAYOUT.reach(1) if c != left})
    out = tuple(Sunk(0, ship, (), 0) for ship in range(5))
    table.states = {who: dataclasses.replace(state, seas=(dataclasses.replace(sea, sunk=out),)) for who, state in table.states.items()}
    table.apply(RandomValue(1))
    assert table.pending == Decide(2, timed=True)
    assert GAME.legal_moves(table.states[2], 2) == ({"pass": True},)
    for who in (1, None):  # the others cannot tell: a pass is public when every target lies in the seat's reach
        GAME.apply(table.states[who], Move(2, {"pass": True}))
    table.apply(Move(2, {"pass": True}))
    assert table.pending == Decide(1, timed=True)
    assert table.full.boards[2].excuses[0].cells == (left,)


# ------------------------------------------------------------------ lies only the full opening shows

OBSERVERS = (1, 2, None)


def observers_only(table: Table, liar: int) -> None:
    table.knowers = tuple(who for who in table.knowers if who not in ("full", liar))
    for who in ("full", liar):
        table.states.pop(who)


def to_the_full_opening_of(table: Table, seat: int) -> None:
    """End the game by forfeits of the others (seat ``seat`` not winning) and open up to ``seat``'s ids."""
    for other in range(3):
        if other != 2 and table.full.outcome is None:
            table.apply(Forfeit(other, "resigned"))
    while table.pending != OpenHidden(seat, "ids", tuple(range(LAYOUT.board.size))):
        table.apply(table.opened())


def test_a_hidden_sink_in_the_shared_sea_is_named_at_the_full_opening():
    table = shared()
    table.lies = {0}
    table.salvo({0: {1: "B15", 2: "B25"}, 1: {0: "J10", 2: "B28"}, 2: {0: "J11", 1: "J12"}})  # seat 0's destroyer J10-J11
    assert table.pending == Decide(0, timed=False)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.states[0], Move(0, {"sunk": []}))  # its own node refuses the lie
    assert rule(excinfo) == "zeeslag.missing_sink"
    observers_only(table, 0)
    table.apply(Move(0, {"sunk": []}))
    table.settle()
    to_the_full_opening_of(table, 0)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())
    assert rule(excinfo) == "zeeslag.missing_sink" and str(excinfo.value).startswith("zeeslag.missing_sink: seat 0:")


def only_left(table: Table, cells: set[int]) -> None:
    """Every cell of the sea opened as water but ``cells``."""
    sea = Sea(opened={c: 0 for c in range(SEA.size) if c not in cells})
    table.states = {who: dataclasses.replace(state, seas=(sea,)) for who, state in table.states.items()}


def test_a_salvo_short_of_shots_it_could_fire_is_named_at_the_full_opening():
    table = shared()
    only_left(table, {at("A11"), at("J11"), at("B25"), at("B5")})  # at seat 1: A11 (its carrier), J11 (seat 0's destroyer)
    short = salvo({2: "B25"})  # nothing at seat 1, as if both its targets held seat 0's ships
    with pytest.raises(RuleError) as excinfo:
        GAME.check_choice(table.states[0], 0, short)  # its own node knows A11 is free to aim at
    assert rule(excinfo) == "zeeslag.salvo"
    observers_only(table, 0)
    for who in OBSERVERS:  # the others cannot tell: both targets lie in seat 0's reach
        GAME.check_choice(table.states[who], 0, short)
    table.apply(Chosen((short, salvo({0: "B5", 2: "B25"}), salvo({0: "B5", 1: "A11"}))))
    assert table.full.boards[0].excuses[0] == Excuse((at("A11"), at("J11")), 2, 0, 1)
    table.settle()
    to_the_full_opening_of(table, 0)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())
    assert rule(excinfo) == "zeeslag.salvo" and "seat 0" in str(excinfo.value) and "fired 0 of 1" in str(excinfo.value)


def test_a_false_pass_is_named_at_the_full_opening():
    table = shared()
    out = tuple(Sunk(0, ship, (), 0) for ship in range(5))
    table.states = {who: dataclasses.replace(state, seas=(Sea(opened={c: 0 for c in LAYOUT.reach(1) if c != at("A21")}, sunk=out),))
                    for who, state in table.states.items()}
    table.apply(RandomValue(1))
    assert GAME.legal_moves(table.states[2], 2) == ({"shoot": at("A21")},)  # A21 is seat 1's destroyer, not seat 2's ship
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.states[2], Move(2, {"pass": True}))
    assert rule(excinfo) == "zeeslag.pass"
    observers_only(table, 2)
    table.apply(Move(2, {"pass": True}))
    table.apply(Forfeit(1, "resigned"))
    while table.pending != OpenHidden(2, "ids", tuple(range(LAYOUT.board.size))):
        table.apply(table.opened())
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, table.opened())
    assert rule(excinfo) == "zeeslag.salvo" and "seat 2" in str(excinfo.value)


def test_a_shot_at_a_border_cell_counts_for_the_enemy_it_names_only():
    """A21 is in both seat 1's and seat 2's waters: fired at for seat 1, it is no shot at seat 2,
    and it cannot be fired at for both."""
    table = shared(options={"salvo": "spread", "shots": 1})
    GAME.check_choice(table.full, 0, salvo({1: "A21", 2: "B25"}))
    for choice, words in ((salvo({1: "A21"}), "must fire 1 shots at seat 2, not 0"),
                          ({"salvo": [[1, at("A21")], [2, at("A21")]]}, "at each cell of a sea once")):
        with pytest.raises(RuleError, match=words) as excinfo:
            GAME.check_choice(table.full, 0, choice)
        assert rule(excinfo) == "zeeslag.salvo"
