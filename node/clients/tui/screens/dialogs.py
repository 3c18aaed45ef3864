"""Small modal dialogs: a confirmation no typed text can answer, and the keys help."""

from __future__ import annotations

import textwrap

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

HELP_WIDTH = 72
"""The characters a line of the help holds (its box is 76 wide, with a border and padding)."""

TABLE_KEYS = """  Ctrl+R           resign (asks first: Tab to Resign, Enter)
  Ctrl+O           the history: every move, numbered (l: the table's log, what
                   happened without your hand on it); once the game is over,
                   Enter on a move replays it from there, ← → step
  Ctrl+F           who is who: each player's name and key fingerprint
  Ctrl+G           the bell when your turn comes: off, or on again
  Ctrl+T           the table's chat: read it, type a line, Enter says it
  ?                this help
  Escape           back to your tables (the node keeps your seat)
  Ctrl+Q           quit (the node keeps your seat; `fairtable play` brings you back)

Press any key to close."""
"""The keys of every table, whatever its game: below the board's own in the help."""


def table_help(game: str, keys: tuple[tuple[str, str], ...]) -> str:
    """The help of a table of ``game``: its board's keys (``Board.keys``), then every table's."""
    lines = [textwrap.fill(what, HELP_WIDTH, initial_indent=f"  {key:<16} ", subsequent_indent=" " * 19) for key, what in keys]
    return "\n".join([f"Keys at the table: {game}", *lines, TABLE_KEYS])


class Confirm(ModalScreen[bool]):
    """Ask before something that ends or changes a game. Only a button answers: the safe one has
    the focus, Tab reaches the other and Enter presses it; printable keys do nothing, so words
    being typed (a card named "Ruby") can never answer it. Escape declines."""

    BINDINGS = [Binding("escape", "answer(False)", "no")]
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical { width: 56; height: auto; border: thick $error; padding: 0 1; }
    Confirm Horizontal { height: auto; }
    Confirm Button { margin: 0 1 0 0; }
    Confirm Button:focus { text-style: bold reverse; }
    """

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            with Horizontal():
                yield Button(self.no, id="no", variant="primary")
                yield Button(self.yes, id="yes", variant="error")
            yield Static("Tab chooses, Enter answers, Escape keeps things as they are", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def on_key(self, event: events.Key) -> None:
        """Keys other than Tab, Enter and Escape stop here: nothing typed reaches the table below."""
        if event.key not in ("tab", "shift+tab", "enter", "escape"):
            event.stop()
            event.prevent_default()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class Help(ModalScreen[None]):
    """The keys (or other lines to read: the table's log); any key closes it, and only it
    (Escape does not go on to leave the table)."""

    DEFAULT_CSS = "Help { align: center middle; } Help > Static { width: 76; height: auto; border: round $accent; padding: 0 1; }"

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)
