"""Protocol version 3 (fairness.md §12.8): every cheat class of issue 30 at every stage it applies to,
for 2, 3 and 4 seats, is refused on receipt by every other seat, naming its author with its signed
envelope as evidence, before any position of the deck opens; the verifier refuses it the same way.

The cheating seat computes its stage as the class says and, where it can, proves it again with
its own keys (a proof for the statement it would like to be true), then signs it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.fair.deck_proofs import LOCK_PROOF, SHUFFLE_PROOF, commit_keys, prove_stage, proven_stage_body
from fairtable.protocol.fair.edwards import mul
from fairtable.protocol.fair.group import ORDER
from fairtable.protocol.fair.mental_deck import LOCK, SHUFFLE, Deck
from fairtable.protocol.fair.seeds import GameRef
from fairtable.protocol.session.errors import Rejected
from fairtable.protocol.testing import SelfPlay
from tests.protocol.session.tables import file_bytes, verify_bytes

pytestmark = pytest.mark.usefixtures("tricks_game")

Cheat = Callable[[SelfPlay, int, dict], dict]


def _context(table: SelfPlay, seat: int, index: int):
    session = table.sessions[seat]
    record = session.run.decks[-1]
    inputs = tuple(session.envelopes[-1].body["entries"]) if index else record.deck.initial()
    return record, inputs


def _proved(table: SelfPlay, seat: int, index: int, inputs: tuple[bytes, ...], *, deck: Deck | None = None,
            keys_change: Callable | None = None) -> dict:
    """Stage ``index`` computed from ``inputs`` and proved with the author's keys (changed by
    ``keys_change``) against its real commitments, the proof bound to ``deck`` (default: this one)."""
    record, _ = _context(table, seat, index)
    keys = record.keys_of(seat)
    commitments = commit_keys(keys)
    used = keys_change(keys) if keys_change else keys
    stage = prove_stage(deck or record.deck, index, record.run.seeds[seat], used, commitments, inputs)
    return proven_stage_body(record.deck, index, stage, commitments)


def substitute(table: SelfPlay, seat: int, body: dict) -> dict:
    """Entry 0 replaced by twice itself: a point the author prepared, the honest proof kept."""
    entries = list(body["entries"])
    entries[0] = mul(2, entries[0])
    return dict(body, entries=entries)


def copy(table: SelfPlay, seat: int, body: dict) -> dict:
    """The input feeding position 0 fed to position 1 too (a card the author can trace), proved again."""
    record, inputs = _context(table, seat, body["stage"])
    keys = record.keys_of(seat)
    changed = list(inputs)
    kind = record.deck.stages[body["stage"]].kind
    source, target = (0, 1) if kind == LOCK else (keys.permutation[0], keys.permutation[1])
    changed[target] = changed[source]
    return _proved(table, seat, body["stage"], tuple(changed))


def drop(table: SelfPlay, seat: int, body: dict) -> dict:
    """The last entry left out."""
    return dict(body, entries=list(body["entries"])[:-1])


def wrong_deck_key(table: SelfPlay, seat: int, body: dict) -> dict:
    """Reordered and re-keyed under another deck key than the committed one."""
    _, inputs = _context(table, seat, body["stage"])
    return _proved(table, seat, body["stage"], inputs, keys_change=lambda keys: dataclasses.replace(keys, deck_key=(2).to_bytes(32, "little")))


def wrong_position_key(table: SelfPlay, seat: int, body: dict) -> dict:
    """Position 0 locked under another key than its commitment ``K_0``."""
    _, inputs = _context(table, seat, body["stage"])

    def change(keys):
        wrong = (int.from_bytes(keys.position_keys[0], "little") * 2 % ORDER).to_bytes(32, "little")
        return dataclasses.replace(keys, position_keys=(wrong, *keys.position_keys[1:]))
    return _proved(table, seat, body["stage"], inputs, keys_change=change)


def stale_input(table: SelfPlay, seat: int, body: dict) -> dict:
    """Built on the deck's first input instead of the previous stage's entries."""
    record, _ = _context(table, seat, body["stage"])
    return _proved(table, seat, body["stage"], record.deck.initial())


def replayed_from_another_table(table: SelfPlay, seat: int, body: dict) -> dict:
    """The same stage, proved for the same deck of another table."""
    record, inputs = _context(table, seat, body["stage"])
    other = dataclasses.replace(record.deck, game=GameRef(bytes(32), 0))
    return _proved(table, seat, body["stage"], inputs, deck=other)


def replayed_from_another_deck(table: SelfPlay, seat: int, body: dict) -> dict:
    """The same stage, proved for another deck of this game."""
    record, inputs = _context(table, seat, body["stage"])
    return _proved(table, seat, body["stage"], inputs, deck=dataclasses.replace(record.deck, name="deck-9"))


def missing_proof(table: SelfPlay, seat: int, body: dict) -> dict:
    """The stage without its (last) proof."""
    return {key: value for key, value in body.items() if key != (LOCK_PROOF if LOCK_PROOF in body else SHUFFLE_PROOF)}


CHEATS: dict[Cheat, frozenset[str]] = {
    substitute: frozenset({"deck.bad-proof"}),
    copy: frozenset({"deck.bad-proof", "deck.duplicate-entry"}),  # a shuffle's copy repeats an entry
    drop: frozenset({"deck.wrong-count"}),
    wrong_deck_key: frozenset({"deck.bad-proof"}),
    wrong_position_key: frozenset({"deck.bad-proof"}),
    stale_input: frozenset({"deck.bad-proof"}),
    replayed_from_another_table: frozenset({"deck.bad-proof"}),
    replayed_from_another_deck: frozenset({"deck.bad-proof"}),
    missing_proof: frozenset({"deck.bad-proof"}),
}


def applies(cheat: Cheat, kind: str, stage: int) -> bool:
    """A position key is used only where a stage locks; a stale input needs an earlier stage."""
    return not ((cheat is wrong_position_key and kind == SHUFFLE) or (cheat is stale_input and stage == 0))


def cheat_refused(seats: int, stage: int, cheat: Cheat) -> None:
    """Play to the cheating stage; every other seat refuses it naming its author, no position of
    the deck has opened, and the verifier of the file with the stage in it says the same."""
    table = SelfPlay.create("tricks", "deck", {}, seats, f"proved-{seats}-{stage}".encode())
    while True:
        seat, kind, body = table.next_message()
        if kind == "deck" and body["stage"] == stage:
            break
        table.deliver(table.seal(seat, kind, body))
    author = table.sessions[0].run.decks[0].deck.stages[stage].seat
    bad = table.seal(seat, kind, cheat(table, seat, body))
    for other, session in enumerate(table.sessions):
        if other == author:
            continue
        with pytest.raises(Rejected) as refused:
            session.receive(bad)
        found = refused.value.violation
        assert (found.index, found.seat, found.evidence) == (bad.seq, author, bad)
        assert found.rule in CHEATS[cheat], found
        assert session.run.decks[0].opened == {} and session.run.known_faces == {}
    report = verify_bytes(file_bytes(table, [bad]))
    assert [(v.index, v.seat, v.rule in CHEATS[cheat]) for v in report.violations] == [(bad.seq, author, True)]


def _kinds(seats: int) -> list[str]:
    return [stage.kind for stage in Deck.public(GameRef(bytes(32), 0), "d", list(range(seats)), [0, 1]).stages]


CASES = [(seats, stage, cheat) for seats in (2, 3, 4) for stage, kind in enumerate(_kinds(seats))
         for cheat in CHEATS if applies(cheat, kind, stage)]


@pytest.mark.parametrize("seats, stage, cheat", CASES, ids=[f"{n}-seats-stage-{s}-{c.__name__}" for n, s, c in CASES])
def test_every_cheating_stage_is_refused_on_receipt_naming_its_author(seats, stage, cheat):
    cheat_refused(seats, stage, cheat)


def _wrong_key(keys_field: list) -> list:
    (handle, key), *rest = keys_field
    return [[handle, (int.from_bytes(key, "little") * 2 % ORDER).to_bytes(32, "little")], *rest]


@pytest.mark.parametrize("message", ["keys", "move"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_wrong_position_key_is_refused_on_receipt_naming_its_sender(seats, message):
    """A published key that is not its commitment's (``k·G ≠ K``), in a deal's keys or a move's
    reveal, is refused as ``deck.bad-key`` naming its sender before anything opens with it."""
    table = SelfPlay.create("tricks", "deck", {}, seats, f"bad-key-{seats}".encode())
    while True:
        seat, kind, body = table.next_message()
        if kind == message and body["keys"]:
            break
        table.deliver(table.seal(seat, kind, body))
    bad = table.seal(seat, kind, dict(body, keys=_wrong_key(body["keys"])))
    for other, session in enumerate(table.sessions):
        if other != seat:
            with pytest.raises(Rejected) as refused:
                session.receive(bad)
            assert (refused.value.violation.seat, refused.value.violation.rule, refused.value.violation.evidence) == (seat, "deck.bad-key", bad)
    report = verify_bytes(file_bytes(table, [bad]))
    assert [(v.index, v.seat, v.rule) for v in report.violations] == [(bad.seq, seat, "deck.bad-key")]


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.data())
def test_no_opening_at_a_proved_table_ever_suspects_every_seat(seats, data):
    """The attacks that made version 2 tables end in ``deck.no-card`` or ``deck.card-repeated``
    with every seat a suspect (a substituted or copied entry, a wrong key) end at a version 3
    table as a refusal naming the cheat, whatever the stage."""
    stage = data.draw(st.integers(0, 2 * seats - 2))
    kind = _kinds(seats)[stage]
    cheat = data.draw(st.sampled_from([c for c in (substitute, copy, wrong_deck_key, wrong_position_key) if applies(c, kind, stage)]))
    cheat_refused(seats, stage, cheat)


def play(table: SelfPlay) -> list[Envelope]:
    table.play()
    return list(table.sessions[0].envelopes)


def test_a_version_2_table_still_plays_and_verifies_without_proofs():
    """The same game at version 2: stages carry no proof, and the verifier says so."""
    table = SelfPlay.create("tricks", "deck", {}, 3, b"v2", version=2)
    stages = [e.body for e in play(table) if e.kind == "deck"]
    assert stages and all(set(body) == {"deck", "entries", "stage"} for body in stages)
    report = verify_bytes(file_bytes(table))
    assert report.valid and report.version == 2


def test_a_version_3_table_proves_every_stage_and_every_show():
    table = SelfPlay.create("tricks", "plain", {"partners": True}, 4, b"v3")
    envelopes = play(table)
    stages = [e.body for e in envelopes if e.kind == "deck"]
    assert stages and all(LOCK_PROOF in body or SHUFFLE_PROOF in body for body in stages)
    unblinds = [e.body for e in envelopes if e.kind == "unblind"]
    assert unblinds and all("proof" in body for body in unblinds)
    report = verify_bytes(file_bytes(table))
    assert report.valid and report.version == 3


def refused_by_others(table: SelfPlay, find: Callable[[str, dict], bool], change: Callable[[dict], dict]) -> tuple[Envelope, list]:
    """Play until the message ``find`` picks, send it changed: every other seat's refusal."""
    while True:
        seat, kind, body = table.next_message()
        if find(kind, body):
            break
        table.deliver(table.seal(seat, kind, body))
    bad = table.seal(seat, kind, change(body))
    found = []
    for other, session in enumerate(table.sessions):
        if other != seat:
            with pytest.raises(Rejected) as refused:
                session.receive(bad)
            found.append(refused.value.violation)
    return bad, found


def hidden_stage(stage: int) -> Callable[[str, dict], bool]:
    return lambda kind, body: kind == "deck" and body["deck"] == "deck-0" and body["stage"] == stage


@pytest.mark.usefixtures("blind_game")
@pytest.mark.parametrize("seats", [2, 3])
def test_a_hidden_decks_later_stages_are_proved_like_any_other(seats):
    """A hidden deck (its owner's secret composition, fairness.md §5.8): a substituted entry in the
    next seat's stage is refused on receipt naming that seat."""
    table = SelfPlay.create("blind", "plain", {}, seats, b"hidden-proved")
    bad, found = refused_by_others(table, hidden_stage(1), lambda body: dict(body, entries=[mul(2, body["entries"][0]), *body["entries"][1:]]))
    assert found and all((v.seat, v.rule, v.evidence) == (bad.seat, "deck.bad-proof", bad) for v in found)


@pytest.mark.usefixtures("blind_game")
@pytest.mark.parametrize("change, rule", [
    (lambda body: dict(body, entries=[b"\xff" * 32, *body["entries"][1:]]), "deck.invalid-point"),
    (lambda body: {key: value for key, value in body.items() if key != "deck-key"}, "deck.bad-proof"),
], ids=["not-a-point", "no-deck-key"])
def test_a_hidden_decks_unproved_first_stage_is_checked_for_points_and_its_key(change, rule):
    """Stage 0 of a hidden deck proves nothing (its input is the owner's secret), but its entries
    must be group points and it must commit its deck key: else it is refused naming the owner."""
    table = SelfPlay.create("blind", "plain", {}, 2, b"hidden-first")
    bad, found = refused_by_others(table, hidden_stage(0), change)
    owner = table.sessions[0].run.decks[0].deck.owner
    assert bad.seat == owner and {(v.seat, v.rule) for v in found} == {(owner, rule)}


@pytest.mark.parametrize("change", [
    lambda body: {key: value for key, value in body.items() if key != "proof"},
    lambda body: dict(body, proof=dict(body["proof"], challenge=bytes(32))),
], ids=["missing", "false"])
def test_an_unblinding_without_its_proof_is_refused_naming_the_holder(change):
    table = SelfPlay.create("tricks", "plain", {"partners": True}, 4, b"unblind-proof")
    bad, found = refused_by_others(table, lambda kind, body: kind == "unblind", change)
    assert found and all((v.seat, v.rule, v.evidence) == (bad.seat, "deck.bad-proof", bad) for v in found)
