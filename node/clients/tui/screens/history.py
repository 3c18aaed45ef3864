"""The game's history and, for a finished table, its replay from any move of it.

The history is the node's (the client API's ``history``): every move so far in the export's
notation, numbered, with the moves no hand of the player made marked. It scrolls with the arrow
keys, Page Up/Down, Home and End, follows the table while it is played, and keeps the table's log
one key away. On a finished table, Enter on an entry opens the replay at that point: the board
this seat saw then (the node's ``replay_step``, the verifier's replay of the transcript), stepped
with ← and →.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from fairtable.node.clients.tui.boards import Board, board_for
from fairtable.node.clients.tui.screens.common import BaseScreen, log_lines, short_table
from fairtable.node.clients.tui.screens.dialogs import Help

MARKS = {"default": "played for you: time ran out", "forced": "forced: no other move"}
"""How an entry's ``mark`` reads (the boards' words for the same marks)."""


def entry_line(entry: dict) -> str:
    """An entry as the export writes it: ``N. TEXT``, or ``   TEXT`` for what is no move."""
    return f"{entry['n']}. {entry['text']}" if entry.get("n") is not None else f"   {entry['text']}"


def merged(entries: list[dict], newer: list[dict], since: int) -> list[dict]:
    """``entries`` with those from envelope ``since`` on replaced by ``newer`` (their words may have grown)."""
    return [entry for entry in entries if entry["index"] < since] + newer


class HistoryScreen(BaseScreen):
    BINDINGS = [Binding("escape", "app.pop_screen", "back"), Binding("l", "log", "the table's log")]
    DEFAULT_CSS = "HistoryScreen OptionList { height: 1fr; border: none; padding: 0 1; }"

    def __init__(self, lobby_id: str) -> None:
        super().__init__()
        self.lobby_id = lobby_id
        self.entries: list[dict] = []
        self.answer: dict = {}
        """The node's latest ``history`` answer (its ``result`` and ``replay``)."""

    @property
    def update_(self) -> dict:
        return self.play.updates.get(self.lobby_id) or {}

    def compose(self) -> ComposeResult:
        yield Static("History", id="status")
        yield OptionList(id="history")
        yield Static("", id="result")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#history", OptionList).focus()
        self.table_changed(self.lobby_id)

    def table_changed(self, lobby_id: str) -> None:
        if lobby_id == self.lobby_id and self.update_.get("table") is not None:
            self.run_worker(self.load(), group="history", exclusive=True)

    async def load(self) -> None:
        """Ask the node for the entries from the newest one on (its words may have grown) and show them all."""
        since = self.entries[-1]["index"] if self.entries else 0
        answer = await self.ask("history", table=self.update_["table"], **({"from": since} if since else {}))
        if answer is None:
            return
        self.answer = answer
        self.entries = merged(self.entries, list(answer.get("entries") or ()), since)
        self.draw()

    def draw(self) -> None:
        listing = self.query_one("#history", OptionList)
        at = listing.highlighted
        newest = at is None or at >= listing.option_count - 1
        listing.clear_options()
        listing.add_options([Option(self._line(entry)) for entry in self.entries])
        if self.entries:
            listing.highlighted = len(self.entries) - 1 if newest else at
        moves = sum(1 for entry in self.entries if entry.get("n") is not None)
        replay = " · Enter: replay from there" if self.answer.get("replay") else ""
        self.show("#status", f"History of table {short_table(self.update_['table'])}: {moves} moves · ↑↓ scroll{replay}")
        result = self.answer.get("result")
        self.show("#result", f"result: {result}" if result else "The game goes on." if self.entries else "No move yet.")

    @staticmethod
    def _line(entry: dict) -> Text:
        line = Text(entry_line(entry))
        if entry.get("mark") in MARKS:
            line.append(f"  ({MARKS[entry['mark']]})", style="bold yellow")
        return line

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on an entry: the replay from there, once the table is finished."""
        event.stop()
        at = event.option_index
        if not self.answer.get("replay"):
            self.say("The replay opens once the game is over and every seat has revealed its seed.")
            return
        self.app.push_screen(ReplayScreen(self.lobby_id, self.entries, at))

    def action_log(self) -> None:
        lines = log_lines(self.update_, 18)
        self.app.push_screen(Help("\n".join(["The table's log (newest last)", *(lines or ["Nothing has happened without a player's hand on it."]),
                                              "", "Press any key to close."])))


class ReplayScreen(BaseScreen):
    """A finished table at one entry of its history, as this seat saw it then; ← → step."""

    BINDINGS = [Binding("left", "step(-1)", "back"), Binding("right", "step(1)", "forward"),
                Binding("home", "go(0)", "first", show=False), Binding("end", "go(-1)", "last", show=False),
                Binding("escape", "app.pop_screen", "the history")]

    def __init__(self, lobby_id: str, entries: list[dict], at: int) -> None:
        super().__init__()
        self.lobby_id = lobby_id
        self.entries = entries
        self.at = at
        self.board: Board | None = None

    def compose(self) -> ComposeResult:
        update = self.play.updates.get(self.lobby_id) or {}
        self.board = board_for(update)
        self.board.can_focus = False  # the arrows step through the game; nothing here is played
        yield Static("Replay", id="status")
        yield self.board
        yield Static("", id="step")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.action_go(self.at)

    def action_step(self, by: int) -> None:
        self.action_go(max(0, min(len(self.entries) - 1, self.at + by)))

    def action_go(self, at: int) -> None:
        self.at = at % len(self.entries)
        self.run_worker(self.load(self.entries[self.at]), group="replay", exclusive=True)

    async def load(self, entry: dict) -> None:
        update = self.play.updates.get(self.lobby_id) or {}
        step = await self.ask("replay_step", table=update["table"], index=entry["index"])
        if step is None or self.board is None:
            return
        self.board.show(self.still(update, step))
        self.show("#status", f"Replay of table {short_table(update['table'])} · entry {self.at + 1} of {len(self.entries)} · ← → step · Esc")
        self.show("#step", entry_line(step))

    @staticmethod
    def still(update: dict, step: dict) -> dict[str, Any]:
        """The table update a board draws for the step: its view and text, nothing to decide or mark."""
        return {**update, "view": step["view"], "text": step.get("board"), "legal_moves": [], "move_texts": [],
                "your_turn": False, "decision": None, "log": []}
