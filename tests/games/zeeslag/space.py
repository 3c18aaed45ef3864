"""Space battle tables driven by hand: fixed bought fleets on 20×10 star fields, every event
applied to each kind of state, every answer given truthfully unless a test says otherwise."""

from __future__ import annotations

import dataclasses
from typing import Any

from fairtable.games.contract import CommitHidden, Committed, Decide, Move, OpenHidden, PublicRandom, RandomValue
from fairtable.games.zeeslag.fleet import layers_of
from fairtable.games.zeeslag.sea import FIELD
from fairtable.games.zeeslag.shape import Berth
from fairtable.games.zeeslag.starships import CATALOGUE, SPACE
from fairtable.games.zeeslag.state import replace_at
from tests.games.zeeslag.positions import GAME, Table

SCOUT, LANCER, SPIRIT, CRUISER, FRIGATE, DREADNOUGHT, STATION = 0, 4, 6, 8, 11, 13, 14
"""The first slot of each kind (ship id = slot)."""


def at(name: str) -> int:
    return FIELD.parse(name)


def ats(*names: str) -> tuple[int, ...]:
    return tuple(at(name) for name in names)


def space_fleet(ships: dict[int, tuple[str, int]]) -> dict[str, tuple[int, ...]]:
    """Hidden data of a star field from ``{slot: (top-left cell, turn)}``."""
    berths = {}
    for slot, (name, turn) in ships.items():
        x, y = FIELD.xy(at(name))
        berths[slot] = Berth(x, y, SPACE.ships[slot].shape, turn)
    return layers_of(FIELD, berths)


def raw_field(ids: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """Hidden data with ``ids`` (slot + 1) at the named cells, legal or not."""
    values = [0] * FIELD.size
    for name, value in ids.items():
        values[at(name)] = value
    return {"ships": tuple(int(v != 0) for v in values), "ids": tuple(values)}


def squadron(*names: str) -> tuple[int, ...]:
    values = [0] * FIELD.size
    for number, name in enumerate(names, 1):
        values[at(name)] = number
    return tuple(values)


# Seat 0: a Lancer at A1-A3, a Spirit at C1-C3 + D2, the Dreadnought at F1-F5 + G2 G4, a Scout at J1-J2.
SHOOTER = space_fleet({LANCER: ("A1", 0), SPIRIT: ("C1", 0), DREADNOUGHT: ("F1", 0), SCOUT: ("J1", 0)})
# Seat 1: the station at A5-C7 (a ring), Scouts at J1-J2 and E10-F10, a Lancer at H15-H17.
TARGET = space_fleet({STATION: ("A5", 0), SCOUT: ("J1", 0), SCOUT + 1: ("E10", 1), LANCER: ("H15", 0)})


MISSES = tuple(f"{row}{column}" for row in "DEFG" for column in (11, 12, 13, 14, 18, 19))
"""Water in both fleets, away from the cells the tests aim at."""


class SpaceTable(Table):
    """A space battle with fixed fleets, the sizes declared truthfully, ``start`` shooting first
    (two seats). ``squadrons`` gives the fighters a seat lands, in order (else its node's own
    random choice would be needed: the tests always give them)."""

    def __init__(self, fleets=(SHOOTER, TARGET), options: dict | None = None, start: int | None = 0, knowers=None,
                 declare: bool = True) -> None:
        super().__init__(tuple(dict(fleet) for fleet in fleets), options, None, knowers, "space")
        self.squadrons: dict[int, list[tuple[int, ...]]] = {}
        if declare:
            self.settle()
        if start is not None and isinstance(self.pending, PublicRandom):
            self.apply(RandomValue(start))

    def true_move(self, seat: int) -> Any:
        """The one legal answer, as a state that knows the seat's data has it (the first
        knower's state, told the seat's data where it does not know it)."""
        state = self.full
        board = state.boards[seat]
        if not board.own:
            board = dataclasses.replace(board, own={layer: tuple(values) for layer, values in self.fleets[seat].items()})
            state = dataclasses.replace(state, boards=replace_at(state.boards, seat, board))
        (move,) = GAME.legal_moves(state, seat)
        return move

    def settle(self) -> None:
        """Answer openings, declarations, sink and beam questions and landings until a shot or
        salvo is due or the outcome is decided."""
        while self.full.outcome is None:
            request = self.pending
            if isinstance(request, OpenHidden):
                self.apply(self.opened())
            elif isinstance(request, Decide) and not request.timed and self.full.stage in ("answer", "beam", "muster") \
                    and request.seat not in self.lies:
                self.apply(Move(request.seat, self.true_move(request.seat)))
            elif isinstance(request, CommitHidden) and self.squadrons.get(request.seats[0]):
                self.land(request)
            else:
                return

    def land(self, request: CommitHidden) -> None:
        seat, (layer,) = request.seats[0], request.layers
        data = {layer: self.squadrons[seat].pop(0)}
        self.fleets[seat][layer] = data[layer]
        self.each(lambda who: Committed({seat: data} if who in ("full", seat) else {}))

    def act(self, move: dict) -> None:
        """The duel's shooter's move (a shot or an ability, cells by name); every answer follows."""
        request = self.pending
        assert isinstance(request, Decide) and self.full.stage == "aim", request
        self.apply(Move(request.seat, {key: at(value) if isinstance(value, str) else value for key, value in move.items()}))
        self.settle()

    def until_round(self, seat: int, own_round: int) -> None:
        """Both seats miss until ``seat`` is to begin its own round ``own_round``."""
        while not (self.pending == Decide(seat, timed=True) and self.full.boards[seat].rounds + 1 == own_round
                   and not self.full.actions):
            self.miss()

    def miss(self, name: str | None = None) -> None:
        """The shooter misses: at ``name``, or the first cell of :data:`MISSES` not opened yet."""
        if name is None:
            shooter = self.pending.seat
            sea = self.full.seas[1 - shooter]
            name = next(miss for miss in MISSES if at(miss) not in sea.opened)
        self.act({"shoot": name})


def kind_name(ship: int) -> str:
    return CATALOGUE.ship_name(ship)
