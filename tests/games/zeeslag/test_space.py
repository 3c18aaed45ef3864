"""The space battle's rules from explicit tables: the catalogue and purchase, shapes and their
turns, the three actions of a duel turn, every ability with its edge cases and cycles, reserves,
and every false answer caught (live by the openings, else at the full opening) with its seat."""

from __future__ import annotations

import dataclasses
import random

import pytest

from fairtable.games.contract import GENERIC, CommitHidden, Decide, Move, Opened, OpenHidden, RandomValue, RuleError
from fairtable.games.lang import speaking
from fairtable.games.texts import say
from fairtable.games.zeeslag.abilities import blast_area, scan_area
from fairtable.games.zeeslag.fleet import fleet_problem
from fairtable.games.zeeslag.sea import FIELD
from fairtable.games.zeeslag.shape import Berth, Shape
from fairtable.games.zeeslag.starships import CATALOGUE, DEFAULT_MONEY, SPACE
from fairtable.games.zeeslag.state import fleet_of
from fairtable.games.zeeslag.targets import public_targets
from tests.games.zeeslag.positions import GAME
from tests.games.zeeslag.space import (
    DREADNOUGHT,
    LANCER,
    SCOUT,
    SHOOTER,
    SPIRIT,
    STATION,
    TARGET,
    SpaceTable,
    at,
    ats,
    raw_field,
    space_fleet,
    squadron,
)

OBSERVERS = (0, None)
"""The shooter's node and a spectator: they know nothing of seat 1's fleet but its openings."""


def rule(excinfo) -> str:
    return excinfo.value.rule


def rounds(table: SpaceTable, count: int) -> None:
    """Both seats miss until seat 0 is ``count`` own rounds further on."""
    table.until_round(0, table.full.boards[0].rounds + 1 + count)


# ------------------------------------------------------------------ catalogue and purchase


def test_the_catalogue_prices_ten_a_cell_and_ten_more_for_the_lancer_and_the_spirit():
    kinds = {kind.id: kind for kind in CATALOGUE.kinds}
    assert {kind.id: kind.cells for kind in CATALOGUE.kinds} == {
        "scout": 2, "lancer": 3, "spirit": 4, "cruiser": 4, "frigate": 5, "dreadnought": 7, "station": 8}
    for kind in CATALOGUE.kinds:
        assert kind.price == 10 * kind.cells + (10 if kind.id in ("lancer", "spirit") else 0)
    assert [kind.id for kind in CATALOGUE.kinds if kind.capital] == ["dreadnought", "station"]
    assert {kind.ability: kind.cycle for kind in CATALOGUE.kinds if kind.ability} == {"laser": 3, "scan": 6, "nuke": 9, "reserve": 9}
    assert len(SPACE.ships) == sum(kind.most for kind in kinds.values()) == 15
    assert CATALOGUE.fighter(1, 1) == 15 and CATALOGUE.fighter(2, 3) == 20


@pytest.mark.parametrize("slots, money, words", [
    ((), 500, "bought no ship"),
    ((DREADNOUGHT, STATION), 500, "more than one capital ship"),
    ((SCOUT + 1,), 500, "not its first Scout slots"),
    ((LANCER, LANCER + 1, SPIRIT, SPIRIT + 1, DREADNOUGHT), 200, "costs 250, more than its 200"),
])
def test_a_purchase_the_rules_forbid_is_named(slots, money, words):
    assert words in CATALOGUE.purchase_problem(slots, money).detail


@pytest.mark.parametrize("buy, key, words", [
    ({}, "zeeslag.purchase:none", "buy at least one ship"),
    ({"scout": 5}, "zeeslag.purchase:most", "a fleet holds at most 4 of kind Scout"),
    ({"dreadnought": 1, "station": 1}, "zeeslag.purchase:capital",
     "at most one capital ship in a fleet: not both the Dreadnought and the Space station"),
    ({"station": 1, "frigate": 2, "cruiser": 2, "lancer": 2, "spirit": 2, "scout": 4}, "zeeslag.purchase:money",
     "this fleet costs 520; you have 500"),
    ({"laser boat": 1}, GENERIC, "the rules do not allow that now (rule zeeslag.purchase)"),
    ({"scout": -1}, GENERIC, "the rules do not allow that now (rule zeeslag.purchase)"),
])
def test_a_purchase_is_judged_before_its_ships_are_placed_in_the_rules_words(buy, key, words):
    """``explain`` of a ``{"buy": ...}`` draft while the fleets are due: the same purchase rule the
    commitment meets, with its catalogue words (what the browser shows on a click)."""
    state = GAME.setup("space", {}, 2)
    refusal = GAME.explain(state, 0, {"buy": buy})
    assert refusal is not None and refusal.rule == "zeeslag.purchase" and refusal.key == key
    assert say(refusal).startswith(words)


def test_a_purchase_draft_is_refused_out_of_its_time_and_shape():
    state = GAME.setup("space", {}, 2)
    assert GAME.explain(state, 0, {"buy": {"scout": 1}}) is None
    assert GAME.explain(state, 0, {"buy": {"station": 1, "frigate": 2, "cruiser": 2, "lancer": 2, "spirit": 2, "scout": 2}}) is None
    assert GAME.explain(state, 0, {"ships": {"scout": 1}}).rule == "zeeslag.purchase"
    assert GAME.explain(GAME.setup("duel", {}, 2), 0, {"buy": {"scout": 1}}).rule == "zeeslag.sequence"
    with speaking("orig"):
        assert say(GAME.explain(state, 0, {"buy": {"frigate": 3}})) == "een vloot heeft hoogstens 2 van de soort Fregat"


def test_legal_purchases_and_the_most_ships_money_buys():
    assert CATALOGUE.purchase_problem((SCOUT, SCOUT + 1, STATION), 120) is None
    assert CATALOGUE.purchase_problem((SCOUT, SCOUT + 1, STATION), 119) is not None
    assert CATALOGUE.most_ships(DEFAULT_MONEY) == 13 and CATALOGUE.most_ships(20) == 1 and CATALOGUE.most_ships(1000) == 14
    for seed in range(40):
        bought = CATALOGUE.random_purchase(DEFAULT_MONEY, random.Random(seed))
        assert CATALOGUE.purchase_problem(bought, DEFAULT_MONEY) is None
        more = [slots[len(set(slots) & set(bought))] for kind in CATALOGUE.kinds
                if len(set(slots := CATALOGUE.slots(kind.id)) & set(bought)) < kind.most]
        assert all(CATALOGUE.purchase_problem((*bought, slot), DEFAULT_MONEY) for slot in more)  # nothing more fits


def test_the_space_variant_options_and_first_requests():
    state = GAME.setup("space", {}, 3)
    assert state.options["money"] == 500 and "fleet" not in state.options and fleet_of(state) is SPACE
    assert GAME.pending(state) == CommitHidden((0, 1, 2), 20, 10, ("ships", "ids"))
    assert GAME.seat_range("space") == (2, 6)


def test_its_own_node_commits_only_a_legal_purchase_and_the_size_is_declared_in_seat_order():
    state = GAME.setup("space", {"money": 100}, 2)
    with pytest.raises(RuleError) as excinfo:  # 180 of ships for 100
        GAME.check_hidden(state, 0, SHOOTER)
    assert rule(excinfo) == "zeeslag.purchase"
    table = SpaceTable(declare=False, start=None)
    assert table.pending == Decide(0, timed=False)
    assert GAME.legal_moves(table.states[0], 0) == ({"ships": 4},) and GAME.legal_moves(table.states[1], 0) == ()
    for ships in (0, 14, "4"):
        with pytest.raises(RuleError) as excinfo:  # 13 is the most 500 buys: anyone refuses 14
            GAME.apply(table.states[None], Move(0, {"ships": ships}))
        assert rule(excinfo) == "zeeslag.count"
    with pytest.raises(RuleError) as excinfo:  # its own node knows it bought 4
        GAME.apply(table.states[0], Move(0, {"ships": 5}))
    assert rule(excinfo) == "zeeslag.count"
    table.settle()
    assert [board.declared for board in table.full.boards] == [4, 4]
    assert GAME.view(table.states[None], None)["fleets"][1]["ships"] == 4
    assert GAME.view(table.states[None], None)["fleets"][1]["layout"] is None  # which ships: not shown


# ------------------------------------------------------------------ shapes


def test_shapes_turn_four_ways_and_only_distinct_turns_count():
    turns = {kind.id: len(kind.shape.turns) for kind in CATALOGUE.kinds}
    assert turns == {"scout": 2, "lancer": 2, "spirit": 4, "cruiser": 4, "frigate": 4, "dreadnought": 4, "station": 1}
    spirit = CATALOGUE.kind("spirit").shape
    assert spirit.turns[0] == ((0, 0), (1, 0), (2, 0), (1, 1))  # XXX / .X.
    assert spirit.turns[1] == ((1, 0), (0, 1), (1, 1), (1, 2))  # a quarter clockwise: .X / XX / .X
    berth = Berth(0, 0, spirit)
    for _ in range(4):
        berth = berth.rotated()
    assert berth == Berth(0, 0, spirit, 0)
    assert Berth(18, 0, spirit, 1).cells(FIELD) == ats("A20", "B19", "B20", "C20")
    assert Berth(19, 0, spirit, 0).cells(FIELD) is None  # off the field
    assert Shape.parse(["X.", "XX"]).turns == Shape.parse(["XX", "X."]).turns[-1:] + Shape.parse(["XX", "X."]).turns[:-1]


def test_a_ship_must_be_its_shape_in_some_turn_and_ships_never_touch():
    data = space_fleet({SPIRIT: ("C5", 2)})  # ship turned twice: .X. / XXX
    assert fleet_problem(FIELD, SPACE, data) is None
    assert sorted(c for c, v in enumerate(data["ids"]) if v) == sorted(ats("C6", "D5", "D6", "D7"))
    bent = raw_field({"A1": SPIRIT + 1, "A2": SPIRIT + 1, "B2": SPIRIT + 1, "B3": SPIRIT + 1})  # an S, no T
    assert "not its kind's shape" in fleet_problem(FIELD, SPACE, bent)
    corner = space_fleet({SCOUT: ("A1", 0), SCOUT + 1: ("B3", 0)})  # A1-A2 and B3-B4 touch diagonally
    assert "touch" in fleet_problem(FIELD, SPACE, corner)
    with pytest.raises(RuleError) as excinfo:
        GAME.check_hidden(GAME.setup("space", {}, 2), 0, corner)
    assert rule(excinfo) == "zeeslag.fleet"


def test_the_random_placement_helper_places_any_legal_purchase_legally():
    state = GAME.setup("space", {}, 2)
    for seed in range(10):
        data = GAME.random_hidden(state, 0, GAME.pending(state), random.Random(seed))
        GAME.check_hidden(state, 0, data)


# ------------------------------------------------------------------ duel turns: at most three actions


def test_a_hit_shoots_again_at_most_three_actions_a_turn():
    table = SpaceTable()
    table.act({"shoot": "A5"})  # the station: hit
    assert table.pending == Decide(0, timed=True) and table.full.actions == 1
    table.act({"shoot": "A6"})
    assert table.pending == Decide(0, timed=True) and table.full.actions == 2
    assert "action 3 of 3" in GAME.renderer.render(GAME.view(table.states[0], 0))
    table.act({"shoot": "A7"})  # a third hit: the turn is over all the same
    assert table.pending == Decide(1, timed=True) and table.full.actions == 0
    assert table.full.boards[0].rounds == 1
    table.miss()
    table.act({"shoot": "B5"})
    table.miss()  # a miss ends a turn at once
    assert table.pending == Decide(1, timed=True) and table.full.boards[0].rounds == 2


# ------------------------------------------------------------------ cycles


def test_a_laser_first_in_the_third_own_round_then_three_rounds_after_its_last_use():
    table = SpaceTable()
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(0, {"laser": at("A20")}))
    assert rule(excinfo) == "zeeslag.ability" and "from its own round 3" in str(excinfo.value)
    assert not any("laser" in move for move in GAME.legal_moves(table.full, 0))
    rounds(table, 2)
    assert any("laser" in move for move in GAME.legal_moves(table.full, 0))
    assert not any("scan" in move or "nuke" in move for move in GAME.legal_moves(table.full, 0))
    table.act({"laser": "A20"})  # own round 3
    assert table.full.boards[0].used == {"laser": 3} and table.pending == Decide(1, timed=True)
    table.miss()
    for own_round in (4, 5):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.full, Move(0, {"laser": at("A19")}))
        assert f"not in round {own_round}" in str(excinfo.value)
        rounds(table, 1)
    table.act({"laser": "A19"})  # own round 6 = 3 + 3
    assert table.full.boards[0].used == {"laser": 6}


def test_scan_in_the_sixth_and_nuke_and_reserve_in_the_ninth_own_round():
    table = SpaceTable()
    for own_round in range(1, 10):
        names = {name for move in GAME.legal_moves(table.full, 0) for name in move if name != "shoot"}
        assert names == {"laser"} | ({"scan"} if own_round >= 6 else set()) | ({"nuke"} if own_round >= 9 else set()) \
            if own_round >= 3 else names == set()
        rounds(table, 1)
    station = SpaceTable(fleets=(TARGET, SHOOTER))
    rounds(station, 8)
    assert any("reserve" in move for move in GAME.legal_moves(station.states[0], 0))


# ------------------------------------------------------------------ laser


def lasered(table: SpaceTable, start: str) -> None:
    """Seat 0 fires its laser in its next own round from 3 on."""
    table.until_round(0, max(3, table.full.boards[0].rounds + 1))
    table.act({"laser": start})


def test_a_laser_down_a_column_opens_the_water_it_passes_and_hits_the_first_ship_cell():
    table = SpaceTable()
    lasered(table, "A10")  # A10..D10 water, E10 the Scout
    sea = table.full.seas[1]
    assert all(sea.opened[cell] == 0 for cell in ats("A10", "B10", "C10", "D10"))
    assert sea.opened[at("E10")] == 1 and at("E10") in sea.hits and at("F10") not in sea.opened
    assert table.full.recent[-1].kind == "laser" and table.full.recent[-1].cell == at("E10")
    assert table.pending == Decide(1, timed=True)  # an ability ends the turn, hit or not


def test_a_laser_up_from_row_j_and_through_a_wreck():
    table = SpaceTable()
    table.act({"shoot": "F10"})  # the Scout's lower cell: a hit, a wreck now
    table.miss()
    rounds(table, 1)
    lasered(table, "J10")  # J10..G10 water, F10 a wreck: through it, E10 is hit and the Scout sinks
    sea = table.full.seas[1]
    assert all(sea.opened[cell] == 0 for cell in ats("J10", "I10", "H10", "G10"))
    assert [record.ship for record in sea.sunk] == [SCOUT + 1]


def test_a_laser_on_an_empty_column_opens_all_of_it_and_hits_nothing():
    table = SpaceTable()
    lasered(table, "A20")
    sea = table.full.seas[1]
    assert all(sea.opened[FIELD.cell(19, y)] == 0 for y in range(10)) and not sea.hits
    assert table.full.recent[-1].kind == "laser" and table.full.recent[-1].hit == 0
    assert table.pending == Decide(1, timed=True)


def test_a_laser_needs_a_start_on_row_a_or_j_and_a_lancer_afloat():
    table = SpaceTable()
    table.until_round(0, 3)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.full, Move(0, {"laser": at("C10")}))
    assert rule(excinfo) == "zeeslag.ability"
    # Seat 0's Lancer sunk: its own node refuses a laser; the others cannot tell (it may have
    # bought a second one) and leave it to the full opening.
    table = SpaceTable(start=1, knowers=("full", 0, 1, None))
    for name in ("A1", "A2", "A3"):
        table.act({"shoot": name})
    assert [record.ship for record in table.full.seas[0].sunk] == [LANCER]
    table.until_round(0, 3)
    for knower in ("full", 0):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], Move(0, {"laser": at("A20")}))
        assert rule(excinfo) == "zeeslag.ability" and "no Lancer afloat" in str(excinfo.value)
    for knower in (1, None):
        GAME.apply(table.states[knower], Move(0, {"laser": at("A20")}))


def test_once_a_capital_ship_sank_everyone_refuses_both_capital_abilities():
    table = SpaceTable(start=1, knowers=("full", 1, None))
    for name in ("F1", "F2", "F3", "F4", "F5", "G2", "G4"):  # the Dreadnought, over three turns
        table.until_round(1, table.full.boards[1].rounds + 1) if table.pending.seat != 1 else None
        table.act({"shoot": name})
    assert [record.ship for record in table.full.seas[0].sunk] == [DREADNOUGHT]
    table.until_round(0, 9)
    # Who knows seat 0's fleet knows it has no station; the others see a claim of a second
    # capital ship, which no legal purchase holds.
    for knower, station in (("full", "zeeslag.ability"), (1, "zeeslag.purchase"), (None, "zeeslag.purchase")):
        for move, named in (({"nuke": at("D11")}, "zeeslag.ability"), ({"reserve": True}, station)):
            with pytest.raises(RuleError) as excinfo:
                GAME.apply(table.states[knower], Move(0, move))
            assert rule(excinfo) == named


def test_a_false_beam_answer_is_caught_at_the_opening_of_the_beam_naming_the_target():
    table = SpaceTable(knowers=("full", 1, *OBSERVERS))
    table.lies = {1}
    lasered(table, "A10")
    assert table.pending == Decide(1, timed=False) and table.full.stage == "beam"
    for claim, words in ((at("C10"), "no ship lies at C10"), (-1, "the beam passed a ship at E10")):
        for knower in ("full", 1):  # a state that knows the field refuses the lie as it is told
            with pytest.raises(RuleError) as excinfo:
                GAME.apply(table.states[knower], Move(1, {"beam": claim}))
            assert rule(excinfo) == "zeeslag.laser"
        state = GAME.apply(table.states[0], Move(1, {"beam": claim}))  # the shooter cannot tell yet
        request = GAME.pending(state)
        assert isinstance(request, OpenHidden) and request.seat == 1
        opened = Opened(1, request.layer, {cell: TARGET[request.layer][cell] for cell in request.cells})
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(state, opened)
        assert rule(excinfo) == "zeeslag.laser" and words in str(excinfo.value) and "seat 1" in str(excinfo.value)
    with pytest.raises(RuleError) as excinfo:  # a cell off the beam
        GAME.apply(table.states[0], Move(1, {"beam": at("A11")}))
    assert rule(excinfo) == "zeeslag.laser"


# ------------------------------------------------------------------ scan


def test_a_scan_shows_the_three_by_three_without_damage_clipped_at_the_edge():
    assert len(scan_area(FIELD, at("A1"))) == 4 and len(scan_area(FIELD, at("J20"))) == 4 and len(scan_area(FIELD, at("E10"))) == 9
    table = SpaceTable()
    rounds(table, 5)
    table.act({"scan": "A5"})  # the corner of the station's ring; A4..B6 clipped at row A: 6 cells
    sea = table.full.seas[1]
    assert sorted(sea.seen) == sorted(ats("A5", "A6", "B5"))
    assert all(sea.opened[cell] == 0 for cell in ats("A4", "B4", "B6"))
    assert not sea.hits and table.full.recent[-1].kind == "scan" and table.full.recent[-1].hit == 3
    view = GAME.view(table.states[None], None)
    assert sorted(view["seas"][1]["seen"]) == sorted(ats("A5", "A6", "B5"))
    table.miss()
    assert {"shoot": at("A5")} in GAME.legal_moves(table.full, 0)  # a scanned ship cell is still a target


def test_a_laser_stops_at_a_scanned_ship_cell_without_asking():
    table = SpaceTable()
    rounds(table, 5)
    table.act({"scan": "B5"})  # sees A5 A6 B5 C5 C6 (station), water A4 B4 C4 B6
    table.miss()
    table.act({"laser": "A5"})  # A5 seen: public knowledge says it is hit
    assert at("A5") in table.full.seas[1].hits and table.full.stage == "aim"


# ------------------------------------------------------------------ nuke


def test_the_nuke_diamond_is_thirteen_cells_clipped_at_the_edges():
    assert len(blast_area(FIELD, at("E10"))) == 13
    assert sorted(blast_area(FIELD, at("A1"))) == sorted(ats("A1", "A2", "A3", "B1", "B2", "C1"))
    assert len(blast_area(FIELD, at("B20"))) == 8


def test_a_nuke_that_hits_hits_its_whole_diamond_and_one_that_misses_nothing_more():
    table = SpaceTable()
    rounds(table, 8)
    before = set(table.full.seas[1].opened)
    table.act({"nuke": "B20"})  # water: a miss, nothing more
    assert set(table.full.seas[1].opened) - before == {at("B20")}
    table.miss()
    rounds(table, 8)
    table.act({"nuke": "J1"})  # the Scout J1-J2, near the corner: the diamond J1 J2 J3 I1 I2 H1
    sea = table.full.seas[1]
    assert all(cell in sea.opened for cell in ats("J2", "J3", "I1", "I2", "H1"))
    assert [record.ship for record in sea.sunk] == [SCOUT]
    assert sorted(shot.kind for shot in table.full.recent[-6:]) == ["blast"] * 5 + ["nuke"]
    assert table.pending == Decide(1, timed=True)


# ------------------------------------------------------------------ reserve


def reserve_table(**kwargs) -> SpaceTable:
    """Seat 0 has the station (the TARGET fleet) and its reserve ready in its 9th own round."""
    table = SpaceTable(fleets=(TARGET, SHOOTER), knowers=("full", 0, 1, None), **kwargs)
    rounds(table, 8)
    return table


def test_a_reserve_lands_three_fighters_committed_as_a_new_layer_and_a_fighter_sinks_when_hit():
    table = reserve_table()
    table.squadrons[0] = [squadron("C12", "C14", "C16")]
    table.act({"reserve": True})
    assert table.full.boards[0].declared == 4 and GAME.view(table.states[None], None)["fleets"][0]["ships"] == 7
    assert table.full.boards[0].field_layers == ("ships", "wing1")
    assert table.pending == Decide(1, timed=True)
    table.act({"shoot": "C14"})  # fighter 2
    sea = table.full.seas[0]
    assert [record.ship for record in sea.sunk] == [CATALOGUE.fighter(1, 2)]
    assert table.full.sank[1] == 1
    table.act({"shoot": "E10"})  # a cell opened in both layers: the scout
    assert table.full.seas[0].opened[at("E10")] == 1
    view = GAME.view(table.states[0], 0)["fleets"][0]
    assert view["fighters"] == [[at("C12"), 15], [at("C14"), 16], [at("C16"), 17]]
    assert GAME.view(table.states[1], 1)["fleets"][0]["fighters"] is None  # the enemy does not see where they are


def test_a_fighter_hit_must_be_named_sunk():
    table = reserve_table()
    table.squadrons[0] = [squadron("C12", "C14", "C16")]
    table.act({"reserve": True})
    table.lies = {0}
    table.apply(Move(1, {"shoot": at("C12")}))
    table.settle()
    assert table.full.stage == "answer"
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.states[1], Move(0, {"sunk": []}))  # the shooter saw the fighter in the wing opening
    assert rule(excinfo) == "zeeslag.missing_sink"


@pytest.mark.parametrize("cells, words", [
    (("C12", "A15", "J20"), None),
    (("D8", "C12", "C16"), "on or next to a ship"),  # D8 touches the station's C7
    (("C12", "C13", "C16"), "two fighters touch"),
    (("D11", "C14", "C16"), "not free then"),  # D11 was shot
])
def test_its_own_node_lands_only_a_legal_squadron(cells, words):
    table = reserve_table()
    table.apply(Move(0, {"reserve": True}))
    table.settle()
    request = table.pending
    assert request == CommitHidden((0,), 20, 10, ("wing1",))
    data = {"wing1": squadron(*cells)}
    if words is None:
        GAME.check_hidden(table.states[0], 0, data)
        return
    with pytest.raises(RuleError) as excinfo:
        GAME.check_hidden(table.states[0], 0, data)
    assert rule(excinfo) == "zeeslag.reserve" and words in str(excinfo.value)


def test_an_illegal_squadron_is_named_at_the_full_opening():
    table = reserve_table()
    table.knowers = (1, None)  # its enemy and a spectator: they see the landing, not where
    table.squadrons[0] = [squadron("D8", "C12", "C16")]  # D8 touches the station
    table.act({"reserve": True})
    sink_all(table, 1, SHOOTER_CELLS)
    assert table.full.outcome is not None and table.full.outcome.winners == (0,)
    with pytest.raises(RuleError) as excinfo:
        table.open_all()
    assert rule(excinfo) == "zeeslag.reserve" and "seat 0's reserve 1" in str(excinfo.value)


def test_a_reserve_with_too_few_free_cells_is_refused():
    table = reserve_table()
    # Its own node knows there is room; pretend the field is all opened but for two cells.
    state = table.states[0]
    sea = state.seas[0]
    closed = set(ats("E15", "E17"))
    opened = {cell: 0 for cell in range(FIELD.size) if cell not in closed}
    crowded = dataclasses.replace(state, seas=(dataclasses.replace(sea, opened=opened), *state.seas[1:]))
    for knower_state in (crowded, dataclasses.replace(crowded, boards=tuple(dataclasses.replace(b, own={}) for b in crowded.boards))):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(knower_state, Move(0, {"reserve": True}))
        assert rule(excinfo) == "zeeslag.reserve"
        assert not any("reserve" in move for move in GAME.legal_moves(knower_state, 0))


# ------------------------------------------------------------------ lies only the full opening shows


def sink_all(table: SpaceTable, target: int, names: list[str]) -> None:
    """Seat ``1 - target`` sinks ``names``; the other seat misses in between."""
    shooter = 1 - target
    misses = iter(FIELD.name(cell) for cell in range(FIELD.size - 1, -1, -1))
    for name in names:
        while table.full.outcome is None and table.pending != Decide(shooter, timed=True):
            miss = next(misses)
            while at(miss) in table.full.seas[shooter].opened:
                miss = next(misses)
            table.act({"shoot": miss})
        if table.full.outcome is not None:
            return
        table.act({"shoot": name})


SHOOTER_CELLS = ["A1", "A2", "A3", "C1", "C2", "C3", "D2", "F1", "F2", "F3", "F4", "F5", "G2", "G4", "J1", "J2"]


def test_a_false_fleet_size_is_named_at_the_full_opening():
    table = SpaceTable(knowers=(1, None), declare=False, start=None)
    table.apply(Move(0, {"ships": 3}))  # seat 0 bought 4: out once 3 sink, it hopes to hide one
    table.settle()
    table.apply(RandomValue(1))
    sink_all(table, 0, SHOOTER_CELLS)
    assert table.full.outcome is not None
    with pytest.raises(RuleError) as excinfo:
        table.open_all()
    assert rule(excinfo) == "zeeslag.count" and "declared 3 ships and bought 4" in str(excinfo.value)


def test_an_illegal_purchase_is_named_at_the_full_opening():
    dear = space_fleet({DREADNOUGHT: ("A1", 0), STATION: ("E1", 0), SCOUT: ("J1", 0)})  # two capital ships
    table = SpaceTable(fleets=(dear, TARGET), knowers=(1, None))
    sink_all(table, 0, ["A1", "A2", "A3", "A4", "A5", "B2", "B4", "E1", "E2", "E3", "F1", "F3", "G1", "G2", "G3", "J1", "J2"])
    with pytest.raises(RuleError) as excinfo:
        table.open_all()
    assert rule(excinfo) == "zeeslag.purchase" and "more than one capital ship" in str(excinfo.value)


@pytest.mark.parametrize("ids, sunk, knowing, seeing", [
    # A fifth scout in a Lancer's slot: only who knows the fleet can tell it from two hits of a
    # true Lancer named as sunk; the opening alone shows a false sink.
    ({"A1": 1, "A2": 1, "C1": 2, "C2": 2, "E1": 3, "E2": 3, "G1": 4, "G2": 4, "J5": 5, "J6": 5}, ["J5", "J6"],
     ("zeeslag.fleet", "Lancer 1 (ship 4) has 2 cells, not 3"), ("zeeslag.false_sink", "is 3 long, 2 of its cells are hit")),
    # A Cruiser laid in a straight line: its opening shows everyone the shape is wrong.
    ({"A1": 9, "A2": 9, "A3": 9, "A4": 9, "J1": 1, "J2": 1}, ["A1", "A2", "A3", "A4"],
     ("zeeslag.fleet", "Cruiser 1 (ship 8) is not its kind's shape"), ("zeeslag.fleet", "Cruiser 1 (ship 8) is not its kind's shape")),
])
def test_a_sunk_ship_in_a_shape_its_slot_forbids_is_named_as_the_fleet_that_broke_it(ids, sunk, knowing, seeing):
    for knower, (named, words) in (("full", knowing), (0, knowing), (1, seeing), (None, seeing)):
        table = SpaceTable(fleets=(raw_field(ids), TARGET), knowers=(knower,))
        with pytest.raises(RuleError) as excinfo:
            sink_all(table, 0, sunk)
        assert rule(excinfo) == named and "seat 0" in str(excinfo.value) and words in str(excinfo.value), knower


def test_a_second_capital_ship_claimed_by_its_ability_is_named_as_a_purchase():
    dear = space_fleet({DREADNOUGHT: ("A1", 0), STATION: ("E1", 0), SCOUT: ("J1", 0)})
    table = SpaceTable(fleets=(dear, TARGET), knowers=(1, None), start=1)
    sink_all(table, 0, ["A1", "A2", "A3", "A4", "A5", "B2", "B4"])
    table.until_round(0, 9)
    for knower in (1, None):
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.states[knower], Move(0, {"reserve": True}))
        assert rule(excinfo) == "zeeslag.purchase" and "but its Dreadnought sank: a fleet holds at most one capital ship" in str(excinfo.value)


def test_an_ability_without_its_ship_afloat_is_named_at_the_full_opening():
    # Seat 0 bought no Lancer, but lasers: nobody else can tell until its fleet opens.
    fleet0 = space_fleet({SPIRIT: ("C1", 0), SCOUT: ("J1", 0)})
    table = SpaceTable(fleets=(fleet0, TARGET), knowers=(1, None, "full"))
    rounds(table, 2)
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(table.states["full"], Move(0, {"laser": at("A20")}))
    assert rule(excinfo) == "zeeslag.ability"
    table.knowers = (1, None)
    table.act({"laser": "A20"})
    sink_all(table, 0, ["C1", "C2", "C3", "D2", "J1", "J2"])
    assert table.full.outcome is not None
    with pytest.raises(RuleError) as excinfo:
        table.open_all()
    assert rule(excinfo) == "zeeslag.ability" and "seat 0 used its laser with no Lancer afloat" in str(excinfo.value)


# ------------------------------------------------------------------ three or more: salvos with abilities


def misses(table: SpaceTable, seat: int, spared: int | None = None) -> list[list[int]]:
    """A salvo of misses from ``seat``: one at each living enemy but ``spared``."""
    from tests.games.zeeslag.space import MISSES
    shots = []
    for foe in range(len(table.full.boards)):
        if foe not in (seat, spared):
            shots.append([foe, next(at(name) for name in MISSES if at(name) not in table.full.seas[foe].opened)])
    return sorted(shots)


def salvo_round(table: SpaceTable, moves: dict[int, dict] | None = None) -> None:
    """Every seat fires: ``moves[seat]`` or a salvo of misses; every answer follows."""
    from fairtable.games.contract import Chosen
    moves = moves or {}
    choices = tuple(moves.get(seat) or {"salvo": misses(table, seat)} for seat in range(len(table.full.boards)))
    table.apply(Chosen(choices, ()))
    table.settle()


THREE = (SHOOTER, TARGET, TARGET)


def test_in_a_spread_salvo_an_ability_replaces_the_shots_at_one_enemy():
    table = SpaceTable(fleets=THREE)
    salvo_round(table)
    salvo_round(table)
    assert [board.rounds for board in table.full.boards] == [2, 2, 2]  # every salvo an own round
    laser = {"laser": at("A10"), "at": 1}
    with pytest.raises(RuleError) as excinfo:  # shots at seat 1 too
        GAME.check_choice(table.full, 0, {"salvo": misses(table, 0), "ability": laser})
    assert rule(excinfo) == "zeeslag.target"
    with pytest.raises(RuleError) as excinfo:  # its shot at seat 2 is still due
        GAME.check_choice(table.full, 0, {"salvo": [], "ability": laser})
    assert rule(excinfo) == "zeeslag.salvo"
    with pytest.raises(RuleError) as excinfo:  # an ability in a salvo names its enemy
        GAME.check_choice(table.full, 0, {"salvo": misses(table, 0, 1), "ability": {"laser": at("A10")}})
    assert rule(excinfo) == "zeeslag.move"
    salvo_round(table, {0: {"salvo": misses(table, 0, 1), "ability": laser}})
    sea = table.full.seas[1]
    assert all(sea.opened[cell] == 0 for cell in ats("A10", "B10", "C10", "D10")) and at("E10") in sea.hits
    assert table.full.boards[0].used == {"laser": 3}


def focused(table: SpaceTable, seat: int) -> dict:
    """A focused salvo of misses: both shots at the next seat."""
    from tests.games.zeeslag.space import MISSES
    foe = (seat + 1) % 3
    cells = [at(name) for name in MISSES if at(name) not in table.full.seas[foe].opened][:2]
    return {"salvo": [[foe, cell] for cell in cells]}


def test_in_a_focused_salvo_an_ability_is_the_whole_salvo():
    table = SpaceTable(fleets=THREE, options={"salvo": "focus"})
    for _ in range(2):
        salvo_round(table, {seat: focused(table, seat) for seat in range(3)})
    laser = {"laser": at("A10"), "at": 1}
    with pytest.raises(RuleError) as excinfo:  # shots besides the ability
        GAME.check_choice(table.full, 0, {"salvo": [[2, at("D11")]], "ability": laser})
    assert rule(excinfo) == "zeeslag.salvo"
    with pytest.raises(RuleError) as excinfo:  # a reserve in a focused salvo spares nobody: it names none
        GAME.check_choice(table.full, 0, {"salvo": [], "ability": {"reserve": True, "at": 1}})
    assert rule(excinfo) == "zeeslag.ability"
    salvo_round(table, {0: {"salvo": [], "ability": laser}, 1: focused(table, 1), 2: focused(table, 2)})
    assert at("E10") in table.full.seas[1].hits and table.full.boards[0].used == {"laser": 3}


def test_a_reserve_lands_before_the_shots_of_its_round_and_not_where_they_fall():
    table = SpaceTable(fleets=(TARGET, SHOOTER, SHOOTER), knowers=("full", 0, 1, None))
    for _ in range(8):
        salvo_round(table)
    from fairtable.games.contract import Chosen
    aimed = at("C12")
    choices = ({"salvo": misses(table, 0, 1), "ability": {"reserve": True, "at": 1}},
               {"salvo": sorted([[0, aimed], [2, at("J20")]])}, {"salvo": misses(table, 2)})
    table.apply(Chosen(choices, ()))
    assert table.pending == CommitHidden((0,), 20, 10, ("wing1",))  # before any shot is opened
    assert aimed not in GAME.view(table.states[0], 0)["placing"]["free"]
    with pytest.raises(RuleError) as excinfo:  # seat 1 aims at C12 this round: no fighter lands there
        GAME.check_hidden(table.states[0], 0, {"wing1": squadron("C12", "C14", "C16")})
    assert rule(excinfo) == "zeeslag.reserve" and "where that round aimed" in str(excinfo.value)
    table.squadrons[0] = [squadron("C14", "C16", "C18")]
    table.settle()
    assert table.full.seas[0].opened[aimed] == 0 and table.full.boards[0].field_layers == ("ships", "wing1")
    assert table.full.boards[0].squadrons[0].opened[aimed] == 0  # the shot was opened in the new layer too


def test_fighters_land_where_the_round_aims_only_when_nothing_clear_of_it_fits():
    from fairtable.games.zeeslag.reserve import squadron_problem
    from fairtable.games.zeeslag.state import Squadron
    empty = (0,) * FIELD.size
    room = set(ats("A1", "A3", "A5", "A7"))
    barred = tuple(cell for cell in range(FIELD.size) if cell not in room)
    values = squadron("A1", "A3", "A5")
    assert "where that round aimed" in squadron_problem(FIELD, empty, [], Squadron(barred, ats("A1")), values)
    assert squadron_problem(FIELD, empty, [], Squadron(barred, ats("A1", "A3")), values) is None
    assert "not free then" in squadron_problem(FIELD, empty, [], Squadron((*barred, at("A5"))), values)


def test_water_a_laser_passed_or_a_scan_found_is_no_longer_a_target():
    table = SpaceTable()
    lasered(table, "A10")  # A10..D10 water
    table.miss()
    rounds(table, 5)
    table.act({"scan": "A5"})  # A4, B4, B6 water
    table.miss()
    water = ats("A10", "B10", "C10", "D10", "A4", "B4", "B6")
    assert all(cell not in public_targets(table.full, 1) for cell in water)
    for cell in water:
        assert {"shoot": cell} not in GAME.legal_moves(table.full, 0)
        with pytest.raises(RuleError) as excinfo:
            GAME.apply(table.full, Move(0, {"shoot": cell}))
        assert rule(excinfo) == "zeeslag.target"
