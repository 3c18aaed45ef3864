"""Small modal dialogs: a yes/no confirmation and the keys help."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

HELP = """Keys at the table
  arrows / Enter   choose and play (each board's last line says how)
  Space            mark (cards of one play, a salvo's shots, a deck's cards)
  Tab              zeeslag: the next enemy's waters
  r / Backspace    zeeslag: turn the ship to place / take one back
  ← → + -          zeeslag space: sell or buy a ship of the kind (↑↓)
  l s n r          zeeslag space: laser, scan, nuke, reserve (again: shots)
  a                let your node choose at random (a fleet, a squadron, a deck)
  typing           a move's number, a cell such as b7, a salvo such as 1:b7 2:c3,
                   a card's name or code, a deck-list file's path; Enter sends
  R                resign (asks first)
  ?                this help
  Escape           back to your tables (the node keeps your seat)
  Ctrl+Q           quit (the node keeps your seat; `fairtable play` brings you back)

Press any key to close."""


class Confirm(ModalScreen[bool]):
    """Ask a yes/no question; ``y`` confirms, anything else declines."""

    BINDINGS = [Binding("y", "answer(True)", "yes"), Binding("n,escape", "answer(False)", "no")]
    DEFAULT_CSS = "Confirm { align: center middle; } Confirm > Vertical { width: 50; height: 5; border: thick $error; padding: 0 1; }"

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            yield Static("[b]y[/b] yes   [b]n[/b] no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class Help(ModalScreen[None]):
    DEFAULT_CSS = "Help { align: center middle; } Help > Static { width: 76; height: auto; border: round $accent; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield Static(HELP)

    def on_key(self) -> None:
        self.dismiss(None)
