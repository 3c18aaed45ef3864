"""Where a node is reached: its *reach*, one or more dialable addresses in one line.

A reach is a comma-separated list of alternatives, each either ``HOST:PORT`` (the node's TCP
server) or a libp2p multiaddr: direct (``/ip4/…/tcp/…``) or relayed
(``/ip4/…/tcp/…/p2p/<relay>/p2p-circuit``). A node announces its own reach without a final
``/p2p/<peer id>``: whoever dials it knows the key it expects (from the table's genesis, the
lobby channel or the invite), and :func:`alternatives` appends the peer id of that key, so the
reach stays short. A plain ``HOST:PORT`` is a reach of one alternative, which is what a node
without libp2p announces (``spec/node.md``, "Reach").

Reading a reach needs no networking stack: multiaddrs are checked by their shape and the peer
ids they name by :mod:`node.peer.peerid`, so a node that never loads libp2p still reads, checks
and relays them.
"""

from __future__ import annotations

from collections.abc import Sequence

from fairtable.node.peer.messages import MAX_TEXT
from fairtable.node.peer.peerid import PeerIdError, peer_id_text, seat_key
from fairtable.protocol import PublicKey

CIRCUIT = "/p2p-circuit"
PEER = "/p2p/"
MAX_REACH = MAX_TEXT
"""The longest reach a node announces: it travels as text of at most 256 characters (``addr`` of ``join``)."""


def parse_address(address: str) -> tuple[str, int]:
    """``"host:port"`` as ``(host, port)``; raises ValueError."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"an address is host:port, got {address!r}")
    return host.strip("[]"), int(port)


def is_multiaddr(alternative: str) -> bool:
    return alternative.startswith("/")


def is_relayed(alternative: str) -> bool:
    return CIRCUIT in alternative


def _own_peer(alternative: str) -> str | None:
    """The peer id an alternative ends with (after its last ``/p2p-circuit``, if relayed), or None."""
    tail = alternative.rpartition(CIRCUIT)[2] if is_relayed(alternative) else alternative
    _head, peer, rest = tail.rpartition(PEER)
    return rest if peer and "/" not in rest else None


def alternatives(reach: str, key: PublicKey | None = None) -> list[str]:
    """The reach's alternatives in the order to dial them: direct first (libp2p, then TCP), relayed last.

    With ``key``, each multiaddr ends in that key's peer id (appended where the reach left it
    out; one naming another key is refused). Raises ValueError saying what is wrong.
    """
    parts = [part.strip() for part in reach.split(",")]
    if not reach.strip() or not all(parts):
        raise ValueError(f"a reach is HOST:PORT or multiaddrs, separated by commas; got {reach!r}")
    out = []
    for part in parts:
        if not is_multiaddr(part):
            parse_address(part)
            out.append(part)
            continue
        if not part.startswith(("/ip4/", "/ip6/", "/dns4/", "/dns6/", "/dns/")) or "/tcp/" not in part:
            raise ValueError(f"a libp2p address starts /ip4/, /ip6/ or /dns…/ and names a /tcp/ port; got {part!r}")
        named = _own_peer(part)
        if named is not None:
            try:
                named_key = seat_key(named)
            except PeerIdError as exc:
                raise ValueError(f"{part!r}: {exc}") from None
            if key is not None and named_key != key:
                raise ValueError(f"{part!r} names another peer than the key expected ({key.fingerprint})")
        elif key is not None:
            part += PEER + peer_id_text(key)
        out.append(part)
    return sorted(out, key=lambda part: (is_relayed(part), not is_multiaddr(part)))


def check_reach(reach: str) -> str:
    """``reach`` if it reads as one; ValueError saying what is wrong."""
    alternatives(reach)
    return reach


def key_of(reach: str) -> PublicKey | None:
    """The key the reach's multiaddrs name by a final ``/p2p/<peer id>`` (None if none does); ValueError if they differ."""
    keys = {seat_key(peer) for part in alternatives(reach) if is_multiaddr(part) and (peer := _own_peer(part)) is not None}
    if len(keys) > 1:
        raise ValueError(f"the multiaddrs of {reach!r} name different peers")
    return next(iter(keys), None)


def compact(reach: str) -> str:
    """The reach without the final ``/p2p/<peer id>`` of its multiaddrs: what a node announces and an invite carries."""
    out = []
    for part in alternatives(reach):
        peer = _own_peer(part) if is_multiaddr(part) else None
        out.append(part[: -len(PEER + peer)] if peer is not None else part)
    return ",".join(out)


def fit(parts: Sequence[str], limit: int = MAX_REACH, *, reachable: bool = False) -> tuple[str, list[str]]:
    """The reach a node announces from its alternatives ``parts`` (own direct multiaddrs, ``HOST:PORT``,
    one circuit per relay in ``--relay`` order), within ``limit`` characters; and the parts left out.

    Kept first, while they fit: the first circuit (what a peer behind another NAT needs), then
    the direct multiaddrs and ``HOST:PORT`` (a peer on the same network), then the other
    circuits in order (spares for a relay that dies). A node its relays found ``reachable``
    keeps its direct ones first, then the circuits in order. Announced compact, in dial order.
    """
    whole = [compact(part) for part in parts]
    circuits = [part for part in whole if is_relayed(part)]
    direct = [part for part in whole if not is_relayed(part)]
    order = direct + circuits if reachable else circuits[:1] + direct + circuits[1:]
    kept: list[str] = []
    for part in order:
        if len(",".join([*kept, part])) <= limit:
            kept.append(part)
    if not kept:
        raise ValueError(f"no alternative of the reach fits in {limit} characters: {parts[0][:80]!r}…")
    return ",".join(alternatives(",".join(kept))), [part for part in whole if part not in kept]
