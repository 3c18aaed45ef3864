"""The peer protocol's messages (``spec/node.md``): one canonical msgpack map per channel message.

Every message is a map whose ``t`` names its type; the other keys are fixed per type and
checked here, so the node's logic only ever sees well-formed messages. Anything else a
peer sends is a :class:`BadMessage`, and the connection that carried it is closed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.node.service import LobbyTable

PEER_VERSION = 3
"""The version of these messages, sent as ``v`` (``spec/transcript.md``, "Versions"). It is not
the genesis version: version 3 made the table and tournament lobbies one vocabulary and changed
no signed bytes. A peer of another version is refused before the rest of its message is read."""
HASH = 32
MAX_TEXT = 256


class BadMessage(Exception):
    """A value that is not a peer message of an expected type; the message says why."""


class OtherVersion(BadMessage):
    """A message of an expected type from a peer speaking another version: answered ``refused``
    with code ``version`` when it opens a connection, whatever the rest of it looks like."""


def _int(value: Any) -> bool:
    return type(value) is int and value >= 0


def _text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def _hash(value: Any) -> bool:
    return isinstance(value, bytes) and len(value) == HASH


def _bytes(value: Any) -> bool:
    return isinstance(value, bytes)


def _map(value: Any) -> bool:
    return isinstance(value, dict)


def _array(value: Any) -> bool:
    return isinstance(value, (tuple, list))


def _version(value: Any) -> bool:
    return type(value) is int


def _reason(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 4 * MAX_TEXT


FIELDS: dict[str, dict[str, Callable[[Any], bool]]] = {
    # the lobby of tables and tournaments alike, on a channel the guest opens to the host
    "list": {"v": _version, "kind": _text},
    "offers": {"offers": _array},
    "join": {"v": _version, "kind": _text, "lobby": _text, "name": _text, "addr": _text, "commit": _bytes},
    "joined": {"offer": _map},
    "refused": {"code": _text, "reason": _reason},
    "lobby": {"offer": _map},
    "leave": {},
    "ping": {},
    "sign": {"record": _bytes},
    "signature": {"sig": _bytes, "reveal": _bytes},
    "start": {"sigs": _array, "reveals": _array, "peers": _array},
    # tournaments (spec/tournament.md): a table's signatures, transcripts
    "ttable": {"v": _version, "genesis": _bytes},
    "tget": {"v": _version, "tournament": _hash, "table": _hash},
    "tfile": {"size": _int},
    "chunk": {"data": _bytes},
    "tdone": {"v": _version, "tournament": _hash},
    # table mesh, on a channel the lower seat opens to the higher
    "hello": {"v": _version, "table": _hash, "seat": _int, "have": _int, "head": _hash, "start": _map},
    "env": {"env": _array},
    "ev": {"env": _array},
    "sync": {"have": _int, "head": _hash},
    # spectators, on a channel the spectator opens to a seat's node (then env, ev and ping)
    "watch": {"v": _version, "table": _text},
    "watching": {"genesis": _map, "lobby": _text},
    "chat": {"line": _array},
}


def message(kind: str, /, **fields: Any) -> dict:
    """A message of type ``kind`` (checked like a received one, so a bug cannot send garbage)."""
    value = {"t": kind, **fields}
    parse(value, kind)
    return value


def parse(value: Any, *expected: str) -> dict:
    """``value`` as a message whose type is one of ``expected``; raises :class:`BadMessage`."""
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        raise BadMessage("not a peer message (a map with a type under 't')")
    kind = value["t"]
    if kind not in expected:
        raise BadMessage(f"unexpected message {kind[:32]!r}; expected {' or '.join(expected)}")
    fields = FIELDS[kind]
    if "v" in fields and _version(value.get("v")) and value["v"] != PEER_VERSION:
        raise OtherVersion(f"protocol version {value['v']} is not supported (this node speaks {PEER_VERSION})")
    if set(value) != {"t", *fields}:
        raise BadMessage(f"a {kind!r} message has exactly the keys {sorted(fields)}")
    for name, check in fields.items():
        if not check(value[name]):
            raise BadMessage(f"{kind!r} message: field {name!r} is malformed")
    return value


def lobby_value(table: LobbyTable) -> dict:
    return {
        "game": table.game, "host": table.host, "joined": list(table.joined), "lobby": table.lobby_id,
        "options": table.options, "seats": table.seats, "started": table.started, "variant": table.variant,
    }


def lobby_from_value(value: Any) -> LobbyTable:
    keys = {"game", "host", "joined", "lobby", "options", "seats", "started", "variant"}
    if not isinstance(value, dict) or set(value) != keys:
        raise BadMessage(f"a lobby table is a map with the keys {sorted(keys)}")
    checks = (
        _text(value["game"]), _text(value["host"]), _text(value["lobby"]), _text(value["variant"]),
        _map(value["options"]), _int(value["seats"]), isinstance(value["started"], bool),
        _array(value["joined"]) and all(_text(name) for name in value["joined"]),
    )
    if not all(checks):
        raise BadMessage("a lobby table field is malformed")
    return LobbyTable(
        value["lobby"], value["host"], value["game"], value["variant"], value["options"],
        value["seats"], tuple(value["joined"]), value["started"],
    )
