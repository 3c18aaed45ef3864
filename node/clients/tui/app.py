"""The terminal client's app: the connection, the latest state of every table, and where to start.

Table events arrive from the bridge (trio, the same thread) and are kept here by lobby id;
the screen on top is told which table changed and redraws from :attr:`PlayApp.updates`. A
clock (``time.monotonic`` unless a test passes its own) counts the turn timers down between
events.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.app import App
from textual.binding import Binding

from fairtable.node.clients.tui.bridge import Bridge

TICK_SECONDS = 0.5


@dataclass(frozen=True)
class HostSettings:
    """A table to host from the command line; None leaves a setting to the game's default."""

    game: str
    variant: str | None = None
    options: dict = field(default_factory=dict)
    seats: int | None = None
    start: bool = False
    """Start the table as soon as every seat is taken."""

    def fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"game": self.game, "options": self.options}
        if self.variant is not None:
            fields["variant"] = self.variant
        if self.seats is not None:
            fields["seats"] = self.seats
        return fields


@dataclass(frozen=True)
class Start:
    """Where the client begins: host a table, join one, or (neither) the list of your tables."""

    host: HostSettings | None = None
    join: dict | None = None
    """The ``join`` op's fields: ``{"invite": ...}`` or ``{"peer": ..., "lobby_id": ...}``."""
    watch: dict | None = None
    """The ``watch`` op's fields: ``{"invite": ...}`` or ``{"peer": ..., "table": ...}``."""


def turn_came(before: dict | None, after: dict) -> bool:
    """Whether a table's decision became this seat's between two of its updates: from not this seat's
    turn to its turn. The first update of a table is no change (opening the client rings nothing)."""
    return before is not None and not before.get("your_turn") and bool(after.get("your_turn"))


class PlayApp(App[int]):
    TITLE = "fairtable"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #message { height: auto; max-height: 3; color: $warning; }
    #board { height: 1fr; overflow-y: auto; padding: 0 0; }
    #typed { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, bridge: Bridge, start: Start = Start(), clock: Callable[[], float] = time.monotonic,
                 bell: bool = True) -> None:
        super().__init__()
        self.bridge = bridge
        self.start = start
        self.clock = clock
        self.bell_on = bell
        """Ring the terminal's bell when a table's decision becomes this seat's (``fairtable play --no-bell``, Ctrl+G)."""
        self.updates: dict[str, dict] = {}
        self.received: dict[str, float] = {}
        self.connection: str | None = None
        """None while connected; else why not."""
        self.me: dict = {}
        self.connected = asyncio.Event()
        """Set while the bridge is connected."""

    def on_mount(self) -> None:
        from fairtable.node.clients.tui.screens.lobby import LobbyScreen

        self.bridge.on_event = self.table_event
        self.bridge.on_status = self.connection_status
        self.push_screen(LobbyScreen())
        self.set_interval(TICK_SECONDS, self.tick)

    def table_event(self, event: dict) -> None:
        lobby_id = event.get("lobby_id")
        if not isinstance(lobby_id, str):
            return
        if self.bell_on and turn_came(self.updates.get(lobby_id), event):
            self.bell()
        self.updates[lobby_id] = event
        self.received[lobby_id] = self.clock()
        self.call_later(self._tell, "table_changed", lobby_id)

    def keep(self, update: dict) -> None:
        """A table's state a response carried (``tables``, ``watch``), kept unless its event came first."""
        self.updates.setdefault(update["lobby_id"], update)
        self.received.setdefault(update["lobby_id"], self.clock())

    def _tell(self, method: str, *args: Any) -> None:
        """Tell the screen on top (once it is mounted) what changed; it redraws from :attr:`updates`.
        While the app closes no screen is left, and a clock tick or an event then has nobody to tell."""
        if not self.screen_stack:
            return
        screen = self.screen
        handler = getattr(screen, method, None)
        if handler is not None and screen.is_mounted:
            handler(*args)

    def connection_status(self, status: str | None) -> None:
        self.connection = status
        if status is None:
            self.connected.set()
        else:
            self.connected.clear()
        self.call_later(self._tell, "connection_changed")

    def since_event(self, lobby_id: str) -> float:
        """Seconds since the table's latest event arrived, by this client's clock (its clocks count down from it)."""
        return self.clock() - self.received.get(lobby_id, self.clock())

    def tick(self) -> None:
        self._tell("tick")
