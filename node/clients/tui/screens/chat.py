"""The table's chat on the terminal: its lines in words, the newest said where the player looks,
and a dialog (Ctrl+T) that shows the last lines and takes one typed line. A rematch offer is a
chat line too (``spec/client-api.md``): said here as one, with the key that accepts it."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from fairtable.node.clients.tui.screens.common import BaseScreen

SHOWN = 12
"""Chat lines the dialog shows above its typing line."""


def chat_line(update: dict, line: dict) -> str:
    """``bob: good luck`` (``you: …`` for this seat); a rematch offer in words. Markup-escaped, as
    every ``Static`` here reads markup: a player's ``[b]`` is shown, never obeyed."""
    mine = line.get("seat") == update.get("seat")
    who = "you" if mine else escape(str(line.get("name", "")))
    if line.get("rematch"):
        return "You offered a rematch." if mine else f"{who} offers a rematch: press r to accept."
    return f"{who}: {escape(str(line.get('text', '')))}"


def chat_lines(update: dict, last: int | None = None) -> list[str]:
    """The table's chat in words, oldest first; the ``last`` ones only when given."""
    lines = [chat_line(update, line) for line in update.get("chat") or ()]
    return lines if last is None else lines[-last:]


def rematch_offer(update: dict) -> str | None:
    """What the end of a game says about a rematch: who offered one and how to accept or offer."""
    offers = [line for line in update.get("chat") or () if line.get("rematch")]
    if not offers:
        return "Press r to offer a rematch: the same game, options and seats."
    mine = [line for line in offers if line.get("seat") == update.get("seat")]
    theirs = [line for line in offers if line.get("seat") != update.get("seat")]
    if theirs:
        return f"{escape(str(theirs[-1]['name']))} offers a rematch: press r to accept."
    return "You offered a rematch: it starts once every seat accepts." if mine else None


class ChatDialog(ModalScreen[str | None]):
    """The last lines and a typing line: Enter says what is typed (dismissing with it), Escape closes."""

    BINDINGS = [Binding("escape", "close", "close")]
    DEFAULT_CSS = """
    ChatDialog { align: center bottom; }
    ChatDialog > Vertical { width: 78; height: auto; border: round $accent; padding: 0 1; }
    ChatDialog Input { border: none; height: 1; padding: 0; }
    """

    def __init__(self, update: dict) -> None:
        super().__init__()
        self.update_ = update

    def compose(self) -> ComposeResult:
        with Vertical():
            said = chat_lines(self.update_, SHOWN) or ["Nobody has said anything yet."]
            yield Static("\n".join(["The table's chat (newest last)", *said]), id="chat")
            yield Input(placeholder="say something, Enter sends · Escape closes", id="say", max_length=300)

    def on_mount(self) -> None:
        self.query_one("#say", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_close(self) -> None:
        self.dismiss(None)


def chat(screen: BaseScreen, update: dict) -> None:
    """Open the dialog on ``screen``; what is typed is said at the table (a refusal in the message line)."""
    if update.get("table") is None:
        return

    def typed(text: str | None) -> None:
        if text:
            screen.run_worker(screen.ask("chat", table=update["table"], text=text))

    screen.app.push_screen(ChatDialog(update), typed)
