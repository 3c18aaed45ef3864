"""The verifier does each piece of cryptographic work once: what it multiplied itself it does not check again.

With every seed known, the verifier recomputes each stage; a received stage equal to its
recomputation holds points the verifier made, so the next stage (or the opening of the final
one) takes them unchecked. A stage that differs came from someone else's arithmetic, and the
next multiplication checks every entry of it.
"""

from fairtable.protocol.fair import ProofOps, commit_keys, open_positions, prove_stage
from fairtable.protocol.session.table import TableSession
from fairtable.protocol.session.verify import revealed_seeds, verify
from tests.protocol.session.tables import towers
from tests.protocol.session.test_deck_cheats import play_with, substitute


def replayed(table) -> TableSession:
    file = table.transcript_file()
    session = TableSession(file.transcript.genesis, seeds=revealed_seeds(file))
    for envelope in file.transcript.envelopes:
        session.accept_linked(envelope)
    return session


def test_an_honest_transcript_is_verified_without_checking_a_point_it_recomputed():
    table = towers(b"verify-work-honest", version=2)
    table.play()
    session = replayed(table)
    decks = [record.deck for record in session.run.decks]
    assert session.ops.checked == 0
    assert session.ops.points == sum(deck.size for deck in decks)
    assert session.ops.derived == sum((deck.size + 1) * len(deck.seats) for deck in decks)
    assert session.ops.mults == sum(deck.size * len(deck.stages) + deck.size for deck in decks)


def test_the_stage_after_one_that_differs_from_its_recomputation_is_checked_entry_by_entry():
    table = towers(b"verify-work-cheat", version=2)
    bad, refused = play_with(table, 1, substitute)
    assert refused is None
    session = replayed(table)
    deck = session.run.decks[0].deck
    whole_deck = deck.size * (len(deck.stages) + 1)  # every stage, and the attempt to open the deck whole
    singles = session.ops.mults - whole_deck  # the deck did not open whole: cards opened one by one in play
    assert singles > 0
    assert session.ops.checked == deck.size + singles  # stage 2's input (the cheater's stage 1), each single
    assert [(v.seat, v.rule) for v in verify(table.transcript_file()).violations] == [(bad.seat, "deck.stage-mismatch")]


def test_an_honest_proved_transcript_is_proved_again_once_and_opened_by_the_permutations():
    """At version 3 the verifier proves each stage once from its author's seed (each seat's
    commitments once per deck) and, every stage equal to its own, verifies no proof, multiplies
    no published key and opens no card by multiplication: the permutations name the cards."""
    table = towers(b"verify-work-proved")
    table.play()
    session = replayed(table)
    expected = ProofOps()
    for record in session.run.decks:
        deck = record.deck
        assert record.dictated == set(range(len(deck.stages)))
        for seat in deck.seats:
            commit_keys(record.keys_of(seat), expected)
        entries = deck.initial()
        for stage in deck.stages:
            keys = record.keys_of(stage.seat)
            entries = prove_stage(deck, stage.index, session.run.seeds[stage.seat], keys, commit_keys(keys), entries, expected).entries
        assert entries == record.entries
        keys_by_seat = {seat: dict(enumerate(record.keys_of(seat).position_keys)) for seat in deck.seats}
        opened = open_positions(deck, dict(enumerate(record.entries)), keys_by_seat)
        assert {record.first_handle + p: card.id for p, card in opened.items()} == \
            {h: f for h, f in session.run.known_faces.items() if h - record.first_handle in opened}
    assert session.proof_ops == expected
    assert session.ops.mults == 0
