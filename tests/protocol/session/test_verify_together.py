"""Several transcripts of one table verified together: every envelope of every file through one
replica, so forks settle as on a live node and only a true equivocation names a seat."""

from __future__ import annotations

import pytest

from fairtable.protocol import transcript_file as tf
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.session.verify import verify_together
from tests.protocol.session.tables import file_bytes, play_until, slot_is, towers


def test_two_envelopes_one_seat_signed_after_the_same_envelope_are_an_equivocation():
    table = towers()
    play_until(table, slot_is("move"))
    seat, _kind, _body = table.next_message()
    legal = table.sessions[seat].legal_moves()
    one = table.seal(seat, *table.sessions[seat].move_body(legal[0]))
    two = table.seal(seat, *table.sessions[seat].move_body(legal[-1]))
    assert one.content != two.content
    joint = verify_together([tf.load(file_bytes(table, [one])), tf.load(file_bytes(table, [two]))])
    report = joint.report
    found = [(v.index, v.seat, v.rule) for v in report.violations]
    assert found == [(one.seq, seat, "chain.equivocation")]
    assert report.violations[0].evidence in (one, two)
    winner = min(one, two, key=lambda envelope: envelope.hash)  # §10 rule 2: the lower hash
    assert joint.leaves_at == ((None, one.seq) if winner == one else (one.seq, None))


@pytest.mark.parametrize("due", [0, 1])
def test_files_that_fork_after_a_claim_settle_on_one_chain_and_name_no_equivocation(due):
    """One file has the due seat's move, the other another seat's absence claim in that slot
    and the seed round after it; from there each seat signs after different envelopes. Together
    they settle on the chain with the move, whichever file comes first, and nobody signed two
    envelopes for one slot."""
    honest, claimed = towers(b"fork"), towers(b"fork")
    for table in (honest, claimed):
        play_until(table, slot_is("move", due))
    fork = len(honest.sessions[0].envelopes)
    honest.play()
    other = 1 - due
    claimed.deliver(claimed.seal(other, *claimed.sessions[other].absence_claim_body()))
    claimed.play()
    files = [tf.load(file_bytes(table)) for table in (honest, claimed)]
    assert files[0].transcript[fork].hash != files[1].transcript[fork].hash
    joint = verify_together(files)
    report = joint.report
    assert joint.leaves_at == (None, fork)
    assert report.envelopes == len(honest.sessions[0].envelopes) and report.result == honest.sessions[0].result
    assert all(v.rule != "chain.equivocation" and v.seat != due for v in report.violations)
    reversed_order = verify_together(files[::-1])
    assert reversed_order.report.to_value() == report.to_value() and reversed_order.leaves_at == (fork, None)


def test_files_of_different_tables_are_refused_clearly():
    with pytest.raises(ProtocolError, match="not all of one table"):
        verify_together([tf.load(file_bytes(towers(b"a"))), tf.load(file_bytes(towers(b"b")))])
