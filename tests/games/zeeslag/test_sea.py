"""Zeeslag geometry, fleets as data, random placement and fleet legality."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.games.zeeslag.fleet import FLEETS, Placement, fleet_problem, layers, random_placements, shape_problem
from fairtable.games.zeeslag.sea import SEA, Grid
from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, TEN_1, cell, cells, fleet, raw

CLASSIC, TEN = FLEETS["classic"], FLEETS["ten"]


# ------------------------------------------------------------------ geometry


def test_cell_names_follow_rows_a_to_j_and_columns_1_to_10():
    assert (cell("A1"), cell("A10"), cell("B7"), cell("J1"), cell("J10")) == (0, 9, 16, 90, 99)
    assert all(SEA.parse(SEA.name(c)) == c for c in range(100))
    assert SEA.parse(" b7 ") == 16
    for bad in ("K1", "A0", "A11", "", "7B", "AA"):
        with pytest.raises(ValueError):
            SEA.parse(bad)


def test_neighbourhoods_include_diagonals_and_stop_at_the_edge():
    assert SEA.neighbours(cell("A1")) == cells("A2", "B1", "B2")
    assert len(SEA.neighbours(cell("A5"))) == 5 and len(SEA.neighbours(cell("E5"))) == 8
    assert SEA.neighbours(cell("J10")) == cells("I9", "I10", "J9")
    assert SEA.orthogonal(cell("E5")) == cells("D5", "E4", "E6", "F5")
    assert SEA.orthogonal(cell("A10")) == cells("A9", "B10")


def test_ring_is_the_8_neighbourhood_around_a_ship():
    assert SEA.ring(cells("A1", "A2", "A3")) == cells("A4", "B1", "B2", "B3", "B4")
    middle = SEA.ring(cells("E5", "F5"))
    assert len(middle) == 10 and cell("D4") in middle and cell("G6") in middle and cell("E5") not in middle


def test_lines_stay_on_the_sea_and_rotate():
    assert SEA.line(5, 0, 5, True) == cells("A6", "A7", "A8", "A9", "A10")
    assert SEA.line(6, 0, 5, True) is None
    assert SEA.line(0, 6, 4, False) == cells("G1", "H1", "I1", "J1")
    assert SEA.line(0, 7, 4, False) is None
    assert SEA.line(0, 0, 0, True) is None
    ship = Placement(6, 0, 4, True)
    assert ship.cells(SEA) == cells("A7", "A8", "A9", "A10")
    assert ship.rotated() == Placement(6, 0, 4, False) and ship.rotated().rotated() == ship
    assert ship.rotated().cells(SEA) == cells("A7", "B7", "C7", "D7")
    assert Placement(9, 8, 3, False).cells(SEA) is None
    assert Placement(9, 8, 3, False).rotated().cells(SEA) is None


def test_is_line_means_straight_and_gapless():
    assert SEA.is_line(cells("B2", "B3", "B4")) and SEA.is_line(cells("B2", "C2", "D2")) and SEA.is_line(cells("J10"))
    assert not SEA.is_line(cells("B2", "B3", "B5"))  # gap
    assert not SEA.is_line(cells("B2", "B3", "C3"))  # bent
    assert not SEA.is_line(cells("B2", "C3"))  # diagonal
    assert not SEA.is_line(cells("A10", "B1"))  # consecutive numbers, not neighbours
    assert not SEA.is_line(()) and not SEA.is_line((100,))


def test_component_joins_side_by_side_only():
    hits = cells("A1", "A2", "B2", "D4", "C3")
    assert SEA.component(hits, cell("A1")) == cells("A1", "A2", "B2")
    assert SEA.component(hits, cell("C3")) == cells("C3")
    assert Grid(20, 10).name(19) == "A20"


# ------------------------------------------------------------------ fleets


def test_fleets_are_data_with_the_ruled_lengths():
    assert [ship.length for ship in CLASSIC.ships] == [5, 4, 3, 3, 2]
    assert [ship.length for ship in TEN.ships] == [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    assert [ship.index for ship in TEN.ships] == list(range(10))
    assert CLASSIC.ships[0].name == "Vliegdekschip" and CLASSIC.ships[0].name_en == "Aircraft carrier"


@pytest.mark.parametrize("data, fleet_id", [(CLASSIC_0, "classic"), (CLASSIC_1, "classic"), (TEN_1, "ten")])
def test_legal_fleets_pass(data, fleet_id):
    assert fleet_problem(SEA, FLEETS[fleet_id], data) is None


def test_layers_put_ship_index_plus_one_in_ids():
    data = fleet(("B2", 2, "v"))
    assert data["ids"][cell("B2")] == 1 and data["ids"][cell("C2")] == 1 and sum(data["ships"]) == 2
    with pytest.raises(ValueError, match="leaves the sea"):
        fleet(("A10", 2, "h"))


CLASSIC_ILLEGAL = {
    "diagonal touch": (fleet(("A1", 5, "h"), ("B6", 4, "h"), ("E1", 3, "h"), ("G1", 3, "h"), ("I1", 2, "h")), "touch"),
    "side touch": (fleet(("A1", 5, "h"), ("B1", 4, "h"), ("E1", 3, "h"), ("G1", 3, "h"), ("I1", 2, "h")), "touch"),
    "end to end": (fleet(("A1", 5, "h"), ("C1", 4, "h"), ("E1", 3, "h"), ("E4", 3, "h"), ("I1", 2, "h")), "touch"),
    "missing ship": (fleet(("A1", 5, "h"), ("C1", 4, "h"), ("E1", 3, "h"), ("G1", 3, "h")), "has 0 cells, not 2"),
    "ship too long": (raw({**{f"A{x}": 1 for x in range(1, 7)}, "C1": 2, "C2": 2, "C3": 2, "C4": 2, "E1": 3, "E2": 3, "E3": 3,
                           "G1": 4, "G2": 4, "G3": 4, "I1": 5, "I2": 5}), "has 6 cells, not 5"),
    "bent ship": (raw({**{f"A{x}": 1 for x in range(1, 6)}, "C1": 2, "C2": 2, "C3": 2, "C4": 2, "E1": 3, "E2": 3, "F2": 3,
                       "H1": 4, "H2": 4, "H3": 4, "J5": 5, "J6": 5}), "not one straight line"),
    "gap": (raw({**{f"A{x}": 1 for x in range(1, 6)}, "C1": 2, "C2": 2, "C3": 2, "C4": 2, "E1": 3, "E2": 3, "E4": 3,
                 "G1": 4, "G2": 4, "G3": 4, "I1": 5, "I2": 5}), "not one straight line"),
}


@pytest.mark.parametrize("case", sorted(CLASSIC_ILLEGAL))
def test_illegal_classic_fleets_are_named(case):
    data, words = CLASSIC_ILLEGAL[case]
    problem = fleet_problem(SEA, CLASSIC, data)
    assert problem is not None and words in problem


def test_illegal_ten_fleets_and_layers_that_disagree():
    touching = fleet(
        ("A1", 4, "h"), ("C1", 3, "v"), ("J8", 3, "h"), ("A7", 2, "h"), ("E5", 2, "v"),
        ("H3", 2, "h"), ("A10", 1, "h"), ("J1", 1, "h"), ("G7", 1, "h"), ("B9", 1, "h"),
    )
    assert "touch" in fleet_problem(SEA, TEN, touching)
    ships = list(TEN_1["ships"])
    ships[cell("F6")] = 1
    assert "at F6 the ships layer says 1 but the ids layer 0" in fleet_problem(SEA, TEN, {"ships": tuple(ships), "ids": TEN_1["ids"]})
    # The classic layout is not a ten-ship fleet.
    assert fleet_problem(SEA, TEN, CLASSIC_0) is not None


@pytest.mark.parametrize(
    "data, words",
    [
        ({"ships": CLASSIC_0["ships"]}, "exactly the layers"),
        ({**CLASSIC_0, "extra": CLASSIC_0["ids"]}, "exactly the layers"),
        ({**CLASSIC_0, "ids": CLASSIC_0["ids"][:99]}, "must hold 100 values"),
        ({**CLASSIC_0, "ids": (6,) + CLASSIC_0["ids"][1:]}, "outside 0..5"),
        ({**CLASSIC_0, "ships": (True,) + CLASSIC_0["ships"][1:]}, "outside 0..1"),
        ({**CLASSIC_0, "ships": (2,) + CLASSIC_0["ships"][1:]}, "outside 0..1"),
        ("not a map", "exactly the layers"),
    ],
)
def test_malformed_hidden_data_is_refused(data, words):
    assert words in shape_problem(SEA, CLASSIC, data)
    assert words in fleet_problem(SEA, CLASSIC, data)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(FLEETS)))
def test_random_placement_is_always_legal_and_deterministic(seed, fleet_id):
    placements = random_placements(SEA, FLEETS[fleet_id], random.Random(seed))
    assert [p.length for p in placements] == [ship.length for ship in FLEETS[fleet_id].ships]
    assert fleet_problem(SEA, FLEETS[fleet_id], layers(SEA, placements)) is None
    assert random_placements(SEA, FLEETS[fleet_id], random.Random(seed)) == placements


def test_random_placement_varies_and_uses_both_directions():
    seen = {random_placements(SEA, CLASSIC, random.Random(seed)) for seed in range(30)}
    assert len(seen) == 30
    assert {p.horizontal for ps in seen for p in ps} == {True, False}
