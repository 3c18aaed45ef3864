"""Invite strings: everything a friend needs to join a table, in one word they can paste.

A node writes one form (``spec/node.md``, "Invites"): ``ft1`` and the lowercase base32 of the
canonical msgpack ``[lobby id, host key, reach]`` and its 4-byte SHA-256 check. It has no
character that a shell, a chat app or a regex splits on (a reach's commas, slashes and colons
sent a person who copied "the first address" to a LAN address no other home reaches), any case
reads, and the check catches an invite cut short or mistyped before anything is dialled.

Two older text forms are still read:

- ``ft:LOBBY.FINGERPRINT@HOST:PORT`` names the host's TCP address, the lobby table and the
  host's key fingerprint (without dashes); the fingerprint's checksum catches a mistyped
  invite before anything is dialled.
- ``ft:LOBBY.PEERID@REACH`` names the host's whole key as its libp2p peer id and its reach
  (``node.peer.reach``): direct and relayed multiaddrs, without the peer id each would end
  in, and perhaps ``HOST:PORT``. A guest dials the direct addresses first, else through a relay.

A fingerprint form whose multiaddrs end in the host's peer id (what the browser page writes from
the node's own reach) is read as the peer id form. Either way the joining node checks the key
of the node it reaches against the invite, so an invite cannot be redirected to someone else's table.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from fairtable.node.peer.peerid import PeerIdError, seat_key
from fairtable.node.peer.reach import alternatives, compact, is_multiaddr, key_of
from fairtable.protocol import PUBLIC_KEY_SIZE, CodecError, IdentityError, PublicKey, decode, encode, parse_fingerprint

PREFIX = "ft1"
TEXT_PREFIX = "ft:"
CHECK_SIZE = 4
BASE32 = frozenset("abcdefghijklmnopqrstuvwxyz234567")
EXAMPLE = "ft1wdwtsc7ytbtbd7sbtbeprgd5ap2p7amerpgjdxaxrrtrwzmbmwcstyqr7f6lrejr7pqvbtqmfgvuvbgdeysy3sgmzrysbb4wa"


class InviteError(ValueError):
    """Not an invite string; the message says what is wrong with it."""


@dataclass(frozen=True)
class Invite:
    address: str
    """The host's reach; its multiaddrs end in the host's peer id."""
    lobby_id: str
    fingerprint: str



def is_invite(text: str) -> bool:
    """Whether ``text`` is meant as an invite (of either form), not a node's ``HOST:PORT``."""
    return text.strip().lower().startswith((PREFIX, TEXT_PREFIX))


def write_invite(lobby_id: str, key: PublicKey, reach: str) -> str:
    """The invite to lobby table ``lobby_id`` of the host of ``key`` at ``reach``, as a node writes it."""
    body = encode([lobby_id, key.raw, compact(reach)])
    checked = body + hashlib.sha256(body).digest()[:CHECK_SIZE]
    return PREFIX + base64.b32encode(checked).decode().rstrip("=").lower()


def parse_invite(text: str) -> Invite:
    """The invite in ``text`` (spaces around it ignored); :class:`InviteError` saying why not."""
    text = text.strip()
    if text.lower().startswith(PREFIX):
        return _parse_word(text[len(PREFIX):])
    if not text.startswith(TEXT_PREFIX):
        raise InviteError(f"an invite starts with {PREFIX!r}, e.g. {EXAMPLE}")
    table, at, reach = text[len(TEXT_PREFIX):].rpartition("@")
    lobby_id, dot, named = table.partition(".")
    if not at or not dot or not lobby_id:
        raise InviteError("an invite is ft:LOBBY.FINGERPRINT@HOST:PORT or ft:LOBBY.PEERID@ADDRESSES")
    try:
        if named.startswith("12D3KooW"):
            key = seat_key(named)
            return Invite(",".join(alternatives(reach, key)), lobby_id, key.fingerprint)
        fingerprint = parse_fingerprint(named)
        if not any(is_multiaddr(part) for part in alternatives(reach)):
            return Invite(reach, lobby_id, fingerprint)
        named_key = key_of(reach)
        if named_key is None:
            raise ValueError("an invite with libp2p addresses names the host by its peer id (12D3KooW…), not a fingerprint")
        if named_key.fingerprint != fingerprint:
            raise ValueError(f"its addresses name the key {named_key.fingerprint}, not the fingerprint {fingerprint}")
        return Invite(",".join(alternatives(reach, named_key)), lobby_id, fingerprint)
    except (ValueError, IdentityError, PeerIdError) as exc:
        raise InviteError(f"not a valid invite: {exc}") from None


def _parse_word(body: str) -> Invite:
    if not set(body.lower()) <= BASE32:
        raise InviteError("not a valid invite: after 'ft1' an invite holds only the letters a-z and digits 2-7")
    try:
        checked = base64.b32decode(body.upper() + "=" * (-len(body) % 8))
    except (binascii.Error, ValueError):  # a length no whole invite has: cut short
        checked = b""
    value, check = checked[:-CHECK_SIZE], checked[-CHECK_SIZE:]
    if len(checked) <= CHECK_SIZE or hashlib.sha256(value).digest()[:CHECK_SIZE] != check:
        raise InviteError("not a valid invite: it is cut short or mistyped (its check does not match); copy it whole")
    try:
        decoded = decode(value)
        if not (isinstance(decoded, (list, tuple)) and len(decoded) == 3):
            raise ValueError("its body is not [lobby id, host key, reach]")
        lobby_id, raw, reach = decoded
        if not (isinstance(lobby_id, str) and lobby_id and isinstance(raw, bytes) and len(raw) == PUBLIC_KEY_SIZE
                and isinstance(reach, str)):
            raise ValueError("its body is not [lobby id, host key, reach]")
        key = PublicKey(raw)
        return Invite(",".join(alternatives(reach, key)), lobby_id, key.fingerprint)
    except (CodecError, ValueError, TypeError, IdentityError) as exc:
        raise InviteError(f"not a valid invite: {exc}") from None
