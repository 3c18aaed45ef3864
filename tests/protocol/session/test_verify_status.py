"""The verifier's status: a transcript is valid, names a seat, or says it is incomplete or
damaged; a file that merely stops is never blamed on whoever was due."""

import pytest

from fairtable.protocol import codec
from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import Genesis, Seat, SignedGenesis
from fairtable.protocol.session.verify import verify, verify_chunks
from tests.protocol.session.tables import file_bytes, play_until, slot_is, towers, verify_bytes, with_body


def records(table, extra=()) -> list[bytes]:
    envelopes = [*table.sessions[0].envelopes, *extra]
    head = envelopes[-1].hash if envelopes else table.genesis.table_id
    return ([tf.header_bytes(), tf.record_bytes("genesis", table.genesis.to_value())]
            + [tf.record_bytes("envelope", envelope.to_value()) for envelope in envelopes]
            + [tf.record_bytes("end", {"count": len(envelopes), "head": head})])


@pytest.fixture(scope="module")
def mid_game():
    table = towers()
    play_until(table, slot_is("move"))
    for _ in range(5):
        table.step()
    return table


def test_a_finished_game_is_valid():
    report = verify(towers().play())
    assert (report.status, report.owed, report.damage, report.violations) == ("valid", (), None, ())


def test_a_transcript_that_stops_mid_game_is_incomplete_and_blames_nobody(mid_game):
    report = verify_bytes(file_bytes(mid_game))
    slot = mid_game.sessions[0].slot
    assert (report.status, report.violations) == ("incomplete", ())
    assert [(o.index, o.seat, o.kind) for o in report.owed] == [(len(mid_game.sessions[0].envelopes), slot.seat, slot.kind)]


def test_a_stop_in_the_seed_round_owes_only_the_seeds_still_missing():
    table = towers()
    play_until(table, slot_is("seed", seat=1))
    report = verify_bytes(file_bytes(table))
    assert report.status == "incomplete" and report.result is not None
    assert [(o.seat, o.kind) for o in report.owed] == [(1, "seed")]  # seat 0 revealed already


def test_an_absent_seat_owes_no_seed():
    table = towers()
    play_until(table, slot_is("move"))
    due = table.sessions[0].slot.seat
    table.deliver(table.seal(1 - due, *table.sessions[1 - due].absence_claim_body()))
    report = verify_bytes(file_bytes(table))
    assert [(o.seat, o.kind) for o in report.owed] == [(1 - due, "seed")]
    assert due not in [v.seat for v in report.violations if v.rule != "session.absent"]


@pytest.mark.parametrize("damage, problem", [
    (lambda parts: parts[:-1], "no end record"),
    (lambda parts: parts[:-3] + [parts[-3][:-5]], "ends inside a record"),
    (lambda parts: parts[:-1] + [tf.record_bytes("end", {"count": 3, "head": bytes(32)})], "end record counts"),
    (lambda parts: parts + [tf.record_bytes("envelope", [b"x", b"y"])], "data after the end record"),
    (lambda parts: parts[:-4] + [b"\xc1"] + parts[-4:], "byte"),
    (lambda parts: parts[:-4] + [tf.record_bytes("envelope", [b"not an envelope", bytes(64)])] + parts[-4:], "envelope"),
], ids=["no end", "cut mid-record", "bad end", "after end", "undecodable", "not an envelope"])
def test_broken_bytes_after_a_readable_prefix_are_damage(mid_game, damage, problem):
    parts = records(mid_game)
    data = b"".join(damage(parts))
    report = verify_bytes(data)
    assert report.status == "damaged" and report.violations == ()
    assert problem in report.damage
    assert 0 < report.envelopes <= len(mid_game.sessions[0].envelopes)


def test_a_signed_envelope_that_does_not_continue_the_chain_is_damage_not_the_signers_doing(mid_game):
    """Reordering a file or mixing two forks yields validly signed envelopes off the chain; a
    file holding one names nobody (only two envelopes one seat signed for one slot would)."""
    seat, kind, body = mid_game.next_message()
    index = len(mid_game.sessions[0].envelopes)
    for seq, prev in ((index, bytes(32)), (index + 1, mid_game.sessions[0].head)):
        stray = Envelope.seal(mid_game.keys[seat], mid_game.genesis.table_id, seq, prev, seat, kind, body)
        report = verify_bytes(b"".join(records(mid_game, [stray])))
        assert (report.status, report.violations, report.envelopes) == ("damaged", (), index)


def test_a_violation_before_the_damage_is_still_named(mid_game):
    seat, _, _ = mid_game.next_message()
    bad = with_body(mid_game, lambda body: dict(body, move={"play": 10**6}))
    data = b"".join(records(mid_game, [bad])[:-1])
    report = verify_bytes(data)
    assert report.status == "violation" and report.damage is not None
    assert [(v.index, v.seat) for v in report.violations] == [(bad.seq, seat)]


@pytest.mark.parametrize("data", [b"", b"garbage", codec.encode({"format": "fairtable-transcript", "version": 9}),
                                  tf.header_bytes() + tf.record_bytes("genesis", {"x": 1})])
def test_a_file_without_a_readable_genesis_is_unreadable(data):
    with pytest.raises(ProtocolError):
        verify_chunks([data])


def test_a_genesis_naming_an_unknown_game_is_unreadable_not_a_crash(mid_game):
    key = mid_game.keys[0]
    genesis = Genesis("nosuchgame", "plain", {}, (Seat(key.public, "a"), Seat(mid_game.keys[1].public, "b")), b"n" * 16)
    signed = SignedGenesis(genesis, tuple(genesis.sign(k) for k in mid_game.keys))
    data = tf.header_bytes() + tf.record_bytes("genesis", signed.to_value()) + tf.record_bytes("end", {"count": 0, "head": signed.table_id})
    with pytest.raises(ProtocolError, match="nosuchgame"):
        verify_chunks([data])
