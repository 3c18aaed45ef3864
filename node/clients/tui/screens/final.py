"""The end of a game: who won and why, in words, the final score, what happened without a
player's hand on it, this client's own check of the transcript, and the final board."""

from __future__ import annotations

import asyncio
import base64

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from fairtable.games import Result, describe
from fairtable.node.clients.tui.screens.chat import chat, chat_lines, rematch_offer
from fairtable.node.clients.tui.screens.common import BaseScreen, culprit, log_lines, short_table
from fairtable.node.clients.tui.screens.history import HistoryScreen
from fairtable.protocol import ProtocolError
from fairtable.protocol.session import verify_chunks


def outcome(update: dict) -> str:
    """``You won. alice won: enemy tower destroyed. Final score: you 3, bob 1.`` or the like, from this
    seat's side; how the game was reached is the node's ``standing``, in the game's own words."""
    value = update["result"]
    result = Result(tuple(value["winners"]), value["reason"], tuple(value.get("scores") or ()), tuple(value.get("losers") or ()),
                    tuple(tuple(team) for team in value.get("teams") or ()))
    seat, names = update.get("seat"), list(update.get("seats") or ())
    said = "A draw" if not result.winners else "You won" if seat in result.winners else "You lost"
    final = f" Final {update['standing']}." if update.get("standing") else ""
    if update.get("watching"):
        return f"Game over. {describe(result, names)}.{final}"
    return f"{said}. {describe(result, names)}.{final}"


def verdict_of(data: bytes, names: list[str]) -> list[str]:
    """What this client's own check of a transcript file found, in lines, players by ``names``."""
    try:
        report = verify_chunks([data])
    except ProtocolError as exc:
        return [f"The transcript cannot be read: {exc}"]
    return ([f"Transcript verified: every move, shuffle and hidden answer checked ({report.envelopes} messages): "
             + ("VALID." if report.valid else "VIOLATIONS FOUND:")]
            + [f"  message {v.index}: {culprit({'seats': names}, v.to_value())} broke {v.rule}: {v.detail}" for v in report.violations])


def failure(exc: Exception) -> str:
    """An unexpected failure in words: its message, or what kind it was when it has none (a missing field)."""
    if isinstance(exc, KeyError):
        return f"the node's answer has no {exc.args[0]!r}"
    return str(exc) or type(exc).__name__


class FinalScreen(BaseScreen):
    BINDINGS = [Binding("escape,enter", "back", "your tables"), Binding("b", "board", "see the board"),
                Binding("h", "history", "history, replay"), Binding("r", "rematch", "rematch"), Binding("ctrl+t", "chat", "chat")]

    def __init__(self, lobby_id: str) -> None:
        super().__init__()
        self.lobby_id = lobby_id
        self.checked = False
        self.rematching = False
        self.verdict: list[str] | None = None
        """What the check of the transcript found, kept for every later update of the table."""

    def compose(self) -> ComposeResult:
        yield Static("Game over", id="status")
        with VerticalScroll():
            yield Static(id="final")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.table_changed(self.lobby_id)

    def on_screen_resume(self) -> None:
        """Back on top: the updates that went to another screen meanwhile are drawn now."""
        self.table_changed(self.lobby_id)

    def table_changed(self, lobby_id: str) -> None:
        if lobby_id != self.lobby_id:
            return
        update = self.play.updates[lobby_id]
        if update["phase"] == "finished":
            if not self.checked:
                self.checked = True
                self.run_worker(self.verify(update))
        else:
            # not finished (yet, or again: a fork reopened the table): its ending is checked when it comes
            self.checked, self.verdict = False, None
        self.draw(update)

    def draw(self, update: dict) -> None:
        """Outcome and score, the verdict (or what it waits for), the log's last lines, the final board."""
        if update["phase"] != "finished":
            verdict = ["Waiting for every seat to reveal its seed (after a resignation or a claim the table first "
                       "waits a grace for a late message); then this client checks the whole game."]
        else:
            verdict = self.verdict or ["Checking the transcript: every shuffle, move and hidden answer (a long game takes a while)…"]
        log = log_lines(update, 4)
        board = (update.get("text") or "").splitlines()
        said = chat_lines(update, 4)
        offer = rematch_offer(update) if update["phase"] == "finished" else None
        lines = [outcome(update), "", *verdict, *(["", offer] if offer else []),
                 *(["", "The table's log:", *log] if log else []), *(["", "The chat (Ctrl+T to say something):", *said] if said else []),
                 *(["", "The final board:", *board] if board else [])]
        self.show("#final", "\n".join(lines))

    async def verify(self, update: dict) -> None:
        """Fetch the transcript and check it; whatever fails is said here, the player stays on this screen."""
        try:
            response = await self.ask("transcript", table=update["table"])
            if response is None:
                self.verdict = ["The transcript could not be fetched (see below); press Enter and open the table again to retry."]
                self.draw(update)
                return
            data = base64.b64decode(response["transcript"], validate=True)
            # a long game's proofs take seconds to check: in a thread, so the screen (and the node
            # connection, which shares this thread) carries on meanwhile
            verdict = await asyncio.to_thread(verdict_of, data, list(update.get("seats") or ()))
        except Exception as exc:  # any failure of the check is the verdict's to say, never the app's end
            verdict = [f"Could not check the transcript: {failure(exc)}"]
        kept = f"Your node keeps it as table {short_table(update['table'])} (fairtable export, the browser's replays)."
        self.verdict = [*verdict, kept]
        self.draw(self.play.updates.get(self.lobby_id, update))

    def action_back(self) -> None:
        self.app.pop_screen()
        self.app.pop_screen()

    def action_board(self) -> None:
        self.app.pop_screen()

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.lobby_id))
    def action_chat(self) -> None:
        chat(self, self.play.updates[self.lobby_id])

    def action_rematch(self) -> None:
        update = self.play.updates[self.lobby_id]
        if update["phase"] == "finished" and not self.rematching:
            self.rematching = True
            self.run_worker(self.rematch(update))

    async def rematch(self, update: dict) -> None:
        """Offer or accept (the node knows which); then wait for the new table where the lobby waits."""
        try:
            answer = await self.ask("rematch", table=update["table"])
        finally:
            self.rematching = False
        if answer is not None:
            from fairtable.node.clients.tui.screens.wait import WaitScreen  # wait -> table -> final: imported here

            self.app.pop_screen()
            self.app.switch_screen(WaitScreen(answer["lobby"], None, waiting="A rematch: it starts once every seat has accepted."))
