"""Zeeslag for three or more over real sessions: salvos committed before anyone reveals, the
timer's default and random shots, teams in the result, and the shared sea's hidden owners,
where every false share, key or claim is caught and pinned on its seat."""

from __future__ import annotations

import random

import pytest

from fairtable.games.contract import OpenSums, RuleError
from fairtable.games.zeeslag.bots import GreedyBot
from fairtable.protocol.fair import masked_sum
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import file_bytes, play_until, slot_is, verify_bytes


def table_of(variant: str, seats: int, options: dict | None = None, seed: bytes = b"zee-groups") -> SelfPlay:
    table = SelfPlay.create("zeeslag", variant, {"fleet": "ten", **(options or {})}, seats, seed)
    table.bots = tuple(GreedyBot(random.Random(seat)) for seat in range(seats))
    return table


def kinds(table: SelfPlay) -> list[str]:
    return [envelope.kind for envelope in table.sessions[0].envelopes]


# ------------------------------------------------------------------ salvos


def test_a_salvo_game_of_three_verifies_and_every_round_commits_before_it_reveals():
    table = table_of("duel", 3)
    report = verify(table.play())
    assert report.valid and report.result.winners
    sent = kinds(table)
    assert sent.count("choice") == sent.count("reveal") > 3 * 3
    envelopes = table.sessions[0].envelopes
    first = sent.index("choice")
    assert sent[first:first + 6] == ["choice"] * 3 + ["reveal"] * 3
    assert set(envelopes[first].body) == {"commitment", "round"}  # a commitment shows no cell


def test_a_salvo_cannot_be_changed_after_seeing_the_others():
    table = table_of("duel", 3)
    play_until(table, slot_is("reveal", 1))  # seat 0's salvo is out
    seat, kind, body = table.next_message()
    other = {"salvo": [[0, 99], [2, 99]]}
    assert other != body["choice"]
    lie = table.seal(seat, kind, dict(body, choice=other))
    with pytest.raises(Rejected) as error:
        table.sessions[2].receive(lie)
    assert (error.value.violation.seat, error.value.violation.rule) == (1, "choice.mismatch")


def test_an_illegal_salvo_is_refused_by_its_own_node_and_named_at_its_reveal():
    table = table_of("duel", 3, {"shots": 2})
    play_until(table, slot_is("choice", 0))
    session = table.sessions[0]
    bad = {"salvo": [[1, 0], [2, 0], [2, 1]]}  # one shot short at seat 1
    with pytest.raises(RuleError) as refused:
        session.choice_body(bad)
    assert refused.value.rule == "zeeslag.salvo"
    # Forced past the node's check: every node refuses the reveal, naming seat 0.
    body = session.run.choice_body(0, f"choice-{session.run.choice_rounds - 1}", bad)
    table.deliver(table.seal(0, "choice", body))
    play_until(table, slot_is("reveal", 0))
    with pytest.raises(Rejected) as error:
        table.step()
    assert (error.value.violation.seat, error.value.violation.rule) == (0, "zeeslag.salvo")


def test_a_late_salvo_is_the_marked_default_and_its_shots_fall_by_public_random_values():
    table = table_of("duel", 3)
    play_until(table, slot_is("choice", 1))
    table.deliver(table.seal(1, *table.sessions[1].default_choice_body()))
    assert table.sessions[0].envelopes[-1].body["default"] is True
    while table.sessions[0].slot.kind in ("choice", "reveal"):
        table.step()
    assert table.sessions[0].slot.kind == "random"  # the timer's cells, drawn after every salvo is out
    assert table.sessions[0].state.late[0].seat == 1
    assert verify(table.play()).valid


def test_a_marked_default_that_is_not_the_default_is_named():
    table = table_of("duel", 3)
    play_until(table, slot_is("choice", 2))
    session = table.sessions[2]
    round_id = f"choice-{session.run.choice_rounds - 1}"
    choice = {"salvo": [[0, 0], [1, 0]]}
    body = {**session.run.choice_body(2, round_id, choice), "default": True}
    table.deliver(table.seal(2, "choice", body))
    with pytest.raises(Rejected) as error:
        table.play()
    assert (error.value.violation.seat, error.value.violation.rule) == (2, "choice.not-default")


# ------------------------------------------------------------------ teams


def test_a_team_game_of_four_names_the_teams_in_its_result():
    table = table_of("duel", 4, {"teams": 2})
    report = verify(table.play())
    assert report.valid and report.result.teams == ((0, 2), (1, 3))
    assert set(report.result.winners) in ({0, 2}, {1, 3}) and len(report.result.winning_teams) == 1


# ------------------------------------------------------------------ the shared sea's hidden owners


def shares_due(table: SelfPlay) -> bool:
    return table.sessions[0].slot.kind == "shares"


def test_a_shared_sea_game_verifies_with_masked_sums():
    table = table_of("shared", 3)
    report = verify(table.play())
    assert report.valid and report.result.winners
    sent = kinds(table)
    assert sent.count("pair") == 3 and sent.count("shares") >= 2


def test_only_the_seats_of_a_sum_can_read_its_shares():
    table = table_of("shared", 3)
    play_until(table, slot_is("pair"))
    request = table.sessions[0].pending
    assert isinstance(request, OpenSums)
    while table.sessions[0].slot.kind in ("pair", "shares"):
        table.step()
    seats = [seat for seat, _ in request.sums[0]]
    (outsider,) = set(range(3)) - set(seats)
    for number, session in enumerate(table.sessions):
        claims = {term.seat: term.claimed for terms in session.run.sums.terms.values() for term in terms
                  if term.sum.round == "sum-0" and term.sum.index == 0 and term.seat != number}
        if number == outsider:
            assert set(claims) == set(seats) and set(claims.values()) == {None}  # the shooter and the rest learn only the sum
        else:
            assert None not in claims.values()  # the other candidate reads the share: no more than the sum says


def lie_in_shares(table: SelfPlay, claim) -> tuple[int, int, int]:
    """The next shares message with its first share changed to claim ``claim(true value)``;
    returns the liar, its true value and the other seat of that sum."""
    play_until(table, shares_due)
    seat, kind, body = table.next_message()
    request = table.sessions[0].pending
    index, share = body["shares"][0]
    terms = dict(request.sums[index])
    modulus = masked_sum.modulus(len(terms), request.bound)
    value = table.sessions[seat].run.hidden.own(seat)["ships"][terms[seat]]
    shares = [[index, (share + claim(value) - value) % modulus], *body["shares"][1:]]
    table.deliver(table.seal(seat, kind, dict(body, shares=shares)))
    (partner,) = set(terms) - {seat}
    return seat, value, partner


def test_a_share_claiming_an_impossible_value_is_seen_live_by_the_other_candidate_and_named():
    table = table_of("shared", 3)
    liar, _, partner = lie_in_shares(table, lambda value: 2)
    index = table.sessions[0].envelopes[-1].seq
    assert [(v.index, v.seat, v.rule) for v in table.sessions[partner].violations] == [(index, liar, "sum.bad-share")]
    assert all(not session.violations for number, session in enumerate(table.sessions) if number != partner)
    table.play()
    report = verify(table.transcript_file())
    assert (index, liar, "sum.bad-share") in [(v.index, v.seat, v.rule) for v in report.violations]
    assert {v.seat for v in report.violations} == {liar}


@pytest.mark.parametrize("seed", [b"lie-1", b"lie-2", b"lie-3"])
def test_a_false_share_in_range_is_named_once_the_cell_opens(seed):
    table = table_of("shared", 3, seed=seed)
    liar, _, partner = lie_in_shares(table, lambda value: 1 - value)  # a ship hidden, or one made up
    index = table.sessions[0].envelopes[-1].seq
    assert not any(session.violations for session in table.sessions)  # nobody can tell before the cell opens
    table.play()
    report = verify(table.transcript_file())
    assert (index, liar, "sum.share-mismatch") in [(v.index, v.seat, v.rule) for v in report.violations]
    assert {v.seat for v in report.violations} == {liar}
    # Live: the other candidate named the liar as the cell opened; everyone else saw the sum fail.
    assert (index, liar, "sum.share-mismatch") in [(v.index, v.seat, v.rule) for v in table.sessions[partner].violations]
    for number in set(range(3)) - {liar, partner}:
        assert {(v.seat, v.rule, v.suspects) for v in table.sessions[number].violations} == {
            (None, "sum.mismatch", tuple(sorted((liar, partner))))}


def test_a_pair_key_not_derived_from_the_seed_is_named_and_so_are_the_shares_it_spoils():
    table = table_of("shared", 3)
    play_until(table, slot_is("pair"))
    seat, kind, _ = table.next_message()
    own = table.sessions[seat].run.seeds[seat]
    forged = masked_sum.pair_key_body(type(own)(own.game, seat, bytes(32)))
    table.deliver(table.seal(seat, kind, forged))
    assert not any(session.violations for session in table.sessions)  # nobody can tell live
    table.play()
    report = verify(table.transcript_file())
    rules = {(v.seat, v.rule) for v in report.violations}
    assert (seat, "sum.key-mismatch") in rules and {seat} == {v.seat for v in report.violations if v.seat is not None}


def test_a_malformed_share_is_refused_and_named():
    table = table_of("shared", 3)
    play_until(table, shares_due)
    seat, kind, body = table.next_message()
    lie = table.seal(seat, kind, dict(body, shares=[[0, 7]]))
    with pytest.raises(Rejected) as error:
        table.sessions[0].receive(lie)
    assert (error.value.violation.seat, error.value.violation.rule) == (seat, "sum.malformed")
    first = verify_bytes(file_bytes(table, [lie])).violations[0]
    assert (first.seat, first.rule) == (seat, "sum.malformed")
