"""A person at the table screen of a fixed table update (a seeded game's, ``tables``), through a
stub connection: the keys they press, what the screen says then, and the moves it sent."""

from __future__ import annotations

import asyncio
from typing import Any

from fairtable.node.clients.tui.app import PlayApp
from tests.node.clients.tui.space_tables import keys_to
from tests.node.clients.tui.test_snapshots import table_screen
from tests.node.clients.tui.world import screen_text


class Person:
    """The table screen on a fixed table update; ``press`` returns what the screen says then, ``sent`` the moves sent so far."""

    def __init__(self, app: PlayApp, pilot: Any) -> None:
        self.app, self.pilot = app, pilot

    @property
    def board(self) -> Any:
        return self.app.screen.board

    async def press(self, *keys: str) -> str:
        await self.pilot.press(*keys)
        await self.pilot.pause()
        return screen_text(self.app)

    async def to(self, cell: int) -> str:
        return await self.press(*keys_to(self.board.cursor, cell))

    @property
    def sent(self) -> list[Any]:
        return [fields["move"] for op, fields in self.app.bridge.sent if op == "move"]  # type: ignore[attr-defined]


def play(update: dict, body: Any) -> None:
    async def run() -> None:
        async with table_screen(update) as (app, pilot):
            await body(Person(app, pilot))
    asyncio.run(run())
