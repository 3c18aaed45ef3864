"""Chat lines: what the players say at a table, signed by their authors, outside the game's chain.

On the wire a line is the canonical array ``[content, signature]``, like an envelope: ``content``
is the canonical encoding of the map ``{n, rematch, seat, table, text}``, carried as ``bin`` so the
signed bytes travel verbatim; the signature is the author's for purpose ``chat`` (``spec/node.md``,
"Chat"), so no line can pass for an envelope or a genesis, nor one for a line. ``table`` binds it to
one table, ``seat`` names its author, ``n`` is the author's counter (0, 1, 2, ...: a second line
with the same counter is a replay or a duplicate and is dropped). ``rematch`` is empty for words,
or the lobby id of the new table the author offers for a rematch.

No line is ever part of a transcript or a table id: chat cannot change a result.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.identity import SIGNATURE_SIZE, PublicKey, SecretKey

SIGN_PURPOSE = "chat"
MAX_CHAT_TEXT = 300
"""Characters in one line: a sentence or two, never a file."""
MAX_LOBBY_ID = 64
_FIELDS = ("n", "rematch", "seat", "table", "text")
_TABLE_ID = 32


class ChatError(ProtocolError):
    """A value that is no chat line of this table; the message says what is wrong."""


def text_problem(text: Any) -> str | None:
    """Why ``text`` cannot be said at a table (empty, too long, a control character), or None."""
    if not isinstance(text, str):
        return "a chat line's text is a string"
    if not text.strip():
        return "a chat line says something (it is empty)"
    if len(text) > MAX_CHAT_TEXT:
        return f"a chat line holds at most {MAX_CHAT_TEXT} characters (this one {len(text)})"
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in text):
        return "a chat line is one line of text, without control characters"
    return None


@dataclass(frozen=True)
class ChatLine:
    """One signed line, kept with the exact ``content`` bytes its author signed."""

    table: bytes
    seat: int
    n: int
    text: str
    rematch: str
    signature: bytes
    content: bytes = field(repr=False)

    @property
    def key(self) -> tuple[int, int]:
        """What makes a line unique at its table: author and counter."""
        return self.seat, self.n

    @classmethod
    def sign(cls, secret: SecretKey, table: bytes, seat: int, n: int, text: str, rematch: str = "") -> ChatLine:
        """A new line by ``seat``; refuses what no peer would accept."""
        content = codec.encode({"n": n, "rematch": rematch, "seat": seat, "table": table, "text": text})
        return cls.from_value((content, secret.sign(SIGN_PURPOSE, content)))

    @classmethod
    def from_value(cls, value: Any) -> ChatLine:
        """Parse (not verify) the decoded ``[content, signature]`` array; :class:`ChatError` names what is malformed."""
        if not isinstance(value, tuple) or len(value) != 2:
            raise ChatError("a chat line is the array [content, signature]")
        content, signature = value
        if not isinstance(content, bytes) or not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
            raise ChatError(f"a chat line is [bin content, bin signature of {SIGNATURE_SIZE} bytes]")
        try:
            fields = codec.decode(content)
        except codec.CodecError as exc:
            raise ChatError(f"chat line content: {exc}") from None
        if not isinstance(fields, dict) or tuple(fields) != _FIELDS:
            raise ChatError(f"chat line content must be a map with exactly the keys {list(_FIELDS)}")
        if not isinstance(fields["table"], bytes) or len(fields["table"]) != _TABLE_ID:
            raise ChatError(f"chat line table must be {_TABLE_ID} bytes")
        for name in ("n", "seat"):
            if type(fields[name]) is not int or fields[name] < 0:
                raise ChatError(f"chat line {name} must be a non-negative integer")
        rematch = fields["rematch"]
        if not isinstance(rematch, str) or len(rematch) > MAX_LOBBY_ID or not (rematch == "" or rematch.isalnum()):
            raise ChatError(f"chat line rematch must be empty or a lobby id of at most {MAX_LOBBY_ID} letters and digits")
        problem = text_problem(fields["text"])
        if problem is not None:
            raise ChatError(problem)
        return cls(fields["table"], fields["seat"], fields["n"], fields["text"], rematch, signature, content)

    def to_value(self) -> tuple[bytes, bytes]:
        """The ``[content, signature]`` pair a peer message or the chat file carries."""
        return (self.content, self.signature)

    def problem(self, table: bytes, seats: tuple[PublicKey, ...]) -> str | None:
        """Why this line is no line of ``table`` with these seat keys (another table, no such seat, a
        signature that does not verify), or None when it is one."""
        if self.table != table:
            return "it belongs to another table"
        if self.seat >= len(seats):
            return f"it names seat {self.seat}, and the table has {len(seats)}"
        if not seats[self.seat].verify(SIGN_PURPOSE, self.content, self.signature):
            return f"its signature is not seat {self.seat}'s"
        return None
