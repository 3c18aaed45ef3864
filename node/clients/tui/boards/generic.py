"""Any game without a board of its own: the node's text rendering and its numbered legal moves."""

from __future__ import annotations

import json

from rich.console import RenderableType
from rich.text import Text

from fairtable.node.clients.tui.boards import Board


class GenericBoard(Board):
    """Shows ``text`` (or the view as JSON) and numbers the legal moves; the player types a number or a move's last word."""

    def draw(self, update: dict) -> RenderableType:
        text = Text(update.get("text") or json.dumps(update.get("view"), sort_keys=True, indent=1))
        moves = update.get("legal_moves") or []
        words = update.get("move_texts") or [json.dumps(move, sort_keys=True) for move in moves]
        if moves:
            text.append("\nYour moves (type the number, or a move's last word):\n", style="bold")
            text.append("\n".join(f"{number:>3} {line}" for number, line in enumerate(words, 1)))
        return text
