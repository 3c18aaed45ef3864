"""Space battle tables for the board tests and snapshots: seat 0 buys a chosen fleet, and the
table is taken at the first decision where what a test needs is there (abilities ready, a
reserve to land)."""

from __future__ import annotations

import random
from typing import Any

from fairtable.games.zeeslag.abilities import Ability
from fairtable.games.zeeslag.bots import RandomBot, random_fleet, usable
from fairtable.games.zeeslag.render import ready_abilities
from fairtable.games.zeeslag.sea import Grid
from fairtable.games.zeeslag.targets import public_targets

GRID = Grid(20, 10)
SCOUT, LANCER, SPIRIT, CRUISER, DREADNOUGHT, STATION = 0, 4, 6, 8, 13, 14
"""Slots (ship ids - 1) of each kind's first copy."""


class Buyer(RandomBot):
    """Seat 0: buys ``slots`` (placed at random), shoots at random, and uses no ability but a reserve when ``reserves``."""

    def __init__(self, rng: random.Random, slots: tuple[int, ...], reserves: bool = False) -> None:
        super().__init__(rng)
        self.slots, self.reserves = slots, reserves

    def commit(self, game: Any, state: Any, seat: int, request: Any) -> dict:
        return game.random_hidden(state, seat, request, self.rng) if state.committed else random_fleet(state, seat, self.rng, self.slots)

    def ability(self, state: Any, seat: int, foes: list[int], salvo: bool) -> Ability | None:
        if not self.reserves or "reserve" not in usable(state, seat):
            return None
        foes = [foe for foe in foes if public_targets(state, foe)]
        return Ability("reserve", foes[0] if salvo and state.options["salvo"] != "focus" else None, -1)


def armed(rng: random.Random) -> Buyer:
    return Buyer(rng, (SCOUT, LANCER, SPIRIT, DREADNOUGHT))


def station(rng: random.Random) -> Buyer:
    return Buyer(rng, (SCOUT, LANCER, STATION), reserves=True)


def ready(*names: str) -> Any:
    """At seat 0's first decision with ``names`` ready and shots to fire."""
    def where(game: Any, state: Any) -> bool:
        view = game.view(state, 0)
        return view["phase"] == "aim" and set(names) <= set(ready_abilities(view))
    return where


def is_landing(game: Any, state: Any) -> bool:
    placing = game.view(state, 0)["placing"]
    return bool(placing and placing["fighters"])


BUYING = dict(game_id="zeeslag", variant="space", seats=2, seed=1, money=150)
ARMED = dict(game_id="zeeslag", variant="space", seats=2, seed=2, bot=armed, where=ready("laser", "scan", "nuke"))
LANDING = dict(game_id="zeeslag", variant="space", seats=2, seed=3, bot=station, where=is_landing)
SALVO = dict(game_id="zeeslag", variant="space", seats=3, seed=4, bot=armed, where=ready("scan"))


def keys_to(cursor: tuple[int, int], cell: int) -> list[str]:
    """The arrow keys that move the cursor from ``cursor`` to ``cell``."""
    x, y = GRID.xy(cell)
    return ["right" if x > cursor[0] else "left"] * abs(x - cursor[0]) + ["down" if y > cursor[1] else "up"] * abs(y - cursor[1])
