import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairtable.protocol.identity import IdentityError, PublicKey, SecretKey, fingerprint, parse_fingerprint
from tests.paths import VECTORS

VECTORS = json.loads((VECTORS / "identity.json").read_text())
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@pytest.mark.parametrize("vector", VECTORS["keys"], ids=lambda v: v["fingerprint"])
def test_key_vectors(vector):
    key = SecretKey.from_seed(bytes.fromhex(vector["seed"]))
    assert key.public.raw.hex() == vector["public_key"]
    assert key.public.fingerprint == vector["fingerprint"]


@pytest.mark.parametrize("vector", VECTORS["signatures"], ids=lambda v: v["purpose"])
def test_signature_vectors(vector):
    key = SecretKey.from_seed(bytes.fromhex(vector["seed"]))
    message = bytes.fromhex(vector["message"])
    assert key.sign(vector["purpose"], message).hex() == vector["signature"]
    assert key.public.verify(vector["purpose"], message, bytes.fromhex(vector["signature"]))
    raw = key._key.sign(bytes.fromhex(vector["signing_input"]))
    assert raw.hex() == vector["signature"]


def test_signatures_are_domain_separated():
    key = SecretKey.generate()
    signature = key.sign("envelope", b"message")
    assert key.public.verify("envelope", b"message", signature)
    assert not key.public.verify("genesis", b"message", signature)
    assert not key.public.verify("envelope", b"messagf", signature)
    assert not key.public.verify("envelope", b"message", signature[:-1] + bytes([signature[-1] ^ 1]))
    assert not key.public.verify("envelope", b"message", signature[:10])
    assert not SecretKey.generate().public.verify("envelope", b"message", signature)


def test_pem_round_trip():
    key = SecretKey.generate()
    assert SecretKey.from_pem(key.to_pem()).public == key.public
    assert PublicKey.from_pem(key.public.to_pem()) == key.public


@pytest.mark.parametrize("data", [b"", b"garbage", b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])
def test_bad_pem_is_a_clear_error(data):
    with pytest.raises(IdentityError, match="PEM"):
        SecretKey.from_pem(data)
    with pytest.raises(IdentityError, match="PEM"):
        PublicKey.from_pem(data)


def test_non_ed25519_pem_is_refused():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    other = ec.generate_private_key(ec.SECP256R1())
    pem = other.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with pytest.raises(IdentityError, match="not Ed25519"):
        SecretKey.from_pem(pem)


def test_public_key_must_be_32_bytes():
    with pytest.raises(IdentityError, match="32 bytes"):
        PublicKey(b"x" * 31)


@given(st.binary(min_size=32, max_size=32))
def test_fingerprint_parses_in_any_case_and_spacing(raw):
    printed = fingerprint(raw)
    assert len(printed) == 29 and printed.count("-") == 5
    assert parse_fingerprint(printed) == printed
    assert parse_fingerprint(printed.lower().replace("-", " ")) == printed


@given(st.binary(min_size=32, max_size=32), st.integers(0, 23), st.sampled_from(ALPHABET))
def test_a_single_mistyped_character_is_detected(raw, position, replacement):
    chars = fingerprint(raw).replace("-", "")
    if chars[position] == replacement:
        return
    typo = chars[:position] + replacement + chars[position + 1:]
    with pytest.raises(IdentityError, match="mistyped"):
        parse_fingerprint(typo)


@given(st.binary(min_size=32, max_size=32), st.integers(0, 22))
def test_swapped_neighbours_are_detected(raw, position):
    chars = fingerprint(raw).replace("-", "")
    if chars[position] == chars[position + 1]:
        return
    swapped = chars[:position] + chars[position + 1] + chars[position] + chars[position + 2:]
    with pytest.raises(IdentityError, match="mistyped"):
        parse_fingerprint(swapped)


@pytest.mark.parametrize("text, problem", [("ABCD", "24 characters"), ("U" * 24, "not a fingerprint character")])
def test_malformed_fingerprints(text, problem):
    with pytest.raises(IdentityError, match=problem):
        parse_fingerprint(text)
