"""Domain-separated SHA-256, so a hash computed for one purpose can never stand in for another."""

from __future__ import annotations

import hashlib

from fairtable.protocol.errors import UsageError

DOMAIN = b"fairtable/v1/"
"""The prefix of every hashed or signed label, so nothing fairtable hashes or signs can be taken
for another protocol's (or another version's) message."""


def label_prefix(label: str) -> bytes:
    """The bytes that open every hashed or signed message for ``label``: ``fairtable/v1/<label>`` and a NUL."""
    if not label or "\0" in label:
        raise UsageError(f"invalid domain label {label!r}")
    return DOMAIN + label.encode("ascii") + b"\0"


def digest(label: str, data: bytes) -> bytes:
    """SHA-256 of ``fairtable/v1/<label>``, a NUL byte, then ``data``."""
    return hashlib.sha256(label_prefix(label) + data).digest()
