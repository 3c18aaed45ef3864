"""The streaming verifier: the same report as the whole-file one, in memory that does not grow
with the transcript's length (a match of many deals), and the chain's hashes when asked."""

import tracemalloc
from collections.abc import Iterator

import pytest

from fairtable.games.testing import registered
from fairtable.games.testing.counting import COUNTING
from fairtable.node.cli.bench import marathon
from fairtable.protocol import codec
from fairtable.protocol.envelope import HASH_SIZE, Envelope
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.recent import Recent
from fairtable.protocol.session.verify import load, verify, verify_stream
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.transcript_file import TranscriptFileError, dump, record_bytes
from tests.protocol.session.tables import towers
from tests.protocol.session.test_deck_cheats import play_with, substitute


@pytest.fixture(scope="module")
def matches() -> Iterator[dict[int, bytes]]:
    """Transcripts of the bench's toy match, by deals: 4 (about 200 envelopes) and 40."""
    with registered(COUNTING):
        yield {deals: dump(SelfPlay.create(marathon.GAME, "normal", marathon.options(deals), 2, codec.encode(["stream", deals])).play())
               for deals in (4, 40)}


def chunked(data: bytes, size: int = 4096):
    return lambda: (data[at:at + size] for at in range(0, len(data), size))


def peak(function):
    """``function()``'s value and the most memory it held at once (its reports serve the assertions too:
    verifying the long match is what costs)."""
    tracemalloc.start()
    try:
        value = function()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_ten_times_longer_match_is_verified_in_about_the_same_memory(matches):
    short, long = matches[4], matches[40]
    reports, streamed = zip(*(peak(lambda data=data: verify_stream(chunked(data)).report) for data in (short, long)))
    wholes, whole = zip(*(peak(lambda data=data: verify(*load(chunked(data)()))) for data in (short, long)))
    assert reports[1].to_value() == wholes[1].to_value() and reports[1].valid
    assert streamed[1] < 1.5 * streamed[0]
    assert whole[1] > 3 * whole[0]  # what the streaming verifier no longer holds: every envelope


def test_the_hashes_are_the_chain_s_in_order_only_when_asked():
    data = dump(towers().play())
    envelopes = load([data])[0].transcript.envelopes
    assert verify_stream(chunked(data), hashes=True).hashes == b"".join(envelope.hash for envelope in envelopes)
    assert len(verify_stream(chunked(data), hashes=True).hashes) == HASH_SIZE * len(envelopes)
    assert verify_stream(chunked(data)).hashes == b""


def test_a_forgotten_envelope_is_refused_never_made_up():
    recent: Recent[int] = Recent()
    for item in range(5):
        recent.append(item)
    recent.forget_before(3)
    assert (len(recent), recent[3], recent[-1], recent.held()) == (5, 3, 4, [3, 4])
    with pytest.raises(IndexError, match="forgotten"):
        recent[2]
    with pytest.raises(IndexError, match="forgotten"):
        list(recent)


def read_twice(first: bytes, second: bytes):
    """A file that is ``first`` when read the first time and ``second`` after (changed on disk meanwhile)."""
    reads = iter([first, second])
    return lambda: chunked(next(reads))()


def resealed(data: bytes, envelope: Envelope, body) -> bytes:
    """``data`` with ``envelope`` re-signed by a stranger over ``body``: same slot, another signature."""
    forged = Envelope.seal(SecretKey.generate(), envelope.table, envelope.seq, envelope.prev, envelope.seat, envelope.kind, body)
    original = record_bytes("envelope", envelope.to_value())
    assert data.count(original) == 1
    return data.replace(original, record_bytes("envelope", forged.to_value()))


def test_the_replay_checks_no_signature_twice_yet_a_file_changed_between_the_reads_is_refused():
    """The second read checks links, not signatures: an envelope changed after the first read
    changes the head (refused at the end), and a truncated second read is short."""
    data = dump(towers(b"changed-file").play())
    last = load([data])[0].transcript.envelopes[-1]
    for second in (resealed(data, last, {"changed": True}), data[: len(data) // 2]):
        with pytest.raises(TranscriptFileError, match="changed while it was verified"):
            verify_stream(read_twice(data, second))


def test_evidence_whose_signature_changed_after_the_first_read_is_refused():
    """An envelope's hash covers its content, not its signature: a signature swapped between the
    reads leaves the chain as it was, so the report's evidence is checked again (and only it)."""
    table = towers(b"changed-evidence", version=2)  # a version 2 stage the live seats accept
    bad, refused = play_with(table, 1, substitute)
    assert refused is None
    data = dump(table.transcript_file())
    assert [v.evidence for v in verify_stream(read_twice(data, data)).report.violations] == [bad]
    with pytest.raises(TranscriptFileError, match="signature of the evidence"):
        verify_stream(read_twice(data, resealed(data, bad, bad.body)))
