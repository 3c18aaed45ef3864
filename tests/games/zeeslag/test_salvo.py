"""Salvos for three or more: everyone aims at once; spread and focus counts; the timer's random
shots; answers for a whole round; a sunk seat watches; down to two seats, the duel rules."""

from __future__ import annotations

import dataclasses

import pytest

from fairtable.games.contract import Chosen, Decide, Forfeit, Move, OpenHidden, PublicRandom, RandomValue, Result, RuleError, Simultaneous
from fairtable.games.zeeslag.game import settle
from fairtable.games.zeeslag.state import Sea, Sunk
from fairtable.games.zeeslag.targets import waters
from tests.games.zeeslag.positions import CLASSIC_0, CLASSIC_1, CLASSIC_2, GAME, TIMEOUT, Table, cell, cells
from tests.games.zeeslag.test_shared import FLEETS3, first_round

FLEETS = (CLASSIC_0, CLASSIC_1, CLASSIC_2)
# Every cell of each fleet, in the order a test sinks them.
SHIPS = {
    0: ("A1 A2 A3 A4 A5", "C1 C2 C3 C4", "E1 E2 E3", "G1 G2 G3", "I1 I2"),
    1: ("A10 B10 C10 D10 E10", "J1 J2 J3 J4", "C3 D3 E3", "D6 D7 D8", "A1 A2"),
    2: ("A1 B1 C1 D1 E1", "A3 B3 C3 D3", "A5 B5 C5", "A7 B7 C7", "A9 B9"),
}


def rule(excinfo) -> str:
    return excinfo.value.rule


def salvo(seat: int, shots: dict[int, str]) -> dict:
    return {"salvo": sorted([foe, cell(name)] for foe, names in shots.items() for name in names.split())}


def test_a_round_asks_every_living_seat_at_once_and_answers_every_shot():
    table = Table(fleets=FLEETS)
    assert table.pending == Simultaneous((0, 1, 2), timed=True)
    assert GAME.view(table.states[0], 0)["due"] == [[1, 1], [2, 1]] and GAME.view(table.states[None], None)["due"] == []
    choices = (salvo(0, {1: "A1", 2: "J10"}), salvo(1, {0: "A1", 2: "A1"}), salvo(2, {0: "J10", 1: "A1"}))
    table.apply(Chosen(choices))
    # One opening per sea, seats in order; then each seat with a hit answers, in order.
    assert table.pending == OpenHidden(0, "ships", cells("A1", "J10"))
    table.apply(table.opened())
    assert table.pending == OpenHidden(1, "ships", cells("A1"))  # hit twice this round, opened once
    table.apply(table.opened())
    assert table.pending == OpenHidden(2, "ships", cells("A1", "J10"))
    table.apply(table.opened())
    assert table.pending == Decide(0, timed=False)
    assert GAME.legal_moves(table.states[0], 0) == ({"sunk": []},)
    table.apply(Move(0, {"sunk": []}))
    assert table.pending == Decide(1, timed=False)
    table.apply(Move(1, {"sunk": []}))
    assert table.pending == Decide(2, timed=False)
    table.apply(Move(2, {"sunk": []}))
    assert table.pending == Simultaneous((0, 1, 2), timed=True)
    assert table.full.seas[1].hits == cells("A1") and table.full.seas[0].shots == cells("A1", "J10")
    assert [(s.seat, s.target, s.cell, s.hit) for s in table.full.recent] == [
        (0, 1, cell("A1"), 1), (0, 2, cell("J10"), 0), (1, 0, cell("A1"), 1), (1, 2, cell("A1"), 1), (2, 0, cell("J10"), 0), (2, 1, cell("A1"), 1)]


def test_spread_fires_k_at_each_living_enemy_all_due():
    table = Table(fleets=FLEETS, options={"shots": 2})
    state = table.states[0]
    GAME.check_choice(state, 0, salvo(0, {1: "B1 B2", 2: "J9 J10"}))
    for bad in (salvo(0, {1: "B1", 2: "J9 J10"}), salvo(0, {1: "B1 B2 B3", 2: "J9 J10"}), salvo(0, {1: "B1 B2"})):
        with pytest.raises(RuleError) as excinfo:
            GAME.check_choice(state, 0, bad)
        assert rule(excinfo) == "zeeslag.salvo"
    for bad in ({"salvo": [[0, 1], [2, 3], [2, 4], [1, 5]]}, {"salvo": [[1, 1], [1, 1], [2, 1], [2, 2]]}, {"salvo": "B1"},
                {"shoot": 3}, {"salvo": [[1, True], [1, 2], [2, 1], [2, 2]]}):
        with pytest.raises(RuleError) as excinfo:
            GAME.check_choice(state, 0, bad)
        assert rule(excinfo) in ("zeeslag.move", "zeeslag.target")
    with pytest.raises(RuleError) as excinfo:
        GAME.check_choice(state, 0, salvo(0, {0: "A1 A2", 1: "B1 B2"}))  # its own sea is no target
    assert rule(excinfo) == "zeeslag.target"
    with pytest.raises(RuleError) as excinfo:
        GAME.check_choice(state, 0, TIMEOUT)  # only the timer's marked default fires for a seat
    assert rule(excinfo) == "zeeslag.timer"
    # The same check at the reveal: the referee and every seat refuse an illegal salvo.
    with pytest.raises(RuleError) as excinfo:
        GAME.apply(state, Chosen((salvo(0, {1: "B1"}), salvo(1, {0: "A1 A2", 2: "A1 A2"}), salvo(2, {0: "B1 B2", 1: "B1 B2"}))))
    assert rule(excinfo) == "zeeslag.salvo"


def test_focus_fires_k_times_the_living_enemies_at_one_of_them():
    table = Table(fleets=FLEETS, options={"salvo": "focus", "shots": 2})
    state = table.full
    GAME.check_choice(state, 0, salvo(0, {2: "J7 J8 J9 J10"}))
    with pytest.raises(RuleError) as excinfo:
        GAME.check_choice(state, 0, salvo(0, {1: "J9 J10", 2: "J9 J10"}))
    assert rule(excinfo) == "zeeslag.salvo" and "one enemy" in str(excinfo.value)
    for bad in (salvo(0, {2: "J8 J9 J10"}), salvo(0, {2: "J6 J7 J8 J9 J10"}), {"salvo": []}):
        with pytest.raises(RuleError) as excinfo:
            GAME.check_choice(state, 0, bad)
        assert rule(excinfo) == "zeeslag.salvo"
    table.salvo({0: {2: "J7 J8 J9 J10"}, 1: {0: "J7 J8 J9 J10"}, 2: {1: "J7 J8 J9 J10"}})
    assert table.full.seas[2].shots == cells("J7", "J8", "J9", "J10")
    assert GAME.view(table.states[1], 1)["due"] == [[0, 4], [2, 4]]


def test_few_targets_left_means_fewer_shots_due():
    table = Table(fleets=FLEETS, options={"shots": 5})
    left = cells("A1", "B1", "C1")
    only = Sea(opened={c: 0 for c in range(100) if c not in left})
    table.states = {who: dataclasses.replace(state, seas=(*state.seas[:2], only)) for who, state in table.states.items()}
    assert GAME.view(table.states[0], 0)["due"] == [[1, 5], [2, 3]]
    GAME.check_choice(table.full, 0, salvo(0, {1: "J1 J2 J3 J4 J5", 2: "A1 B1 C1"}))
    with pytest.raises(RuleError):
        GAME.check_choice(table.full, 0, salvo(0, {1: "J1 J2 J3 J4 J5", 2: "A1 B1"}))


def test_the_timer_fires_a_late_salvo_at_random_targets_by_public_random_values():
    table = Table(fleets=FLEETS, options={"shots": 2})
    assert GAME.default_move(table.full, 1) == TIMEOUT
    table.apply(Chosen((salvo(0, {1: "J9 J10", 2: "J9 J10"}), TIMEOUT, salvo(2, {0: "J9 J10", 1: "J7 J8"})), defaults=(1,)))
    # Seat 1's four shots: two of 100 cells at seat 0, two of 100 at seat 2 (falling factorials).
    assert table.pending == PublicRandom(100 * 99 * 100 * 99)
    value = 5 + 100 * (7 + 99 * (0 + 100 * 98))  # digits 5, 7 (of 99 left), 0, 98
    table.apply(RandomValue(value))
    timer = [(s.target, s.cell) for s in table.full.volley if s.seat == 1]
    assert timer == [(0, 5), (0, 8), (2, 0), (2, 99)] and all(s.timer for s in table.full.volley if s.seat == 1)
    assert table.full.timeouts == (0, 1, 0)
    table.settle()
    assert table.pending == Simultaneous((0, 1, 2), timed=True)
    recent = GAME.view(table.full, None)["recent"]
    assert [shot["timer"] for shot in recent] == [False] * 4 + [True] * 4 + [False] * 4


def test_a_focused_late_salvo_first_draws_its_enemy():
    table = Table(fleets=FLEETS, options={"salvo": "focus"})
    table.apply(Chosen((TIMEOUT, TIMEOUT, salvo(2, {0: "J9 J10"})), defaults=(0, 1)))
    assert table.pending == PublicRandom(4)  # each late seat: one of two enemies
    table.apply(RandomValue(1 + 2 * 0))  # seat 0 at seat 2, seat 1 at seat 0
    assert [(entry.seat, entry.target) for entry in table.full.late] == [(0, 2), (1, 0)]
    assert table.pending == PublicRandom(100 * 99 * 100 * 99)  # two shots each (k x 2 enemies), 100 targets each
    table.apply(RandomValue(0))
    assert sorted((s.seat, s.target, s.cell) for s in table.full.volley if s.timer) == [(0, 2, 0), (0, 2, 1), (1, 0, 0), (1, 0, 1)]


def test_too_many_timeouts_and_the_seat_leaves_before_its_shots_fly():
    table = Table(fleets=FLEETS, options={"max_timeouts": 1})
    table.apply(Chosen((salvo(0, {1: "J10", 2: "J10"}), TIMEOUT, salvo(2, {0: "J10", 1: "J9"})), defaults=(1,)))
    assert table.full.left == (1,) and table.full.outcome is None
    assert all(s.seat != 1 for s in table.full.volley)
    table.settle()
    # Two seats left: the duel rules, who starts drawn; seat 1's waters are no target any more.
    assert table.pending == PublicRandom(2)
    assert [s.cell for s in table.full.volley] == [] and table.full.seas[1].opened == {cell("J10"): 0, cell("J9"): 0}
    table.apply(RandomValue(1))
    assert table.pending == Decide(2, timed=True)
    assert {"shoot": cell("A1")} in GAME.legal_moves(table.full, 2)
    assert GAME.view(table.full, 1)["watching"]


def test_down_to_two_seats_by_sinking_the_duel_rules_take_over_and_the_sunk_seat_watches():
    table = Table(fleets=FLEETS, options={"shots": 5, "water_ring": False})
    at_one = " ".join(SHIPS[1]).split() + ["I1", "I2", "I3"]  # all of seat 1's ships, then water
    water = {  # distinct water cells of each sea for each shooter
        (1, 0): [f"{r}{c}" for r in "BD" for c in range(1, 11)], (2, 0): [f"{r}{c}" for r in "FH" for c in range(1, 11)],
        (0, 2): [f"{r}{c}" for c in (2, 4) for r in "ABCDEFGHIJ"], (1, 2): [f"{r}{c}" for c in (6, 8) for r in "ABCDEFGHIJ"],
        (2, 1): [f"{r}{c}" for r in "GH" for c in range(1, 11)],
    }
    for start in range(0, 20, 5):
        assert table.pending == Simultaneous((0, 1, 2), timed=True)
        def batch(key, start=start):
            return " ".join(water[key][start:start + 5])
        table.salvo({0: {1: " ".join(at_one[start:start + 5]), 2: batch((0, 2))},
                     1: {0: batch((1, 0)), 2: batch((1, 2))},
                     2: {0: batch((2, 0)), 1: batch((2, 1))}})
    assert len(table.full.seas[1].sunk) == 5 and table.full.outcome is None
    view = GAME.view(table.states[1], 1)
    assert view["watching"] and view["living"] == [0, 2] and view["fleets"][1]["out"]
    assert table.full.sank == (5, 0, 0)
    assert table.pending == PublicRandom(2)
    table.apply(RandomValue(1))
    assert table.pending == Decide(2, timed=True)  # living[1]
    assert len(GAME.legal_moves(table.full, 2)) == 100 - 40  # seat 0's sea took ten shots a round
    table.shoot("A1")  # a hit on seat 0's carrier: seat 2 shoots again
    assert table.pending == Decide(2, timed=True)
    table.shoot("J1")  # a miss: seat 0 shoots
    assert table.pending == Decide(0, timed=True)
    assert {"shoot": cell("A1")} in GAME.legal_moves(table.full, 0)  # seat 2's sea, not the sunk seat's


def last_cell_standing(table: Table, keep: dict[int, str]) -> None:
    """Every ship of every seat sunk but the one holding ``keep[seat]``, which is hit everywhere else."""
    layout = table.layout
    states = {}
    for who, state in table.states.items():
        seas = []
        for seat, data in enumerate(table.fleets):
            last = data["ids"][cell(keep[seat])] - 1
            hit = tuple(c for c in range(100) if data["ids"][c] and c != cell(keep[seat]))
            sunk = tuple(Sunk(seat, ship, tuple(c for c in range(100) if data["ids"][c] == ship + 1), 0)
                         for ship in range(5) if ship != last)
            seas.append(Sea(opened={c: 1 for c in hit}, shots=hit, hits=hit, holders={c: (seat,) for c in hit}, sunk=sunk))
        boards = tuple(dataclasses.replace(board, answers=(len(seas[seat].hits),)) for seat, board in enumerate(state.boards))
        states[who] = dataclasses.replace(state, seas=tuple(seas), boards=boards)
    table.states = states
    assert layout == table.layout


def test_the_last_fleets_sinking_in_one_round_is_a_draw():
    table = Table(fleets=FLEETS)
    last_cell_standing(table, {0: "I2", 1: "A2", 2: "B9"})
    table.salvo({0: {1: "A2", 2: "B9"}, 1: {0: "J10", 2: "J10"}, 2: {0: "I2", 1: "J10"}})
    assert table.full.outcome == Result((), "sunk", (2, 0, 1))
    assert GAME.view(table.full, None)["living"] == []


def test_the_last_fleet_afloat_wins():
    table = Table(fleets=FLEETS)
    last_cell_standing(table, {0: "I2", 1: "A2", 2: "B9"})
    table.salvo({0: {1: "A2", 2: "B9"}, 1: {0: "J10", 2: "J10"}, 2: {0: "J10", 1: "J10"}})
    assert table.full.outcome == Result((0,), "sunk", (2, 0, 0))


def test_a_forfeit_without_teams_leaves_the_others_playing():
    table = Table(fleets=FLEETS)
    table.apply(Forfeit(2, "resigned"))
    assert table.full.left == (2,) and table.full.outcome is None
    assert table.pending == PublicRandom(2)
    table.apply(RandomValue(0))
    assert table.pending == Decide(0, timed=True)
    table.apply(Forfeit(1, "resigned"))
    assert table.full.outcome == Result((0,), "forfeit: resigned", (0, 0, 0))
    assert table.pending == OpenHidden(0, "ships", tuple(range(100)))


def test_a_round_in_which_nobody_fired_ends_the_game_undecided():
    """Honest fleets cannot get there (a third seat can always fire), but a round without a
    shot would repeat for ever: it ends the game."""
    table = Table(fleets=FLEETS)
    state = dataclasses.replace(table.full, stage="done", volley=())
    assert settle(state).outcome == Result((), "no targets", (0, 0, 0))


def test_once_the_public_values_run_short_the_timer_fires_at_the_first_targets():
    from fairtable.games.contract import PUBLIC_VALUES
    from fairtable.protocol.fair.public_random import CHAIN_LENGTH

    assert PUBLIC_VALUES == CHAIN_LENGTH  # what a game may ask for is what every seat's chain holds
    table = Table(fleets=FLEETS)
    table.states = {who: dataclasses.replace(state, draws=PUBLIC_VALUES - 1) for who, state in table.states.items()}
    table.apply(Chosen((salvo(0, {1: "J10", 2: "J10"}), TIMEOUT, salvo(2, {0: "J10", 1: "J9"})), defaults=(1,)))
    assert not isinstance(table.pending, PublicRandom)  # one value is kept for a duel's start
    assert sorted((s.target, s.cell) for s in table.full.volley if s.seat == 1) == [(0, 0), (2, 0)]


def _after_a_round(variant: str) -> Table:
    """Three seats after one salvo round (cells opened, a border hit in the shared sea)."""
    if variant == "shared":
        table = Table(fleets=FLEETS3, variant="shared")
        first_round(table)
    else:
        table = Table(fleets=FLEETS)
        table.apply(Chosen((salvo(0, {1: "A1", 2: "J10"}), salvo(1, {0: "A1", 2: "A1"}), salvo(2, {0: "J10", 1: "A1"}))))
    table.settle()
    assert isinstance(table.pending, Simultaneous)
    return table


@pytest.mark.parametrize("variant", ["duel", "shared"])
def test_the_views_targets_are_the_cells_the_salvos_check_lets_a_shot_go_at(variant):
    """A client offers exactly the view's ``targets``: every cell the salvo's own check takes for
    that enemy, none it refuses (opened, off its waters, in the shared sea the seat's own ship),
    the border cell's home-block owner first."""
    table = _after_a_round(variant)
    for seat in range(3):
        state = table.states[seat]
        view = GAME.view(state, seat)
        layout = waters(state)
        offered = {(sea, spot): foes for sea, spot, foes in view["targets"]}
        own = {spot for spot, _ in view["fleets"][seat]["layout"]} if variant == "shared" else set()
        for foe, _count in view["due"]:
            sea = layout.sea_of(foe)
            for spot in range(layout.seas[sea].size):
                refusal = GAME.explain(state, seat, {"salvo": [[foe, spot]]})
                refused = (refusal is not None and refusal.rule == "zeeslag.target") or spot in own
                assert refused != (foe in offered.get((sea, spot), ())), (seat, foe, spot, refusal)
        for (_sea, spot), foes in offered.items():
            if variant == "shared":
                assert foes == [holder for holder in view["seas"][0]["holders"][spot] if holder in foes]
        assert GAME.view(state, None)["targets"] == [] and GAME.view(table.states[(seat + 1) % 3], (seat + 1) % 3)["targets"] != []
    assert any(len(foes) > 1 for _, _, foes in GAME.view(table.states[0], 0)["targets"]) == (variant == "shared")
