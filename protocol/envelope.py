"""Envelopes: one signed, hash-chained message from one seat.

On the wire an envelope is the canonical array ``[content, signature]``. ``content`` is
the canonical encoding of the map ``{body, kind, prev, seat, seq, table}``, carried as a
``bin`` so the signed bytes travel verbatim and nobody re-encodes before verifying.
The signature is the seat's Ed25519 signature for purpose ``envelope`` over ``content``;
the envelope's hash (what the next envelope's ``prev`` names) is ``H("envelope", content)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.hashing import digest
from fairtable.protocol.identity import SIGNATURE_SIZE, PublicKey, SecretKey

SIGN_PURPOSE = "envelope"
"""The signature purpose of every envelope, so no other signed message can pass for one."""
HASH_SIZE = 32
_FIELDS = ("body", "kind", "prev", "seat", "seq", "table")
_KIND = re.compile(r"[a-z][a-z0-9_.-]{0,31}")
_BODY_AT = len(codec.encode({"body": None})) - 1
"""Where the body's encoding starts in ``content``: after the map's header and its first key, ``body``."""


class EnvelopeError(ProtocolError):
    """Bytes that are not a well-formed envelope."""


@dataclass(frozen=True)
class Envelope:
    """One seat's signed, hash-chained message, kept with the exact ``content`` bytes it signed.

    ``table`` is the table id, ``seq`` the envelope's place in the chain (from 0), ``prev`` the
    hash of the envelope before it (the table id for the first), ``seat`` its author, ``kind``
    and ``body`` what it says. Holding ``content`` verbatim means nobody re-encodes before
    checking the signature or hashing; ``hash`` is what the next envelope's ``prev`` must name.
    Whether the seat may speak here is the session's question, not this class's."""

    table: bytes
    seq: int
    prev: bytes
    seat: int
    kind: str
    body: Any
    signature: bytes
    content: bytes = field(repr=False)
    hash: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hash", digest("envelope", self.content))

    @classmethod
    def seal(cls, secret: SecretKey, table: bytes, seq: int, prev: bytes, seat: int, kind: str, body: Any) -> Envelope:
        """Encode and sign a new envelope; refuses fields that no peer would accept."""
        value = {"body": body, "kind": kind, "prev": prev, "seat": seat, "seq": seq, "table": table}
        _check_fields(value)
        content = codec.encode(value)
        return cls(table, seq, prev, seat, kind, _check_fields(codec.decode(content))["body"], secret.sign(SIGN_PURPOSE, content), content)

    @classmethod
    def from_wire(cls, data: bytes) -> Envelope:
        """Parse (not verify) an envelope; :meth:`verify` checks the signature against a seat key."""
        try:
            return cls.from_value(codec.decode(data))
        except codec.CodecError as exc:
            raise EnvelopeError(f"envelope bytes: {exc}") from None

    @classmethod
    def from_value(cls, value: Any) -> Envelope:
        """Parse the decoded ``[content, signature]`` array (a transcript record's payload), without
        verifying the signature; raises :class:`EnvelopeError` naming the malformed field."""
        if not isinstance(value, tuple) or len(value) != 2:
            raise EnvelopeError("an envelope is the array [content, signature]")
        content, signature = value
        if not isinstance(content, bytes) or not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
            raise EnvelopeError(f"an envelope is [bin content, bin signature of {SIGNATURE_SIZE} bytes]")
        try:
            fields = _check_fields(codec.decode(content))
        except codec.CodecError as exc:
            raise EnvelopeError(f"envelope content: {exc}") from None
        return cls(fields["table"], fields["seq"], fields["prev"], fields["seat"], fields["kind"], fields["body"], signature, content)

    def has_body(self, encoded: bytes) -> bool:
        """Whether the body is the value ``encoded`` is the encoding of, read off ``content`` (no
        re-encoding): the body comes first in the canonical content, and an encoding ends where
        its value does, so the body is that value exactly when ``content`` continues with it there."""
        return self.content.startswith(encoded, _BODY_AT)

    def to_value(self) -> tuple[bytes, bytes]:
        """The ``[content, signature]`` pair as a transcript file or an evidence map embeds it."""
        return (self.content, self.signature)

    def to_wire(self) -> bytes:
        """The canonical bytes peers exchange; :meth:`from_wire` reads them back unchanged."""
        return codec.encode(self.to_value())

    def verify(self, key: PublicKey) -> bool:
        """True when ``key`` signed ``content`` for the envelope purpose; the transcript checks it
        against the key of the seat the envelope claims."""
        return key.verify(SIGN_PURPOSE, self.content, self.signature)


def _check_fields(fields: Any) -> dict[str, Any]:
    """``fields`` if they are an envelope's content map, each field well formed."""
    if not isinstance(fields, dict) or tuple(fields) != _FIELDS:
        raise EnvelopeError(f"envelope content must be a map with exactly the keys {list(_FIELDS)}")
    for name in ("table", "prev"):
        if not isinstance(fields[name], bytes) or len(fields[name]) != HASH_SIZE:
            raise EnvelopeError(f"envelope {name} must be {HASH_SIZE} bytes")
    for name in ("seq", "seat"):
        if type(fields[name]) is not int or fields[name] < 0:
            raise EnvelopeError(f"envelope {name} must be a non-negative integer")
    if not isinstance(fields["kind"], str) or not _KIND.fullmatch(fields["kind"]):
        raise EnvelopeError(f"envelope kind must match {_KIND.pattern}, got {fields['kind']!r}")
    return fields
