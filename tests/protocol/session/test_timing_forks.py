"""Timing forks in the verifier's report: claims against a seat and its own envelope for one slot
name nobody, whichever holds the slot; a seed exposed on the losing side justifies its dispute,
and a file whose chain rests on a claim it does not show final is damaged, not cheating."""

from __future__ import annotations

import pytest

from fairtable.protocol.session.replica import TimingFork
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import TranscriptFile
from tests.protocol.session.replicas import Replicas, genesis, kinds
from tests.protocol.session.tables import play_until, slot_is, towers

pytestmark = pytest.mark.usefixtures("counting_game")


def started(seats: int) -> Replicas:
    table = Replicas(genesis("counting", seats, {"turn_seconds": 5}))
    for seat in range(seats):
        table[seat].tick(0.0)
        table.gossip(0.0)
    return table


def file_of(replica) -> TranscriptFile:
    return TranscriptFile(replica.session.transcript(), evidence=tuple(replica.off_chain()))


def test_two_seats_cut_off_past_every_deadline_end_with_no_result_and_nobody_named():
    table = started(2)
    move = table[0].decide(1, 10.0)  # seat 1 never hears it in time
    table[1].tick(15.0)  # 5 s turn + 10 s grace: seat 1 claims seat 0 absent
    table[1].tick(25.0)  # settled: seat 1 reveals its seed on top of its claim, and wins
    assert kinds(table[1])[-1] == (1, "seed") and table[1].session.result.winners == (1,)
    table[1].receive(move, 30.0)  # the partition heals: seat 0's own envelope takes its slot back
    table.gossip(30.0)
    table.gossip(45.0)  # past the settle time after the dispute, both seeds are revealed
    assert table[0].chain == table[1].chain and table[0].finished
    assert any(e.kind == "dispute" and e.seat == 1 and e.body["rule"] == "session.seed-exposed" for e in table[0].chain)
    report = verify(file_of(table[0]))
    assert report.status == "valid" and report.violations == ()
    assert report.result.winners == () and report.result.reason == "disputed"
    assert report.timing == (TimingFork(2, 0, (1,), "seat", (1,)),)
    assert report.to_value()["timing"] == [{"claimants": [1], "exposed": [1], "held_by": "seat", "index": 2, "seat": 0}]


def test_a_seed_exposed_dispute_with_no_timing_fork_behind_it_is_false():
    table = towers()
    play_until(table, slot_is("move"))
    disputer = table.sessions[0].slot.seat
    table.deliver(table.seal(disputer, "dispute", {"index": 3, "rule": "session.seed-exposed"}))
    report = verify(table.play())
    assert [(v.seat, v.rule) for v in report.violations] == [(disputer, "session.false-dispute")]


def test_three_seats_a_final_claim_keeps_its_slot_and_the_late_envelope_is_listed_naming_nobody():
    table = started(3)
    for seat in (1, 2):
        table[seat].tick(15.0)
    table.gossip(15.0, among=[1, 2])
    late = table[0].decide(2, 40.0)
    table.gossip(40.0)
    table.gossip(80.0)
    report = verify(file_of(table[1]))
    assert report.status == "valid" and report.violations == ()
    assert [(a.index, a.seat, a.claimant, a.claimants) for a in report.absences] == [(3, 0, 1, (1, 2))]
    assert report.timing == (TimingFork(3, 0, (1, 2), "claim"),)
    assert late in file_of(table[2]).evidence


def test_a_chain_resting_on_a_claim_without_the_other_claimants_claims_is_damaged_not_cheating():
    table = started(3)
    for seat in (1, 2):
        table[seat].tick(15.0)
    table.gossip(15.0, among=[1, 2])
    table.gossip(40.0, among=[1, 2])
    stripped = TranscriptFile(table[1].session.transcript())  # the concurring claim's record is lost
    report = verify(stripped)
    assert report.status == "damaged" and report.violations == ()
    assert report.envelopes == 3 and "does not show final" in report.damage  # the verified prefix ends before the claim
