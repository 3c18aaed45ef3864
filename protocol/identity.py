"""Player identities: Ed25519 keys, domain-separated signatures and human fingerprints.

A player *is* their Ed25519 public key. Every signature covers ``fairtable/v1/<purpose>``,
a NUL byte and the message, so a signature made for one purpose (say a table genesis) can
never be replayed as another (say an envelope).

Key files are standard PEM (PKCS#8 for secret keys, SubjectPublicKeyInfo for public keys),
so any language's crypto library can read them; this module converts keys to and from those
bytes, and ``node`` does the file I/O and the permission checks.

A fingerprint is what players read to each other: 90 bits of a hash of the key as 18
Crockford base32 characters, then a 6-character BCH checksum (the BIP-173 "bech32" code,
human part ``ft``), shown as ``XXXX-XXXX-XXXX-XXXX-XXCC-CCCC``. The code is guaranteed to
detect any error in up to four characters, so :func:`parse_fingerprint` always tells a
mistyped fingerprint (one wrong character, two swapped) from a different key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.hashing import digest, label_prefix

PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
FINGERPRINT_CHARS = 18
CHECKSUM_CHARS = 6
_BCH_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
_BCH_PREFIX = (3, 3, 0, 6, 20)  # the human part "ft" expanded as in BIP-173
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
        """What players read aloud to compare keys: see :func:`fingerprint`."""
        return fingerprint(self.raw)

    def to_pem(self) -> bytes:
        """The key as SubjectPublicKeyInfo PEM, which any language's crypto library reads."""
        return self._key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    @classmethod
    def from_pem(cls, data: bytes) -> PublicKey:
        """Read a PEM public key; raises :class:`IdentityError` unless it is Ed25519."""
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
    def generate(cls) -> SecretKey:
        """A fresh random key (OpenSSL's CSPRNG): a new player identity."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> SecretKey:
        """The key whose RFC 8032 seed is ``seed``: how test vectors fix their keys."""
        if len(seed) != 32:
            raise IdentityError("an Ed25519 seed is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def sign(self, purpose: str, message: bytes) -> bytes:
        """Sign ``message`` for ``purpose``; the purpose label keeps a signature made for one use
        (a genesis) from ever verifying as another (an envelope)."""
        return self._key.sign(label_prefix(purpose) + message)

    def to_pem(self) -> bytes:
        """The key as unencrypted PKCS#8 PEM: the only form in which it leaves this object."""
        return self._key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    @classmethod
    def from_pem(cls, data: bytes) -> SecretKey:
        """Read an unencrypted PKCS#8 PEM key; raises :class:`IdentityError` unless it is Ed25519."""
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as exc:
            raise IdentityError(f"not an unencrypted PEM private key: {exc}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(f"the PEM key is {type(key).__name__}, not Ed25519")
        return cls(key)


def _polymod(values: list[int]) -> int:
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for bit, generator in enumerate(_BCH_GENERATOR):
            if top >> bit & 1:
                check ^= generator
    return check


def _checksum(body: list[int]) -> list[int]:
    code = _polymod([*_BCH_PREFIX, *body, *[0] * CHECKSUM_CHARS]) ^ 1
    return [code >> 5 * (CHECKSUM_CHARS - 1 - i) & 31 for i in range(CHECKSUM_CHARS)]


def _group(text: str) -> str:
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def fingerprint(public_key: bytes) -> str:
    """The short, checksummed, human-readable name of a public key."""
    bits = int.from_bytes(digest("fingerprint", public_key)[:12], "big") >> (96 - 5 * FINGERPRINT_CHARS)
    body = [bits >> 5 * (FINGERPRINT_CHARS - 1 - i) & 31 for i in range(FINGERPRINT_CHARS)]
    return _group("".join(_ALPHABET[value] for value in body + _checksum(body)))


def parse_fingerprint(text: str) -> str:
    """Normalise a typed fingerprint (any case, dashes or spaces, O/I/L read as 0/1).

    Raises :class:`IdentityError` for a wrong length, a character outside the alphabet,
    or a checksum mismatch, which is what a typo produces.
    """
    chars = "".join(_READ_AS.get(c, c) for c in text.upper() if c not in "- ")
    size = FINGERPRINT_CHARS + CHECKSUM_CHARS
    if len(chars) != size:
        raise IdentityError(f"a fingerprint has {size} characters, this one has {len(chars)}")
    for c in chars:
        if c not in _ALPHABET:
            raise IdentityError(f"{c!r} is not a fingerprint character")
    values = [_ALPHABET.index(c) for c in chars]
    if _polymod([*_BCH_PREFIX, *values]) != 1:
        raise IdentityError("fingerprint checksum does not match: a character is mistyped")
    return _group(chars)
