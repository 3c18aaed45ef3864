"""Cheats at a real four-seat shengji table, each seat signing with its own key: what the other
nodes catch live, and the renege nobody else can see, which the verifier names with the seat,
the trick and the cards."""

from __future__ import annotations

import pytest

from fairtable.games.shengji import game as rules
from fairtable.games.shengji.catalogue import CARDS
from fairtable.games.shengji.game import lead_of
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.transcript_file import dump
from tests.protocol.session.tables import file_bytes, play_until, slot_is, verify_bytes

OPTIONS = {"deals": 1}


def table(seed: bytes = b"shengji-cheats") -> SelfPlay:
    return SelfPlay.create("shengji", "standard", OPTIONS, 4, seed, ["greedy", "random", "greedy", "random"])


def renege_due(t: SelfPlay) -> bool:
    """A single was led and the seat due holds the led suit and another card too."""
    slot = t.sessions[0].slot
    if slot is None or slot.kind != "move":
        return False
    seat = slot.seat
    state = t.sessions[seat].state
    lead = lead_of(state) if state.step == "play" else None
    if lead is None or lead.size != 1 or state.trick[-1].seat == seat:
        return False
    suits = {state.order.suit(state.faces[h]) for h in state.hands[seat]}
    return lead.suit in suits and len(suits) > 1


def test_a_renege_passes_live_and_the_verifier_names_the_seat_the_trick_and_the_cards(monkeypatch):
    t = table()
    play_until(t, renege_due)
    seat = t.sessions[0].slot.seat
    own = t.sessions[seat]
    state = own.state
    lead = lead_of(state)
    card = next(h for h in state.hands[seat] if state.order.suit(state.faces[h]) != lead.suit)
    envelope = t.seal(seat, "move", own.run.move_body(seat, {"play": card}, (card,)))
    index = len(own.envelopes)
    with pytest.raises(Rejected) as refused:  # the cheater's own node, which knows its hand, would refuse it
        own.receive(envelope)
    assert refused.value.violation.rule == "shengji.follow"
    for other, session in enumerate(t.sessions):
        if other != seat:
            session.receive(envelope)  # nobody else can tell
    with monkeypatch.context() as patched:  # the cheater's node runs rules without the follow check
        patched.setattr(rules, "follow_fault", lambda *args: None)
        own.receive(envelope)
    t.play()  # the deal goes on to the end, seeds and all
    assert all(session.violations == [] for session in t.sessions)
    report = verify_chunks([dump(t.transcript_file())])
    assert not report.valid
    (violation,) = report.violations
    assert (violation.index, violation.seat, violation.rule) == (index, seat, "shengji.follow")
    assert violation.evidence == envelope
    trick = state.tricks + 1
    suited = [CARDS[state.faces[h]].code for h in state.hands[seat] if state.order.suit(state.faces[h]) == lead.suit]
    assert f"seat {seat} in trick {trick}" in violation.detail
    assert all(code in violation.detail for code in suited) and f"played {CARDS[state.faces[card]].code}" in violation.detail


def assert_caught_live(t: SelfPlay, seat: int, move, shows, rule: str) -> None:
    """Every other node refuses the seat's signed move at once, and the verifier agrees."""
    own = t.sessions[seat]
    envelope = t.seal(seat, "move", own.run.move_body(seat, move, shows))
    index = len(own.envelopes)
    for other, session in enumerate(t.sessions):
        if other != seat:
            with pytest.raises(Rejected) as refused:
                session.receive(envelope)
            assert (refused.value.violation.index, refused.value.violation.seat, refused.value.violation.rule) == (index, seat, rule)
    report = verify_bytes(file_bytes(t, [envelope]))
    assert (report.violations[0].index, report.violations[0].seat, report.violations[0].rule) == (index, seat, rule)


def test_declaring_with_a_card_that_is_no_level_card_is_caught_live():
    t = table()
    play_until(t, slot_is("move"))
    seat = t.sessions[0].slot.seat
    state = t.sessions[seat].state
    card = next(h for h in state.hands[seat] if CARDS[state.faces[h]].rank not in (state.level,) and not CARDS[state.faces[h]].joker)
    assert_caught_live(t, seat, {"declare": [card]}, (card,), "shengji.declare")


def test_leading_a_throw_is_caught_live():
    t = table()
    play_until(t, lambda t: slot_is("move")(t) and t.sessions[0].state.step == "play" and not t.sessions[0].state.trick)
    seat = t.sessions[0].slot.seat
    state = t.sessions[seat].state
    hand = state.hands[seat]
    pair = next((a, b) for a in hand for b in hand if a < b and state.order.suit(state.faces[a]) != state.order.suit(state.faces[b]))
    assert_caught_live(t, seat, {"lead": list(pair)}, pair, "shengji.lead")


def test_burying_a_card_the_dealer_does_not_hold_is_caught_live():
    t = table()
    play_until(t, lambda t: slot_is("move")(t) and t.sessions[0].state.step == "bury")
    seat = t.sessions[0].slot.seat
    other = t.sessions[0].state.hands[(seat + 1) % 4][0]
    assert_caught_live(t, seat, {"bury": other}, (), "shengji.hand")
