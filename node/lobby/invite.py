"""Invite strings: everything a friend needs to join a table, in one line they can paste.

Two forms (``spec/node.md``, "Invites"):

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

from dataclasses import dataclass

from fairtable.node.peer.peerid import PeerIdError, peer_id_text, seat_key
from fairtable.node.peer.reach import alternatives, compact, is_multiaddr, key_of
from fairtable.protocol import IdentityError, parse_fingerprint

PREFIX = "ft:"


class InviteError(ValueError):
    """Not an invite string; the message says what is wrong with it."""


@dataclass(frozen=True)
class Invite:
    address: str
    """The host's reach; its multiaddrs end in the host's peer id."""
    lobby_id: str
    fingerprint: str

    def __str__(self) -> str:
        key = key_of(self.address)
        if key is None:
            return f"{PREFIX}{self.lobby_id}.{self.fingerprint.replace('-', '')}@{self.address}"
        return f"{PREFIX}{self.lobby_id}.{peer_id_text(key)}@{compact(self.address)}"


def parse_invite(text: str) -> Invite:
    """The invite in ``text`` (spaces around it ignored); :class:`InviteError` saying why not."""
    text = text.strip()
    if not text.startswith(PREFIX):
        raise InviteError(f"an invite starts with {PREFIX!r}, e.g. ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7:7400")
    table, at, reach = text[len(PREFIX):].rpartition("@")
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
