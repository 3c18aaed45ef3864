"""Incoming peer connections: admission budgets, short deadlines, then the node's dispatch.

Anyone can open a TCP connection and start a handshake, so what an unknown peer can hold
is bounded (``spec/node.md``, "Connection limits"):

- a connection is **pending** from accept until its first message after the handshake; it
  must complete the handshake within ``handshake_seconds`` and send that message within
  ``first_message_seconds``. Pending connections are limited overall and per source
  address (IPv4 address, IPv6 /64); when full, the oldest of the fullest address is closed
  (:class:`~fairtable.node.admission.Budget`), so a flood from some addresses never keeps
  a peer at another address out;
- once the handshake authenticates a key seated at one of this node's started tables, the
  connection leaves the pending budget for a **seated** one with its own capacity (a few
  connections per table that seats the key): a table's peer always gets in, whatever
  strangers hold;
- after the first message, a stranger's connection is the lobby's (answered and closed, or
  a guest that was let in) and no longer pending.

Every refusal, eviction and failure is logged through a :class:`LogLimiter`, so a flood
writes a few lines and summaries, not one line per connection.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

import trio

from fairtable.node.admission import Budget, Ticket, serve
from fairtable.node.loglimit import LogLimiter
from fairtable.node.peer.channel import Channel, accept_channel
from fairtable.node.peer.errors import ChannelError, HandshakeError
from fairtable.node.peer.messages import BadMessage, OtherVersion, message, parse
from fairtable.protocol import PublicKey, SecretKey

log = logging.getLogger("fairtable.node")

Dispatch = Callable[[Channel, dict, str], Awaitable[None]]
"""Serves a connection by its first message: ``(channel, message, who)``."""


@dataclass(frozen=True)
class PeerLimits:
    """The incoming peer connections a node admits; each is documented in ``spec/node.md``."""

    pending: int = 64
    """Connections in the handshake or before their first message, from all addresses."""
    per_address: int = 8
    """Of those, from one IPv4 address or one IPv6 /64."""
    per_seated_table: int = 4
    """Connections of a key seated here, per started table that seats it."""
    handshake_seconds: float = 5.0
    first_message_seconds: float = 5.0


class PeerServer:
    """Admit connections to ``listeners`` and hand each, with its first message, to ``dispatch``.

    ``seated(key)`` says at how many of the node's started tables ``key`` sits; ``first`` are
    the message types a connection may open with.
    """

    def __init__(self, key: SecretKey, limits: PeerLimits, first: tuple[str, ...], dispatch: Dispatch,
                 seated: Callable[[PublicKey], int]) -> None:
        self.key = key
        self.limits = limits
        self.first = first
        self.dispatch = dispatch
        self.seated = seated
        self.pending = Budget(limits.pending, limits.per_address, evictable=True)
        self.seated_connections = Budget(None)
        self.quiet = LogLimiter(log)

    async def serve(self, listeners: list[trio.SocketListener], *,
                    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.quiet.run)
            await nursery.start(serve, listeners, self.connection)
            task_status.started()

    async def connection(self, stream: trio.SocketStream) -> None:
        """One incoming TCP connection, from accept to close."""
        who, address = _remote(stream)
        await self.admit(stream, who, address)

    async def admit(self, stream: trio.abc.Stream, who: str, address: str, expected: PublicKey | None = None) -> None:
        """One incoming connection from ``address`` (over TCP or libp2p), from its handshake to close;
        nothing it does escapes as an exception. With ``expected``, the channel must prove that key
        (the one libp2p authenticated for the stream)."""
        subject = f"peer {address}"
        scope = trio.CancelScope()
        pending = self.pending.admit(_group(address), scope)
        seated: Ticket | None = None
        try:
            with scope:
                channel = await accept_channel(stream, self.key, timeout=self.limits.handshake_seconds)
                async with channel:
                    if expected is not None and channel.peer != expected:
                        raise HandshakeError(f"libp2p authenticated {expected.fingerprint}, the channel proved "
                                             f"{channel.peer.fingerprint}: streams spliced")
                    who = f"{who} ({channel.peer.fingerprint})"
                    tables = self.seated(channel.peer)
                    if tables:
                        pending.release()
                        seated = self.seated_connections.admit(
                            channel.peer.raw, scope, per_group=tables * self.limits.per_seated_table)
                    first = await self._first(channel)
                    pending.release()
                    await self.dispatch(channel, first, who)
            if pending.evicted or (seated is not None and seated.evicted):
                when = "for a newer connection of its key" if seated else "before its first message"
                self.quiet.log(logging.WARNING, subject, "connections closed to make room",
                               f"{who}: closed {when}, to make room within the connection limits")
        except ChannelError as exc:
            self.quiet.log(logging.WARNING, subject, "failed connections", f"{who}: {exc}")
        except BadMessage as exc:
            self.quiet.log(logging.WARNING, subject, "refused messages", f"{who}: {exc}")
        except Exception as exc:  # a bug must not take the node down with it; it is logged in full
            self.quiet.log(logging.ERROR, subject, "internal errors", f"{who}: internal error: {exc}", exc_info=True)
        finally:
            pending.release()
            if seated is not None:
                seated.release()

    async def _first(self, channel: Channel) -> dict:
        """The connection's first message; a peer of another version is told so before it is closed."""
        try:
            return parse(await channel.receive(timeout=self.limits.first_message_seconds), *self.first)
        except OtherVersion as exc:
            await channel.send(message("refused", code="version", reason=str(exc)))
            raise


def _remote(stream: trio.SocketStream) -> tuple[str, str]:
    """``("host:port", "host")`` of the stream's peer (``"unknown"`` when it cannot tell)."""
    try:
        host, port = stream.socket.getpeername()[:2]
    except OSError:
        return "unknown", "unknown"
    return (f"[{host}]:{port}" if ":" in host else f"{host}:{port}"), host


def _group(address: str) -> Hashable:
    """What one source is: an IPv4 address, or an IPv6 /64 (what one host is usually given)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return ip.ipv4_mapped
        return ipaddress.ip_network(f"{ip}/64", strict=False)
    return ip
