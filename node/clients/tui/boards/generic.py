"""Any game (or variant) without a board of its own: the node's text rendering, its numbered
legal moves, and what the game says to type for a decision it does not list."""

from __future__ import annotations

import json

from rich.console import RenderableType
from rich.text import Text

from fairtable.node.clients.tui.boards import RANDOM, RANDOM_DECISIONS, Board, move_hint


class GenericBoard(Board):
    """Shows ``text`` (or the view as JSON) and numbers the legal moves; the player types a
    number, a move's last word, or what the game's hint says."""

    def draw(self, update: dict) -> RenderableType:
        text = Text(update.get("text") or json.dumps(update.get("view"), sort_keys=True, indent=1))
        moves = update.get("legal_moves") or []
        words = update.get("move_texts") or [json.dumps(move, sort_keys=True) for move in moves]
        if moves:
            text.append("\nYour moves (type the number, or a move's last word):\n", style="bold")
            text.append("\n".join(f"{number:>3} {line}" for number, line in enumerate(words, 1)))
        hint = move_hint(update)
        if hint:
            text.append(f"\n{hint} (type it below)", style="bold")
        elif update.get("decision") in RANDOM_DECISIONS and not moves:
            text.append("\nType a and Enter to let your node choose at random.", style="bold")
        return text

    def letter(self, key: str) -> bool:
        if key == "a" and self.current.get("decision") in RANDOM_DECISIONS and not self.current.get("legal_moves"):
            self.choose(RANDOM)
            return True
        return False
