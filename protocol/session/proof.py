"""A proof of one finding that anyone can check with nothing else: a transcript cut to what it needs.

A signed envelope a session refused (a cheat caught live) is proven by the chain up to its slot
plus the envelope itself: whoever replays that prefix sees the session refuse the envelope with
the same rule, signed by the seat that sent it. An equivocation carries both envelopes. The
proof is an ordinary transcript file (``spec/transcript.md``), so the verifier checks it like any
other: it reports the finding, and says the table is incomplete, as it is.
"""

from __future__ import annotations

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.transcript import Transcript
from fairtable.protocol.transcript_file import TranscriptFile


class ProofError(ProtocolError):
    """The envelope cannot be proven against this chain (it follows no envelope of it)."""


def proof_of(file: TranscriptFile, *envelopes: Envelope) -> TranscriptFile:
    """The chain of ``file`` up to the slot of ``envelopes`` (one, or two of one slot) with them as evidence."""
    if not envelopes:
        raise ProofError("a proof needs the envelope it proves something about")
    seq = envelopes[0].seq
    chain = file.transcript
    expected = chain.genesis.table_id if seq == 0 else chain[seq - 1].hash if seq <= len(chain) else None
    if any(envelope.seq != seq or envelope.prev != expected for envelope in envelopes):
        raise ProofError(f"envelope {seq} does not follow the chain this node holds; the whole transcript is the proof")
    return TranscriptFile(Transcript(chain.genesis, chain.envelopes[:seq]), evidence=tuple(envelopes))
