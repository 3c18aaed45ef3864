"""The catalogue of cheats: each is detected live where the other seats' knowledge allows,
and always by the verifier, with the right seat and rule."""

import pytest

from fairtable.protocol import codec
from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair.group import hash_to_point
from fairtable.protocol.session.errors import NotYourTurn, Rejected, Violation
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.fair.support import TWIST_POINT
from tests.protocol.session.tables import all_seeds, file_bytes, play_until, slot_is, towers, verify_bytes, with_body
from tests.protocol.session.test_duel_session import duel


def rejected_by_others(table: SelfPlay, envelope: Envelope, cheater: int):
    """Deliver to every honest session; each must refuse it and change nothing."""
    violations = []
    for seat, session in enumerate(table.sessions):
        if seat == cheater:
            continue
        head = session.head
        with pytest.raises(Rejected) as error:
            session.receive(envelope)
        assert session.head == head
        violations.append(error.value.violation)
    return violations


def assert_caught(table: SelfPlay, envelope: Envelope, seat: int, rule: str):
    index = len(table.sessions[0].envelopes)
    for violation in rejected_by_others(table, envelope, envelope.seat):
        assert (violation.index, violation.seat, violation.rule) == (index, seat, rule)
    report = verify_bytes(file_bytes(table, [envelope]))
    assert report.status == "violation"
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(index, seat, rule)]


def assert_damage(table: SelfPlay, envelope: Envelope, problem: str):
    """Refused live as a broken link, blamed on nobody; in a file, damage after a verified prefix."""
    index = len(table.sessions[0].envelopes)
    for violation in rejected_by_others(table, envelope, envelope.seat):
        assert (violation.index, violation.seat, violation.rule) == (index, None, "chain.link")
    report = verify_bytes(file_bytes(table, [envelope]))
    assert (report.status, report.violations, report.envelopes) == ("damaged", (), index)
    assert f"envelope {index}" in report.damage and problem in report.damage


# ---------------------------------------------------------------- chain-level cheats

def test_forged_signature():
    table = towers()
    play_until(table, slot_is("move"))
    seat, kind, body = table.next_message()
    honest = table.seal(seat, kind, body)
    forged = Envelope.from_value((honest.content, table.keys[1 - seat].sign("envelope", honest.content)))
    assert_damage(table, forged, "signature does not verify")


def test_envelope_from_another_table():
    other = towers(b"other")
    play_until(other, slot_is("move"))
    table = towers()
    play_until(table, slot_is("move"))
    foreign = other.seal(*other.next_message())
    assert_damage(table, foreign, "another table")


def test_reordered_dropped_and_duplicated_envelopes():
    table = towers()
    for _ in range(6):
        table.step()
    envelopes = list(table.sessions[0].envelopes)
    fresh = towers()
    fresh.deliver(envelopes[0])
    for wrong in (envelopes[2], envelopes[0]):
        for violation in rejected_by_others(fresh, wrong, cheater=-1):
            assert violation.rule == "chain.link"
    for bad in (envelopes[:2] + envelopes[3:], envelopes[:3] + envelopes[2:], [envelopes[1], envelopes[0]] + envelopes[2:]):
        records = [tf.header_bytes(), tf.record_bytes("genesis", table.genesis.to_value())]
        records += [tf.record_bytes("envelope", e.to_value()) for e in bad]
        records.append(tf.record_bytes("end", {"count": len(bad), "head": bad[-1].hash}))
        report = verify_bytes(b"".join(records))
        first_wrong = next(i for i, (a, b) in enumerate(zip(bad, envelopes)) if a != b)
        # Every envelope is validly signed: a file put them out of order, which is no seat's doing.
        assert (report.status, report.violations, report.envelopes) == ("damaged", (), first_wrong)
        assert report.damage.startswith(f"envelope {first_wrong}:")


def test_edited_move_breaks_the_signature():
    table = towers()
    play_until(table, slot_is("move"))
    honest = table.seal(*table.next_message())
    body = dict(honest.body, move={"discard": 10**6})
    content = codec.encode({"body": body, "kind": honest.kind, "prev": honest.prev, "seat": honest.seat, "seq": honest.seq, "table": honest.table})
    edited = Envelope.from_value((content, honest.signature))
    assert_damage(table, edited, "signature does not verify")


# ---------------------------------------------------------------- session and rules

def test_move_out_of_turn():
    table = towers()
    play_until(table, slot_is("move"))
    mover = table.sessions[0].slot.seat
    other = 1 - mover
    hand = table.sessions[other].state.hands[other]
    envelope = table.seal(other, "move", {"faces": [], "keys": [], "move": {"discard": hand[0]}})
    assert_caught(table, envelope, other, "session.out-of-turn")


def test_illegal_move_unaffordable_card():
    from fairtable.games.towers.catalogue import CARDS
    from fairtable.games.towers.game import affordable

    table = towers()

    def has_unaffordable(t):
        if not slot_is("move")(t):
            return False
        seat = t.sessions[0].slot.seat
        state = t.sessions[seat].state
        return any(not affordable(CARDS[state.faces[h]], state.sides[seat]) for h in state.hands[seat])

    play_until(table, has_unaffordable)
    seat = table.sessions[0].slot.seat
    own = table.sessions[seat]
    handle = next(h for h in own.state.hands[seat] if not affordable(CARDS[own.state.faces[h]], own.state.sides[seat]))
    body = own.run.move_body(seat, {"play": handle}, (handle,))
    assert_caught(table, table.seal(seat, "move", body), seat, "towers.cost")


def test_playing_a_card_the_seat_does_not_hold():
    table = towers()
    play_until(table, slot_is("move"))
    seat = table.sessions[0].slot.seat
    theirs = table.sessions[0].state.hands[1 - seat][0]
    key = table.sessions[seat].run.handles[theirs][0].keys_of(seat).position_keys[table.sessions[seat].run.handles[theirs][1]]
    envelope = table.seal(seat, "move", {"faces": [], "keys": [[theirs, key]], "move": {"play": theirs}})
    assert_caught(table, envelope, seat, "session.not-held")


def test_seed_not_matching_its_commitment():
    table = towers()
    play_until(table, slot_is("seed"))
    seat = table.sessions[0].slot.seat
    envelope = with_body(table, lambda body: dict(body, seed=bytes(32)))
    assert_caught(table, envelope, seat, "seed.mismatch")




@pytest.mark.parametrize("seed", [b"", bytes(31), "x" * 32, None])
def test_a_seed_of_the_wrong_shape_is_named_not_unreadable(seed):
    table = towers()
    play_until(table, slot_is("seed"))
    seat = table.sessions[0].slot.seat
    assert_caught(table, with_body(table, lambda body: dict(body, seed=seed)), seat, "seed.malformed")


def test_mismatching_public_random_reveal():
    table = towers()
    play_until(table, slot_is("random", seat=1))
    envelope = with_body(table, lambda body: dict(body, reveal=bytes(32)))
    assert_caught(table, envelope, 1, "public-random.bad-reveal")


# ---------------------------------------------------------------- cheats only the seeds expose

def test_wrong_position_key_at_a_deal():
    table = towers(version=2)  # version 2: no proofs, so the stage or key is caught after the seed reveal
    play_until(table, slot_is("keys"))
    seat = table.sessions[0].slot.seat
    def swap_first_key(body):
        keys = [list(pair) for pair in body["keys"]]
        other = table.sessions[seat].run.decks[0].keys_of(seat).position_keys
        keys[0][1] = next(k for k in other if k != keys[0][1])
        return {"keys": keys}
    envelope = with_body(table, swap_first_key)
    index = len(table.sessions[0].envelopes)
    table.deliver(envelope)
    play_until(table, lambda t: t.sessions[0].slot.kind != "keys")
    recipient = table.sessions[1 - seat]
    assert any(v.rule in ("deck.no-card", "deck.card-repeated") and seat in v.suspects for v in recipient.violations)
    assert not table.sessions[seat].violations
    report = verify_bytes(file_bytes(table, seeds=all_seeds(table)))
    assert (index, seat, "deck.key-mismatch") in [(v.index, v.seat, v.rule) for v in report.violations]


def test_tampered_shuffle_stage_is_caught_after_the_seed_reveal():
    table = towers(version=2)  # version 2: no proofs, so the stage or key is caught after the seed reveal
    play_until(table, slot_is("deck", seat=0))
    index = len(table.sessions[0].envelopes)
    def replace_entry(body):
        entries = list(body["entries"])
        entries[5] = hash_to_point("test/not-a-card", b"x")
        return dict(body, entries=entries)
    table.deliver(with_body(table, replace_entry))
    report = verify_bytes(file_bytes(table, seeds=all_seeds(table)))
    first = report.violations[0]
    assert (first.index, first.seat, first.rule) == (index, 0, "deck.stage-mismatch")


def test_duplicated_shuffle_entry_is_caught_live():
    table = towers()
    play_until(table, slot_is("deck", seat=0))
    envelope = with_body(table, lambda body: dict(body, entries=[body["entries"][0]] * 2 + list(body["entries"][2:])))
    assert_caught(table, envelope, 0, "deck.duplicate-entry")


def test_shuffle_entry_outside_the_group_is_named_by_the_next_stage():
    table = towers(version=2)  # version 2: no proofs, so the stage or key is caught after the seed reveal
    play_until(table, slot_is("deck", seat=0))
    index = len(table.sessions[0].envelopes)
    table.deliver(with_body(table, lambda body: dict(body, entries=[TWIST_POINT] + list(body["entries"][1:]))))
    assert table.sessions[1].outgoing() is None
    assert [(v.index, v.seat, v.rule) for v in table.sessions[1].violations] == [(index, 0, "deck.invalid-point")]


# ---------------------------------------------------------------- disputes

def dispute_a_false_key(table: SelfPlay) -> tuple[int, Envelope, Envelope]:
    """The first ``keys`` sender deals its first key false; the recipient, whose card opens to no
    card, disputes. The cheater, its false ``keys`` envelope and the dispute."""
    play_until(table, slot_is("keys"))
    cheater = table.sessions[0].slot.seat
    victim = table.sessions[1 - cheater]

    def wrong_key(body):
        keys = [list(pair) for pair in body["keys"]]
        keys[0][1] = next(k for k in table.sessions[cheater].run.decks[0].keys_of(cheater).position_keys if k != keys[0][1])
        return {"keys": keys}

    bad = with_body(table, wrong_key)
    table.deliver(bad)
    play_until(table, lambda t: bool(t.sessions[1 - cheater].violations))
    found = victim.violations[0]
    assert found.seat is None and cheater in found.suspects
    dispute = table.seal(1 - cheater, *victim.dispute_body(found))
    table.deliver(dispute)
    return cheater, bad, dispute


def test_a_dispute_stops_the_game_and_the_seeds_name_the_cheater():
    table = towers(version=2)  # version 2: no proofs, so the stage or key is caught after the seed reveal
    cheater, bad, _ = dispute_a_false_key(table)
    file = table.play()
    assert table.sessions[0].result.reason == "disputed" and table.sessions[0].result.winners == ()
    kinds = [envelope.kind for envelope in file.transcript.envelopes]
    assert kinds[-2:] == ["seed", "seed"]
    report = verify(file)
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, cheater, "deck.key-mismatch")]


def test_a_false_dispute_names_the_accuser():
    table = towers()
    play_until(table, slot_is("move"))
    accuser = 1 - table.sessions[0].slot.seat
    made_up = Violation(3, None, "deck.no-card", "made up", None, (0, 1))
    table.deliver(table.seal(accuser, *table.sessions[accuser].dispute_body(made_up)))
    report = verify(table.play())
    assert [(v.seat, v.rule) for v in report.violations] == [(accuser, "session.false-dispute")]


@pytest.mark.parametrize("kind", ["composition", "seed"])
def test_after_play_a_dispute_is_refused_as_out_of_turn(kind):
    """The game has its result and every seed is about to be revealed: a dispute stops nothing."""
    table = duel()
    play_until(table, slot_is(kind, seat=0))
    with pytest.raises(NotYourTurn):
        table.sessions[1].dispute_body(Violation(3, None, "deck.no-card", "made up", None, (0, 1)))
    late = table.seal(1, "dispute", {"index": 3, "rule": "deck.no-card"})
    for violation in rejected_by_others(table, late, cheater=-1):
        assert (violation.seat, violation.rule) == (1, "session.out-of-turn")
    assert table.play() and verify(table.transcript_file()).valid


def test_a_dispute_must_name_an_earlier_envelope():
    table = towers()
    play_until(table, slot_is("move"))
    seat = table.sessions[0].slot.seat
    envelope = table.seal(1 - seat, "dispute", {"index": 10**6, "rule": "x"})
    with pytest.raises(Rejected, match="dispute"):
        table.sessions[seat].receive(envelope)
