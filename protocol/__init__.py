"""fairtable's sans-IO protocol layer: wire codec, identities, signed envelopes, transcripts.

Nothing here touches a socket, a clock, a thread or the file system: values and bytes go
in, values and bytes come out, so the live node and the offline verifier share every line.

This package is the public face of the wire: import from it, not from its modules. What a
table does with envelopes is :mod:`fairtable.protocol.session`; the fairness primitives are
:mod:`fairtable.protocol.fair`, tournaments :mod:`fairtable.protocol.tournament`, and a
whole table played in memory for tests and tools :mod:`fairtable.protocol.testing`.

- **Values on the wire**: :func:`encode` / :func:`decode` (canonical msgpack; anything
  non-canonical is a :class:`CodecError`). ``codec`` is the module, for callers that name it.
- **Who speaks**: :class:`SecretKey` / :class:`PublicKey` (Ed25519), :func:`digest` for
  domain-separated hashes, :func:`parse_fingerprint` for keys people read aloud.
- **What a table is**: :class:`Genesis` (game, variant, options, seats) signed by every seat
  as :class:`SignedGenesis`; its hash is the table id.
- **What is said**: :class:`Envelope` (``table, seq, prev, seat, kind, body``), signed by its
  seat and chained by ``prev``; :class:`Transcript` is a checked chain.
- **What is kept**: :class:`TranscriptFile` with :func:`dump` / :func:`load` (whole files) and
  :class:`TranscriptReader` (streamed), the format ``spec/transcript.md`` describes.
"""

from fairtable.protocol import codec
from fairtable.protocol.chat import MAX_CHAT_TEXT, ChatError, ChatLine
from fairtable.protocol.codec import DEFAULT_LIMITS, INT_MAX, INT_MIN, CodecError, Limits, Value, decode, encode
from fairtable.protocol.envelope import HASH_SIZE, Envelope, EnvelopeError
from fairtable.protocol.errors import ProtocolError, UsageError
from fairtable.protocol.genesis import PROTOCOL_VERSION, Genesis, GenesisError, Seat, SignedGenesis
from fairtable.protocol.hashing import digest, label_prefix
from fairtable.protocol.identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, IdentityError, PublicKey, SecretKey, fingerprint, parse_fingerprint
from fairtable.protocol.signed import Signable, SignedByAll
from fairtable.protocol.transcript import EquivocationProof, Transcript, TranscriptError, check_link
from fairtable.protocol.transcript_file import (
    RECORD_LIMITS,
    RevealedSeed,
    TranscriptFile,
    TranscriptFileError,
    TranscriptReader,
    dump,
    header_bytes,
    load,
    record_bytes,
)

__all__ = [
    "DEFAULT_LIMITS",
    "HASH_SIZE",
    "INT_MAX",
    "INT_MIN",
    "MAX_CHAT_TEXT",
    "PROTOCOL_VERSION",
    "PUBLIC_KEY_SIZE",
    "RECORD_LIMITS",
    "SIGNATURE_SIZE",
    "ChatError",
    "ChatLine",
    "CodecError",
    "Envelope",
    "EnvelopeError",
    "EquivocationProof",
    "Genesis",
    "GenesisError",
    "IdentityError",
    "Limits",
    "ProtocolError",
    "PublicKey",
    "RevealedSeed",
    "Seat",
    "SecretKey",
    "Signable",
    "SignedByAll",
    "SignedGenesis",
    "Transcript",
    "TranscriptError",
    "TranscriptFile",
    "TranscriptFileError",
    "TranscriptReader",
    "UsageError",
    "Value",
    "check_link",
    "codec",
    "decode",
    "digest",
    "dump",
    "encode",
    "fingerprint",
    "header_bytes",
    "label_prefix",
    "load",
    "parse_fingerprint",
    "record_bytes",
]
