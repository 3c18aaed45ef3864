"""The signed record and the format: what may enter, what is refused, and by name."""

from __future__ import annotations

import pytest

from fairtable.protocol import codec
from fairtable.protocol.tournament.record import Record, RecordError, SignedRecord
from fairtable.protocol.tournament.structure import Format
from tests.protocol.tournament.helpers import KEYS, signed_record


def test_a_signed_record_round_trips_and_its_id_is_its_hash():
    signed = signed_record(8, {"advance": 1})
    again = SignedRecord.from_value(codec.decode(codec.encode(signed.to_value())))
    assert again.record_id == signed.record_id and again.record.encoded == signed.record.encoded
    assert signed_record(8, {"advance": 2}).record_id != signed.record_id


def test_a_signature_by_another_key_is_refused_naming_the_participant():
    signed = signed_record(4)
    sigs = list(signed.signatures)
    sigs[2] = signed.record.sign(KEYS[9])
    with pytest.raises(RecordError, match="participant 2"):
        SignedRecord(signed.record, tuple(sigs))


@pytest.mark.parametrize("count", [3, 5, 6, 9, 20])
def test_other_participant_counts_are_refused(count):
    with pytest.raises(RecordError, match=f"4, 8, 12 or 16 participants .*not {count}"):
        Format.check({}, count)


@pytest.mark.parametrize("options, why", [
    ({"advance": 3}, "'advance' must be 1 or 2"),
    ({"advance": 1}, "with 4 participants option 'advance' must be 2"),
    ({"rounds": 2}, "unknown tournament option 'rounds'"),
    ({"group": {"cycles": 9}}, "option 'group': option 'cycles'"),
    ({"final": {"cycles": 2}}, "option 'final': unknown option 'cycles'"),
    ({"knockout": 3}, "'knockout' must be a map"),
])
def test_bad_options_are_refused_by_name(options, why):
    with pytest.raises(RecordError, match=why):
        Format.check(options, 4)


def test_the_stage_defaults_are_the_rulings_tables():
    tables = Format.check({}, 8).tables
    assert tables["group"] == {"cycles": 3}
    assert tables["knockout"] == tables["final"] == {"rounds": 3, "duels": 3, "tie": "playoff"}
    assert tables["playoff"] == {"rounds": 1, "tie": "playoff"}


def test_a_record_entering_one_key_twice_is_refused():
    record = signed_record(4).record
    with pytest.raises(RecordError, match="twice"):
        Record(record.participants[:3] + record.participants[:1], {}, record.nonce)
