"""A cheat caught live, exported as a proof a third party checks with nothing else."""

import pytest

from fairtable.protocol.envelope import Envelope
from fairtable.protocol.session.proof import ProofError, proof_of
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import TranscriptFile, dump, load
from tests.protocol.session.replicas import KEYS, Replicas, genesis

pytestmark = pytest.mark.usefixtures("counting_game")


def test_a_refused_envelope_and_the_chain_before_it_prove_the_cheat_to_anyone():
    table = Replicas(genesis("counting", 2))
    for seat in range(2):
        table[seat].tick(0.0)
        table.gossip(0.0)
    cheat = Envelope.seal(KEYS[0], table.genesis.table_id, 2, table[1].head, 0, "move", {"faces": [], "keys": [], "move": 7})
    table[1].receive(cheat, 1.0)
    (found,) = table[1].violations()
    file = load(dump(proof_of(TranscriptFile(table[1].session.transcript()), found.evidence)))
    assert len(file.transcript) == 2 and file.evidence == (cheat,)
    report = verify(file)
    assert (2, 0, "counting.move") in [(v.index, v.seat, v.rule) for v in report.violations]
    assert {v.seat for v in report.violations} == {0}  # the cut chain names nobody else


def test_an_envelope_off_the_chain_is_no_proof_against_it():
    table = Replicas(genesis("counting", 2))
    table[0].tick(0.0)
    stray = Envelope.seal(KEYS[1], table.genesis.table_id, 5, bytes(32), 1, "move", {})
    with pytest.raises(ProofError):
        proof_of(TranscriptFile(table[0].session.transcript()), stray)
