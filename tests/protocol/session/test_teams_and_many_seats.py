"""Teams, many seats, a kitty for the dealer only, cards shown to partners and matches, through
real sessions and the verifier (toy game "tricks")."""

from __future__ import annotations

import pytest

from fairtable.games.contract import Result
from fairtable.games.testing.tricks import KITTY, TRICKS
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import play_until, slot_is

pytestmark = pytest.mark.usefixtures("tricks_game")
PARTNERS = ((0, 2), (1, 3))


def tricks(seats: int = 4, seed: bytes = b"tricks", version: int | None = None, **options) -> SelfPlay:
    return SelfPlay.create(TRICKS.id, "plain", options, seats, seed, version=version)


def kinds(table: SelfPlay) -> list[str]:
    return [envelope.kind for envelope in table.sessions[0].envelopes]


def test_a_four_seat_team_match_verifies_with_a_result_per_deal():
    table = tricks()
    file = table.play()
    report = verify(file)
    assert report.valid, report.violations
    assert report.result == table.sessions[0].result and report.result.teams == PARTNERS
    assert len(report.deals) == 2 and all(deal.teams == PARTNERS and sum(deal.scores) == 3 for deal in report.deals)
    assert list(report.result.scores) == [sum(set(deal.winners) == set(team) for deal in report.deals) for team in PARTNERS]
    value = report.to_value()
    assert value["result"]["teams"] == [[0, 2], [1, 3]] and len(value["deals"]) == 2
    assert report.result.winners == () or value["result"]["winning_teams"] == [PARTNERS.index(report.result.winners)]
    sent = kinds(table)
    assert sent.count("commit") == sent.count("seed") == 8  # two deals, fresh seeds each
    assert sent.count("deck") == 2 * 7  # 2n - 1 stages per shuffle
    assert sent.count("blind") == sent.count("unblind") == 2 * 4  # per deal: each team shows both ways


def test_the_kitty_is_seen_by_the_dealer_only_until_it_is_revealed():
    table = tricks()
    play_until(table, slot_is("blind"))
    dealer = table.sessions[0].state.dealer
    kitty = table.sessions[0].state.kitty
    assert len(kitty) == KITTY
    for seat, session in enumerate(table.sessions):
        assert all((handle in session.state.faces) == (seat == dealer) for handle in kitty)
        assert session.view()["kitty"] == (len(kitty) if seat != dealer else [session.state.faces[h] for h in kitty])
    play_until(table, lambda t: t.sessions[0].state.step == "done")
    assert all(all(handle in session.state.faces for handle in kitty) for session in table.sessions)


def test_a_card_shown_to_a_partner_is_seen_by_the_partner_and_nobody_else():
    table = tricks()
    play_until(table, slot_is("move"))
    states = [session.state for session in table.sessions]
    first = [states[seat].hands[seat][0] for seat in range(4)]
    for seat, state in enumerate(states):
        partner = (seat + 2) % 4
        assert first[partner] in state.faces
        assert all(first[other] not in state.faces for other in range(4) if other not in (seat, partner))
    shown = {envelope.seat for envelope in table.sessions[0].envelopes if envelope.kind == "unblind"}
    assert shown == {0, 1, 2, 3}


@pytest.mark.parametrize("cheat", [1, 2])
def test_a_middle_shuffler_that_permutes_otherwise_is_named_by_the_verifier(cheat):
    done = []

    def reverse_own_shuffle(seat, kind, body):
        if seat == cheat and kind == "deck" and not done:
            done.append(body["stage"])
            body = dict(body, entries=list(reversed(body["entries"])))
        return kind, body

    table = tricks(version=2)  # version 3 refuses the stage on receipt (test_proved_decks)
    file = table.play(reverse_own_shuffle)  # every live check passes: the entries are valid, just in another order
    assert done == [cheat]  # seat k's shuffle is stage k
    report = verify(file)
    assert [(v.seat, v.rule) for v in report.violations] == [(cheat, "deck.stage-mismatch")]
    assert report.violations[0].evidence.seat == cheat and report.violations[0].evidence.body["stage"] == cheat


def test_a_resigning_seat_takes_its_partner_down():
    table = tricks()
    play_until(table, slot_is("move", seat=1))
    table.deliver(table.seal(1, *table.sessions[1].resign_body()))
    table.play()
    result = table.sessions[0].result
    assert result.winners == (0, 2) and result.reason == "forfeit: resigned" and result.teams == PARTNERS
    assert verify(table.transcript_file()).valid


def test_an_absent_seat_loses_with_its_partner():
    table = tricks()
    play_until(table, slot_is("move", seat=3))
    table.claim_absent()
    file = table.play()
    assert table.sessions[0].result == Result((0, 2), "forfeit: absent", (0, 0), teams=PARTNERS)
    assert not any(envelope.seat == 3 for envelope in file.transcript.envelopes[-4:])
    report = verify(file)
    assert report.valid and [a.seat for a in report.absences] == [3]  # a forfeit on the claimant's word


def test_in_a_free_for_all_an_absent_seat_loses_and_nobody_else_wins():
    table = tricks(3, partners=False)
    play_until(table, slot_is("move", seat=1))
    table.claim_absent()
    table.play()
    result = table.sessions[0].result
    assert result == Result((), "forfeit: absent", (0, 0, 0), losers=(1,))
    assert result.to_value() == {"losers": [1], "reason": "forfeit: absent", "scores": [0, 0, 0], "winners": []}


def test_a_match_ends_early_when_a_team_reaches_the_target():
    table = tricks(target=1, deals=5)
    report = verify(table.play())
    assert report.valid and len(report.deals) == 1 and report.result.winners == report.deals[0].winners != ()


def test_sixteen_seats_shuffle_deal_and_reveal_through_sessions_and_the_verifier():
    table = tricks(16, b"sixteen", hand=1, deals=1)
    report = verify(table.play())
    assert report.valid, report.violations
    sent = kinds(table)
    assert sent.count("commit") == sent.count("seed") == sent.count("random") == 16
    assert sent.count("deck") == 31 and sent.count("move") == 16
    assert len(report.result.teams) == 8 and sum(report.result.scores) == 1


def test_a_seat_multiplies_only_its_own_stages_and_its_openings():
    """Live cost is linear: m per stage a seat computes plus one per card it opens, whatever
    the number of seats (nothing is recomputed per message)."""
    seats, hand = 8, 1
    table = tricks(seats, b"cost", hand=hand, deals=1, partners=False)
    table.play()
    cards = seats * hand + KITTY
    for seat, session in enumerate(table.sessions):
        stages = 2 if seat < seats - 1 else 1
        opened = len(session.state.faces)  # every face it learnt, each by one opening
        assert session.ops.mults <= stages * cards + opened, (seat, session.ops.mults)


def test_a_holder_that_unblinds_falsely_is_suspected_live_and_named_by_the_verifier():
    def unlock_nothing(seat, kind, body):
        if seat == 0 and kind == "unblind" and not done:
            done.append(body)
            blinded = table.sessions[0].envelopes[-1].body["points"][0][1]  # what seat 2 sent, still blinded
            body = dict(body, points=[[body["points"][0][0], body["points"][0][1], blinded]])
        return kind, body

    done: list = []
    table = tricks(version=2)  # version 3 refuses the unblinding on receipt (test_a_false_unblinding_is_refused_at_version_3)
    file = table.play(unlock_nothing)
    found = [v for v in table.sessions[2].violations if v.rule == "deck.no-card"]
    assert len(found) == 1 and found[0].seat is None and found[0].suspects == (0, 2)
    assert not table.sessions[1].violations and not table.sessions[3].violations
    report = verify(file)
    assert [(v.seat, v.rule) for v in report.violations] == [(0, "deck.unblind-mismatch")]


def test_a_false_unblinding_is_refused_at_version_3():
    """The same false unblinding at a version 3 table: its proof fails, and every seat refuses it
    naming the holder before the recipient opens anything."""
    def unlock_nothing(seat, kind, body):
        if seat == 0 and kind == "unblind":
            blinded = table.sessions[0].envelopes[-1].body["points"][0][1]
            body = dict(body, points=[[body["points"][0][0], body["points"][0][1], blinded]])
        return kind, body

    table = tricks()
    with pytest.raises(Rejected) as refused:
        table.play(unlock_nothing)
    assert (refused.value.violation.seat, refused.value.violation.rule) == (0, "deck.bad-proof")
