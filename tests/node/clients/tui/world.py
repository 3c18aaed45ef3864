"""In-process nodes for driving the terminal client through Textual's pilot.

Textual runs on asyncio, the nodes on trio: one trio guest run (``bridge.guest_run``) holds
the nodes, their client APIs and the client's own portal, so everything runs in one thread.
Tests are plain functions running :func:`scenario` with ``asyncio.run``. Waits are for
conditions, bounded in real time as a guard against hanging, never timing assertions.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio
import trio.lowlevel

from fairtable.node.api.server import serve_api
from fairtable.node.clients.tui.app import PlayApp, Start
from fairtable.node.clients.tui.bridge import Bridge, Portal, guest_run
from fairtable.node.lobby.invite import parse_invite
from fairtable.node.node import Node, NodeConfig
from fairtable.node.service import Identity
from tests.node.nodes import FAST

GUARD_SECONDS = 90.0
"""A guard against hanging only: a wait this long means something is stuck (a shared, loaded machine
may take tens of seconds for a duel's secret decks), never a timing assertion."""
SCENARIO_SECONDS = 600.0
SIZE = (80, 24)


class FakeClock:
    """The client's clock, moved by hand: countdowns are checked without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class World:
    """Nodes ``0..count-1`` in their own data folders; node 0 is the player's (no bot), the others bots
    (but the first ``people``, which the test plays through their services)."""

    def __init__(self, tmp_path: Path, count: int, people: int = 1) -> None:
        self.tmp_path = tmp_path
        self.count = count
        self.people = people
        self.portal = Portal()
        self.nodes: list[Node] = []
        self.api_ports: list[int] = []
        self._scopes: list[trio.CancelScope] = []
        self._nursery: trio.Nursery | None = None
        self._stop = trio.Event()

    def config(self, index: int) -> NodeConfig:
        return NodeConfig(data=self.tmp_path / f"node-{index}", name=("alice", "bob", "carol", "dave")[index],
                          bot=None if index < self.people else "random", **FAST)

    async def _main(self, ready: Callable[[], None]) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.portal.serve)
            for index in range(self.count):
                self.nodes.append(None)  # type: ignore[arg-type]
                self.api_ports.append(0)
                self._scopes.append(trio.CancelScope())
                await nursery.start(self._run_node, index)
            ready()
            await self._stop.wait()
            nursery.cancel_scope.cancel()

    async def _run_node(self, index: int, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        scope = self._scopes[index] = trio.CancelScope()
        with scope:
            async with trio.open_nursery() as nursery:
                node = await nursery.start(Node(self.config(index)).run)
                self.api_ports[index] = await nursery.start(serve_api, node, self.api_ports[index], None)
                self.nodes[index] = node
                task_status.started()

    async def restart(self, index: int) -> None:
        """Stop node ``index`` (its API connections close) and start it again on the same data and API port."""
        self._scopes[index].cancel()
        await trio.lowlevel.checkpoint()
        assert self._nursery is not None
        await self._nursery.start(self._run_node, index)

    def url(self, index: int) -> str:
        return f"ws://127.0.0.1:{self.api_ports[index]}"

    def app(self, start: Start = Start(), clock: Callable[[], float] = time.monotonic) -> PlayApp:
        """The client of node 0, its bridge running (until the scenario ends)."""
        bridge = Bridge(self.url(0), None, self.portal, retry=0.05)
        self.portal.run(bridge.run)
        return PlayApp(bridge, start, clock)

    def trio(self, function: Callable[..., Awaitable[Any]], *args: Any) -> asyncio.Future[Any]:
        """Run a trio function (a node's service call, say) from the test."""
        return self.portal.run(function, *args)

    async def identity(self, index: int) -> Identity:
        return await self.trio(self.nodes[index].identity)


async def scenario(tmp_path: Path, count: int, body: Callable[[World], Awaitable[None]], people: int = 1) -> None:
    world = World(tmp_path, count, people)
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    done = guest_run(lambda: world._main(lambda: ready.set_result(None)))
    try:
        await asyncio.wait_for(asyncio.shield(ready), GUARD_SECONDS)
        await asyncio.wait_for(body(world), SCENARIO_SECONDS)
    finally:
        world.portal.run(_set, world._stop)
        (await done).unwrap()


async def _set(event: trio.Event) -> None:
    event.set()


def run(tmp_path: Path, count: int, body: Callable[[World], Awaitable[None]], people: int = 1) -> None:
    asyncio.run(scenario(tmp_path, count, body, people))


async def until(pilot: Any, condition: Callable[[], bool], what: str = "the condition") -> None:
    """Let the app and the nodes run until ``condition()`` holds."""
    deadline = time.monotonic() + GUARD_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}; screen: {type(pilot.app.screen).__name__}:\n{screen_text(pilot.app)}")
        await pilot.pause(0.02)


def screen_text(app: PlayApp) -> str:
    """What the screen's text widgets and lists show, as plain text (what a person reads)."""
    from textual.widgets import OptionList, Static

    parts = []
    for widget in app.screen.query(Static):
        rendered = widget.render()
        parts.append(rendered.plain if hasattr(rendered, "plain") else str(rendered))
    for listing in app.screen.query(OptionList):
        parts.extend(str(listing.get_option_at_index(index).prompt) for index in range(listing.option_count))
    return "\n".join(parts)


def on(app, name: str) -> bool:
    return type(app.screen).__name__ == name


def table(app) -> dict:
    return app.updates.get(getattr(app.screen, "lobby_id", ""), {})


async def seat_guest(world: World, app, pilot, guest: int = 1) -> None:
    """Guest node ``guest`` joins by the invite the waiting screen shows."""
    await until(pilot, lambda: on(app, "WaitScreen") and "--join ft1" in screen_text(app), "the invite")
    invite = parse_invite(next(line.split()[-1] for line in screen_text(app).splitlines() if "--join" in line))
    await world.trio(world.nodes[guest].join, invite.address, invite.lobby_id, invite.fingerprint)


def board_ready(app) -> bool:
    """The table screen's board shows the newest update and has the keys: the screen redraws just
    after the event, and takes the focus just after it is mounted, so a key pressed before either
    would be lost."""
    return on(app, "TableScreen") and app.screen.board.current is table(app) and app.screen.board.has_focus


async def my_turn(app, pilot) -> None:
    """Wait until it is our decision and the board is ready for our keys."""
    await until(pilot, lambda: table(app).get("your_turn") and board_ready(app), "our turn")


def deciding(app, decision: str) -> bool:
    """Our decision is ``decision`` and the board is ready for our keys."""
    return table(app).get("decision") == decision and board_ready(app)
