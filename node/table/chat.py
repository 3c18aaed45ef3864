"""A table's chat: the signed lines its seats said, kept beside its journal, never in its chain.

Lines are kept in the order this node received them, each once by (author, counter); a line
whose counter is held already is a duplicate (or a replay) and is dropped, as is one that fails
its checks (another table, a forged signature, a seat's lines past :data:`MAX_LINES`). Every
accepted line is written to the table's ``chat`` file (the lines' ``[content, signature]``
pairs as one canonical msgpack array, replaced atomically) before a link or a client hears of
it, so it survives a restart. Nothing here touches the transcript: chat cannot change a result.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

from fairtable.node.files import FileError, write_atomically
from fairtable.protocol import ChatError, ChatLine, Limits, ProtocolError, PublicKey, SecretKey, codec

log = logging.getLogger("fairtable.node")

MAX_LINES = 200
"""Lines one seat may say at one table: far more than a game's talk, and a bound on the file."""
FILE = "chat"
FILE_LIMITS = Limits(max_size=16 << 20)
"""The chat file holds at most 200 lines of about 1.5 kB per seat."""


class ChatRefused(Exception):
    """A line this node will not say or keep; the message says why."""


class TableChat:
    """The lines of one table; :meth:`say` signs this seat's, :meth:`take` checks a peer's."""

    def __init__(self, directory: Path, table: bytes, seats: tuple[PublicKey, ...], seat: int,
                 on_change: Callable[[], None]) -> None:
        self.path = directory / FILE
        self.table = table
        self.seats = seats
        self.seat = seat
        self._on_change = on_change
        self.lines: list[ChatLine] = []
        self._held: set[tuple[int, int]] = set()
        self._load()

    def _load(self) -> None:
        """The lines on disk; a file that does not read is named in the log and the chat starts afresh."""
        if not self.path.exists():
            return
        try:
            values = codec.decode(self.path.read_bytes(), FILE_LIMITS)
            if not isinstance(values, tuple):
                raise ChatError("the file is not an array of lines")
            for value in values:
                self._keep(ChatLine.from_value(value))
        except (OSError, ProtocolError, ChatRefused) as exc:
            log.error("%s: the table's chat does not read (%s); it is kept as %s.bad and starts afresh", self.path, exc, FILE)
            self.lines, self._held = [], set()
            with contextlib.suppress(OSError):
                self.path.replace(self.path.with_name(f"{FILE}.bad"))

    def keys(self) -> frozenset[tuple[int, int]]:
        """(author, counter) of every line held."""
        return frozenset(self._held)

    def say(self, key: SecretKey, text: str, rematch: str = "") -> ChatLine:
        """Sign this seat's next line and keep it; :class:`ChatRefused` (nothing kept) when it is not one to say."""
        own = [line.n for line in self.lines if line.seat == self.seat]
        try:
            line = ChatLine.sign(key, self.table, self.seat, max(own, default=-1) + 1, text, rematch)
        except ChatError as exc:
            raise ChatRefused(str(exc)) from None
        self._add(line)
        return line

    def take(self, line: ChatLine) -> bool:
        """A line from a peer: True when it is new and kept; False for one held already.
        :class:`ChatRefused` names what is wrong with one that is no line of this table."""
        if line.key in self._held:
            return False
        self._add(line)
        return True

    def _add(self, line: ChatLine) -> None:
        self._keep(line)
        try:
            write_atomically(self.path, codec.encode([held.to_value() for held in self.lines], FILE_LIMITS))
        except (OSError, FileError) as exc:
            self.lines.pop()
            self._held.discard(line.key)
            raise ChatRefused(f"the table's chat file cannot be written: {exc}") from None
        self._on_change()

    def _keep(self, line: ChatLine) -> None:
        problem = line.problem(self.table, self.seats)
        if problem is not None:
            raise ChatRefused(f"chat line {line.n} of seat {line.seat}: {problem}")
        if sum(1 for held in self.lines if held.seat == line.seat) >= MAX_LINES:
            raise ChatRefused(f"seat {line.seat} has said its {MAX_LINES} lines at this table")
        if line.key in self._held:
            raise ChatRefused(f"chat line {line.n} of seat {line.seat} is there twice")
        self.lines.append(line)
        self._held.add(line.key)
