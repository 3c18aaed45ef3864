"""The guest's side of the lobby: tables this node joined at another node, until they start.

The guest checks the genesis it is asked to sign is the table it joined, creates the table's
secret before it signs (so it can always accept the table later), and starts the table when
the host's ``start`` arrives, or from the host's first link if the ``start`` never does.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

import trio

from fairtable.node.lobby.host import SILENCE_FACTOR, keep_alive
from fairtable.node.lobby.tables import matches
from fairtable.node.peer.channel import Channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import BadMessage, lobby_from_value, message, parse
from fairtable.node.service import LobbyTable, ServiceError, TableUpdate
from fairtable.node.table.journal import TableFiles
from fairtable.node.table.mesh import Mesh
from fairtable.node.tasks import race
from fairtable.node.updates import Updates
from fairtable.protocol import PROTOCOL_VERSION, Genesis, GenesisError, PublicKey, SecretKey, SignedGenesis

log = logging.getLogger("fairtable.node")


@dataclass
class _Seated:
    """A lobby table this node joined as a guest, before it starts."""

    listing: LobbyTable
    channel: Channel
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)


class Guest:
    """Lobby tables this node joined, by lobby id."""

    def __init__(self, key: SecretKey, name: Callable[[], str], address: Callable[[], str], mesh: Mesh, updates: Updates,
                 connect: Callable[[str], Awaitable[Channel]], heartbeat: float, timeout: float) -> None:
        self.key = key
        self._name = name
        self._address = address
        self.mesh = mesh
        self.updates = updates
        self._connect = connect
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.seated: dict[str, _Seated] = {}

    def update(self, lobby_id: str) -> TableUpdate:
        seated = self.seated.get(lobby_id)
        if seated is None:
            return TableUpdate(lobby_id, None, "", "", None, (), "closed")
        listing = seated.listing
        return TableUpdate(lobby_id, None, listing.game, listing.variant, None, listing.joined, "lobby")

    async def list_tables(self, peer: str) -> tuple[LobbyTable, ...]:
        try:
            channel = await self._connect(peer)
            async with channel:
                await channel.send(message("list", v=PROTOCOL_VERSION))
                reply = parse(await channel.receive(timeout=self.timeout), "tables")
                return tuple(lobby_from_value(value) for value in reply["tables"])
        except (OSError, ValueError, trio.TooSlowError, ChannelError, BadMessage) as exc:
            raise ServiceError(f"cannot list the tables at {peer}: {exc}") from None

    async def join(self, nursery: trio.Nursery, peer: str, lobby_id: str, fingerprint: str | None = None) -> LobbyTable:
        """Join ``lobby_id`` at ``peer``; with ``fingerprint`` (from an invite), only if that node has that key."""
        try:
            channel = await self._connect(peer)
        except (OSError, ValueError, trio.TooSlowError, ChannelError) as exc:
            raise ServiceError(f"cannot reach {peer}: {exc}") from None
        if fingerprint is not None and channel.peer.fingerprint != fingerprint:
            await channel.aclose()
            raise ServiceError(f"the node at {peer} is not the host of the invite: its key is {channel.peer.fingerprint}, "
                               f"the invite names {fingerprint}")
        try:
            await channel.send(message("join", v=PROTOCOL_VERSION, lobby=lobby_id, name=self._name(), addr=self._address()))
            reply = parse(await channel.receive(timeout=self.timeout), "joined", "refused")
            if reply["t"] == "refused":
                raise ServiceError(f"{peer} refused: {reply['reason']}")
            listing = lobby_from_value(reply["table"])
        except (ChannelError, BadMessage, ServiceError) as exc:
            await channel.aclose()
            raise exc if isinstance(exc, ServiceError) else ServiceError(f"joining at {peer} failed: {exc}") from None
        seated = _Seated(listing, channel)
        self.seated[lobby_id] = seated
        self.updates.set(lobby_id, lambda: self.update(lobby_id))
        nursery.start_soon(self._wait, lobby_id, seated, channel.peer, f"{peer} ({channel.peer.fingerprint})")
        return listing

    async def leave(self, lobby_id: str) -> bool:
        """Leave a joined table that has not started; False if this node did not join it."""
        seated = self.seated.get(lobby_id)
        if seated is None:
            return False
        try:
            await seated.channel.send(message("leave"))
        except ChannelError:
            pass
        seated.scope.cancel()
        return True

    async def _wait(self, lobby_id: str, seated: _Seated, host: PublicKey, who: str) -> None:
        """Hold a joined lobby table's connection until the host starts it (or it ends)."""
        channel = seated.channel
        try:
            with seated.scope:
                async with channel:
                    await race(partial(keep_alive, channel, self.heartbeat), partial(self._await_start, lobby_id, seated, host))
        except (ChannelError, BadMessage) as exc:
            log.warning("peer %s: lobby table %s: %s", who, lobby_id, exc)
        finally:
            del self.seated[lobby_id]
            self.updates.touch(lobby_id)

    async def _await_start(self, lobby_id: str, seated: _Seated, host: PublicKey) -> None:
        signed_id = None
        while True:
            received = parse(await seated.channel.receive(timeout=SILENCE_FACTOR * self.heartbeat), "lobby", "ping", "sign", "start")
            if received["t"] == "lobby":
                seated.listing = lobby_from_value(received["table"])
                self.updates.touch(lobby_id)
            elif received["t"] == "sign":
                try:
                    genesis = Genesis.from_bytes(received["genesis"])
                except GenesisError as exc:
                    raise BadMessage(f"genesis to sign: {exc}") from None
                why = matches(seated.listing, genesis, self.key.public, host)
                if why is not None:
                    raise BadMessage(f"refusing to sign: {why}")
                TableFiles(self.mesh.root, genesis.table_id).secret()
                signed_id = genesis.table_id
                await seated.channel.send(message("signature", sig=genesis.sign(self.key)))
            elif received["t"] == "start":
                self._start(lobby_id, received, signed_id)
                return

    def _start(self, lobby_id: str, start: dict, signed_id: bytes | None) -> None:
        try:
            genesis = SignedGenesis.from_value(start["genesis"])
        except GenesisError as exc:
            raise BadMessage(f"start: {exc}") from None
        addresses = start["peers"]
        if genesis.table_id != signed_id:
            raise BadMessage("start names a genesis this node did not sign")
        if len(addresses) != len(genesis.genesis.seats) or not all(isinstance(a, str) for a in addresses):
            raise BadMessage("start must give one address per seat")
        if genesis.table_id not in self.mesh.tables:  # the host's first link may have started it already
            self.mesh.start(genesis, lobby_id, tuple(addresses))
