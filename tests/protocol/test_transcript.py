import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairtable.protocol import codec
from fairtable.protocol import transcript_file as tf
from fairtable.protocol.envelope import Envelope, EnvelopeError
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.genesis import Genesis, GenesisError, Seat, SignedGenesis, TournamentTable
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.verify import verify_chunks
from fairtable.protocol.transcript import EquivocationError, EquivocationProof, Transcript, TranscriptError
from tests.protocol import transcript_vector

VECTOR_PATH = transcript_vector.PATH
VECTORS = json.loads(VECTOR_PATH.read_text())
KEYS = [SecretKey.from_seed(bytes([i + 1]) * 32) for i in range(3)]


def make_genesis(seats=2, nonce=b"n" * 16, options=None) -> SignedGenesis:
    genesis = Genesis("towers", "normal", options or {"deck": "normal"},
                      tuple(Seat(KEYS[i].public, f"p{i}") for i in range(seats)), nonce)
    return SignedGenesis(genesis, tuple(genesis.sign(KEYS[i]) for i in range(seats)))


def make_transcript(count=6, genesis=None) -> Transcript:
    transcript = Transcript(genesis or make_genesis())
    for seq in range(count):
        seat = seq % 2
        transcript.append(Envelope.seal(KEYS[seat], transcript.genesis.table_id, seq, transcript.head, seat, "move", {"n": seq}))
    return transcript


# ---------------------------------------------------------------- vectors

def test_genesis_vector():
    genesis = Genesis.from_bytes(bytes.fromhex(VECTORS["genesis"]))
    assert genesis.encoded.hex() == VECTORS["genesis"]
    assert genesis.table_id.hex() == VECTORS["table_id"]
    keys = [SecretKey.from_seed(bytes.fromhex(seed)) for seed in VECTORS["seeds"]]
    assert [genesis.sign(key).hex() for key in keys] == VECTORS["genesis_signatures"]
    signed = SignedGenesis.from_value(codec.decode(bytes.fromhex(VECTORS["signed_genesis"])))
    assert codec.encode(signed.to_value()).hex() == VECTORS["signed_genesis"]


def test_a_tournament_genesis_vector_adds_only_its_optional_key():
    vector = VECTORS["tournament_genesis"]
    genesis = Genesis.from_bytes(bytes.fromhex(vector["genesis"]))
    place = vector["tournament"]
    assert genesis.tournament == TournamentTable(bytes.fromhex(place["id"]), place["round"], place["table"])
    assert genesis.table_id.hex() == vector["table_id"] != VECTORS["table_id"]
    plain = Genesis.from_bytes(bytes.fromhex(VECTORS["genesis"]))
    assert plain.tournament is None and "tournament" not in codec.decode(plain.encoded)


@pytest.mark.parametrize("place, why", [
    ({"id": b"x" * 31, "round": 0, "table": 0}, "32-byte record id"),
    ({"id": b"x" * 32, "round": -1, "table": 0}, "round must be an integer"),
    ({"id": b"x" * 32, "round": 0, "table": True}, "table must be an integer"),
    ({"id": b"x" * 32, "round": 0}, "exactly the keys"),
    ([b"x" * 32, 0, 0], "exactly the keys"),
])
def test_a_malformed_tournament_key_is_refused_by_name(place, why):
    value = codec.decode(make_genesis().genesis.encoded)
    with pytest.raises(GenesisError, match=why):
        Genesis.from_value({**value, "tournament": place})


def test_envelope_vectors_chain():
    keys = [SecretKey.from_seed(bytes.fromhex(seed)) for seed in VECTORS["seeds"]]
    prev = bytes.fromhex(VECTORS["table_id"])
    for vector in VECTORS["envelopes"]:
        envelope = Envelope.from_wire(bytes.fromhex(vector["wire"]))
        assert envelope.content.hex() == vector["content"]
        assert envelope.hash.hex() == vector["hash"]
        assert envelope.prev == prev and envelope.seq == vector["seq"] and envelope.kind == vector["kind"]
        assert envelope.verify(keys[vector["seat"]].public)
        resealed = Envelope.seal(keys[vector["seat"]], envelope.table, envelope.seq, envelope.prev, envelope.seat, envelope.kind, envelope.body)
        assert resealed.to_wire().hex() == vector["wire"]
        prev = envelope.hash


@given(st.recursive(st.integers(0, 300) | st.booleans() | st.binary(max_size=40) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=12),
       st.integers(0, 300) | st.booleans() | st.binary(max_size=40) | st.lists(st.integers(0, 2), max_size=3))
@settings(max_examples=60, deadline=None)
def test_an_envelope_tells_its_body_by_its_encoding_without_encoding_the_body(body, other):
    """``has_body`` reads the body's bytes off the signed content: true for its own encoding
    only (1 and True, 0 and b"" and the like are different values on the wire)."""
    table = make_genesis().table_id
    envelope = Envelope.seal(KEYS[0], table, 0, table, 0, "move", {"body": body})
    assert envelope.has_body(codec.encode({"body": body}))
    assert envelope.has_body(codec.encode({"body": other})) == (codec.encode(body) == codec.encode(other))
    assert not envelope.has_body(codec.encode(body))


def test_the_transcript_vector_is_what_the_code_builds():
    assert (VECTOR_PATH).read_text() == transcript_vector.render(), "regenerate with: python -m tests.protocol.transcript_vector"


def test_the_transcript_vector_is_a_valid_game():
    report = verify_chunks([bytes.fromhex(VECTORS["file"])])
    assert report.valid, report.violations
    assert report.result.to_value() == VECTORS["result"] and report.envelopes == len(VECTORS["envelopes"])


def test_transcript_file_vector():
    data = bytes.fromhex(VECTORS["file"])
    loaded = tf.load(data)
    assert len(loaded.transcript) == len(VECTORS["envelopes"])
    assert [[s.game, s.seat, s.seed.hex()] for s in loaded.seeds] == VECTORS["revealed_seeds"]
    assert tf.dump(loaded) == data


# ---------------------------------------------------------------- genesis

def test_genesis_needs_every_signature():
    genesis = make_genesis().genesis
    with pytest.raises(GenesisError, match="2 seats but 1 signatures"):
        SignedGenesis(genesis, (genesis.sign(KEYS[0]),))
    with pytest.raises(GenesisError, match="signature of seat 1"):
        SignedGenesis(genesis, (genesis.sign(KEYS[0]), genesis.sign(KEYS[2])))
    with pytest.raises(GenesisError, match="signature of seat 0"):
        SignedGenesis(genesis, (genesis.sign(KEYS[1]), genesis.sign(KEYS[1])))


@pytest.mark.parametrize("change, problem", [
    (dict(game="Towers!"), "game must be"),
    (dict(variant=""), "variant must be"),
    (dict(nonce=b"short"), "nonce"),
    (dict(version=1), "version 1 is not supported"),
    (dict(options={"x": 1.5}), "not encodable"),
    (dict(seats=()), "1..16 seats"),
])
def test_genesis_validation(change, problem):
    fields = dict(game="towers", variant="normal", options={}, seats=(Seat(KEYS[0].public, "a"),), nonce=b"n" * 16)
    fields.update(change)
    with pytest.raises(GenesisError, match=problem):
        Genesis(**fields)


def test_genesis_refuses_a_key_in_two_seats_and_bad_names():
    with pytest.raises(GenesisError, match="two seats"):
        Genesis("towers", "normal", {}, (Seat(KEYS[0].public, "a"), Seat(KEYS[0].public, "b")), b"n" * 16)
    with pytest.raises(GenesisError, match="seat name"):
        Genesis("towers", "normal", {}, (Seat(KEYS[0].public, "bad\nname"),), b"n" * 16)


def test_table_id_binds_every_field():
    ids = {make_genesis().table_id, make_genesis(nonce=b"m" * 16).table_id,
           make_genesis(options={"deck": "infinite"}).table_id, make_genesis(seats=3).table_id}
    assert len(ids) == 4


# ---------------------------------------------------------------- chain

def test_chain_accepts_a_valid_sequence():
    transcript = make_transcript(6)
    assert len(transcript) == 6
    assert transcript.head == transcript[5].hash
    assert Transcript(transcript.genesis, transcript.envelopes).head == transcript.head


def reseal(envelope, **change):
    fields = dict(table=envelope.table, seq=envelope.seq, prev=envelope.prev, seat=envelope.seat, kind=envelope.kind, body=envelope.body)
    fields.update(change)
    return Envelope.seal(KEYS[fields["seat"]], **fields)


@pytest.mark.parametrize("tamper, problem", [
    (lambda t: (lambda e: e[:3] + e[4:])(list(t.envelopes)), "envelope 3: has sequence number 4, expected 3"),
    (lambda t: (lambda e: e[:2] + [e[3], e[2]] + e[4:])(list(t.envelopes)), "envelope 2: has sequence number 3"),
    (lambda t: (lambda e: e[:3] + [e[2]] + e[3:])(list(t.envelopes)), "envelope 3: has sequence number 2"),
    (lambda t: (lambda e: e[:2] + [reseal(e[2], body={"n": 99})] + e[3:])(list(t.envelopes)), "envelope 3: does not link to envelope 2"),
    (lambda t: (lambda e: e[:2] + [reseal(e[2], prev=e[0].hash)] + e[3:])(list(t.envelopes)), "envelope 2: does not link to envelope 1"),
    (lambda t: (lambda e: [reseal(e[0], table=b"x" * 32)] + e[1:])(list(t.envelopes)), "envelope 0: belongs to another table"),
    (lambda t: (lambda e: e[:1] + [reseal(e[1], seat=2)] + e[2:])(list(t.envelopes)), "envelope 1: claims seat 2, the table has 2 seats"),
])
def test_tampered_chains_are_rejected_at_the_exact_index(tamper, problem):
    transcript = make_transcript(6)
    with pytest.raises(TranscriptError) as error:
        Transcript(transcript.genesis, tamper(transcript))
    assert str(error.value).startswith(problem)


def test_forged_signature_is_rejected():
    transcript = make_transcript(3)
    envelopes = list(transcript.envelopes)
    forged = Envelope.from_value((envelopes[1].content, KEYS[0].sign("envelope", envelopes[1].content)))
    with pytest.raises(TranscriptError, match="envelope 1: signature does not verify under the key of seat 1"):
        Transcript(transcript.genesis, envelopes[:1] + [forged] + envelopes[2:])


def test_envelope_from_another_table_is_rejected():
    other = make_transcript(2, make_genesis(nonce=b"o" * 16))
    mine = make_transcript(0)
    with pytest.raises(TranscriptError, match="envelope 0: belongs to another table"):
        mine.append(other[0])


@pytest.mark.parametrize("value, problem", [
    ((b"x", b"y" * 64), "envelope content"),
    ((codec.encode({"a": 1}), b"y" * 64), "exactly the keys"),
    ((b"x",), r"\[content, signature\]"),
    ((codec.encode({"body": None, "kind": "Bad Kind", "prev": b"p" * 32, "seat": 0, "seq": 0, "table": b"t" * 32}), b"s" * 64), "kind"),
    ((codec.encode({"body": None, "kind": "move", "prev": b"p" * 32, "seat": -1, "seq": 0, "table": b"t" * 32}), b"s" * 64), "seat"),
    ((codec.encode({"body": None, "kind": "move", "prev": b"p" * 31, "seat": 0, "seq": 0, "table": b"t" * 32}), b"s" * 64), "prev"),
    ((codec.encode({"body": None, "kind": "move", "prev": b"p" * 32, "seat": 0, "seq": True, "table": b"t" * 32}), b"s" * 64), "seq"),
])
def test_malformed_envelopes(value, problem):
    with pytest.raises(EnvelopeError, match=problem):
        Envelope.from_value(value)


# ---------------------------------------------------------------- equivocation

def test_equivocation_proof_names_the_seat_and_survives_encoding():
    transcript = make_transcript(4)
    honest = transcript[3]
    twin = reseal(honest, body={"n": "other"})
    proof = EquivocationProof(transcript.genesis, honest, twin)
    assert proof.check() == 1
    again = EquivocationProof.from_value(codec.decode(codec.encode(proof.to_value())))
    assert again.check() == 1


def test_non_proofs_are_refused():
    transcript = make_transcript(4)
    a, b = transcript[2], transcript[3]
    cases = [
        (EquivocationProof(transcript.genesis, a, a), "same message"),
        (EquivocationProof(transcript.genesis, a, b), "different slots"),
        (EquivocationProof(transcript.genesis, a, reseal(a, seat=1)), "different seats"),
        (EquivocationProof(make_genesis(nonce=b"z" * 16), a, reseal(a, body=1)), "another table"),
        (EquivocationProof(transcript.genesis, a, Envelope.from_value((reseal(a, body=1).content, b.signature))), "does not verify"),
    ]
    for proof, problem in cases:
        with pytest.raises(EquivocationError, match=problem):
            proof.check()


# ---------------------------------------------------------------- file

def file_bytes(count=5, seeds=(tf.RevealedSeed(0, 1, b"s" * 32),)) -> bytes:
    return tf.dump(tf.TranscriptFile(make_transcript(count), seeds))


@given(st.lists(st.integers(1, 64), min_size=1, max_size=50))
@settings(max_examples=50)
def test_file_reads_in_chunks_of_any_size(sizes):
    data = file_bytes()
    chunks, position = [], 0
    for size in sizes * (len(data) // sum(sizes) + 1):
        chunks.append(data[position:position + size])
        position += size
    loaded = tf.load_chunks(chunks)
    assert tf.dump(loaded) == data


def test_file_read_from_a_stream(tmp_path):
    data = file_bytes()
    path = tmp_path / "t.ftt"
    path.write_bytes(data)
    with open(path, "rb") as stream:
        assert tf.dump(tf.read(stream, chunk_size=7)) == data


def test_truncation_anywhere_is_rejected():
    data = file_bytes(3)
    for cut in range(len(data)):
        with pytest.raises(ProtocolError):
            tf.load(data[:cut])


def test_truncation_at_a_record_boundary_names_the_missing_end():
    transcript = make_transcript(3)
    data = tf.header_bytes() + tf.record_bytes("genesis", transcript.genesis.to_value())
    data += b"".join(tf.record_bytes("envelope", e.to_value()) for e in transcript.envelopes)
    with pytest.raises(tf.TranscriptFileError, match="truncated: no end record \\(after 3 envelopes\\)"):
        tf.load(data)


@given(st.data())
@settings(max_examples=300)
def test_any_edit_of_genesis_envelopes_or_end_is_rejected(data):
    # Revealed seeds carry no signature of their own: the session checks each against the
    # seat's signed commitment, so the file layer alone cannot (and need not) catch their edits.
    original = file_bytes(4, seeds=())
    edited = bytearray(original)
    position = data.draw(st.integers(0, len(original) - 1))
    edited[position] ^= data.draw(st.integers(1, 255))
    with pytest.raises(ProtocolError):
        tf.load(bytes(edited))


def test_record_errors_are_specific():
    transcript = make_transcript(2)
    header, genesis = tf.header_bytes(), tf.record_bytes("genesis", transcript.genesis.to_value())
    envelopes = [tf.record_bytes("envelope", e.to_value()) for e in transcript.envelopes]
    end = tf.record_bytes("end", {"count": 2, "head": transcript.head})
    cases = [
        (codec.encode({"format": "fairtable-transcript", "version": 9}) + genesis, "version 9 is not supported"),
        (codec.encode("hello"), "not a fairtable transcript"),
        (header + envelopes[0], "expected the genesis record"),
        (header + genesis + envelopes[0] + envelopes[1] + tf.record_bytes("end", {"count": 3, "head": transcript.head}), "counts 3 envelopes, the file holds 2"),
        (header + genesis + envelopes[0] + envelopes[1] + tf.record_bytes("end", {"count": 2, "head": b"h" * 32}), "head hash differs"),
        (header + genesis + envelopes[0] + envelopes[1] + end + envelopes[0], "data after the end record"),
        (header + genesis + tf.record_bytes("seeds", [[0, 5, b"s" * 32]]) + end, "no such game or seat"),
        (header + genesis + tf.record_bytes("seeds", [[0, 1, b"s" * 32], [0, 0, b"s" * 32]]) + end, "sorted"),
        (header + genesis + tf.record_bytes("seeds", []) + envelopes[0], "unexpected 'envelope' record"),
        (header + genesis + tf.record_bytes("bogus", 1), "unexpected 'bogus' record"),
    ]
    for data, problem in cases:
        with pytest.raises(ProtocolError, match=problem):
            tf.load(data)


def test_reordered_envelopes_in_a_file_name_the_index():
    transcript = make_transcript(4)
    records = [tf.record_bytes("envelope", e.to_value()) for e in transcript.envelopes]
    records[1], records[2] = records[2], records[1]
    data = tf.header_bytes() + tf.record_bytes("genesis", transcript.genesis.to_value()) + b"".join(records)
    with pytest.raises(TranscriptError, match="envelope 1: has sequence number 2, expected 1"):
        tf.load(data)
