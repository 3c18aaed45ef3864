"""The channel vectors in spec/vectors/channel.json, checked against the code and against Noise itself."""

import hashlib
import hmac
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from fairtable.node.peer.handshake import PROLOGUE, PROTOCOL_NAME, Handshake, identity_payload, verify_identity_payload
from fairtable.protocol.identity import SecretKey
from tests.paths import VECTORS

VECTORS = json.loads((VECTORS / "channel.json").read_text())
HANDSHAKE = VECTORS["handshake"]


def test_names():
    assert VECTORS["protocol_name"].encode() == PROTOCOL_NAME
    assert bytes.fromhex(VECTORS["prologue"]) == PROLOGUE


@pytest.mark.parametrize("vector", VECTORS["identity_payloads"], ids=lambda v: v["public_key"][:8])
def test_identity_payload_vectors(vector):
    key = SecretKey.from_seed(bytes.fromhex(vector["seed"]))
    static = bytes.fromhex(vector["static_public"])
    assert key.public.raw.hex() == vector["public_key"]
    assert key._key.sign(bytes.fromhex(vector["signing_input"])).hex() == vector["signature"]
    assert identity_payload(key, static).hex() == vector["payload"]
    assert verify_identity_payload(bytes.fromhex(vector["payload"]), static) == key.public


def test_handshake_vector(monkeypatch):
    # Handshake and noiseprotocol both draw X25519 keys here: statics at construction, ephemerals when writing.
    order = ("initiator_static", "responder_static", "initiator_ephemeral", "responder_ephemeral")
    keys = iter(X25519PrivateKey.from_private_bytes(bytes.fromhex(HANDSHAKE[f"{name}_private"])) for name in order)
    monkeypatch.setattr(X25519PrivateKey, "generate", staticmethod(lambda: next(keys)))
    initiator = Handshake(SecretKey.from_seed(bytes.fromhex(HANDSHAKE["initiator_seed"])), initiator=True)
    responder = Handshake(SecretKey.from_seed(bytes.fromhex(HANDSHAKE["responder_seed"])), initiator=False)
    turns = [(initiator, responder), (responder, initiator), (initiator, responder)]
    for number, (writer, reader) in enumerate(turns, 1):
        message = writer.write()
        assert message.hex() == HANDSHAKE[f"message_{number}"]
        reader.read(message)
    assert initiator.peer == SecretKey.from_seed(bytes.fromhex(HANDSHAKE["responder_seed"])).public
    sides = {
        "initiator": (initiator.transport(), responder.transport()),
        "responder": (responder.transport(), initiator.transport()),
    }
    for vector in HANDSHAKE["transport"]:
        sender, receiver = sides[vector["from"]]
        message = sender.encrypt(bytes.fromhex(vector["plaintext"]))
        assert message.hex() == vector["message"]
        assert receiver.decrypt(message).hex() == vector["plaintext"]


def test_handshake_vector_follows_the_noise_specification():
    """Recompute the initiator's side from the Noise rules alone (rev 34, sections 5 and 7.5), without noiseprotocol."""

    class Symmetric:
        def __init__(self) -> None:
            self.h = self.ck = PROTOCOL_NAME.ljust(32, b"\0")
            self.k: bytes | None = None
            self.n = 0

        def mix_hash(self, data: bytes) -> None:
            self.h = hashlib.sha256(self.h + data).digest()

        def mix_key(self, material: bytes) -> None:
            self.ck, self.k = hkdf(self.ck, material)
            self.n = 0

        def encrypt(self, plaintext: bytes) -> bytes:
            ciphertext = plaintext if self.k is None else seal(self.k, self.n, plaintext, self.h)
            self.n += self.k is not None
            self.mix_hash(ciphertext)
            return ciphertext

        def decrypt(self, ciphertext: bytes) -> bytes:
            plaintext = ChaCha20Poly1305(self.k).decrypt(nonce(self.n), ciphertext, self.h)
            self.n += 1
            self.mix_hash(ciphertext)
            return plaintext

    def hkdf(chaining_key: bytes, material: bytes) -> tuple[bytes, bytes]:
        temp = hmac.digest(chaining_key, material, "sha256")
        first = hmac.digest(temp, b"\1", "sha256")
        return first, hmac.digest(temp, first + b"\2", "sha256")

    def nonce(n: int) -> bytes:
        return bytes(4) + n.to_bytes(8, "little")

    def seal(key: bytes, n: int, plaintext: bytes, ad: bytes) -> bytes:
        return ChaCha20Poly1305(key).encrypt(nonce(n), plaintext, ad)

    def private(name: str) -> X25519PrivateKey:
        return X25519PrivateKey.from_private_bytes(bytes.fromhex(HANDSHAKE[f"{name}_private"]))

    def dh(key: X25519PrivateKey, public: bytes) -> bytes:
        return key.exchange(X25519PublicKey.from_public_bytes(public))

    static, ephemeral = private("initiator_static"), private("initiator_ephemeral")
    payloads = [bytes.fromhex(v["payload"]) for v in VECTORS["identity_payloads"]]
    state = Symmetric()
    state.mix_hash(PROLOGUE)
    # -> e
    message_1 = ephemeral.public_key().public_bytes_raw()
    state.mix_hash(message_1)
    assert (message_1 + state.encrypt(b"")).hex() == HANDSHAKE["message_1"]
    # <- e, ee, s, es
    message_2 = bytes.fromhex(HANDSHAKE["message_2"])
    remote_ephemeral = message_2[:32]
    state.mix_hash(remote_ephemeral)
    state.mix_key(dh(ephemeral, remote_ephemeral))
    remote_static = state.decrypt(message_2[32:80])
    assert remote_static == private("responder_static").public_key().public_bytes_raw()
    state.mix_key(dh(ephemeral, remote_static))
    assert state.decrypt(message_2[80:]) == payloads[1]
    # -> s, se
    message_3 = state.encrypt(static.public_key().public_bytes_raw())
    state.mix_key(dh(static, remote_ephemeral))
    assert (message_3 + state.encrypt(payloads[0])).hex() == HANDSHAKE["message_3"]
    # Split: the initiator sends with the first key, the responder with the second.
    keys = dict(zip(("initiator", "responder"), hkdf(state.ck, b"")))
    for vector in HANDSHAKE["transport"]:
        assert seal(keys[vector["from"]], 0, bytes.fromhex(vector["plaintext"]), b"").hex() == vector["message"]
