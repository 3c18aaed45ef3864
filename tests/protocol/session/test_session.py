import pytest

from fairtable.games.contract import Move
from fairtable.protocol import transcript_file as tf
from fairtable.protocol.session.errors import NotYourTurn, Rejected
from fairtable.protocol.session.verify import verify
from tests.protocol.session.tables import play_until, slot_is, towers


def test_a_self_played_game_is_identical_everywhere_and_verifies():
    table = towers()
    file = table.play()
    heads = {session.head for session in table.sessions}
    assert len(heads) == 1
    results = {session.result for session in table.sessions}
    assert len(results) == 1 and None not in results
    report = verify(tf.load(tf.dump(file)))
    assert report.valid, report.violations
    assert report.result == table.sessions[0].result
    assert report.envelopes == len(file.transcript)


def test_the_same_seed_gives_the_same_transcript_and_another_seed_another():
    first, second, other = (tf.dump(towers(seed).play()) for seed in (b"a", b"a", b"b"))
    assert first == second
    assert first != other


def test_a_seat_knows_its_own_hand_and_not_the_other():
    table = towers()
    play_until(table, slot_is("move"))
    mover = table.sessions[0].slot.seat
    own, other = table.sessions[mover], table.sessions[1 - mover]
    hand = own.state.hands[mover]
    assert hand and all(handle in own.state.faces for handle in hand)
    assert not any(handle in other.state.faces for handle in hand)


def test_moves_come_back_as_events_with_the_faces_they_show():
    table = towers()
    play_until(table, slot_is("move"))
    seat, kind, body = table.next_message()
    envelope = table.seal(seat, kind, body)
    events = []
    for session in table.sessions:
        events.append(session.receive(envelope))
    moves = [event for batch in events for event in batch if isinstance(event, Move)]
    assert len(moves) == 2 and moves[0] == moves[1]
    assert len(moves[0].faces) == 1


def test_only_the_due_seat_can_produce_or_decide():
    table = towers()
    play_until(table, slot_is("move"))
    idle = table.sessions[1 - table.sessions[0].slot.seat]
    assert idle.outgoing() is None and not idle.awaiting_decision()
    with pytest.raises(NotYourTurn):
        idle.move_body({"discard": 0})


def test_resignation_ends_the_game_and_the_transcript_still_verifies():
    table = towers()
    play_until(table, slot_is("move"))
    seat = table.sessions[0].slot.seat
    table.deliver(table.seal(seat, *table.sessions[seat].resign_body()))
    file = table.play()
    result = table.sessions[0].result
    assert result.winners == (1 - seat,)
    assert verify(file).valid


def test_infinite_deck_private_draws_verify():
    table = towers(variant="infinite")
    file = table.play()
    report = verify(file)
    assert report.valid, report.violations
    assert not any(envelope.kind == "deck" for envelope in file.transcript.envelopes)


def test_absence_claim_ends_the_game_as_a_forfeit_on_the_claimants_word():
    table = towers()
    play_until(table, slot_is("move"))
    silent = table.sessions[0].slot.seat
    claimant = 1 - silent
    claim = table.seal(claimant, *table.sessions[claimant].absence_claim_body())
    table.deliver(claim)
    file = table.play()
    assert table.sessions[0].result.winners == (claimant,)
    assert all(envelope.seat == claimant for envelope in file.transcript.envelopes[claim.seq + 1:])
    report = verify(file)
    assert report.valid
    assert [(a.index, a.seat, a.claimant) for a in report.absences] == [(claim.seq, silent, claimant)]
    assert "word" in report.to_value()["absences"][0]["note"]


def test_absence_during_the_seed_round_ends_the_table_on_the_claimants_word():
    table = towers()
    play_until(table, slot_is("seed", seat=1))
    claim = table.seal(0, *table.sessions[0].absence_claim_body())
    table.deliver(claim)
    assert table.finished
    report = verify(table.transcript_file())
    assert [(a.seat, a.claimant) for a in report.absences] == [(1, 0)]


def test_a_seat_cannot_declare_itself_absent_or_name_another_seat():
    table = towers()
    play_until(table, slot_is("move"))
    due = table.sessions[0].slot.seat
    with pytest.raises(NotYourTurn):
        table.sessions[due].absence_claim_body()
    wrong = table.seal(1 - due, "absent", {"seat": 1 - due})
    with pytest.raises(Rejected, match="absence claim"):
        table.sessions[due].receive(wrong)
