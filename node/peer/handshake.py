"""The channel handshake as a sans-IO state machine: Noise XX carrying Ed25519 identities.

Noise (through ``noiseprotocol``) authenticates an X25519 static key per side and derives the
transport keys; the identity payloads bind each side's Ed25519 identity to its static key:
``{"key": ed25519 public key, "sig": sign("noise-static", own X25519 static public key)}``,
sent in messages 2 and 3, which Noise encrypts. A side verifies the signature against the
static key the handshake itself authenticated, so a payload copied from another channel is
useless without that channel's static secret. Every malformed input ends in a
:class:`ChannelError`; ``noiseprotocol`` itself raises a mix of types, caught here.

The static key is fresh for every handshake: it only carries the identity binding, and a
signature over a key that is never reused cannot be replayed.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from noise.connection import Keypair, NoiseConnection
from noise.exceptions import NoiseInvalidMessage, NoiseValueError

from fairtable.node.peer.errors import DecryptError, HandshakeError, IdentityMismatch
from fairtable.protocol import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, CodecError, IdentityError, PublicKey, SecretKey, decode, encode

PROTOCOL_NAME = b"Noise_XX_25519_ChaChaPoly_SHA256"
PROLOGUE = b"fairtable/v1/channel"
SIGNATURE_PURPOSE = "noise-static"
MESSAGES = 3
TAG_SIZE = 16
MAX_PLAINTEXT = 65535 - TAG_SIZE
# Failures noiseprotocol (and cryptography under it) raise for bad peer input.
_NOISE_FAILURES = (InvalidTag, ValueError, NoiseInvalidMessage, NoiseValueError)


def identity_payload(secret: SecretKey, static_public: bytes) -> bytes:
    """The handshake payload binding ``secret``'s identity to the X25519 key ``static_public``."""
    return encode({"key": secret.public.raw, "sig": secret.sign(SIGNATURE_PURPOSE, static_public)})


def verify_identity_payload(payload: bytes, static_public: bytes) -> PublicKey:
    """The identity ``payload`` proves for the peer whose authenticated static key is ``static_public``."""
    try:
        value = decode(payload)
    except CodecError as exc:
        raise HandshakeError(f"identity payload is not canonical msgpack: {exc}") from None
    if not isinstance(value, dict) or sorted(value) != ["key", "sig"]:
        raise HandshakeError("identity payload must be a map with exactly the keys 'key' and 'sig'")
    key, signature = value["key"], value["sig"]
    if not isinstance(key, bytes) or len(key) != PUBLIC_KEY_SIZE:
        raise HandshakeError(f"identity payload 'key' must be bin of {PUBLIC_KEY_SIZE} bytes")
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
        raise HandshakeError(f"identity payload 'sig' must be bin of {SIGNATURE_SIZE} bytes")
    try:
        identity = PublicKey(key)
    except IdentityError as exc:
        raise HandshakeError(f"identity payload 'key' is not an Ed25519 public key: {exc}") from None
    if not identity.verify(SIGNATURE_PURPOSE, static_public, signature):
        raise HandshakeError(
            f"bad identity signature: {identity.fingerprint} did not sign this channel's static key"
        )
    return identity


class Transport:
    """The two cipher states of a finished handshake: frames out, frames in."""

    def __init__(self, noise: NoiseConnection) -> None:
        self._noise = noise

    def encrypt(self, plaintext: bytes) -> bytes:
        """One transport message; ``plaintext`` is at most :data:`MAX_PLAINTEXT` bytes."""
        return self._noise.encrypt(plaintext)

    def decrypt(self, ciphertext: bytes) -> bytes:
        try:
            return self._noise.decrypt(ciphertext)
        except NoiseInvalidMessage:
            raise DecryptError(
                f"decrypt failure: a frame of {len(ciphertext)} bytes failed authentication"
            ) from None


class Handshake:
    """One side of the XX handshake: messages alternate, the initiator writes message 1."""

    def __init__(self, secret: SecretKey, *, initiator: bool, expected: PublicKey | None = None) -> None:
        static = X25519PrivateKey.generate()
        self.static_public = static.public_key().public_bytes_raw()
        self.peer: PublicKey | None = None
        self.next_message = 1
        self._secret = secret
        self._initiator = initiator
        self._expected = expected
        self._noise = NoiseConnection.from_name(PROTOCOL_NAME)
        if initiator:
            self._noise.set_as_initiator()
        else:
            self._noise.set_as_responder()
        self._noise.set_prologue(PROLOGUE)
        self._noise.set_keypair_from_private_bytes(Keypair.STATIC, static.private_bytes_raw())
        self._noise.start_handshake()
        # noiseprotocol drops its handshake state when the handshake ends, and the
        # authenticated remote static key is only there, so keep a reference.
        self._state = self._noise.noise_protocol.handshake_state

    @property
    def complete(self) -> bool:
        return self.next_message > MESSAGES

    @property
    def writes_next(self) -> bool:
        """Whether the next handshake message is this side's to write (odd ones are the initiator's)."""
        return (self.next_message % 2 == 1) == self._initiator

    def write(self) -> bytes:
        """The next handshake message: message 1 has no payload, 2 and 3 carry this side's identity."""
        if self.complete or not self.writes_next:
            raise RuntimeError(f"handshake message {self.next_message} is not this side's to write")
        payload = b"" if self.next_message == 1 else identity_payload(self._secret, self.static_public)
        try:
            message = bytes(self._noise.write_message(payload))
        except _NOISE_FAILURES as exc:
            problem = _noise_failure(exc)
            raise HandshakeError(f"handshake message {self.next_message} cannot be written: {problem}") from None
        self.next_message += 1
        return message

    def read(self, message: bytes) -> None:
        """Take the peer's next handshake message.

        Message 2 or 3 sets :attr:`peer`, or raises :class:`IdentityMismatch` when an
        ``expected`` identity was given and the peer proved another; the initiator checks
        this before writing message 3, so it never reveals its identity to the wrong peer.
        """
        if self.complete or self.writes_next:
            raise RuntimeError(f"handshake message {self.next_message} is not the peer's to write")
        try:
            payload = bytes(self._noise.read_message(message))
        except _NOISE_FAILURES as exc:
            raise HandshakeError(f"handshake message {self.next_message} is invalid: {_noise_failure(exc)}") from None
        if self.next_message == 1:
            if payload:
                raise HandshakeError(f"handshake message 1 carries a {len(payload)}-byte payload; it must be empty")
        else:
            peer = verify_identity_payload(payload, self._state.rs.public_bytes)
            if self._expected is not None and peer != self._expected:
                raise IdentityMismatch(
                    f"identity mismatch: the peer is {peer.fingerprint}, expected {self._expected.fingerprint}"
                )
            self.peer = peer
        # Counted only once accepted, so a handshake that failed never reports complete.
        self.next_message += 1

    def transport(self) -> Transport:
        if not self.complete:
            raise RuntimeError("the handshake is not complete")
        return Transport(self._noise)


def _noise_failure(exc: Exception) -> str:
    if isinstance(exc, InvalidTag):
        return "decrypt failure (wrong keys, tampered or truncated message)"
    return str(exc) or type(exc).__name__
