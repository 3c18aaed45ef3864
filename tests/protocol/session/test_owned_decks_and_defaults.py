"""Owned decks, blind cards, a card put back on a pile, timed choices with defaults and a
free-for-all's forfeit policy, through real sessions and the verifier (toy game "blind")."""

from __future__ import annotations

import re

import pytest

from fairtable.games.contract import Chosen, Result, RuleError
from fairtable.games.testing.blind import BLIND, CATALOGUE, MAX_SUM, SIZE, blinds
from fairtable.protocol.session import owned
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import all_seeds, file_bytes, play_until, slot_is, verify_bytes

pytestmark = pytest.mark.usefixtures("blind_game")


def blind(seed: bytes = b"blind", seats: int = 3) -> SelfPlay:
    return SelfPlay.create(BLIND.id, "plain", {}, seats, seed)


def deck_of(table: SelfPlay, owner: int) -> range:
    return range(owner * SIZE, (owner + 1) * SIZE)


def test_owned_decks_with_blind_cards_play_and_verify():
    table = blind()
    file = table.play()
    report = verify(file)
    assert report.valid, report.violations
    sent = [envelope.kind for envelope in file.transcript.envelopes]
    assert sent.count("composition") == 3 and sent.index("composition") > sent.index("reveal")
    assert all(sum(table.sessions[0].state.faces.get(h, 0) for h in deck_of(table, s)) <= MAX_SUM for s in range(3))
    assert report.result == table.sessions[1].result


def test_nobody_but_the_owner_knows_its_composition_and_nobody_knows_the_order():
    table = blind()
    play_until(table, slot_is("random"))
    for seat, session in enumerate(table.sessions):
        assert set(session.state.compositions) == {seat} and len(session.state.compositions[seat]) == SIZE
        assert session.view()["deck"] == session.state.compositions[seat]
        known = set(session.state.faces)
        assert known == set(session.state.hands[seat])  # its hand only: not its blind cards, not its pile
        assert not known & set(blinds(seat))
    stage0 = [e.body for e in table.sessions[0].envelopes if e.kind == "deck" and e.body["stage"] == 0]
    assert len(stage0) == 3 and all(set(body) == {"commitment", "deck", "deck-key", "entries", "stage"} for body in stage0)


class Builder:
    """A bot that builds the deck it is given."""

    def __init__(self, cards):
        self.cards = cards

    def choose(self, game, state, seat):
        return game.legal_moves(state, seat)[0]

    def commit(self, game, state, seat, request):
        return self.cards


def test_an_illegal_deck_is_refused_by_its_owners_node():
    table = blind()
    play_until(table, slot_is("deck", seat=0))
    table.bots = (Builder((4, 5, 6, 7, 8, 9)), *table.bots[1:])
    with pytest.raises(RuleError, match=re.escape("blind.deck")):
        table.step()
    table.bots = (Builder((1, 1, 2, 3, 4, 5)), *table.bots[1:])
    with pytest.raises(Rejected, match=re.escape("deck.bad-composition")):
        table.step()


def test_a_seat_that_shuffled_an_illegal_deck_is_named_when_it_reveals_it():
    def illegal(seat, kind, body):
        session = table.sessions[seat]
        if seat == 1 and kind == "deck" and body["stage"] == 0:
            body = owned.choose(session.run, session.run.decks[-1], (4, 5, 6, 7, 8, 9))  # its node would refuse this
        return kind, body

    table = blind()
    while not slot_is("composition", seat=1)(table):
        table.step(illegal)
    envelope = table.seal(1, *table.next_message()[1:])
    with pytest.raises(Rejected) as error:
        table.sessions[2].receive(envelope)
    assert (error.value.violation.seat, error.value.violation.rule) == (1, "blind.deck")
    report = verify_bytes(file_bytes(table, [envelope]))
    assert [(v.seat, v.rule) for v in report.violations] == [(1, "blind.deck")]


def unseen_swap(table: SelfPlay, owner: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """``cards`` with one card nobody saw opened replaced by a catalogue card not in the deck."""
    seen = {session.state.faces[h] for session in table.sessions for h in deck_of(table, owner) if h in session.state.faces}
    hidden = next(card for card in cards if card not in seen)
    other = next(card for card in CATALOGUE if card not in cards and sum(cards) - hidden + card <= MAX_SUM)
    return tuple(sorted({*cards} - {hidden} | {other}))


def test_a_composition_revealed_otherwise_than_committed_is_named_by_the_verifier():
    table = blind()
    play_until(table, slot_is("composition", seat=1))
    _, kind, body = table.next_message()
    lie = table.seal(1, kind, dict(body, cards=list(unseen_swap(table, 1, body["cards"]))))
    table.sessions[2].receive(lie)  # no other node saw the swapped card or knows the salt: it is accepted live
    report = verify_bytes(file_bytes(table, [lie], seeds=all_seeds(table, b"blind")))
    assert [(v.seat, v.rule) for v in report.violations] == [(1, "deck.stage-mismatch"), (1, "deck.composition-mismatch")]
    assert report.violations[0].evidence.body["stage"] == 0 and report.violations[1].evidence == lie


def test_a_composition_missing_a_card_that_was_opened_is_refused_live():
    table = blind()
    while table.sessions[0].slot.kind != "composition":
        table.step()
    seat, kind, body = table.next_message()
    revealed = next(face for h, face in table.sessions[0].state.revealed.items() if h in deck_of(table, seat))
    cards = sorted(set(body["cards"]) - {revealed} | {next(c for c in CATALOGUE if c not in body["cards"])})
    with pytest.raises(Rejected) as error:
        table.sessions[(seat + 1) % 3].receive(table.seal(seat, kind, dict(body, cards=cards)))
    assert (error.value.violation.seat, error.value.violation.rule) == (seat, "deck.composition-mismatch")


def test_a_card_put_back_on_its_pile_is_dealt_again_without_keys_and_stays_its_owners_secret():
    table = blind()
    play_until(table, lambda t: t.sessions[0].state.round == 1)
    back = {seat: table.sessions[seat].state.hands[seat][0] for seat in range(3)}
    assert all(back[seat] in table.sessions[seat].state.faces for seat in range(3))
    keys_before = len(table.sessions[0].envelopes)
    play_until(table, slot_is("random"))
    published = {h for e in table.sessions[0].envelopes[keys_before:] if e.kind == "keys" for h, _ in e.body["keys"]}
    assert published and not published & set(back.values())
    for seat, session in enumerate(table.sessions):
        assert all((back[other] in session.state.faces) == (other == seat) for other in range(3))


def test_a_timed_out_seat_commits_the_default_and_the_game_counts_it():
    table = blind()
    play_until(table, slot_is("choice", seat=2))
    table.deliver(table.seal(2, *table.sessions[2].default_choice_body()))
    events = []
    while not table.finished:
        seat, kind, body = table.next_message()
        envelope = table.seal(seat, kind, body)
        for session in table.sessions:
            events = session.receive(envelope) or events
        if any(isinstance(event, Chosen) for event in events):
            break
    chosen = next(event for event in events if isinstance(event, Chosen))
    assert chosen.defaults == (2,)
    assert table.sessions[0].state.defaults == (0, 0, 1)
    assert verify(table.play()).valid


class Liar(type(BLIND)):  # type: ignore[misc]
    """A cheating node's rules: its "default" is its best card, not its lowest."""

    def default_move(self, state, seat):
        return {"play": max(state.hands[seat], key=lambda handle: state.faces[handle])}


def test_a_false_default_is_named_by_the_verifier():
    table = blind()
    table.sessions[2].game = Liar()
    play_until(table, slot_is("choice", seat=2))
    assert table.sessions[2].game.default_move(table.sessions[2].state, 2) != BLIND.default_move(table.sessions[2].state, 2)
    table.deliver(table.seal(2, *table.sessions[2].default_choice_body()))  # nobody else knows its hand
    report = verify(table.play())
    assert [(v.seat, v.rule) for v in report.violations] == [(2, "choice.not-default")]


def test_a_resigning_seat_is_out_and_the_others_play_on_to_the_end():
    table = blind()
    play_until(table, slot_is("choice", seat=2))
    table.deliver(table.seal(2, *table.sessions[2].resign_body()))
    file = table.play()
    result = table.sessions[0].result
    assert result.reason == "rounds" and result.losers == (2,) and 2 not in result.winners and result.winners
    assert [e.kind for e in file.transcript.envelopes].count("reveal") == 2 + 2  # the round it left is played again without it
    assert verify(file).valid


def test_an_absent_seat_whose_keys_are_still_needed_ends_the_game_with_the_default_result():
    table = blind()
    play_until(table, slot_is("choice", seat=2))
    claim = table.claim_absent()
    assert table.sessions[0].state.out == (2,)  # the game goes on without it: seats 0 and 1 choose again
    play_until(table, slot_is("keys"))  # the next deal needs seat 2's keys
    file = table.play()
    assert table.sessions[0].result == Result((), "absent", losers=(2,))
    assert not any(envelope.seat == 2 for envelope in file.transcript.envelopes[claim.seq:])
    report = verify(file)
    assert report.valid and [a.seat for a in report.absences] == [2]  # a forfeit on the claimant's word
    assert report.result == table.sessions[1].result


def test_choices_revealed_before_an_absence_stand():
    table = blind()
    play_until(table, slot_is("reveal", seat=2))
    committed = [table.sessions[seat].run.private[f"choice-0-{seat}"] for seat in (0, 1)]
    events = []
    claim, *_ = table.absence_claims()
    for session in table.sessions:
        events = session.receive(claim)
    chosen = next(event for event in events if isinstance(event, Chosen))
    assert chosen == Chosen((*committed, None), (), (2,))
    assert table.sessions[0].state.out == (2,) and table.sessions[0].state.step == "show"


def test_a_restarted_owner_reveals_the_composition_it_persisted():
    from fairtable.protocol import codec
    from fairtable.protocol.session.table import TableSession
    from fairtable.protocol.testing import derive

    table = blind()
    play_until(table, slot_is("composition", seat=1))
    saved = codec.decode(codec.encode(table.sessions[1].private_value()))
    restarted = TableSession(table.genesis, seat=1, secret=derive(b"blind", "secret", 1), private=saved)
    for envelope in table.sessions[0].envelopes:
        restarted.receive(envelope)
    assert restarted.outgoing() == table.sessions[1].outgoing()
    assert restarted.outgoing()[1]["cards"] == list(table.sessions[1].state.compositions[1])


def test_every_committed_choice_changes_the_private_value_a_node_journals_before_it_sends():
    """A node writes a ``Choices`` record when a decision changes the private value; a value that
    aliased the live choices compared equal before and after, and a salvo was never journaled."""
    table = blind()
    play_until(table, slot_is("choice", seat=0))
    session = table.sessions[0]
    before = session.private_value()
    table.step()
    assert session.private_value() != before
