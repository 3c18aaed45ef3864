"""Every registered game and variant passes the contract check (``fairtable.games.testing.check_game``):
seeded random playouts through the referee in lockstep, with legal moves and apply agreeing both
ways, views that leak nothing, states, views and moves that round-trip through the canonical
codec, determinism, and each game's own invariants (its hooks in ``tests/games/<game>/contract.py``).

A game registered later is checked with no change here: at its fewest and most seats, for every
variant, with its default options; its hooks add further tables and invariants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest

from fairtable.games import registry
from fairtable.games.bots import heuristic, random_bot
from fairtable.games.contract import Bot, Game, Rng
from fairtable.games.testing import Flaky, Sampling, check_game
from fairtable.protocol import codec
from tests import golden
from tests.games.drachenherz import contract as drachenherz
from tests.games.duel import contract as duel
from tests.games.shengji import contract as shengji
from tests.games.towers import contract as towers
from tests.games.zeeslag import contract as zeeslag

HOOKS: dict[str, ModuleType] = {"drachenherz": drachenherz, "duel": duel, "shengji": shengji, "towers": towers, "zeeslag": zeeslag}
"""Each game's own invariants and further tables: ``TABLES``, ``invariants(state, request)``,
``finished(played, table)``, ``SAMPLING`` (each optional)."""


def wire(value: Any) -> Any:
    """A value as a peer reads it back: encoded and decoded by the canonical codec."""
    return codec.decode(codec.encode(value))


BOTS: dict[str, Callable[[Game, Rng, int], Bot]] = {
    "random": lambda game, rng, seat: random_bot(game, rng),
    "flaky": lambda game, rng, seat: Flaky(random_bot(game, rng), rng),
    "greedy": lambda game, rng, seat: heuristic(game, rng) if seat % 2 == 0 else random_bot(game, rng),
}
"""Players of a table: the game's random bot, the same letting its timer run out now and then,
or the game's greedy bot on even seats against random ones."""


@dataclass(frozen=True)
class Table:
    """One checked table: a variant, its seats and options, the players and the seeds."""

    game: str
    variant: str
    seats: int
    options: dict = field(default_factory=dict, hash=False)
    bots: str = "flaky"
    seeds: tuple[int, ...] = (0,)

    @property
    def name(self) -> str:
        options = ",".join(f"{key}={value}" for key, value in sorted(self.options.items()))
        return f"{self.game}-{self.variant}-{self.seats}" + (f"-{options}" if options else "") + f"-{self.bots}"


def tables() -> list[Table]:
    found = []
    for game_id in registry.ids():
        game = registry.get(game_id)
        for variant in game.variants:
            low, high = game.seat_range(variant)
            found += [Table(game_id, variant, low, seeds=(0, 1))] + [Table(game_id, variant, high)] * (high > low)
        found += [Table(game_id, *table) for table in getattr(HOOKS.get(game_id), "TABLES", ())]
    return found


TABLES = tables()


def check(table: Table) -> None:
    game = registry.get(table.game)
    hooks = HOOKS.get(table.game)
    invariants = getattr(hooks, "invariants", None)
    finished = getattr(hooks, "finished", None)
    check_game(game, table.variant, table.seats, table.options, seeds=table.seeds, bots=BOTS[table.bots], wire=wire,
               invariants=invariants, finished=None if finished is None else lambda played: finished(played, table),
               sampling=getattr(hooks, "SAMPLING", Sampling()))


@pytest.mark.parametrize("table", TABLES, ids=[table.name for table in TABLES])
def test_every_game_and_variant_keeps_the_contract(table):
    check(table)


def test_every_variant_is_checked_and_has_a_golden_playthrough():
    for game_id in registry.ids():
        game = registry.get(game_id)
        assert {table.variant for table in TABLES if table.game == game_id} == set(game.variants)
        for variant in game.variants:
            assert (golden.DIRECTORY / f"{game_id}-{variant}.json").exists(), f"{game_id} {variant} has no golden playthrough"

