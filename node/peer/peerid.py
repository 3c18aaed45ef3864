"""A seat key as a libp2p peer id, and back: one key names a seat, a connection and an invite.

libp2p names a peer by a multihash of its public key; an Ed25519 key is small enough to be
inlined (the "identity" multihash), so the peer id *is* the key and maps back to it without a
lookup. The bytes (``spec/channel.md``, "Over libp2p"):

    00 24                   identity multihash, 36 bytes follow
    08 01                   libp2p PublicKey.Type = Ed25519 (protobuf field 1, varint 1)
    12 20 ‖ K               PublicKey.Data = the 32-byte Ed25519 public key (field 2)

Written out here rather than through libp2p so that reading an invite or a vector needs no
networking stack; ``tests/node/peer/test_peerid.py`` checks it against libp2p's own ``ID``.
"""

from __future__ import annotations

import base58
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairtable.protocol import PUBLIC_KEY_SIZE, IdentityError, PublicKey, SecretKey

_PREFIX = bytes([0x00, 0x24, 0x08, 0x01, 0x12, PUBLIC_KEY_SIZE])
PEER_ID_SIZE = len(_PREFIX) + PUBLIC_KEY_SIZE


class PeerIdError(ValueError):
    """A peer id that does not name an Ed25519 seat key; the message says what is wrong."""


def peer_id_bytes(key: PublicKey) -> bytes:
    """The 38-byte libp2p peer id of a seat key."""
    return _PREFIX + key.raw


def peer_id_text(key: PublicKey) -> str:
    """The peer id as libp2p prints it (base58btc, always starting ``12D3KooW``)."""
    return base58.b58encode(peer_id_bytes(key)).decode("ascii")


def seat_key(peer_id: bytes | str) -> PublicKey:
    """The seat key a peer id (bytes or base58 text) names; :class:`PeerIdError` for any other id."""
    if isinstance(peer_id, str):
        try:
            peer_id = base58.b58decode(peer_id.encode("ascii"))
        except ValueError as exc:
            raise PeerIdError(f"peer id is not base58: {exc}") from None
    if len(peer_id) != PEER_ID_SIZE or not peer_id.startswith(_PREFIX):
        raise PeerIdError(
            f"peer id of {len(peer_id)} bytes does not inline an Ed25519 key "
            f"(expected {PEER_ID_SIZE} bytes starting {_PREFIX.hex()})"
        )
    try:
        return PublicKey(peer_id[len(_PREFIX):])
    except IdentityError as exc:
        raise PeerIdError(f"peer id holds no valid Ed25519 key: {exc}") from None


def libp2p_seed(secret: SecretKey) -> bytes:
    """The 32-byte RFC 8032 seed libp2p's Ed25519 key pair is built from: the seat key itself.

    :class:`SecretKey` leaves its object only as PEM, so the seed is read back from that.
    """
    key = serialization.load_pem_private_key(secret.to_pem(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    return key.private_bytes_raw()
