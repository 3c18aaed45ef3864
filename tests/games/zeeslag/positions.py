"""Zeeslag tables driven by hand: fixed fleets, every event applied to each kind of state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.games.contract import Chosen, Committed, Decide, Move, Opened, OpenHidden, OpenSums, PublicRandom, RandomValue, Simultaneous, Summed
from fairtable.games.registry import get
from fairtable.games.zeeslag.fleet import Placement, layers
from fairtable.games.zeeslag.sea import SEA, Grid
from fairtable.games.zeeslag.sinks import complete_ships
from fairtable.games.zeeslag.state import fleet_of
from fairtable.games.zeeslag.targets import sunk_ships, waters, waters_for
from fairtable.games.zeeslag.waters import SharedSea

GAME = get("zeeslag")
TIMEOUT = {"timeout": True}


def cell(name: str, grid: Grid = SEA) -> int:
    return grid.parse(name)


def cells(*names: str, grid: Grid = SEA) -> tuple[int, ...]:
    return tuple(cell(name, grid) for name in names)


def fleet(*ships: tuple[str, int, str]) -> dict[str, tuple[int, ...]]:
    """Hidden data of an own sea from ``(top-left cell, length, "h" or "v")`` per ship, in fleet order."""
    placements = []
    for name, length, direction in ships:
        x, y = SEA.xy(cell(name))
        placements.append(Placement(x, y, length, direction == "h"))
    return layers(SEA, placements)


def shared_fleet(seats: int, seat: int, *ships: tuple[str, int, str]) -> dict[str, tuple[int, ...]]:
    """Hidden data of ``seat``'s window in a shared sea of ``seats``, ships named by their sea cells."""
    layout = SharedSea(seats)
    placements = []
    for name, length, direction in ships:
        local = layout.to_board(seat, cell(name, layout.sea))
        assert local is not None, f"{name} is outside seat {seat}'s window"
        x, y = layout.board.xy(local)
        placements.append(Placement(x, y, length, direction == "h"))
    return layers(layout.board, placements)


def raw(ids: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """Hidden data of an own sea with ``ids`` at the named cells, legal or not."""
    values = [0] * SEA.size
    for name, ship in ids.items():
        values[cell(name)] = ship
    return {"ships": tuple(int(v != 0) for v in values), "ids": tuple(values)}


# Seat 0: rows A, C, E, G, I from column 1. Seat 1: the classic fleet spread out. Seat 2: columns.
CLASSIC_0 = fleet(("A1", 5, "h"), ("C1", 4, "h"), ("E1", 3, "h"), ("G1", 3, "h"), ("I1", 2, "h"))
CLASSIC_1 = fleet(("A10", 5, "v"), ("J1", 4, "h"), ("C3", 3, "v"), ("D6", 3, "h"), ("A1", 2, "h"))
CLASSIC_2 = fleet(("A1", 5, "v"), ("A3", 4, "v"), ("A5", 3, "v"), ("A7", 3, "v"), ("A9", 2, "v"))
CLASSIC_3 = fleet(("J1", 5, "h"), ("H1", 4, "h"), ("F1", 3, "h"), ("D1", 3, "h"), ("B1", 2, "h"))
TEN_0 = fleet(
    ("A1", 4, "h"), ("C1", 3, "h"), ("C5", 3, "h"), ("E1", 2, "h"), ("E4", 2, "h"),
    ("E7", 2, "h"), ("G1", 1, "h"), ("G3", 1, "h"), ("G5", 1, "h"), ("G7", 1, "h"),
)
TEN_1 = fleet(
    ("A1", 4, "h"), ("C1", 3, "v"), ("J8", 3, "h"), ("A7", 2, "h"), ("E5", 2, "v"),
    ("H3", 2, "h"), ("A10", 1, "h"), ("J1", 1, "h"), ("G7", 1, "h"), ("C10", 1, "h"),
)


class Table:
    """A game with fixed fleets; ``states`` holds the same game as each knower sees it: the
    full-knowledge referee (``"full"``), each seat (its own fleet) and a spectator (``None``).
    Openings, sums and sink answers are given truthfully from the fleets unless a test says
    otherwise (``lies``: seats whose sink answers are left to the test)."""

    def __init__(self, fleets=(CLASSIC_0, CLASSIC_1), options: dict | None = None, start: int | None = 0,
                 knowers=None, variant: str = "duel") -> None:
        self.fleets = fleets
        seats = len(fleets)
        self.knowers = knowers or ("full", *range(seats), None)
        self.lies: set[int] = set()
        base = GAME.setup(variant, options or {}, seats)
        self.states: dict[Any, Any] = {who: base for who in self.knowers}
        self.events: dict[Any, list] = {who: [] for who in self.knowers}
        self.each(lambda who: Committed({seat: fleets[seat] for seat in range(seats) if who in ("full", seat)}))
        if start is not None and isinstance(self.pending, PublicRandom):
            self.apply(RandomValue(start))

    @property
    def full(self):
        """The state of the first knower (the referee's, unless left out)."""
        return self.states[self.knowers[0]]

    @property
    def pending(self):
        return GAME.pending(self.full)

    @property
    def layout(self):
        return waters(self.full)

    def each(self, make: Callable[[Any], Any], knowers=None) -> None:
        """Apply ``make(knower)`` to each knower's state; all must then agree on what is next."""
        knowers = knowers or self.knowers
        for who in knowers:
            event = make(who)
            self.states[who] = GAME.apply(self.states[who], event)
            self.events[who].append(event)
        assert len({repr(GAME.pending(self.states[who])) for who in knowers}) == 1

    def apply(self, event, knowers=None) -> None:
        self.each(lambda who: event, knowers)

    def opened(self, data: dict | None = None) -> Opened:
        """The answer to the pending opening, from the committed fleets (or ``data``)."""
        request = self.pending
        assert isinstance(request, OpenHidden), request
        values = (data or self.fleets[request.seat])[request.layer]
        return Opened(request.seat, request.layer, {c: values[c] for c in request.cells})

    def summed(self) -> Summed:
        request = self.pending
        assert isinstance(request, OpenSums), request
        return Summed(tuple(sum(self.fleets[seat][request.layer][c] for seat, c in terms) for terms in request.sums))

    def truth(self, seat: int) -> dict:
        """The true sink answer of ``seat``, by its committed fleet."""
        layout, state = self.layout, self.full
        sea = state.seas[layout.sea_of(seat)]
        ships = complete_ships(layout, seat, fleet_of(state), self.fleets[seat]["ids"], set(sea.hits), set(sunk_ships(state, seat)))
        return {"sunk": [list(ship) for ship in ships]}

    def shoot(self, name: str, timeout: bool = False) -> None:
        """The duel's shooter shoots at ``name``; every answer follows, truthfully."""
        request = self.pending
        assert isinstance(request, Decide) and self.full.stage == "aim", request
        at = cell(name, self.layout.seas[0])
        move = {"shoot": at, "timeout": True} if timeout else {"shoot": at}
        self.apply(Move(request.seat, move))
        self.settle()

    def salvo(self, choices: dict[int, Any], randoms=()) -> None:
        """Each living seat's salvo (``{enemy: "B7 C3"}``, or :data:`TIMEOUT`); ``randoms`` answer
        the timer's public random values; then every answer follows, truthfully."""
        request = self.pending
        assert isinstance(request, Simultaneous), request
        grid = self.layout.seas[0]
        values, defaults = [], []
        for seat in request.seats:
            choice = choices[seat]
            if choice == TIMEOUT:
                defaults.append(seat)
                values.append(TIMEOUT)
            else:
                values.append({"salvo": sorted([foe, cell(name, grid)] for foe, names in choice.items() for name in names.split())})
        self.apply(Chosen(tuple(values), tuple(defaults)))
        for value in randoms:
            assert isinstance(self.pending, PublicRandom), self.pending
            self.apply(RandomValue(value))
        self.settle()

    def settle(self) -> None:
        """Answer openings, sums and sink questions until a shot or salvo is due or the outcome is decided."""
        while self.full.outcome is None:
            request = self.pending
            if isinstance(request, OpenHidden):
                self.apply(self.opened())
            elif isinstance(request, OpenSums):
                self.apply(self.summed())
            elif isinstance(request, Decide) and not request.timed and self.full.stage == "answer" and request.seat not in self.lies:
                self.apply(Move(request.seat, self.truth(request.seat)))
            else:
                return

    def open_all(self) -> None:
        """Answer the full opening to its end."""
        while isinstance(self.pending, OpenHidden):
            self.apply(self.opened())


def sea_cells(variant: str, seats: int, *names: str) -> tuple[int, ...]:
    return cells(*names, grid=waters_for(variant, seats).seas[0])
