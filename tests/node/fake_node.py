"""An in-memory NodeService for the client API tests: real rules, a random opponent, no network.

Tables are played with full knowledge by the game's own rules (chance from a seeded
``random.Random``), this node in one seat and a random bot in the other, so a client
sees real views and legal moves and a game reaches a real result.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import AsyncIterator
from typing import Any

import trio

from fairtable.games import GameError, Refusal, registry
from fairtable.games.contract import (
    Deal,
    Dealt,
    Decide,
    Finished,
    Forfeit,
    Move,
    PrivateDraw,
    PrivateDrawn,
    PublicRandom,
    RandomValue,
    Shuffle,
    Shuffled,
)
from fairtable.games.referee import shuffled
from fairtable.node.lobby.invite import write_invite
from fairtable.node.service import ILLEGAL, NOT_FOUND, FoundTable, Identity, LobbyTable, ServiceError, TableUpdate, check_new_table
from fairtable.protocol.identity import SecretKey

PEER = "peer.test:7000"
FINGERPRINT = "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24"
ME, BOT = "me", "bot"


class FakeTable:
    """One started table: the full state, this node's seat, and the faces chance produced."""

    def __init__(self, lobby: LobbyTable, seat: int, rng: random.Random) -> None:
        self.lobby = lobby
        self.id = hashlib.sha256(f"{lobby.lobby_id}/{seat}".encode()).hexdigest()
        self.game = registry.get(lobby.game)
        self.state = self.game.setup(lobby.variant, lobby.options, lobby.seats)
        self.seat = seat
        self.rng = rng
        self.faces: dict[int, int] = {}

    def update(self) -> TableUpdate:
        legal = self.game.legal_moves(self.state, self.seat)
        result = self.state.result
        table_timer = self.game.timer(self.game.options_of(self.state))
        timer = table_timer.turn_seconds if table_timer else 0
        return TableUpdate(
            lobby_id=self.lobby.lobby_id, table=self.id, game=self.lobby.game, variant=self.lobby.variant,
            seat=self.seat, seats=(ME, BOT) if self.seat == 0 else (BOT, ME), phase="over" if result else "play",
            view=self.game.view(self.state, self.seat), legal_moves=legal, your_turn=bool(legal),
            deadline=timer - 0.5 if timer and legal else None, result=None if result is None else result.to_value(),
        )

    def apply(self, event: Any) -> None:
        self.state = self.game.apply(self.state, event)

    def advance(self) -> list[TableUpdate]:
        """Resolve chance and the opponent's turns until this seat decides or the game ends;
        the updates after each opponent move and at the end."""
        updates = []
        while True:
            request = self.game.pending(self.state)
            if isinstance(request, Finished) or (isinstance(request, Decide) and request.seat == self.seat):
                return updates + [self.update()]
            if isinstance(request, Decide):
                move = self.rng.choice(self.game.legal_moves(self.state, request.seat))
                shown = self.game.reveals(self.state, move)
                self.apply(Move(request.seat, move, {h: self.faces[h] for h in shown}))
                updates.append(self.update())
            elif isinstance(request, PublicRandom):
                self.apply(RandomValue(self.rng.randrange(request.bound)))
            elif isinstance(request, Shuffle):
                deck = {request.first_handle + j: face for j, face in enumerate(shuffled(request.cards, self.rng))}
                self.faces.update(deck)
                self.apply(Shuffled(deck))
            elif isinstance(request, Deal):
                self.apply(Dealt({h: self.faces[h] for _, handles in request.to for h in handles}))
            elif isinstance(request, PrivateDraw):
                drawn = {request.first_handle + i: self.rng.randrange(request.bound) for i in range(request.count)}
                self.faces.update(drawn)
                self.apply(PrivateDrawn(drawn))
            else:
                raise NotImplementedError(request)


class FakeNode:
    """A :class:`node.service.NodeService` in memory; ``calls`` records every request it served."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.lobbies: dict[str, LobbyTable] = {}
        self.remote = {PEER: {"far1": LobbyTable("far1", BOT, "towers", "normal", {}, 2, (BOT,))}}
        self.tables: dict[str, FakeTable] = {}
        self.calls: list[tuple[str, tuple]] = []
        self.opponent_joins = True
        """Whether a bot takes the second seat of every lobby hosted here at once."""
        self.gate: trio.Event | None = None
        """When set, every request waits for it (to hold requests in flight)."""
        self.failure: Exception | None = None
        """Raised by every request when set."""
        self._listeners: list[trio.MemorySendChannel[TableUpdate]] = []

    async def _called(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))
        if self.gate is not None:
            await self.gate.wait()
        if self.failure is not None:
            raise self.failure

    def _push(self, updates: list[TableUpdate]) -> None:
        for listener in self._listeners:
            for update in updates:
                listener.send_nowait(update)

    def _table(self, table_id: str) -> FakeTable:
        for table in self.tables.values():
            if table.id == table_id:
                return table
        raise ServiceError(f"no table {table_id!r} at this node", NOT_FOUND)

    def _begin(self, lobby: LobbyTable, seat: int) -> FakeTable:
        table = self.tables[lobby.lobby_id] = FakeTable(lobby, seat, self.rng)
        self._push(table.advance())
        return table

    async def list_tables(self, peer: str | None) -> tuple[LobbyTable, ...]:
        await self._called("list_tables", peer)
        if peer is None:
            return tuple(self.lobbies.values())
        if peer not in self.remote:
            raise ServiceError(f"cannot reach {peer}")
        return tuple(self.remote[peer].values())

    async def host(self, game: str, variant: str, options: dict, seats: int) -> LobbyTable:
        await self._called("host", game, variant, options, seats)
        check_new_table(game, variant, options, seats)
        lobby_id = f"lobby{len(self.lobbies) + 1}"
        joined = (ME, BOT) if self.opponent_joins else (ME,)
        self.lobbies[lobby_id] = LobbyTable(lobby_id, ME, game, variant, dict(options), seats, joined)
        return self.lobbies[lobby_id]

    async def join(self, peer: str, lobby_id: str, fingerprint: str | None = None) -> LobbyTable:
        """Take the last seat; the remote host then starts the table at once."""
        await self._called("join", peer, lobby_id, fingerprint)
        lobby = self.remote.get(peer, {}).get(lobby_id)
        if lobby is None:
            raise ServiceError(f"no lobby {lobby_id!r} at {peer}")
        joined = LobbyTable(lobby.lobby_id, lobby.host, lobby.game, lobby.variant, lobby.options, lobby.seats,
                            lobby.joined + (ME,), started=True)
        self._begin(joined, seat=1)
        return joined

    async def leave(self, lobby_id: str) -> None:
        await self._called("leave", lobby_id)
        if lobby_id not in self.lobbies or lobby_id in self.tables:
            raise ServiceError(f"no open lobby {lobby_id!r}")
        del self.lobbies[lobby_id]

    async def start(self, lobby_id: str) -> TableUpdate:
        await self._called("start", lobby_id)
        lobby = self.lobbies.get(lobby_id)
        if lobby is None or lobby_id in self.tables:
            raise ServiceError(f"no open lobby {lobby_id!r}")
        if len(lobby.joined) < lobby.seats:
            raise ServiceError(f"waiting for {lobby.seats - len(lobby.joined)} more player(s)")
        return self._begin(lobby, seat=0).update()

    async def move(self, table: str, move: Any) -> None:
        await self._called("move", table, move)
        fake = self._table(table)
        if move not in fake.game.legal_moves(fake.state, fake.seat):
            raise ServiceError(f"{move!r} is not a legal move now", ILLEGAL)
        shown = fake.game.reveals(fake.state, move)
        fake.apply(Move(fake.seat, move, {h: fake.faces[h] for h in shown}))
        self._push([fake.update()] + fake.advance())

    async def check(self, table: str, move: Any) -> Refusal | None:
        await self._called("check", table, move)
        fake = self._table(table)
        return fake.game.explain(fake.state, fake.seat, move)

    async def read_deck(self, table: str, text: str) -> tuple[int, ...]:
        await self._called("read_deck", table, text)
        fake = self._table(table)
        try:
            return tuple(fake.game.read_composition(fake.state, fake.seat, text))
        except GameError as exc:
            raise ServiceError(str(exc), ILLEGAL) from None

    async def resign(self, table: str) -> None:
        await self._called("resign", table)
        fake = self._table(table)
        fake.apply(Forfeit(fake.seat, "resigned"))
        self._push([fake.update()])

    async def transcript(self, table: str) -> bytes:
        await self._called("transcript", table)
        return b"FTT\x00" + self._table(table).id.encode() + bytes(range(256))

    async def identity(self) -> Identity:
        return Identity(ME, FINGERPRINT, "me.test:7001")

    async def invite(self, lobby_id: str) -> str:
        return write_invite(lobby_id, SecretKey.from_seed(bytes(32)).public, "me.test:7001")

    async def my_tables(self) -> tuple[TableUpdate, ...]:
        await self._called("my_tables")
        return tuple(table.update() for table in self.tables.values())

    async def discovered(self) -> tuple[FoundTable, ...]:
        await self._called("discovered")
        return ()

    def updates(self) -> AsyncIterator[TableUpdate]:
        return self._updates()

    async def _updates(self) -> AsyncIterator[TableUpdate]:
        send, receive = trio.open_memory_channel[TableUpdate](math.inf)
        for table in self.tables.values():
            send.send_nowait(table.update())
        self._listeners.append(send)
        try:
            async for update in receive:
                yield update
        finally:
            self._listeners.remove(send)
