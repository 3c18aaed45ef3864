"""One signed-by-all rule for every record (a table's genesis, a tournament's record): each
missing, extra, malformed or forged signature is refused naming the signer, and the signed
value round-trips through its wire value."""

from __future__ import annotations

import pytest

from fairtable.protocol import codec
from fairtable.protocol.genesis import Genesis, GenesisError, Seat, SignedGenesis
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.tournament.record import Participant, Record, RecordError, SignedRecord, commitment

KEYS = tuple(SecretKey.from_seed(bytes([0x30 + i]) * 32) for i in range(4))
NAMES = ("ann", "ben", "cat")


def genesis() -> Genesis:
    return Genesis("towers", "normal", {}, tuple(Seat(KEYS[i].public, NAMES[i]) for i in range(3)), bytes(16))


def record() -> Record:
    return Record(tuple(Participant(KEYS[i].public, NAMES[i], commitment(bytes([i]) * 32)) for i in range(3)), {}, bytes(16))


KINDS = [(genesis, SignedGenesis, GenesisError, "seat"), (record, SignedRecord, RecordError, "participant")]
IDS = ["genesis", "record"]


@pytest.mark.parametrize("make, signed, error, signer", KINDS, ids=IDS)
def test_every_signer_signing_the_same_id_makes_a_signed_record_that_round_trips(make, signed, error, signer):
    value = make()
    whole = signed(value, tuple(value.sign(KEYS[i]) for i in range(3)))
    again = signed.from_value(codec.decode(codec.encode(whole.to_value())))
    assert again == whole and again.record.encoded == value.encoded
    assert value.index_of(KEYS[2].public) == 2 and value.index_of(KEYS[3].public) is None


@pytest.mark.parametrize("make, signed, error, signer", KINDS, ids=IDS)
@pytest.mark.parametrize("fault, why", [
    ("missing", "3 {signer}s but 2 signatures: the signature of {signer} 2 \\(cat\\) is missing"),
    ("extra", "3 {signer}s but 4 signatures: the signatures from index 3 on belong to no {signer}"),
    ("short", "the signature of {signer} 1 \\(ben\\) is not 64 bytes"),
    ("other key", "the signature of {signer} 1 \\(ben\\) does not verify"),
    ("other bytes", "the signature of {signer} 1 \\(ben\\) does not verify"),
    ("swapped", "the signature of {signer} 0 \\(ann\\) does not verify"),
])
def test_a_bad_signature_is_refused_naming_its_signer(make, signed, error, signer, fault, why):
    value = make()
    sigs = [value.sign(KEYS[i]) for i in range(3)]
    if fault == "missing":
        sigs = sigs[:2]
    elif fault == "extra":
        sigs.append(sigs[0])
    elif fault == "short":
        sigs[1] = sigs[1][:63]
    elif fault == "other key":
        sigs[1] = value.sign(KEYS[3])
    elif fault == "other bytes":
        sigs[1] = KEYS[1].sign(value.SIGN_PURPOSE, bytes(32))
    else:
        sigs[0], sigs[1] = sigs[1], sigs[0]
    with pytest.raises(error, match=why.format(signer=signer)):
        signed(value, tuple(sigs))
    assert value.signature_problem(1, value.sign(KEYS[1])) is None


@pytest.mark.parametrize("make, signed, error, signer", KINDS, ids=IDS)
def test_a_signature_under_the_other_records_purpose_does_not_verify(make, signed, error, signer):
    """Domain separation: the same key signing the same id for the other kind of record is refused."""
    value = make()
    other = "tournament" if value.SIGN_PURPOSE == "genesis" else "genesis"
    assert value.signature_problem(0, KEYS[0].sign(other, value.signed_id)) is not None


@pytest.mark.parametrize("make, signed, error, signer", KINDS, ids=IDS)
def test_a_malformed_signed_value_is_refused_by_name(make, signed, error, signer):
    noun = make().NOUN
    with pytest.raises(error, match=f"keys '{noun}' and 'sigs'"):
        signed.from_value({"sigs": ()})
    with pytest.raises(error, match=f"{noun} bytes"):
        signed.from_value({noun: b"\xc1", "sigs": ()})
