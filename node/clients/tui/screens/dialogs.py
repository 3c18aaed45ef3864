"""Small modal dialogs: a confirmation no typed text can answer, and the keys help."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

HELP = """Keys at the table
  arrows / Enter   choose and play (each board's last line says how)
  Space            mark (cards of one play, a salvo's shots, a deck's cards)
  Tab              zeeslag: the next enemy's waters
  r / Backspace    zeeslag: turn the ship to place / take one back
  ← → + -          zeeslag space: sell or buy a ship of the kind (↑↓)
  l s n r          zeeslag space: laser, scan, nuke, reserve (again: shots)
  a Enter          let your node choose at random (a fleet, a squadron, a deck)
  x Enter, p Enter towers: discard the card chosen; shengji: pass
  typing           a move's number, a cell such as b7, a salvo such as bob:b7 c:c3,
                   a card's name or code, a deck-list file's path; Enter sends
  Ctrl+R           resign (asks first: Tab to Resign, Enter)
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

    def __init__(self, text: str = HELP) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)
