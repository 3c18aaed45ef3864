"""Zeeslag tables driven by hand: fixed fleets, every event applied to each kind of state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.games.contract import Committed, Decide, Move, Opened, OpenHidden, RandomValue
from fairtable.games.registry import get
from fairtable.games.zeeslag.fleet import Placement, layers
from fairtable.games.zeeslag.sea import SEA
from fairtable.games.zeeslag.sinks import complete

GAME = get("zeeslag")
KNOWERS = ("full", 0, 1, None)
"""The verifier (every fleet), each seat (its own fleet) and a spectator (no fleet)."""


def cell(name: str) -> int:
    return SEA.parse(name)


def cells(*names: str) -> tuple[int, ...]:
    return tuple(map(cell, names))


def fleet(*ships: tuple[str, int, str]) -> dict[str, tuple[int, ...]]:
    """Hidden data from ``(top-left cell, length, "h" or "v")`` per ship, in fleet order."""
    placements = []
    for name, length, direction in ships:
        x, y = SEA.xy(cell(name))
        placements.append(Placement(x, y, length, direction == "h"))
    return layers(SEA, placements)


def raw(ids: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """Hidden data with ``ids`` at the named cells, legal or not."""
    values = [0] * SEA.size
    for name, ship in ids.items():
        values[cell(name)] = ship
    return {"ships": tuple(int(v != 0) for v in values), "ids": tuple(values)}


# Seat 0: rows A, C, E, G, I from column 1. Seat 1: the classic fleet spread out.
CLASSIC_0 = fleet(("A1", 5, "h"), ("C1", 4, "h"), ("E1", 3, "h"), ("G1", 3, "h"), ("I1", 2, "h"))
CLASSIC_1 = fleet(("A10", 5, "v"), ("J1", 4, "h"), ("C3", 3, "v"), ("D6", 3, "h"), ("A1", 2, "h"))
TEN_0 = fleet(
    ("A1", 4, "h"), ("C1", 3, "h"), ("C5", 3, "h"), ("E1", 2, "h"), ("E4", 2, "h"),
    ("E7", 2, "h"), ("G1", 1, "h"), ("G3", 1, "h"), ("G5", 1, "h"), ("G7", 1, "h"),
)
TEN_1 = fleet(
    ("A1", 4, "h"), ("C1", 3, "v"), ("J8", 3, "h"), ("A7", 2, "h"), ("E5", 2, "v"),
    ("H3", 2, "h"), ("A10", 1, "h"), ("J1", 1, "h"), ("G7", 1, "h"), ("C10", 1, "h"),
)


class Table:
    """A duel with fixed fleets; ``states`` holds the same game as each knower sees it."""

    def __init__(self, fleets=(CLASSIC_0, CLASSIC_1), options: dict | None = None, start: int = 0, knowers=KNOWERS) -> None:
        self.fleets = fleets
        self.knowers = knowers
        self.lies: set[int] = set()
        """Cells whose sink answer the target turns around."""
        base = GAME.setup("duel", options or {}, 2)
        self.states: dict[Any, Any] = {who: base for who in knowers}
        self.events: dict[Any, list] = {who: [] for who in knowers}
        self.each(lambda who: Committed({seat: fleets[seat] for seat in (0, 1) if who in ("full", seat)}))
        self.apply(RandomValue(start))

    @property
    def full(self):
        """The state of the first knower (the verifier's, unless left out)."""
        return self.states[self.knowers[0]]

    @property
    def pending(self):
        return GAME.pending(self.full)

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

    def shoot(self, name: str, timeout: bool = False) -> None:
        """The shooter shoots at ``name``; every answer follows, truthfully."""
        request = self.pending
        assert isinstance(request, Decide) and self.full.stage == "shoot", request
        move = {"shoot": cell(name), "timeout": True} if timeout else {"shoot": cell(name)}
        self.apply(Move(request.seat, move))
        self.settle()

    def settle(self) -> None:
        """Answer openings and sink questions until a shot is due or the outcome is decided."""
        while self.full.outcome is None and self.full.stage != "shoot":
            request = self.pending
            if isinstance(request, OpenHidden):
                self.apply(self.opened())
            else:
                self.apply(Move(request.seat, {"sunk": self.truth() != (self.full.aim in self.lies)}))

    def truth(self) -> bool:
        """Whether the pending sink answer is "sunk", by the target's committed fleet."""
        board = self.full.boards[1 - self.full.turn]
        return complete(self.fleets[1 - self.full.turn]["ids"], self.full.aim, set(board.hits))

    def open_all(self) -> None:
        """Answer the full opening to its end."""
        while isinstance(self.pending, OpenHidden):
            self.apply(self.opened())
