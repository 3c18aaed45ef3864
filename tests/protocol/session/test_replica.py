"""The replica: which envelope continues the chain, under every interleaving that matters.

Replicas run in memory; each test decides who hears what and when (``now`` is explicit), so a
race is a chosen order of deliveries, not a timing accident. The counting game: seats add 1..3
in turn; with ``turn_seconds`` 5 and grace 10, a silent seat may be claimed 15 s into its turn.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.errors import NotYourTurn
from fairtable.protocol.session.replica import Due, Kept, Outcome, Placed, TimingFork
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import TranscriptFile
from tests.protocol.session.replicas import KEYS, Replicas, genesis, kinds, send

pytestmark = pytest.mark.usefixtures("counting_game")

TURN = {"turn_seconds": 5}


def started(seats: int = 2, options: dict | None = None) -> Replicas:
    """Every seat committed; seat 0 is due to move, since time 0."""
    table = Replicas(genesis("counting", seats, TURN if options is None else options))
    for seat in range(seats):
        table[seat].tick(0.0)
        table.gossip(0.0)
    assert all(kinds(r) == [(s, "commit") for s in range(seats)] for r in table.replicas)
    return table


def test_replicas_that_hear_everything_play_to_the_end_on_one_chain():
    table = started(3)
    now = 0.0
    while not table[0].finished:
        due = table[0].slot.seat
        table[due].decide(2, now)
        table.gossip(now)
        now += 1
    chains = {tuple(e.hash for e in r.chain) for r in table.replicas}
    assert len(chains) == 1 and all(r.finished for r in table.replicas)
    assert not any(r.violations() for r in table.replicas)


def claims_against(replica, seat: int) -> list[Envelope]:
    """The absence claims against ``seat`` that ``replica`` holds on its chain or off it."""
    return [e for e in (*replica.chain, *replica.off_chain()) if e.kind == "absent" and e.body == {"seat": seat}]


def test_a_claim_at_zero_seconds_is_held_and_the_late_seats_own_envelope_wins_naming_nobody():
    table = started(3)
    claim = Envelope.seal(KEYS[1], table.genesis.table_id, 3, table[1].head, 1, "absent", {"seat": 0})
    # seat 1 (a cheater) claims seat 0 absent at once; seat 2 must not take it
    assert table[2].receive(claim, 0.5).outcome is Outcome.HELD
    assert len(table[2].chain) == 3
    move = table[0].decide(3, 1.0)
    assert table[2].receive(move, 1.0).outcome is Outcome.ACCEPTED
    # seat 0 holds its own in-slot envelope: the claim holds no slot
    assert table[0].receive(claim, 1.0).outcome is Outcome.OUTRANKED
    # a claim alone proves nothing about clocks: a timing fork, naming nobody
    for replica in (table[0], table[2]):
        assert replica.violations() == []
        assert replica.timing_forks() == [TimingFork(3, 0, (1,), "seat")]
    # and past the deadline the held claim is still void: seat 0's envelope holds the slot
    table[2].tick(100.0)
    assert table[2].chain[3] == move


def test_with_two_seats_the_late_seats_own_envelope_takes_back_its_slot_and_nobody_is_named():
    table = started(2)
    # seat 1 is cut off from seat 0 from the start of seat 0's turn
    move = table[0].decide(1, 10.0)
    table[1].tick(15.0)  # 5 s turn + 10 s grace: seat 1 claims seat 0 absent
    assert kinds(table[1])[-1] == (1, "absent")
    # the partition heals before the claim settled: both replicas end on seat 0's chain
    assert table[1].receive(move, 16.0).outcome is Outcome.ACCEPTED
    table.gossip(16.0)
    assert table[0].chain == table[1].chain and table[1].chain[2] == move
    assert table[1].violations() == [] and table[0].violations() == []
    assert table[1].timing_forks() == table[0].timing_forks() == [TimingFork(2, 0, (1,), "seat")]
    assert table[1].forks == [2]
    claim = next(e for e in table[1].off_chain() if e.kind == "absent")
    assert claim.seat == 1  # a node never drops an envelope it signed


def test_a_claim_is_final_only_once_every_other_present_seat_claimed_and_then_a_late_envelope_is_evidence():
    table = started(4)
    assert [r.claim_time() for r in table.replicas] == [None, 15.0, 15.0, 15.0]
    for seat in (1, 2):
        table[seat].tick(15.0)
    table.gossip(15.0, among=[1, 2])
    # two of the three other seats claimed: nothing is placed, the slot stays seat 0's
    assert all(len(table[s].chain) == 4 for s in (1, 2))
    assert {e.seat for e in claims_against(table[1], 0)} == {1, 2}
    table[3].tick(15.0)
    table.gossip(15.0, among=[1, 2, 3])
    assert all(kinds(table[s])[4] == (1, "absent") for s in (1, 2, 3))
    assert table[1].chain[:5] == table[2].chain[:5] == table[3].chain[:5]
    # seat 0 signed its move late (it was frozen past every deadline): the claim stays, its move is evidence
    late = table[0].decide(2, 40.0)
    table.gossip(40.0)
    assert {tuple(e.hash for e in r.chain) for r in table.replicas} == {tuple(e.hash for e in table[1].chain)}
    assert table[0].chain[4].kind == "absent" and late not in table[0].chain
    assert all(late in r.off_chain() for r in table.replicas)
    for replica in table.replicas:
        assert replica.violations() == []
        assert replica.timing_forks() == [TimingFork(4, 0, (1, 2, 3), "claim")]


def test_a_seat_that_holds_the_due_seats_envelope_never_claims_so_the_claim_never_becomes_final():
    table = started(3)
    move = table[0].decide(2, 1.0)
    table.deliver(0, 2, 1.0)  # seat 1 is cut off from seat 0; seat 2 has the move
    table[1].tick(15.0)
    table[2].tick(15.0)
    assert table[2].chain[3] == move and not claims_against(table[2], 0)
    table.gossip(15.0, among=[1, 2])
    assert table[1].chain[3] == move
    assert all(r.violations() == [] for r in table.replicas)


def test_nothing_is_revealed_on_top_of_a_claim_before_it_settles():
    table = started(2)
    table[1].tick(15.0)
    assert kinds(table[1])[-1] == (1, "absent")
    table[1].tick(24.9)
    assert kinds(table[1])[-1] == (1, "absent")  # settle is 10 s: no seed reveal yet
    table[1].tick(25.0)
    assert kinds(table[1])[-1] == (1, "seed") and table[1].finished
    assert table[1].session.result.winners == (1,)


@pytest.mark.parametrize("claim_first", [True, False])
def test_a_race_between_a_move_and_a_claim_resolves_alike_in_either_order(claim_first):
    table = started(3)
    move = table[0].decide(2, 14.0)
    table[1].tick(15.0)  # seat 1 claims before seat 0's move reached it
    (claim,) = claims_against(table[1], 0)
    observer = table[2]
    for envelope in ((claim, move) if claim_first else (move, claim)):
        observer.receive(envelope, 15.0)
    table.gossip(15.0)
    assert {tuple(e.hash for e in r.chain) for r in table.replicas} == {tuple(e.hash for e in table[0].chain)}
    assert table[0].chain[3] == move
    for replica in table.replicas:
        assert replica.violations() == []


def test_a_lone_claim_is_adopted_only_past_the_deadline_and_grace_by_the_adopters_own_clock():
    table = started(2)
    table[1].tick(15.0)
    claim = table[1].chain[2]
    # seat 0's clock started the slot later (it heard the last commit late): 15 s is early there
    assert table[0].receive(claim, 14.0).outcome is Outcome.HELD
    assert table[0].next_wake() == 15.0
    table[0].tick(15.0)
    assert table[0].chain[2] == claim


def test_a_claim_every_other_seat_made_is_placed_whatever_the_claimed_seats_clock_says():
    table = started(3)
    for seat in (1, 2):
        table[seat].tick(15.0)
    # seat 0's clock is behind, but two seats judged it silent each by its own clock
    for source in (1, 2):
        table.deliver(source, 0, 3.0)
    assert kinds(table[0])[3] == (1, "absent")


def test_two_claimants_converge_on_the_lower_seats_claim():
    table = started(4)
    for seat in (3, 2, 1):
        table[seat].tick(25.0)
    table.gossip(25.0, among=[1, 2, 3])
    assert table[1].chain == table[2].chain == table[3].chain
    assert table[2].chain[4].seat == 1
    assert table[2].timing_forks() == []


@pytest.mark.parametrize("second_first", [False, True])
def test_two_envelopes_of_one_seat_for_one_slot_keep_the_proof_and_the_lower_hash(second_first):
    table = started(3)
    first = table[0].decide(1, 1.0)
    second = Envelope.seal(KEYS[0], table.genesis.table_id, first.seq, first.prev, 0, "move",
                           {"faces": [], "keys": [], "move": 3})
    for seat in (1, 2):
        send(table[seat], (second, first) if second_first == (seat == 2) else (first, second), 1.0)
        (proof,) = table[seat].proofs()
        assert proof.check() == 0
        assert [(v.seat, v.rule) for v in table[seat].violations()] == [(0, "chain.equivocation")]
    assert table[1].chain[first.seq] == table[2].chain[first.seq] == min(first, second, key=lambda e: e.hash)


def test_a_forged_relay_ahead_of_the_chain_never_hides_the_real_envelope():
    table = started(2)
    move = table[0].decide(2, 1.0)
    answer = table[1]
    table[1].receive(move, 1.0)
    real_next = table[1].decide(1, 2.0)
    fresh = Replicas(table.genesis)
    for seat in range(2):
        fresh[seat].tick(0.0)
    observer = fresh[0]
    forged = Envelope(real_next.table, real_next.seq, real_next.prev, real_next.seat, real_next.kind,
                      real_next.body, bytes(64), real_next.content[:-1] + b"\x02")
    assert observer.receive(forged, 2.0).outcome is Outcome.INVALID
    garbage = Envelope.seal(KEYS[0], table.genesis.table_id, real_next.seq, bytes(32), 0, "move", {})
    assert observer.receive(garbage, 2.0).outcome is Outcome.HELD
    assert send(observer, [*answer.chain[len(observer.chain):]], 2.0)[-1].outcome is Outcome.ACCEPTED
    assert observer.chain[-1] == real_next


def test_a_refused_signed_envelope_is_kept_as_evidence_with_its_rule():
    table = started(2)
    cheat = Envelope.seal(KEYS[0], table.genesis.table_id, 2, table[0].head, 0, "move", {"faces": [], "keys": [], "move": 9})
    offered = table[1].receive(cheat, 1.0)
    assert offered.outcome is Outcome.REFUSED and "counting.move" in offered.reason
    assert [(v.seat, v.rule, v.evidence) for v in table[1].violations()] == [(0, "counting.move", cheat)]
    assert any(isinstance(r, Kept) and r.envelope == cheat for r in table[1].drain())
    # the same seat's legal envelope for that slot is then an equivocation, and the legal one stands
    legal = table[0].decide(1, 2.0)
    assert table[1].receive(legal, 2.0).outcome is Outcome.ACCEPTED
    assert table[1].chain[2] == legal
    assert [v.rule for v in table[1].violations()] == ["counting.move", "chain.equivocation"]


def test_a_decision_is_signed_once_per_slot():
    table = started(2)
    table[0].decide(1, 1.0)
    with pytest.raises(NotYourTurn):
        table[0].decide(2, 1.0)


def test_journal_records_say_what_was_placed_and_when_each_slot_began():
    table = started(2)
    table[0].drain()
    move = table[0].decide(3, 7.0)
    records = table[0].drain()
    assert records == [Placed(move), Due(3, 7.0)]


def test_a_reloaded_replica_holds_the_same_chain_forks_and_deadline():
    table = started(2)
    move = table[0].decide(1, 1.0)
    table[1].tick(15.0)
    table[1].receive(move, 16.0)
    records = [r for r in itertools.chain(table[1].drain())]
    placed = [r.envelope for r in records if isinstance(r, Placed)]
    kept = [r for r in records if isinstance(r, Kept)]
    since = [r.since for r in records if isinstance(r, Due)][-1]
    again = Replicas(table.genesis)[1]
    again.load(placed, kept, 30.0, since)
    assert again.chain == table[1].chain
    assert again.slot.since == table[1].slot.since
    assert again.violations() == [] and again.timing_forks() == table[1].timing_forks() != []
    assert any(e.kind == "absent" and e.seat == 1 for e in again.off_chain())


def reloaded(table: Replicas, seat: int, records: list, now: float):
    """Seat ``seat``'s replica rebuilt from ``records`` (all it journaled), as a restarted node's is."""
    again = Replicas(table.genesis)[seat]
    since = [r.since for r in records if isinstance(r, Due)]
    again.load([r.envelope for r in records if isinstance(r, Placed)], [r for r in records if isinstance(r, Kept)],
               now, since[-1] if since else None)
    return again


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(6)), st.integers(min_value=0, max_value=2))
def test_any_delivery_order_of_a_claim_race_converges(order, late_observer):
    """Three replicas; seat 0's move races seat 1's and seat 2's claims; each replica hears the
    deliveries (every envelope to every other replica) in a different order."""
    table = started(3)
    move = table[0].decide(2, 14.0)
    for seat in (1, 2):
        table[seat].tick(15.0)
    claims = [claims_against(table[seat], 0)[0] for seat in (1, 2)]
    pairs = [(env, target) for env in (move, *claims) for target in range(3) if target != env.seat]
    for index in order:
        envelope, target = pairs[index]
        table[target].receive(envelope, 15.0 + (5.0 if target == late_observer else 0.0))
    table.gossip(20.0)
    assert len({tuple(e.hash for e in r.chain) for r in table.replicas}) == 1
    assert len({frozenset(e.hash for e in r.off_chain()) for r in table.replicas}) == 1
    assert all(r.violations() == [] for r in table.replicas)


def _phase(seats: int):
    """A stretch of time in which the seats fall into groups that hear only each other, and some are frozen."""
    return st.tuples(st.lists(st.integers(0, 2), min_size=seats, max_size=seats),
                     st.frozensets(st.integers(0, seats - 1), max_size=seats - 1),
                     st.integers(1, 40))


def _step(table: Replicas, now: float, groups: list[list[int]], frozen: frozenset[int], moves) -> None:
    """One second: every running seat looks at its clock, the due seat (if running) moves, each group gossips."""
    for seat, replica in enumerate(table.replicas):
        if seat in frozen:
            continue
        replica.tick(now)
        if replica.session.awaiting_decision() and (len(replica.chain), replica.head) not in replica.signed:
            replica.decide(moves.draw(st.integers(1, 3)), now)
    for group in groups:
        table.gossip(now, among=[seat for seat in group if seat not in frozen])


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=3, max_value=8).flatmap(lambda n: st.tuples(st.just(n), st.lists(_phase(n), min_size=1, max_size=4))),
       st.data())
def test_every_partition_freeze_and_heal_order_converges_for_three_to_eight_seats(plan, moves):
    """Seats play the counting game (5 s turns, 10 s grace) through partitions into up to three
    groups and freezes of chosen length, in any order; then everything heals. Every replica ends
    on one chain and one set of evidence, the table finishes, and no seat is named."""
    seats, phases = plan
    table = started(seats, {"turn_seconds": 5})
    now = 0.0
    for assignment, frozen, duration in phases:
        groups = [[s for s in range(seats) if assignment[s] == g] for g in range(3)]
        for _ in range(duration):
            now += 1.0
            _step(table, now, groups, frozen, moves)
    for _ in range(200):
        if all(r.finished for r in table.replicas):
            break
        now += 1.0
        _step(table, now, [list(range(seats))], frozenset(), moves)
    table.gossip(now)
    assert all(r.finished for r in table.replicas)
    assert len({tuple(e.hash for e in r.chain) for r in table.replicas}) == 1
    assert len({frozenset(e.hash for e in r.off_chain()) for r in table.replicas}) == 1
    assert all(r.violations() == [] for r in table.replicas)
    for seat, replica in enumerate(table.replicas):  # a restart after settling writes the same file
        again = reloaded(table, seat, replica.drain(), now)
        assert again.chain == replica.chain
        assert {e.hash for e in again.off_chain()} == {e.hash for e in replica.off_chain()}
    report = verify(TranscriptFile(table[0].session.transcript(), evidence=tuple(table[0].off_chain())))
    assert report.status == "valid", report.to_value()


def _lying_keys(replica) -> None:
    """Make this seat's replica publish, for the first card of each deal, the key of the next position."""
    run = replica.session.run
    honest = type(run).keys_body

    def keys_body(self, seat, handles):
        body = honest(self, seat, handles)
        record, position = self.handles[handles[0]]
        body["keys"][0][1] = record.keys_of(seat).position_keys[(position + 1) % record.deck.size]
        return body

    run.keys_body = keys_body.__get__(run)


@pytest.mark.parametrize("dispute_first", [True, False])
@pytest.mark.parametrize("nonce", [2, 1], ids=["seat 1 starts: a race", "seat 0 starts: no race"])
def test_a_dispute_racing_the_due_seats_envelope_lands_and_both_replicas_agree(dispute_first, nonce):
    table = Replicas(genesis("towers", 2, nonce=bytes([nonce]) * 16, version=2))  # version 3 refuses the lie on receipt
    _lying_keys(table[1])
    now = 0.0
    for _ in range(40):  # commits, who starts, the shuffle, seat 0's keys: until seat 1 publishes its lie
        for seat in (0, 1):
            table[seat].tick(now)
        if any(e.kind == "keys" and e.seat == 1 for e in table[1].chain):
            break
        for source, target in ((0, 1), (1, 0)):
            table.deliver(source, target, now)
    lie = next(e for e in table[1].chain if e.kind == "keys" and e.seat == 1)
    # seat 0 finds the card that opens to nothing and disputes; seat 1 meanwhile plays on
    table[0].receive(lie, now)
    dispute = next(e for e in table[0].chain if e.kind == "dispute")
    assert dispute.seat == 0
    racing = table[1].session.awaiting_decision()
    assert racing == (nonce == 2)
    if racing:
        table[1].decide(table[1].session.legal_moves()[0], now)
    rival = table[1].chain[dispute.seq] if racing else None
    deliveries = ((0, 1), (1, 0)) if dispute_first else ((1, 0), (0, 1))
    for source, target in deliveries:
        table.deliver(source, target, now)
    for later in (now, now + 11.0):  # past the settle time, the seeds are revealed
        table.gossip(later)
    assert [e.hash for e in table[0].chain] == [e.hash for e in table[1].chain]
    assert table[0].finished and table[0].session.result.reason == "disputed"
    assert sum(e.kind == "dispute" for e in table[0].chain) == 1
    if racing:
        assert table[0].chain[dispute.seq] == rival  # the due seat's envelope kept its slot; the dispute came after
        assert next(e for e in table[0].chain if e.kind == "dispute").seq > dispute.seq


def test_a_reloaded_replica_keeps_the_claimants_of_its_open_slot():
    """A restarted node restores its open slot's due time; the slot's claimants go with it, or a
    single other seat's claim would look like the lone claim of a two-seat table and be placed."""
    table = started(3)
    records = table[1].drain()
    placed = [r.envelope for r in records if isinstance(r, Placed)]
    since = [r.since for r in records if isinstance(r, Due)][-1]
    again = Replicas(table.genesis)[1]
    again.load(placed, [], 100.0, since)
    assert again.slot.claimants == (1, 2)
    table[2].tick(15.0)
    (claim,) = claims_against(table[2], 0)
    assert again.receive(claim, 200.0).outcome is Outcome.HELD and len(again.chain) == 3
