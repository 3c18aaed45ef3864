"""A lobby table before it starts: who has joined, the invite to pass on, and (the host) start.
Starting and leaving take a chord (Ctrl+S, Ctrl+L), leaving a focused button too: no letter typed
here by mistake starts or leaves a table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from fairtable.node.clients.tui.screens.common import BaseScreen, options_text, players
from fairtable.node.clients.tui.screens.dialogs import Confirm
from fairtable.node.clients.tui.screens.table import TableScreen


class WaitScreen(BaseScreen):
    BINDINGS = [Binding("ctrl+s", "start", "start the table"), Binding("ctrl+l", "leave", "leave the table"),
                Binding("escape", "app.pop_screen", "your tables")]

    def __init__(self, lobby: dict, invite: str | None, auto_start: bool = False,
                 waiting: str = "Waiting for the host to start the table.") -> None:
        super().__init__()
        self.waiting = waiting
        self.lobby = lobby
        self.lobby_id = lobby["lobby_id"]
        self.invite = invite
        self.auto_start = auto_start
        self.starting = False

    def compose(self) -> ComposeResult:
        yield Static(f"{self.lobby['game']} {self.lobby['variant']} · table {self.lobby_id}", id="status")
        yield Static(id="lobby")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.table_changed(self.lobby_id)

    @property
    def hosting(self) -> bool:
        return self.invite is not None

    def joined(self) -> list[str]:
        update = self.play.updates.get(self.lobby_id)
        return list(update["seats"]) if update is not None else list(self.lobby.get("joined") or ())

    def table_changed(self, lobby_id: str) -> None:
        if lobby_id != self.lobby_id:
            return
        update = self.play.updates.get(lobby_id)
        if update is not None and update["phase"] in ("playing", "finished"):
            self.app.switch_screen(TableScreen(lobby_id))
            return
        if update is not None and update["phase"] == "closed":
            self.say("The table went away (the host withdrew it, or the connection to it was lost).")
        seats, joined = self.lobby.get("seats"), self.joined()
        lines = [f"Options: {options_text(self.lobby.get('options') or {})}",
                 f"Seated: {players(joined)}" + ("" if seats is None else f"  ({len(joined)} of {seats} seats)")]
        if self.hosting:
            lines += ["", "Your friend joins with:", f"  fairtable play --join {self.invite}", "",
                      "Press Ctrl+S to start once everyone is seated." if seats is None or len(joined) < seats
                      else "Everyone is seated: press Ctrl+S to start."]
            if self.auto_start and seats is not None and len(joined) >= seats:
                self.action_start()
        else:
            lines += ["", self.waiting]
        self.show("#lobby", "\n".join(lines))

    def action_start(self) -> None:
        if self.hosting and not self.starting:
            self.starting = True
            self.run_worker(self._start())

    async def _start(self) -> None:
        try:
            await self.ask("start", lobby_id=self.lobby_id)
        finally:
            self.starting = False

    def action_leave(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._leave())

        self.app.push_screen(Confirm("Leave this table? Your seat goes to someone else.", yes="Leave", no="Stay"), answered)

    async def _leave(self) -> None:
        if await self.ask("leave", lobby_id=self.lobby_id) is not None:
            self.app.pop_screen()
