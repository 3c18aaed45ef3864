"""Invite strings: everything a friend needs to join a table, in one line they can paste.

``ft:LOBBY.FINGERPRINT@HOST:PORT`` names the host's address, the lobby table and the host's
key fingerprint (without dashes). The joining node checks the key of the node it reaches
against the fingerprint, so an invite cannot be redirected to someone else's table; the
fingerprint's checksum catches a mistyped invite before anything is dialled.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairtable.node.lobby.exchange import parse_address
from fairtable.protocol import IdentityError, parse_fingerprint

PREFIX = "ft:"


class InviteError(ValueError):
    """Not an invite string; the message says what is wrong with it."""


@dataclass(frozen=True)
class Invite:
    address: str
    lobby_id: str
    fingerprint: str

    def __str__(self) -> str:
        return f"{PREFIX}{self.lobby_id}.{self.fingerprint.replace('-', '')}@{self.address}"


def parse_invite(text: str) -> Invite:
    """The invite in ``text`` (spaces around it ignored); :class:`InviteError` saying why not."""
    text = text.strip()
    if not text.startswith(PREFIX):
        raise InviteError(f"an invite starts with {PREFIX!r}, e.g. ft:b71c0e.Z5NGN48B8BB88ZSXKJS2VP24@192.0.2.7:7400")
    table, at, address = text[len(PREFIX):].rpartition("@")
    lobby_id, dot, fingerprint = table.partition(".")
    if not at or not dot or not lobby_id:
        raise InviteError("an invite is ft:LOBBY.FINGERPRINT@HOST:PORT")
    try:
        parse_address(address)
        return Invite(address, lobby_id, parse_fingerprint(fingerprint))
    except (ValueError, IdentityError) as exc:
        raise InviteError(f"not a valid invite: {exc}") from None
