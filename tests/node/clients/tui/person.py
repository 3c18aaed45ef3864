"""A person at the table screen of a fixed table update (a seeded game's, ``tables``), through a
stub connection: the keys they press, what the screen says then, and the moves it sent."""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any

from textual import events

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

    async def type(self, text: str) -> None:
        """Type ``text`` key by key as a terminal delivers it, each key handled to its end before
        the next (a barrier, not a pause: fast, and as deterministic as :meth:`press`)."""
        for character in text:
            await self.key(character if character.isalnum() else unicodedata.name(character).lower().replace("-", "_").replace(" ", "_"),
                           character)

    async def key(self, key: str, character: str | None) -> None:
        """One key, handled to its end."""
        self._post(events.Key(key, character))
        await self.settle()

    async def burst(self, *keys: str) -> None:
        """Keys as a fast typist or a terminal's paste delivers them: all posted before any is handled."""
        for key in keys:
            self._post(events.Key(key, " " if key == "space" else key if len(key) == 1 else None))
        await self.settle()

    async def paste(self, text: str) -> None:
        """``text`` pasted: one Paste event, as a terminal with bracketed paste sends it."""
        self._post(events.Paste(text))
        await self.settle()

    def _post(self, event: events.Event) -> None:
        """Queue ``event`` as the terminal's driver does, without handling it yet."""
        event.set_sender(self.app)
        self.app.post_message(event)

    async def settle(self) -> None:
        """Until every message already posted to the app, the screen and its widgets (and what
        handling those posts on, a hop or two up or down) has been handled."""
        loop = asyncio.get_running_loop()
        for _ in range(4):
            handled = []
            for node in (self.app, *self.app.screen.walk_children(with_self=True)):
                done = loop.create_future()
                if node.call_later(_resolve, done):
                    handled.append(done)
            await asyncio.gather(*handled)

    async def to(self, cell: int) -> str:
        return await self.press(*keys_to(self.board.cursor, cell))

    @property
    def sent(self) -> list[Any]:
        return [fields["move"] for op, fields in self.app.bridge.sent if op == "move"]  # type: ignore[attr-defined]


def _resolve(future: asyncio.Future[None]) -> None:
    future.set_result(None)


def play(update: dict, body: Any) -> None:
    async def run() -> None:
        async with table_screen(update) as (app, pilot):
            await body(Person(app, pilot))
    asyncio.run(run())
