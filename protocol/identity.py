"""Player identities: Ed25519 keys, domain-separated signatures and human fingerprints.

A player *is* their Ed25519 public key. Every signature covers ``fairtable/v1/<purpose>``,
a NUL byte and the message, so a signature made for one purpose (say a table genesis) can
never be replayed as another (say an envelope).

Key files are standard PEM (PKCS#8 for secret keys, SubjectPublicKeyInfo for public keys),
so any language's crypto library can read them; this module converts keys to and from those
bytes, and ``node`` does the file I/O and the permission checks.

A fingerprint is what players read to each other: 100 bits of a hash of the key in Crockford
base32, then 20 bits of checksum, as ``XXXX-XXXX-XXXX-XXXX-XXXX-CCCC``. The checksum lets
:func:`parse_fingerprint` tell a mistyped fingerprint from a different key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.errors import ProtocolError
from protocol.hashing import digest, label_prefix

PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
FINGERPRINT_BITS = 100
CHECKSUM_BITS = 20
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ_AS = {"O": "0", "I": "1", "L": "1"}


class IdentityError(ProtocolError):
    """A key, signature or fingerprint that is malformed or does not match."""


@dataclass(frozen=True)
class PublicKey:
    """An Ed25519 public key, the identity of a seat."""

    raw: bytes
    _key: Ed25519PublicKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.raw, bytes) or len(self.raw) != PUBLIC_KEY_SIZE:
            raise IdentityError(f"a public key is {PUBLIC_KEY_SIZE} bytes")
        try:
            key = Ed25519PublicKey.from_public_bytes(self.raw)
        except ValueError as exc:
            raise IdentityError(f"invalid Ed25519 public key: {exc}") from None
        object.__setattr__(self, "_key", key)

    def verify(self, purpose: str, message: bytes, signature: bytes) -> bool:
        """True when ``signature`` is this key's signature of ``message`` for ``purpose``."""
        if len(signature) != SIGNATURE_SIZE:
            return False
        try:
            self._key.verify(signature, label_prefix(purpose) + message)
        except InvalidSignature:
            return False
        return True

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    def to_pem(self) -> bytes:
        return self._key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    @classmethod
    def from_pem(cls, data: bytes) -> "PublicKey":
        try:
            key = serialization.load_pem_public_key(data)
        except (ValueError, TypeError) as exc:
            raise IdentityError(f"not a PEM public key: {exc}") from None
        if not isinstance(key, Ed25519PublicKey):
            raise IdentityError(f"the PEM key is {type(key).__name__}, not Ed25519")
        return cls(key.public_bytes_raw())


class SecretKey:
    """An Ed25519 signing key. Never serialised except through :meth:`to_pem`."""

    __slots__ = ("_key", "public")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public = PublicKey(key.public_key().public_bytes_raw())

    @classmethod
    def generate(cls) -> "SecretKey":
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> "SecretKey":
        """The key whose RFC 8032 seed is ``seed``: how test vectors fix their keys."""
        if len(seed) != 32:
            raise IdentityError("an Ed25519 seed is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def sign(self, purpose: str, message: bytes) -> bytes:
        return self._key.sign(label_prefix(purpose) + message)

    def to_pem(self) -> bytes:
        return self._key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    @classmethod
    def from_pem(cls, data: bytes) -> "SecretKey":
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as exc:
            raise IdentityError(f"not an unencrypted PEM private key: {exc}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(f"the PEM key is {type(key).__name__}, not Ed25519")
        return cls(key)


def _bits_to_base32(value: int, bits: int) -> str:
    return "".join(_ALPHABET[(value >> shift) & 31] for shift in range(bits - 5, -1, -5))


def _checksum(body: str) -> str:
    check = int.from_bytes(digest("fingerprint-check", body.encode("ascii"))[:3], "big") >> (24 - CHECKSUM_BITS)
    return _bits_to_base32(check, CHECKSUM_BITS)


def _group(text: str) -> str:
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def fingerprint(public_key: bytes) -> str:
    """The short, checksummed, human-readable name of a public key."""
    hashed = int.from_bytes(digest("fingerprint", public_key)[:13], "big") >> (104 - FINGERPRINT_BITS)
    body = _bits_to_base32(hashed, FINGERPRINT_BITS)
    return _group(body + _checksum(body))


def parse_fingerprint(text: str) -> str:
    """Normalise a typed fingerprint (any case, dashes or spaces, O/I/L read as 0/1).

    Raises :class:`IdentityError` for a wrong length, a character outside the alphabet,
    or a checksum mismatch, which is what a typo produces.
    """
    chars = "".join(_READ_AS.get(c, c) for c in text.upper() if c not in "- ")
    size = (FINGERPRINT_BITS + CHECKSUM_BITS) // 5
    if len(chars) != size:
        raise IdentityError(f"a fingerprint has {size} characters, this one has {len(chars)}")
    for c in chars:
        if c not in _ALPHABET:
            raise IdentityError(f"{c!r} is not a fingerprint character")
    body, check = chars[: FINGERPRINT_BITS // 5], chars[FINGERPRINT_BITS // 5 :]
    if _checksum(body) != check:
        raise IdentityError("fingerprint checksum does not match: a character is mistyped")
    return _group(chars)
