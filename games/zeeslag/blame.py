"""Which rule a seat broke when its answer and its fleet disagree: the fleet first.

A sink proof that opens a ship in the wrong shape, or an ability used by a ship the seat could
not have bought, is a lie about the answer only if the fleet itself is legal. When the fleet is
not (a cruiser laid in a straight line, a fifth scout in a Lancer's slot, two capital ships),
the seat broke ``zeeslag.fleet`` or ``zeeslag.purchase`` when it committed, and that is what is
named. :func:`fleet_fault` judges the fleet as far as the state knows it: in full where it holds
the seat's committed data (its own node, the verifier), else by what the openings already
prove; :func:`blame` puts that before the answer's own rule.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from functools import partial

from fairtable.games.contract import GENERIC, RuleError
from fairtable.games.zeeslag import purchase
from fairtable.games.zeeslag.fleet import IDS, SHIPS, Fleet, fleet_problem
from fairtable.games.zeeslag.starships import CATALOGUE
from fairtable.games.zeeslag.state import ZeeslagState, fleet_of
from fairtable.games.zeeslag.targets import waters, waters_for


def fleet_fault(state: ZeeslagState, seat: int) -> tuple[str, str] | None:
    """``(rule, what)`` wrong with ``seat``'s committed fleet, as far as this state can tell."""
    own = state.boards[seat].own
    if IDS in own:
        problem = _fleet_problem(state.variant, len(state.boards), fleet_of(state), seat, tuple(own[SHIPS]), tuple(own[IDS]))
        if problem is not None:
            return "zeeslag.fleet", problem
        return purchase.problem(state, seat, own[IDS]) if state.variant == "space" else None
    return _opened_fault(state, seat, state.boards[seat].ids)


@functools.lru_cache(maxsize=64)
def _fleet_problem(variant: str, seats: int, fleet: Fleet, seat: int, ships: tuple[int, ...], ids: tuple[int, ...]) -> str | None:
    """:func:`~fleet.fleet_problem` of a seat's own fleet, kept: a node asks it of the same
    fleet on every answer or ability it refuses."""
    layout = waters_for(variant, seats)
    return fleet_problem(layout.board, fleet, {SHIPS: ships, IDS: ids}, partial(layout.place_problem, seat))


def _opened_fault(state: ZeeslagState, seat: int, ids: Mapping[int, int]) -> tuple[str, str] | None:
    """What the opened ``ids`` cells already prove: a ship with more cells than its kind, or all
    of them not in its shape; in the space battle, slots no legal purchase holds together."""
    grid = waters(state).board
    ships = fleet_of(state).ships
    slots: dict[int, list[int]] = {}
    for cell, value in sorted(ids.items()):
        if 1 <= value <= len(ships):
            slots.setdefault(value - 1, []).append(cell)
    for slot, cells in sorted(slots.items()):
        ship = ships[slot]
        if len(cells) > ship.length or (len(cells) == ship.length and ship.fits(grid, cells) is not None):
            return "zeeslag.fleet", f"{ship.name_en} (ship {slot}) {ship.fits(grid, cells)} (cells {', '.join(map(grid.name, cells))})"
    if state.variant != "space":
        return None
    kinds = [CATALOGUE.kind_of(slot) for slot in slots]
    capital = [kind.name_en for kind in kinds if kind is not None and kind.capital]
    if len(capital) > 1:
        return "zeeslag.purchase", f"its opened cells show a {' and a '.join(capital)}: more than one capital ship"
    bought = {first for slot in slots for first in _earlier_slots(slot)}
    cost = CATALOGUE.cost(sorted(bought))
    if cost > state.options["money"]:
        return "zeeslag.purchase", f"its opened cells show ships costing at least {cost}, more than its {state.options['money']}"
    return None


def _earlier_slots(slot: int) -> tuple[int, ...]:
    """``slot`` and the slots of its kind before it, which a legal purchase holds with it."""
    kind = CATALOGUE.kind_of(slot)
    assert kind is not None
    slots = CATALOGUE.slots(kind.id)
    return slots[: slots.index(slot) + 1]


def blame(state: ZeeslagState, seat: int, rule: str, message: str, key: str = GENERIC, **params: int | str) -> RuleError:
    """The error for ``seat``'s answer that breaks ``rule`` (in the words of ``key``), unless its fleet broke a rule first."""
    fault = fleet_fault(state, seat)
    if fault is not None:
        return RuleError(fault[0], f"seat {seat}: {fault[1]}")
    return RuleError(rule, message, key, **params)
