"""Drachenherz cheats through real sessions: a seat signing illegal moves with its own key is
refused live by the other seat and named by the verifier, with its envelope as evidence."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fairtable.games.drachenherz.board import free
from fairtable.games.drachenherz.catalogue import kind_of
from fairtable.games.drachenherz.moves import default
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import file_bytes, play_until, slot_is, verify_bytes


def table(seed: bytes = b"drachenherz", options: dict | None = None) -> SelfPlay:
    return SelfPlay.create("drachenherz", "standard", options or {}, 2, seed, ["greedy", "random"])


def table_where(condition: Callable[[SelfPlay], bool]) -> SelfPlay:
    """The first seeded table on which ``condition`` comes to hold, stopped there."""
    for seed in range(20):
        t = table(b"seed %d" % seed)
        while not t.finished:
            if condition(t):
                return t
            t.step()
    raise AssertionError("no table came to the condition")


def mover_state(t: SelfPlay):
    """The seat due to move and its own node's state."""
    seat = t.sessions[0].slot.seat
    return seat, t.sessions[seat].state


def at_move(condition: Callable) -> Callable[[SelfPlay], bool]:
    """Before a move whose seat's own state satisfies ``condition(state, seat)``."""
    def check(t: SelfPlay) -> bool:
        if not slot_is("move")(t):
            return False
        seat, state = mover_state(t)
        return condition(state, seat)
    return check


def cheat(t: SelfPlay, move: dict) -> Envelope:
    """The mover's envelope for ``move``, opening the cards it lays, signed with its own key."""
    seat, _ = mover_state(t)
    return t.seal(seat, "move", t.sessions[seat].run.move_body(seat, move, tuple(move["play"])))


def assert_caught(t: SelfPlay, envelope: Envelope, rule: str) -> None:
    index = len(t.sessions[0].envelopes)
    other = t.sessions[1 - envelope.seat]
    head = other.head
    with pytest.raises(Rejected) as error:
        other.receive(envelope)
    assert other.head == head
    found = error.value.violation
    assert (found.index, found.seat, found.rule) == (index, envelope.seat, rule)
    report = verify_bytes(file_bytes(t, [envelope]))
    first = report.violations[0]
    assert not report.valid and (first.index, first.seat, first.rule) == (index, envelope.seat, rule)
    assert first.evidence == envelope


def kinds_in_hand(state, seat) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for handle in state.hands[seat]:
        found.setdefault(kind_of(state.faces[handle]).id, []).append(handle)
    return found


def test_laying_two_kinds_at_once():
    t = table()
    play_until(t, at_move(lambda state, seat: len(kinds_in_hand(state, seat)) >= 2))
    seat, state = mover_state(t)
    first, second = list(kinds_in_hand(state, seat).values())[:2]
    assert_caught(t, cheat(t, {"play": sorted([first[0], second[0]])}), "drachenherz.kind")


def test_passing_with_cards_in_hand():
    t = table()
    play_until(t, slot_is("move"))
    assert_caught(t, cheat(t, {"play": []}), "drachenherz.pass")


def test_overfilling_a_slotted_field():
    def overfull(state, seat):
        return any((room := free(state.board, kind_of(state.faces[hs[0]]))) is not None and len(hs) > room
                   for hs in kinds_in_hand(state, seat).values())
    t = table_where(at_move(overfull))
    seat, state = mover_state(t)
    handles = next(hs for hs in kinds_in_hand(state, seat).values() if (room := free(state.board, kind_of(state.faces[hs[0]]))) is not None
                   and len(hs) > room)
    assert_caught(t, cheat(t, {"play": sorted(handles)}), "drachenherz.slots")


@pytest.mark.parametrize("take", [None, "troll"])
def test_a_princess_without_its_choice_or_with_a_hero_s(take):
    """With chests or petrified dragons on the board a princess must take a pile: naming none is no play."""
    t = table()
    play_until(t, at_move(lambda state, seat: "princess" in kinds_in_hand(state, seat) and bool(state.board["chest"] or state.board["fossil"])))
    seat, state = mover_state(t)
    move = {"play": kinds_in_hand(state, seat)["princess"][:1]}
    if take:
        move["take"] = take
    assert_caught(t, cheat(t, move), "drachenherz.take")


def test_a_card_put_back_on_the_pile_cannot_be_played_before_it_is_drawn_again():
    t = table_where(at_move(lambda state, seat: bool(set(state.returned) & set(state.piles[seat]))))
    seat, state = mover_state(t)
    (back,) = set(state.returned) & set(state.piles[seat])
    assert state.faces[back] is not None and back not in t.sessions[1 - seat].state.faces  # only its owner knows it
    assert_caught(t, cheat(t, {"play": [back]}), "drachenherz.hand")


def test_a_card_of_the_own_pile_never_dealt_is_not_held():
    t = table()
    play_until(t, slot_is("move"))
    seat, state = mover_state(t)
    hidden = state.piles[seat][-1]
    run = t.sessions[seat].run
    record, position = run.handles[hidden]
    key = record.keys_of(seat).position_keys[position]
    envelope = t.seal(seat, "move", {"faces": [], "keys": [[hidden, key]], "move": {"play": [hidden]}})
    assert_caught(t, envelope, "session.not-held")


def test_a_timeout_that_is_not_the_timer_s_move():
    t = table()
    play_until(t, at_move(lambda state, seat: len(state.hands[seat]) >= 2))
    seat, state = mover_state(t)
    honest = default(state, seat)
    other = next(h for h in state.hands[seat] if h != honest["play"][0])
    assert_caught(t, cheat(t, {"play": [other], **({"take": honest["take"]} if "take" in honest else {}), "timeout": True}),
                  "drachenherz.timeout")


def test_a_put_back_card_drawn_again_costs_no_key_and_stays_hidden_from_the_other_seat():
    t = table_where(at_move(lambda state, seat: bool(set(state.returned) & set(state.piles[seat]))))
    owner, state = mover_state(t)
    (back,) = set(state.returned) & set(state.piles[owner])
    known = state.faces[back]
    t.step()  # the owner's play; its refill draws the put-back card first
    start = len(t.sessions[0].envelopes)
    while back not in t.sessions[owner].state.hands[owner]:
        t.step()
    sent = t.sessions[0].envelopes[start:]
    assert "move" not in [envelope.kind for envelope in sent]  # drawn at that same refill
    assert all(back not in [h for h, _ in envelope.body["keys"]] for envelope in sent if envelope.kind == "keys")
    assert t.sessions[owner].state.faces[back] == known and back not in t.sessions[1 - owner].state.faces


def test_an_honest_match_verifies_with_every_game_s_result():
    t = table(b"match", {"match": 2})
    t.play()
    report = verify_bytes(file_bytes(t))
    assert report.valid and report.result.reason == "match" and 2 in report.result.scores
    assert len(report.deals) >= 2 and all(deal.reason in ("points", "dragon", "draw") for deal in report.deals)
