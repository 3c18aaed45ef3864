"""Links between live tables over real channels (in memory): relay when a direct link is down, catch-up."""

import pytest
import trio

from fairtable.node.table.link import MAX_REFUSED, Link
from fairtable.node.table.live import Outcome, Timing
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.table.tables import KEYS, live_table, play, reload, settle, signed_genesis, wire

pytestmark = pytest.mark.usefixtures("counting_game")


async def test_envelopes_reach_a_seat_through_another_when_the_direct_link_is_down(tmp_path):
    genesis = signed_genesis("counting", 3)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(3)]
    with trio.fail_after(30):
        await play(tables, [(0, 1), (1, 2)])  # seats 0 and 2 never talk directly
    assert tables[0].envelopes == tables[1].envelopes == tables[2].envelopes
    assert {envelope.seat for envelope in tables[2].envelopes} == {0, 1, 2}
    assert verify(load((tables[2].files.dir / "transcript.ftt").read_bytes())).valid


async def test_a_full_mesh_of_three_seats_finishes_with_one_chain(tmp_path):
    genesis = signed_genesis("counting", 3)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(3)]
    with trio.fail_after(30):
        await play(tables, [(0, 1), (0, 2), (1, 2)])
    assert tables[0].envelopes == tables[1].envelopes == tables[2].envelopes and tables[0].finished


async def test_a_restarted_seat_catches_up_over_a_new_link(tmp_path):
    genesis = signed_genesis("towers", 2)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    with trio.move_on_after(0.05):
        await play(tables, [(0, 1)])
    restarted = [tables[0], reload(tables[1])]
    with trio.fail_after(30):
        await play(restarted, [(0, 1)])
    assert restarted[0].envelopes == restarted[1].envelopes and restarted[1].finished


@pytest.mark.parametrize("seats", [2, 3])
async def test_after_a_fork_every_seat_holds_the_same_transcript_bytes(tmp_path, autojump_clock, seats):
    """The last seat is cut off at its turn and declared absent; the others finish. It comes back
    with the envelope it signed: the chains fork and reconcile, and the evidence each node alone
    held (a claim, seeds revealed on top of it, the late envelope) reaches every seat's file.
    With two seats the late envelope takes its slot back and the exposed seed stops the game; with
    three the claim was final (both other seats made it), so the late envelope is evidence."""
    genesis = signed_genesis("counting", seats, {"turn_seconds": 5})
    late_seat = seats - 1
    tables = [live_table(tmp_path, genesis, seat, bot=seat != late_seat, timing=Timing(grace=10)) for seat in range(seats)]
    settle(tables)
    late = tables[late_seat]
    assert late.session.awaiting_decision()
    await wire(tables, cut=frozenset({late_seat}))
    assert all(table.finished for table in tables[:late_seat])
    late.play(1)
    with trio.fail_after(300):
        await play(tables, [(a, b) for a in range(seats) for b in range(a + 1, seats)])
    files = [(table.files.dir / "transcript.ftt").read_bytes() for table in tables]
    assert all(data == files[0] for data in files)
    assert all(reload(table).transcript_bytes() == files[0] for table in tables)  # what a fork dropped is held again
    transcript = load(files[0])
    assert any(e.kind == "absent" for e in transcript.evidence)  # a claim off the chain, in every file
    reason = "disputed" if seats == 2 else "forfeit"
    assert tables[0].session.result.reason == reason and verify(transcript).result.reason == reason
    assert [(f.seat, f.held_by) for f in verify(transcript).timing] == [(late_seat, "seat" if seats == 2 else "claim")]


async def test_evidence_goes_to_a_peer_once_and_its_refusals_do_not_close_the_link(tmp_path, monkeypatch):
    """Seat 0 holds more of seat 1's refused envelopes than a link may refuse; it hands them all
    to seat 1 as evidence, the link completes, and both files are the same bytes."""
    genesis = signed_genesis("counting", 2)
    tables = [live_table(tmp_path, genesis, seat) for seat in range(2)]
    settle(tables)
    chain = tables[0].envelopes
    forged = [Envelope.seal(KEYS[1], genesis.table_id, i, chain[i - 1].hash, 1, "move", {"faces": [], "keys": [], "move": move})
              for i in range(1, len(chain)) if chain[i].seat == 0 and chain[i].kind == "move" for move in range(1, 4)]
    forged += [Envelope.seal(KEYS[1], genesis.table_id, 1, chain[0].hash, 1, "move", {"move": n}) for n in range(40)]
    assert len(forged) > MAX_REFUSED
    for envelope in forged:
        assert tables[0].offer(envelope).outcome in (Outcome.REFUSED, Outcome.CONFLICT, Outcome.OUTRANKED)
    sent = []
    original = Link._take_evidence

    def counted(link, envelope):
        sent.append(envelope.hash)
        original(link, envelope)

    monkeypatch.setattr(Link, "_take_evidence", counted)
    with trio.fail_after(30):
        await play(tables, [(0, 1)])
    assert sorted(sent) == sorted({e.hash for e in tables[0].replica.off_chain()})  # each once
    files = [(table.files.dir / "transcript.ftt").read_bytes() for table in tables]
    assert files[0] == files[1] and len(load(files[1]).evidence) >= len(forged)


async def test_every_claim_reaches_every_seat_so_a_frozen_seats_late_move_is_evidence_everywhere(tmp_path, autojump_clock):
    """Seat 2 is frozen at its turn; seats 0 and 1, linked, each claim it absent by their own clocks.
    The last to claim places the final claim at once, its own claim standing off its chain: the
    link must still carry it, or the other claimant never sees the claim final and waits for ever.
    Seat 2 then wakes, signs its move late, and every seat ends on the claim's chain."""
    genesis = signed_genesis("counting", 3, {"turn_seconds": 5})
    # seat 1 allows more grace: it claims last, so the claim it places (seat 0's) is not its own
    tables = [live_table(tmp_path, genesis, seat, bot=seat != 2, timing=Timing(grace=10 + seat)) for seat in range(3)]
    settle(tables)
    with trio.fail_after(300):
        await play(tables[:2], [(0, 1)])
    slot = next(e.seq for e in tables[0].envelopes if e.kind == "absent")
    assert tables[0].envelopes == tables[1].envelopes and tables[0].finished
    assert [(e.seat, e.kind) for e in tables[0].envelopes[slot:]] == [(0, "absent"), (0, "seed"), (1, "seed")]  # no one else absent
    assert {e.seat for e in tables[0].replica.held_claims()} | {tables[0].envelopes[slot].seat} == {0, 1}
    late = tables[2]
    assert late.session.awaiting_decision()
    late.play(1)
    with trio.fail_after(300):
        await play(tables, [(0, 1), (0, 2), (1, 2)])
    assert tables[0].envelopes == tables[1].envelopes == tables[2].envelopes
    files = [(table.files.dir / "transcript.ftt").read_bytes() for table in tables]
    assert files[0] == files[1] == files[2]
    report = verify(load(files[0]))
    assert report.valid and [(a.seat, a.claimants) for a in report.absences] == [(2, (0, 1))]
    assert [(f.index, f.seat, f.held_by) for f in report.timing] == [(slot, 2, "claim")]
