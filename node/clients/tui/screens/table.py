"""The table: whose turn and both clocks on top, the game's board, a message line, a typing line.

Input is read at any time: board keys while it is your turn, typing (a move's number, a
cell, a card's name or code) into the line below, Ctrl+T to chat, Ctrl+R to resign (after a confirmation
only a focused button answers), ``?`` for help, Escape back to your tables. No printable
key ends a game: once a person types, every key goes to the typed text, which the board keeps
(:class:`~..boards.Board`, at any typing speed) and the typing line shows. The screen never blocks on the node: a move is
sent in the background and a refusal appears in the message line.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Input, Static

from fairtable.games import Refusal, say
from fairtable.node.clients.tui.boards import Board, Refused, board_for, move_hint
from fairtable.node.clients.tui.clocks import seat_clocks, status_line
from fairtable.node.clients.tui.screens.chat import chat, chat_line
from fairtable.node.clients.tui.screens.common import BaseScreen, culprit, log_lines, who_is_who
from fairtable.node.clients.tui.screens.dialogs import Confirm, Help, table_help
from fairtable.node.clients.tui.screens.final import FinalScreen
from fairtable.node.clients.tui.screens.history import HistoryScreen

STATUS_WIDTH = 80
WATCHING = "You are watching this table: a spectator makes no moves."


class TableScreen(BaseScreen):
    BINDINGS = [Binding("ctrl+r", "resign", "resign"), Binding("question_mark", "help", "help"),
                Binding("ctrl+o", "history", "history"), Binding("ctrl+f", "who", "who is who", show=False),
                Binding("ctrl+g", "bell", "bell", show=False), Binding("ctrl+t", "chat", "chat", show=False),
                Binding("escape", "app.pop_screen", "your tables")]

    def __init__(self, lobby_id: str) -> None:
        super().__init__()
        self.lobby_id = lobby_id
        self.board: Board | None = None
        self.finished_shown = False
        self.announced = 0
        """How many entries of the table's log this screen has said."""
        self.chatted: int | None = None
        """How many chat lines this screen has seen (the ones before it opened are in Ctrl+T)."""

    @property
    def update_(self) -> dict:
        return self.play.updates.get(self.lobby_id) or {}

    def compose(self) -> ComposeResult:
        self.board = board_for(self.update_)
        yield Static("", id="status")
        yield self.board
        yield Static("", id="message")
        hint = "watching as a spectator: no moves · ? help" if self.update_.get("watching") else \
            "type a move (its number, b7, a card), Enter sends · Ctrl+T chat · ? help"
        typing = Input(placeholder=hint, id="typed", compact=True)
        typing.can_focus = False  # it shows the board's typed text; every key goes to the board
        yield typing
        yield Footer()

    def on_mount(self) -> None:
        self.table_changed(self.lobby_id)
        assert self.board is not None
        self.board.focus()

    def table_changed(self, lobby_id: str) -> None:
        if lobby_id != self.lobby_id or self.board is None:
            return
        update = self.update_
        if update.get("view") is not None:
            self.board.show(update)
        self.tick()
        if update.get("stalled"):
            self.say(f"Your node cannot write this table's journal: {update['stalled']}")
        log = log_lines(update)
        if len(log) > self.announced:  # the newest announcement where the player looks; Ctrl+O, l shows them all
            self.announced = len(log)
            self.say(log[-1])
        self.hear(update)
        for violation in update.get("violations") or ():
            self.say(f"Cheating detected: {culprit(update, violation)} broke {violation['rule']}: {violation['detail']}")
        if update.get("result") is not None and not self.finished_shown:
            self.finished_shown = True
            self.app.push_screen(FinalScreen(self.lobby_id))

    def on_screen_resume(self) -> None:
        """Back on top (a dialog or the help closed): what changed meanwhile went to the screen
        on top, so draw the latest update now (the game may have ended meanwhile)."""
        self.table_changed(self.lobby_id)

    def tick(self) -> None:
        """Redraw the status line: players, whose turn (the game's name of a decision due here), every seat's
        clock (the running one marked ▸)."""
        update = self.update_
        if not update:
            return
        clocks = seat_clocks(update, self.play.since_event(self.lobby_id)) if update.get("result") is None else None
        turn = "your turn" if update.get("your_turn") else "waiting" if update.get("result") is None else "over"
        if update.get("watching") and update.get("result") is None:
            turn = "watching"
        named = update.get("prompt") if update.get("your_turn") else None
        line = status_line(update, clocks, turn, named, STATUS_WIDTH)
        self.show("#status", line)

    # ------------------------------------------------------------------ moves

    def on_board_chosen(self, event: Board.Chosen) -> None:
        self.send(event.move)

    def on_board_typing(self, event: Board.Typing) -> None:
        typing = self.query_one("#typed", Input)
        typing.value = event.text
        typing.cursor_position = len(event.text)

    def on_board_typed(self, event: Board.Typed) -> None:
        text = event.text.strip()
        assert self.board is not None
        if not text or (len(text) == 1 and self.board.letter(text)):
            return
        if self.update_.get("watching"):
            self.say(WATCHING)
            return
        try:
            move = self.board.typed(self.update_, text)
        except Refused as exc:
            self.say(str(exc))
            return
        meant = self.board.meant(self.update_, text) if move is None else None
        if meant is not None and self.update_.get("table") is not None:
            self.run_worker(self.explain(meant))
        elif move is None:
            why = move_hint(self.update_) or self.board.hint(self.update_)
            self.say(f"{text!r} is none of your moves now" + (f" ({why})" if why else ": it is not your turn"))
        else:
            self.send(move)

    async def explain(self, move: Any) -> None:
        """Ask the node why ``move``, which the player named but is not listed, cannot be played:
        say the game's words, or send it when the rules take it after all."""
        answer = await self.ask("check", table=self.update_["table"], move=move)
        if answer is None:
            return
        if answer["legal"]:
            self.send(move)
        else:
            self.say(say(Refusal(**answer["refusal"])))

    def send(self, move: Any) -> None:
        update = self.update_
        if update.get("table") is None:
            return
        if update.get("watching"):
            self.say(WATCHING)
            return
        self.say("")
        self.run_worker(self.ask("move", table=update["table"], move=move))

    # ------------------------------------------------------------------ resign, help

    def action_resign(self) -> None:
        update = self.update_
        if update.get("table") is None or update.get("result") is not None:
            return
        if update.get("watching"):
            self.say(WATCHING)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.say("You resign: the game ends at your next turn.")
                self.run_worker(self.ask("resign", table=update["table"]))

        self.app.push_screen(Confirm("Resign this game? Your opponent wins.", yes="Resign", no="Keep playing"), answered)

    def action_help(self) -> None:
        game = f"{self.update_.get('game', '')} {self.update_.get('variant', '')}" if self.update_ else ""
        self.app.push_screen(Help(table_help(game, (self.board or Board).keys)))

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.lobby_id))
    def hear(self, update: dict) -> None:
        """Say the newest chat line where the player looks, once (another seat's: one's own was just typed)."""
        chat = list(update.get("chat") or ())
        if self.chatted is None:
            self.chatted = len(chat)
        if len(chat) > self.chatted:
            self.chatted = len(chat)
            if chat[-1].get("seat") != update.get("seat"):
                self.say(chat_line(update, chat[-1]))

    def action_chat(self) -> None:
        chat(self, self.update_)


    def action_who(self) -> None:
        self.say(who_is_who(self.update_))

    def action_bell(self) -> None:
        self.play.bell_on = not self.play.bell_on
        self.say("The bell rings when your turn comes (Ctrl+G: off)." if self.play.bell_on
                 else "No bell when your turn comes (Ctrl+G: on again).")
