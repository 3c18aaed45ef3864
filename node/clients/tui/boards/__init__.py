"""Board widgets: one module per game that has its own screen, and a generic fallback for the rest.

A board is small on purpose, so a new game's screen is one module and one line in
:data:`BOARDS`: it draws a table update (:meth:`Board.draw`), may turn keys into a move (it
posts :class:`Board.Chosen`), and reads what the player typed (:meth:`Board.typed`). The
table screen around it shows the players, clocks, messages and the typing line for every
game alike. A game without a board of its own is played through the node's text rendering
(``text`` and ``move_texts`` of the table event) in :class:`~.generic.GenericBoard`.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from textual.message import Message
from textual.widgets import Static


class Board(Static, can_focus=True):
    """Draws one game's table updates; subclasses override :meth:`draw` and, for keys, :meth:`on_key`."""

    class Chosen(Message):
        """The player picked ``move`` (one of the legal moves, or hidden data) with keys."""

        def __init__(self, move: Any) -> None:
            self.move = move
            super().__init__()

    def __init__(self) -> None:
        super().__init__(id="board")
        self.current: dict = {}

    def show(self, update: dict) -> None:
        self.current = update
        self.update(self.draw(update))

    def redraw(self) -> None:
        if self.current:
            self.update(self.draw(self.current))

    def draw(self, update: dict) -> RenderableType:
        raise NotImplementedError

    def typed(self, update: dict, text: str) -> Any | None:
        """The move the player typed, or None: by default its number among the legal moves, or
        a word that ends exactly one move's words (``b7`` for ``shoot B7``)."""
        return pick(update, text)

    def choose(self, move: Any) -> None:
        self.post_message(self.Chosen(move))


def pick(update: dict, text: str) -> Any | None:
    moves, words = list(update.get("legal_moves") or ()), list(update.get("move_texts") or ())
    text = text.strip().lower()
    if text.isdecimal():
        return moves[int(text) - 1] if 1 <= int(text) <= len(moves) else None
    if not text or len(words) != len(moves):
        return None
    named = [move for move, line in zip(moves, words) if line.lower().split()[-1:] == [text]]
    if len(named) != 1:
        named = [move for move, line in zip(moves, words) if line.lower() == text]
    return named[0] if len(named) == 1 else None


def board_for(game: str) -> Board:
    from fairtable.node.clients.tui.boards.generic import GenericBoard
    from fairtable.node.clients.tui.boards.shengji import ShengjiBoard
    from fairtable.node.clients.tui.boards.towers import TowersBoard
    from fairtable.node.clients.tui.boards.zeeslag import ZeeslagBoard

    boards: dict[str, type[Board]] = {"towers": TowersBoard, "zeeslag": ZeeslagBoard, "shengji": ShengjiBoard}
    return boards.get(game, GenericBoard)()
