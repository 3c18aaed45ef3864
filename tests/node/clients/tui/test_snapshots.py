"""Each game's screen at 80x24, as SVG snapshots checked into ``snapshots/``.

The tables are made deterministically (seeded chance, fixed names, a fixed clock) and shown
through a stub connection, so a snapshot changes only when the screen does. After a
deliberate change of a screen, regenerate them and review the pictures:

    FAIRTABLE_SNAPSHOTS=update .venv/bin/python -m pytest tests/node/clients/tui/test_snapshots.py
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairtable.games import registry
from fairtable.node.api.ops import fields_of
from fairtable.node.clients.tui.app import PlayApp
from fairtable.node.clients.tui.screens.table import TableScreen
from fairtable.node.service import LobbyTable, TableUpdate
from tests.node.clients.tui.world import FakeClock
from tests.node.fake_node import FakeTable

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("FAIRTABLE_SNAPSHOTS") == "update"
NAMES = ("alice", "bob", "carol", "dave")


class StubBridge:
    """Answers the few requests the screens make on their own; nothing reaches a node."""

    def __init__(self) -> None:
        self.on_event: Callable[[dict], None] = lambda event: None
        self.on_status: Callable[[str | None], None] = lambda status: None
        self.sent: list[tuple[str, dict]] = []

    def call(self, op: str, **fields: Any) -> asyncio.Future[dict]:
        self.sent.append((op, fields))
        answers = {"node": {"name": "alice", "fingerprint": "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24", "address": "192.0.2.5:7400"},
                   "tables": {"tables": []}, "discovered": {"tables": []}}
        future: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        future.set_result(answers.get(op, {}))
        return future


def table_update(game_id: str, seats: int, seed: int, **options: Any) -> dict:
    """A table of ``game_id`` after seeded chance and random opponents, at this seat's first decision."""
    game = registry.get(game_id)
    if game_id == "zeeslag":  # it starts with the fleets, before any chance
        view = game.view(game.setup(game.variants[0], options, seats), 0)
        update = fields_of(TableUpdate("lobby1", "ab" * 32, game_id, game.variants[0], 0, NAMES[:seats], "playing", view))
    else:
        lobby = LobbyTable("lobby1", NAMES[0], game_id, game.variants[0], options, seats, NAMES[:seats])
        fake = FakeTable(lobby, 0, random.Random(seed))
        fake.advance()
        update = fields_of(fake.update())
    renderer = game.renderer
    assert renderer is not None
    update.update(seats=list(NAMES[:seats]), phase="playing", text=renderer.render(update["view"]),
                  move_texts=[renderer.move_line(update["view"], move) for move in update["legal_moves"]], clock=None)
    if game_id == "zeeslag":
        update.update(decision="hidden", your_turn=True, legal_moves=[], move_texts=[])
    else:
        update["decision"] = "move"
        update["clock"] = {"seat": 0, "seconds": 42} if options.get("turn_seconds") else None
    return update


def shot(update: dict, keys: tuple[str, ...] = ()) -> str:
    async def take() -> str:
        app = PlayApp(StubBridge(), clock=FakeClock())  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            app.connection_status(None)
            app.table_event(update)
            await app.push_screen(TableScreen(update["lobby_id"]))
            await pilot.pause()
            await pilot.press(*keys)
            await pilot.pause()
            return app.export_screenshot(title="fairtable")
    return asyncio.run(take())


CASES: dict[str, Callable[[], tuple[dict, tuple[str, ...]]]] = {
    "towers": lambda: (table_update("towers", 2, 3, turn_seconds=60), ("down",)),
    "zeeslag-placing": lambda: (table_update("zeeslag", 2, 4), ("enter", "down", "down", "r", "right")),
    "shengji": lambda: (table_update("shengji", 4, 5, turn_seconds=60), ("right", "space")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_games_screen_at_80x24_matches_its_snapshot(name):
    update, keys = CASES[name]()
    svg = shot(update, keys)
    path = SNAPSHOTS / f"{name}.svg"
    if UPDATE or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(svg)
        if not UPDATE:
            pytest.fail(f"wrote the missing snapshot {path.name}; review it and run again")
    assert svg == path.read_text(), f"{name}: the screen changed; if on purpose, regenerate (see this module's docstring)"


def test_snapshots_are_deterministic():
    update, keys = CASES["towers"]()
    assert shot(update, keys) == shot(update, keys)
