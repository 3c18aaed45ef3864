"""Board widgets: one module per game that has its own screen, and a generic fallback for the rest.

A board is small on purpose, so a new game's screen is one module and one line in
:data:`BOARDS`: it draws a table update (:meth:`Board.draw`), may turn keys into a move (it
posts :class:`Board.Chosen`), and reads what the player typed (:meth:`Board.typed`). The
table screen around it shows the players, clocks, messages and the typing line for every
game alike. A game without a board of its own is played through the node's text rendering
(``text`` and ``move_texts`` of the table event) in :class:`~.generic.GenericBoard`.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Set
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from fairtable.games import GameError, player, registry, seated

RANDOM = {"random": True}
"""Sent for hidden data or a deck: the node draws a random legal one (``spec/client-api.md``)."""
RANDOM_DECISIONS = ("hidden", "deck")


class Refused(Exception):
    """What the player typed cannot be sent, and why (a deck-list file that is no deck, say)."""


class Board(Static, can_focus=True):
    """Draws one game's table updates; subclasses override :meth:`draw` and, for keys, :meth:`board_key`.

    Every key of the table reaches the board first, in the order typed, and the board alone keeps
    the text being typed (:attr:`text`; the screen only shows it). Focus in Textual follows a key
    only after the keys already queued behind it, so a burst or a paste that moved focus to a typing
    line sent its Enter to the board, which played the highlighted row; here a key sequence means
    one thing at any speed: a key the board takes is the board's, any other printable key starts
    the typed text, and every key after it up to Enter (sending the text) or Escape (dropping it)
    edits that text."""

    game = ""
    keys: tuple[tuple[str, str], ...] = (
        ("↑↓ / Enter", "choose a listed move and send it"),
        ("a Enter", "let your node choose at random (hidden data, a deck)"),
        ("typing", "a move's number or its last word; Enter sends"),
    )
    """This board's keys, ``(keys, what they do)`` each: what the help (``?``) lists for its game."""
    """The game this board draws."""
    variants: frozenset[str] | None = None
    """The variants it draws (None: all); others get the generic board."""

    class Chosen(Message):
        """The player picked ``move`` (one of the legal moves, or hidden data) with keys."""

        def __init__(self, move: Any) -> None:
            self.move = move
            super().__init__()

    class Typing(Message):
        """The typed text is now ``text`` (empty: none), for the screen to show."""

        def __init__(self, text: str) -> None:
            self.text = text
            super().__init__()

    class Typed(Message):
        """The player sent ``text`` with Enter."""

        def __init__(self, text: str) -> None:
            self.text = text
            super().__init__()

    def __init__(self) -> None:
        super().__init__(id="board")
        self.text = ""
        """What the player is typing, not sent yet."""
        self.current: dict = {}
        self.problem = ""
        """What the player's last keys could not do, and why (:meth:`draw_problem`)."""

    def show(self, update: dict) -> None:
        self.current = update
        self.redraw()

    def redraw(self) -> None:
        """Draw the current update; the game's own words name the players as the update does."""
        if self.current:
            with seated(self.current.get("seats") or ()):
                self.update(self.draw(self.current))

    def draw(self, update: dict) -> RenderableType:
        raise NotImplementedError

    def draw_problem(self, text: Text) -> None:
        if self.problem:
            text.append(self.problem + "\n", style="bold red")

    def typed(self, update: dict, text: str) -> Any | None:
        """The move the player typed, or None: by default its number among the legal moves, a
        word that ends exactly one move's words (``b7`` for ``shoot B7``), or, for a decision
        too large to list (a salvo), what the game's renderer reads (``parse_move``)."""
        return pick(update, text) or typed_by_game(update, text)

    def meant(self, update: dict, text: str) -> Any | None:
        """The move ``text`` names when :meth:`typed` found none of the legal moves in it (a card
        that cannot be played now), so the screen asks the node why; None when it names none."""
        return None

    def hint(self, update: dict) -> str | None:
        """What may be typed, said when the typed text names no move: by default a listed move's
        number or last word (None when nothing is to decide)."""
        moves = len(update.get("legal_moves") or ())
        return f"1..{moves}, or a move's last word" if moves else None

    def letter(self, key: str) -> bool:
        """Act on a one-letter command (``a``: at random, ``x``: discard, ``p``: pass) typed
        alone and sent with Enter; False for a letter this board has no command for. Letters
        that send a move are never single keys on the board, so a word being typed cannot
        make a move before Enter."""
        return False

    def choose(self, move: Any) -> None:
        self.post_message(self.Chosen(move))

    def board_key(self, event: events.Key) -> bool:
        """Act on a key this board takes now (a cursor, a mark, Enter on the highlighted row); False
        for any other, which starts the typed text when it is printable."""
        return False

    def on_key(self, event: events.Key) -> None:
        if not self.text:
            if self.board_key(event):
                event.stop()
                return
            if not event.is_printable or event.character in (None, "?"):
                return  # the screen's keys: help, the log, resign, back to your tables
        if event.key == "enter":
            self._send()
        elif event.key == "escape":
            self._edit("")
        elif event.key == "backspace":
            self._edit(self.text[:-1])
        elif event.is_printable and event.character:
            self._edit(self.text + event.character)
        else:
            return
        event.stop()

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text is typed text; each line break in it is an Enter."""
        lines = event.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, line in enumerate(lines):
            self._edit(self.text + "".join(character for character in line if character.isprintable()))
            if number < len(lines) - 1:
                self._send()
        event.stop()

    def _edit(self, text: str) -> None:
        self.text = text
        self.post_message(self.Typing(text))

    def _send(self) -> None:
        text = self.text
        self._edit("")
        self.post_message(self.Typed(text))


LINE_WIDTH = 79
"""Columns a board's line may take (the screen's 80 less one)."""


def wrapped(head: str, words: str = "", indent: int = 2) -> str:
    """``head`` and ``words`` in lines of at most :data:`LINE_WIDTH` (ending in a newline), the
    words going on under ``indent`` spaces rather than cut off mid-word."""
    return "\n".join(textwrap.wrap(head + words, LINE_WIDTH, subsequent_indent=" " * indent)) + "\n"


ANSWERED = "answered for you: no other answer"
"""The mark of an answer the node sent for this seat as the only one the rules allow (zeeslag's sink answer)."""


def forced_for(update: dict) -> set[int]:
    """The seats whose latest move was made for them as their only legal one (the log's ``forced``
    entries still ``latest``; the node notes them for its own seat)."""
    return {entry["seat"] for entry in update.get("log") or ()
            if entry.get("latest") and entry.get("kind") == "forced" and entry.get("seat") is not None}


def played_for(update: dict) -> dict[int, str]:
    """The seats whose latest move was made for them (the log's ``latest`` entries: a timer's
    default, a forced move), each with the words its board marks that move with where it draws it."""
    marks = {}
    for entry in update.get("log") or ():
        if entry.get("latest") and entry.get("seat") is not None:
            who = player(entry["seat"], update.get("seat"), update.get("seats") or ())
            marks[entry["seat"]] = "forced: no other move" if entry["kind"] == "forced" else f"played for {who}: time ran out"
    return marks


def refused_cards(update: dict) -> dict[int, str]:
    """Each hand card (its handle) whose play the rules refuse now, with the game's one word why
    (the table event's ``unplayable``; a play of one card, ``{"play": h}`` or ``{"play": [h]}``):
    what a hand marks beside or on the card."""
    refused = {}
    for entry in update.get("unplayable") or ():
        played = entry["move"].get("play") if isinstance(entry["move"], dict) else None
        played = played[0] if isinstance(played, list) and len(played) == 1 else played
        if isinstance(played, int):
            refused[played] = entry["mark"]
    return refused


def refusal_lines(update: dict, marked: str) -> list[str]:
    """One line per reason the hand's ``marked`` cards (``dimmed``) are refused, in the game's
    words, each said once: ``dimmed (follow): you must follow hearts: you hold H3 H5``."""
    said = {u["mark"]: u["text"] for u in reversed(update.get("unplayable") or ())}
    return [wrapped(f"{marked} ({mark}): ", text) for mark, text in said.items()]


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


def moves_laying(moves: Iterable[Any], chosen: Set[int], handles_of: Callable[[Any], Set[int] | None],
                 label: Callable[[int], Hashable]) -> list[Any]:
    """The legal moves laying exactly the hand cards ``chosen``; failing that, those laying cards
    with the same labels (a card's face, say). A game lists one move per distinct play, naming
    the first of two identical cards, so a player who picks the other copy means that move."""
    moves = list(moves)
    exact = [move for move in moves if handles_of(move) == chosen]
    if exact:
        return exact
    wanted = Counter(map(label, chosen))
    return [move for move in moves if (handles := handles_of(move)) is not None and Counter(map(label, handles)) == wanted]


def game_of(update: dict) -> Any | None:
    """The game of a table, or None for one this client does not know."""
    try:
        return registry.get(str(update.get("game")))
    except GameError:
        return None


def move_hint(update: dict) -> str | None:
    """What the game says to type for a decision it does not list (``move_hint``), or None."""
    game = game_of(update)
    hint = getattr(game.renderer, "move_hint", None) if game is not None and game.renderer is not None else None
    view = update.get("view")
    if hint is None or not update.get("your_turn") or update.get("legal_moves") or not view:
        return None
    with seated(update.get("seats") or ()):  # the game names the players as the update does
        return hint(view)


def typed_by_game(update: dict, text: str) -> Any | None:
    """The game's reading of a typed move while no legal moves are listed (``parse_move``), or None."""
    game = game_of(update)
    parse = getattr(game.renderer, "parse_move", None) if game is not None and game.renderer is not None else None
    view = update.get("view")
    if parse is None or update.get("legal_moves") or not update.get("your_turn") or not view:
        return None
    with seated(update.get("seats") or ()):  # a salvo names the enemies as the board does
        return parse(view, text)


def board_for(update: dict) -> Board:
    """The game's own board for a variant it draws, else the generic one (a new game, or a new
    variant of a known game, plays through the game's text until it has a board)."""
    from fairtable.node.clients.tui.boards.drachenherz import DrachenherzBoard
    from fairtable.node.clients.tui.boards.duel import DuelBoard
    from fairtable.node.clients.tui.boards.generic import GenericBoard
    from fairtable.node.clients.tui.boards.shengji import ShengjiBoard
    from fairtable.node.clients.tui.boards.space import SpaceBoard
    from fairtable.node.clients.tui.boards.towers import TowersBoard
    from fairtable.node.clients.tui.boards.zeeslag import ZeeslagBoard

    boards: tuple[type[Board], ...] = (TowersBoard, ZeeslagBoard, SpaceBoard, ShengjiBoard, DrachenherzBoard, DuelBoard)
    for board in boards:
        if board.game == update.get("game") and (board.variants is None or update.get("variant") in board.variants):
            return board()
    return GenericBoard()
