"""Builds ``spec/vectors/lobby.json``: the lobby exchange's messages, byte for byte, for a table and
for a tournament of two seats from fixed keys, nonces and draw values (``spec/node.md``, "Lobby
and start"). ``python -m tests.node.lobby.vector`` rewrites the file; ``test_vector.py`` checks it
equals what the code builds now and that its signatures and reveals start the record.
"""

from __future__ import annotations

import json
from typing import Any

from fairtable.node.lobby.tables import TableKind
from fairtable.node.peer.messages import PEER_VERSION, message
from fairtable.node.service import LobbyTable, TournamentLobby
from fairtable.node.tournament.lobby import TournamentKind
from fairtable.protocol import codec
from fairtable.protocol.genesis import Genesis, Seat
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.signed import Signable
from fairtable.protocol.tournament.record import Participant, Record, commitment
from tests.paths import VECTORS

PATH = VECTORS / "lobby.json"
HOST, GUEST = SecretKey.from_seed(bytes([0x71]) * 32), SecretKey.from_seed(bytes([0x72]) * 32)
ADDRESSES = ("192.0.2.1:7400", "192.0.2.2:7400")
NONCE = bytes(range(16))
DRAWS = (bytes([0x51]) * 32, bytes([0x52]) * 32)
LOBBY = "b71c0e2a"
VERSION = 2
"""The vector's genesis and tournament record are of protocol version 2, as recorded (the lobby's messages do not depend on it)."""


def table() -> tuple[str, dict, Signable, bytes, bytes]:
    """A table: its listing once the guest sits, its genesis, and empty commitment and reveals."""
    genesis = Genesis("towers", "normal", {"turn_seconds": 60}, (Seat(HOST.public, "alice"), Seat(GUEST.public, "bob")), NONCE, VERSION)
    listing = LobbyTable(LOBBY, "alice", "towers", "normal", {"turn_seconds": 60}, 2, ("alice", "bob"))
    return "table", TableKind(None).listing_value(listing), genesis, b"", b""


def tournament() -> tuple[str, dict, Signable, bytes, bytes]:
    """A tournament: its listing once the guest sits, its record, the guest's draw commitment and value."""
    participants = tuple(Participant(key.public, name, commitment(draw)) for key, name, draw in
                         ((HOST, "alice", DRAWS[0]), (GUEST, "bob", DRAWS[1])))
    record = Record(participants, {}, NONCE, version=VERSION)
    listing = TournamentLobby(LOBBY, ADDRESSES[0], 2, {}, ("alice", "bob"))
    return "tournament", TournamentKind(lambda *_: None).listing_value(listing), record, commitment(DRAWS[1]), DRAWS[1]


def exchange(kind: str, listing: dict, record: Signable, commit: bytes, reveal: bytes) -> list[dict]:
    """Every message of one exchange in order: the guest lists, joins, signs; the host starts."""
    host_reveal = b"" if kind == "table" else DRAWS[0]
    signatures = [record.sign(HOST), record.sign(GUEST)]
    return [
        message("list", v=PEER_VERSION, kind=kind),
        message("offers", offers=[{**listing, "joined": listing["joined"][:1]}]),
        message("join", v=PEER_VERSION, kind=kind, lobby=LOBBY, name="bob", addr=ADDRESSES[1], commit=commit),
        message("joined", offer=listing),
        message("ping"),
        message("sign", record=record.encoded),
        message("signature", sig=signatures[1], reveal=reveal),
        message("start", sigs=signatures, reveals=[host_reveal, reveal], peers=list(ADDRESSES)),
    ]


def _hex(value: Any) -> Any:
    """A message as JSON: bytes as hex strings."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {key: _hex(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_hex(item) for item in value]
    return value


def build() -> dict:
    kinds = {}
    for kind, listing, record, commit, reveal in (table(), tournament()):
        messages = exchange(kind, listing, record, commit, reveal)
        kinds[kind] = {
            "record": record.encoded.hex(), "signed_id": record.signed_id.hex(), "purpose": record.SIGN_PURPOSE,
            "messages": [{"value": _hex(value), "bytes": codec.encode(value).hex()} for value in messages],
        }
    return {"version": PEER_VERSION, "keys": [key.public.raw.hex() for key in (HOST, GUEST)], "kinds": kinds}


def render() -> str:
    return json.dumps(build(), indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
