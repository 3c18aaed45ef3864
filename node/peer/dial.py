"""Dialling a reach (``node.peer.reach``): each alternative in dial order until one proves the expected key.

One function for the node and for anything else that must reach a seat the way a node does
(the NAT world's peers, ``fairtable bench net``), so the order and the time given to each
alternative are written once (``spec/node.md``, "Reach").
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import trio

from fairtable.node.peer.channel import Channel, open_channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.reach import alternatives, is_multiaddr, is_relayed, parse_address
from fairtable.protocol import PublicKey, SecretKey

if TYPE_CHECKING:
    from fairtable.node.peer.p2p import P2PHost

log = logging.getLogger("fairtable.node")

DIRECT_SECONDS = 3.0
"""How long a direct address is tried before the next, when a relayed one remains: a home
address of a node behind NAT is often silently dropped, not refused."""


async def connect(reach: str, expected: PublicKey | None, secret: SecretKey, p2p: P2PHost | None,
                  handshake_timeout: float) -> Channel:
    """A channel to the node at ``reach``: its direct addresses first, each given a short while
    when a relayed one remains, then through its relays; an address of another key is passed over.
    Without a libp2p host (``p2p``) only ``HOST:PORT`` alternatives are tried, if there are any."""
    options = alternatives(reach, expected)
    if p2p is None:
        options = [option for option in options if not is_multiaddr(option)] or options
    failures = []
    for number, option in enumerate(options):
        relayed_left = any(is_relayed(later) for later in options[number + 1:])
        timeout = min(DIRECT_SECONDS, handshake_timeout) if relayed_left else handshake_timeout
        try:
            with trio.fail_after(timeout):
                return await connect_one(option, expected, secret, p2p, handshake_timeout)
        except (OSError, ValueError, ChannelError, trio.TooSlowError) as exc:
            failures.append(f"{option}: {exc or type(exc).__name__}")
            if number + 1 < len(options):
                log.info("%s did not answer (%s); trying the next address", option, exc or type(exc).__name__)
    if len(failures) == 1:
        raise ChannelError(failures[0])
    raise ChannelError("no address answered: " + "; ".join(failures))


async def connect_one(address: str, expected: PublicKey | None, secret: SecretKey, p2p: P2PHost | None,
                      handshake_timeout: float) -> Channel:
    """A channel over one alternative of a reach: a multiaddr through ``p2p``, or ``HOST:PORT`` over TCP."""
    if is_multiaddr(address):
        if p2p is None:
            raise ChannelError("a libp2p address, and this node runs no libp2p host (start it with --relay)")
        from fairtable.node.peer.p2p import relayed

        channel: Channel = await p2p.dial(address, expected)
        log.info("libp2p channel to %s: %s", channel.peer.fingerprint, "relayed" if relayed(channel) else "direct")
        return channel
    host, port = parse_address(address)
    stream = await trio.open_tcp_stream(host, port)
    return await open_channel(stream, secret, expected=expected, timeout=handshake_timeout)
