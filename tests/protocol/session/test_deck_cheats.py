"""A shuffle stage that substitutes or copies a card, at every stage position, for 2 to 4 seats,
at protocol version 2 tables, which carry no proofs (version 3 refuses these stages on receipt:
``test_proved_decks``).

The cheating seat signs its stage with its own key. Whatever the live seats see (a card that
opens to no card, two positions opening to one card, or nothing at all), the game ends
without a crash, and the verifier, with every seed, names the stage's author and nobody else.
"""

from typing import Any

import pytest

from fairtable.games.bots import decision
from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair.group import multiply
from fairtable.protocol.fair.mental_deck import LOCK, SHUFFLE, run_stage
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.session.verify import verify
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import all_seeds, file_bytes, towers, verify_bytes

pytestmark = pytest.mark.usefixtures("tricks_game")

TWO = (2).to_bytes(32, "little")


def substitute(table: SelfPlay, seat: int, body: dict) -> list[bytes]:
    """Entry 0 replaced by twice itself: a group point that opens to no card."""
    entries = list(body["entries"])
    entries[0] = multiply(TWO, [entries[0]])[0]
    return entries


def duplicate(table: SelfPlay, seat: int, body: dict) -> list[bytes]:
    """Position 0 computed from the input that feeds position 1, with the author's own keys:
    after the last stage both positions open to one card (or, at a plain shuffle, the two
    entries are equal)."""
    record = table.sessions[seat].run.decks[-1]
    deck, index = record.deck, body["stage"]
    previous = table.sessions[0].envelopes[-1]
    inputs = list(previous.body["entries"]) if index else list(deck.initial())
    keys = record.keys_of(seat)
    kind = deck.stages[index].kind
    source, target = (1, 0) if kind == LOCK else (keys.permutation[1], keys.permutation[0])
    inputs[target] = inputs[source]
    return list(run_stage(deck, index, keys, inputs))


def cheat_at(stage: int, change):
    def tamper(seat, kind, body):
        if kind == "deck" and body["deck"] == "deck-0" and body["stage"] == stage:
            return kind, dict(body, entries=change(TABLE[0], seat, body))
        return kind, body
    return tamper


TABLE: list[SelfPlay] = []


def play_with(table: SelfPlay, stage: int, change):
    """Play to the end with the cheat; returns the stage envelope and whether live seats refused it."""
    TABLE[:] = [table]
    tamper = cheat_at(stage, change)
    bad = None
    while not table.finished:
        seat, kind, body = table.next_message()
        kind, body = tamper(seat, kind, body)
        envelope = table.seal(seat, kind, body)
        if kind == "deck" and body["stage"] == stage and body["deck"] == "deck-0":
            bad = envelope
        try:
            table.deliver(envelope)
        except Rejected as rejected:
            return bad, rejected.violation
    return bad, None


CASES = [(seats, stage, change) for seats in (2, 3, 4) for stage in range(2 * seats - 1) for change in (substitute, duplicate)]


@pytest.mark.parametrize("seats, stage, change", CASES, ids=[f"{n}-seats-stage-{s}-{c.__name__}" for n, s, c in CASES])
def test_a_cheating_stage_names_its_author_only(seats, stage, change):
    table = SelfPlay.create("tricks", "deck", {}, seats, f"deck-cheat-{seats}-{stage}".encode(), version=2)
    bad, refused = play_with(table, stage, change)
    author = bad.seat
    assert author == table.sessions[0].run.decks[0].deck.stages[stage].seat
    if refused is not None:
        # Two equal entries: every seat refuses the stage at once, naming its author.
        assert table.sessions[0].run.decks[0].deck.stages[stage].kind == SHUFFLE and change is duplicate
        assert (refused.index, refused.seat, refused.rule) == (bad.seq, author, "deck.duplicate-entry")
        report = verify_bytes(file_bytes(table, [bad]))
        assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, author, "deck.duplicate-entry")]
        return
    assert table.sessions[0].result is not None
    report = verify(table.transcript_file())
    assert report.status == "violation"
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, author, "deck.stage-mismatch")]
    assert all(v.evidence == bad for v in report.violations)


@pytest.mark.parametrize("change", [substitute, duplicate])
@pytest.mark.parametrize("stage", [0, 1, 2])
def test_a_cheating_towers_stage_names_its_author_only(stage, change):
    table = towers(f"towers-cheat-{stage}".encode(), version=2)
    bad, refused = play_with(table, stage, change)
    if refused is not None:
        assert (refused.seat, refused.rule) == (bad.seat, "deck.duplicate-entry")
        return
    report = verify(table.transcript_file())
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, bad.seat, "deck.stage-mismatch")]


class FirstCard:
    """Plays the first card of its hand."""

    def choose(self, game, state, seat):
        return game.legal_moves(state, seat)[0]


def copy_into(target: int, source: int):
    """At the shuffle-lock stage: final position ``target`` opens to the card of ``source``."""
    def change(table, seat, body):
        record = table.sessions[seat].run.decks[-1]
        keys = record.keys_of(seat)
        inputs = list(table.sessions[0].envelopes[-1].body["entries"])
        inputs[keys.permutation[target]] = inputs[keys.permutation[source]]
        return list(run_stage(record.deck, body["stage"], keys, inputs))
    return change


@pytest.mark.parametrize("seats", [2, 3])
def test_a_card_copied_into_another_hand_is_caught_when_shown_and_nobody_honest_is_blamed(seats):
    """Seat 0 holds the card at position 0 and seat 1 a copy at position 2: nobody can tell
    until seat 0 shows it. Every seat accepts that honest play (whether it repeats a card
    depends on what a seat holds, so it cannot decide acceptance); seat 1, which holds the
    copy, disputes; the verifier names the shuffle-lock's author."""
    table = SelfPlay.create("tricks", "deck", {}, seats, b"copied", version=2)
    table.bots = tuple(FirstCard() for _ in range(seats))
    stage = seats - 1  # the shuffle-lock stage
    bad, refused = play_with(table, stage, copy_into(2, 0))
    assert refused is None
    envelopes = table.sessions[0].envelopes
    play = next(e for e in envelopes if e.kind == "move")
    dispute = next(e for e in envelopes if e.kind == "dispute")
    assert (play.seat, dispute.seat, dispute.seq) == (0, 1, play.seq + 1)
    assert all(session.result.reason == "disputed" for session in table.sessions)
    assert len({session.head for session in table.sessions}) == 1
    found = table.sessions[1].violations
    assert [(v.index, v.seat, v.rule) for v in found] == [(play.seq, None, "deck.card-repeated")] and found[0].evidence == play
    report = verify(table.transcript_file())
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, bad.seat, "deck.stage-mismatch")]


def play_on_past_findings(table: SelfPlay, stage: int, change) -> tuple[Envelope, Envelope | None]:
    """Play with the cheat while no seat disputes what it finds (a card dealt to it that opens to
    no card): the stage envelope, and the first envelope the others refuse, if any."""
    tamper = cheat_at(stage, change)
    TABLE[:] = [table]
    bad = None
    while not table.finished:
        slot = table.sessions[0].slot
        session = table.sessions[slot.seat]
        kind, body = session.outgoing() or unchecked_decision(table, slot.seat)
        kind, body = tamper(slot.seat, kind, body)
        envelope = table.seal(slot.seat, kind, body)
        if kind == "deck" and body["stage"] == stage and body["deck"] == "deck-0":
            bad = envelope
        try:
            table.deliver(envelope)
        except Rejected:
            assert bad is not None
            return bad, envelope
    assert bad is not None
    return bad, None


def unchecked_decision(table: SelfPlay, seat: int) -> tuple[str, Any]:
    """The seat's decision; a move whose card opens to no card for its own session too is sent
    all the same, with the seat's own (derived) key."""
    session = table.sessions[seat]
    chosen = decision(table.bots[seat], session.game, session.state, seat)
    try:
        return session.decide(chosen)
    except Rejected:
        return "move", session.run.move_body(seat, chosen, session.game.reveals(session.state, chosen))


class SpoiledFirst:
    """Plays a card its own session could not open, if it holds one (else its first card)."""

    def __init__(self, table: SelfPlay) -> None:
        self.table = table

    def choose(self, game, state, seat):
        hand = state.hands[seat]
        known = self.table.sessions[seat].run.known_faces
        return {"play": next((handle for handle in hand if handle not in known), hand[0])}


def spoil(index: int):
    """Entry ``index`` of a stage replaced by twice itself: a group point that opens to no card."""
    def change(table: SelfPlay, seat: int, body: dict) -> list[bytes]:
        entries = list(body["entries"])
        entries[index] = multiply(TWO, [entries[index]])[0]
        return entries
    return change


def spoiled_reveal(seats: int, stage: int) -> tuple[SelfPlay, bytes, Envelope, Envelope]:
    """A table where a spoiled card lands in an honest seat's hand and it shows it: the first
    entry, trying them in turn, whose card is dealt so (where it lands depends on the shuffle)."""
    seed = f"spoiled-{seats}-{stage}".encode()
    for index in range(3 * seats + 1):
        table = SelfPlay.create("tricks", "deck", {}, seats, seed, version=2)
        table.bots = tuple(SpoiledFirst(table) for _ in range(seats))
        bad, refused = play_on_past_findings(table, stage, spoil(index))
        if refused is not None and refused.kind == "move" and refused.seat != bad.seat:
            return table, seed, bad, refused
    raise AssertionError("no spoiled entry was dealt to an honest seat")


SUBSTITUTED = [(seats, stage) for seats in (2, 3, 4) for stage in range(2 * seats - 1)]


@pytest.mark.parametrize("seats, stage", SUBSTITUTED, ids=[f"{n}-seats-stage-{s}" for n, s in SUBSTITUTED])
def test_an_honest_seat_that_shows_a_card_a_false_stage_spoiled_is_not_named(seats, stage):
    """The false stage's author is named at its stage; the honest seat that later shows the card
    that stage spoiled (its own key the derived one) is not named for the failed opening
    (``deck.bad-reveal``), at whatever stage and with however many seats."""
    table, seed, bad, refused = spoiled_reveal(seats, stage)
    report = verify_bytes(file_bytes(table, [refused], all_seeds(table, seed)))
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, bad.seat, "deck.stage-mismatch")]
