"""The one lobby exchange, for both kinds of record (a table's genesis, a tournament's record), over
memory streams under a mock clock: honest starts, and each way a guest or a host can break the
exchange, refused with the seat it names and with nothing started or changed."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from fairtable.node.lobby.exchange import Entrant, ExchangeGuest, ExchangeHost, Kind, keep_alive
from fairtable.node.lobby.tables import TableKind, Terms
from fairtable.node.peer.channel import Channel, accept_channel, open_channel
from fairtable.node.peer.errors import ChannelError
from fairtable.node.peer.messages import PEER_VERSION, BadMessage, message, parse
from fairtable.node.service import ServiceError
from fairtable.node.tournament.lobby import TournamentKind
from fairtable.protocol.identity import SecretKey
from tests.node.nodes import eventually

HOST, ALICE, BOB, MALLORY = (SecretKey.from_seed(bytes([0x60 + n]) * 32) for n in range(4))
HEARTBEAT, TIMEOUT = 2.0, 10.0


@dataclass
class FakeMesh:
    """What a table kind needs of the mesh: a folder for secrets and the tables it started."""

    root: Path
    tables: dict = field(default_factory=dict)

    def start(self, signed: Any, lobby_id: str, addresses: tuple[str, ...]) -> None:
        self.tables[signed.table_id] = (signed, addresses)


class Begun:
    """One node's kind of record, remembering what it started."""

    def __init__(self, kind_name: str, root: Path) -> None:
        self._started: list[Any] = []
        self.mesh = FakeMesh(root)
        self.kind: Kind = (TableKind(self.mesh) if kind_name == "table"
                           else TournamentKind(lambda tournament, addresses: self._started.append(tournament)))

    @property
    def started(self) -> list[Any]:
        return [signed for signed, _ in self.mesh.tables.values()] + self._started


KINDS = ("table", "tournament")
TERMS = {"table": Terms("towers", "normal", {}), "tournament": {"advance": 1}}


class Stage:
    """A host and the guests that connect to it, each over its own memory stream."""

    def __init__(self, kind_name: str, root: Path, nursery: trio.Nursery) -> None:
        self.kind_name = kind_name
        self.root = root
        self.nursery = nursery
        self.host_side = Begun(kind_name, root / "host")
        self.host = ExchangeHost(self.host_side.kind, HOST, lambda: "host", lambda: "10.0.0.1:7000", HEARTBEAT, TIMEOUT)
        self.refused: list[str] = []

    def offer(self, seats: int = 3) -> str:
        return self.host.open(TERMS[self.kind_name], seats).lobby_id

    async def connect(self, key: SecretKey) -> Channel:
        """A channel from ``key`` to the host, whose end the host serves as a node would."""
        near, far = trio.testing.memory_stream_pair()
        channels: list[Channel] = []

        async def accept() -> None:
            channels.append(await accept_channel(far, HOST))

        async with trio.open_nursery() as both:
            both.start_soon(accept)
            guest = await open_channel(near, key)
        self.nursery.start_soon(self._serve, channels[0])
        return guest

    async def _serve(self, channel: Channel) -> None:
        async with channel:
            try:
                first = parse(await channel.receive(timeout=TIMEOUT), "list", "join")
                if first["t"] == "list":
                    await channel.send(message("offers", offers=self.host.listings()))
                else:
                    await self.host.serve(channel, first, "test")
            except (BadMessage, ChannelError) as exc:
                self.refused.append(str(exc))

    def guest(self, key: SecretKey, name: str) -> tuple[ExchangeGuest, Begun]:
        side = Begun(self.kind_name, self.root / name)
        return ExchangeGuest(side.kind, key, lambda: name, lambda: f"10.0.0.{len(name)}:7000",
                             lambda peer: self.connect(key), HEARTBEAT, TIMEOUT), side

    async def raw_join(self, key: SecretKey, lobby_id: str, name: str = "raw") -> Channel:
        """A guest the test drives by hand: joined, its ``joined`` answer read."""
        channel = await self.connect(key)
        commit = b"" if self.kind_name == "table" else bytes(32)
        self.nursery.start_soon(keep_alive, channel, HEARTBEAT)
        await channel.send(message("join", v=PEER_VERSION, kind=self.kind_name, lobby=lobby_id, name=name,
                                   addr="10.0.0.9:7000", commit=commit))
        assert parse(await channel.receive(timeout=TIMEOUT), "joined")
        return channel


async def receive(channel: Channel, *kinds: str) -> dict:
    """The next message of ``kinds``, skipping pings."""
    while True:
        received = parse(await channel.receive(timeout=TIMEOUT), "ping", "lobby", *kinds)
        if received["t"] in kinds:
            return received


@pytest.fixture
async def stage(request, tmp_path, nursery, autojump_clock):
    yield Stage(request.param, tmp_path, nursery)
    nursery.cancel_scope.cancel()


pytestmark = pytest.mark.parametrize("stage", KINDS, indirect=True)


async def test_every_seat_signs_the_same_bytes_and_every_node_starts_the_same_record(stage, nursery):
    lobby_id = stage.offer()
    (alice, alice_side), (bob, bob_side) = stage.guest(ALICE, "alice"), stage.guest(BOB, "bob")
    assert [listing.lobby_id for listing in await alice.list("host")] == [lobby_id]
    await alice.join(nursery, "host", lobby_id)
    await bob.join(nursery, "host", lobby_id)
    await eventually(lambda: len(stage.host.hosted[lobby_id].entrants) == 3)
    started = await stage.host.start(lobby_id)
    await eventually(lambda: alice_side.started and bob_side.started)
    assert stage.host_side.started == alice_side.started == bob_side.started == [started]
    assert not alice.joined and not bob.joined




def seat(stage: Stage, index: int, name: str) -> str:
    return rf"{'seat' if stage.kind_name == 'table' else 'participant'} {index} \({name}\)"


def refused_start(stage: Stage, lobby_id: str, entrants: list[str]) -> None:
    """After a failed start: the offer is open again, with the seats still connected, and nothing started."""
    offer = stage.host.hosted[lobby_id]
    assert not offer.started and [e.name for e in offer.entrants] == entrants
    assert stage.host_side.started == []


async def test_a_seat_signing_other_bytes_is_named_and_nothing_starts(stage, nursery):
    lobby_id = stage.offer(2)
    mallory = await stage.raw_join(MALLORY, lobby_id, "mallory")

    async def sign_something_else() -> None:
        request = await receive(mallory, "sign")
        other = request["record"][:-1] + bytes([request["record"][-1] ^ 1])
        await mallory.send(message("signature", sig=MALLORY.sign("genesis", other), reveal=b""))

    nursery.start_soon(sign_something_else)
    with pytest.raises(ServiceError, match=rf"could not start: the signature of {seat(stage, 1, 'mallory')} does not verify"):
        await stage.host.start(lobby_id)
    refused_start(stage, lobby_id, ["host", "mallory"])


async def test_a_seat_dropping_before_it_signs_is_named_and_its_place_is_free_again(stage, nursery):
    lobby_id = stage.offer(3)
    alice, alice_side = stage.guest(ALICE, "alice")
    await alice.join(nursery, "host", lobby_id)
    mallory = await stage.raw_join(MALLORY, lobby_id, "mallory")

    async def drop() -> None:
        await receive(mallory, "sign")
        await mallory.aclose()

    nursery.start_soon(drop)
    with pytest.raises(ServiceError, match=rf"could not start: {seat(stage, 2, 'mallory')} left before signing"):
        await stage.host.start(lobby_id)
    refused_start(stage, lobby_id, ["host", "alice"])
    assert alice_side.started == [] and lobby_id in alice.joined  # alice signed, but nothing started


async def test_a_seat_that_never_answers_is_named_once_the_timeout_passes(stage, nursery, autojump_clock):
    lobby_id = stage.offer(2)
    await stage.raw_join(MALLORY, lobby_id, "mallory")
    with pytest.raises(ServiceError, match=rf"{seat(stage, 1, 'mallory')} did not sign within 10 s"):
        await stage.host.start(lobby_id)
    refused_start(stage, lobby_id, ["host", "mallory"])


async def test_a_host_without_every_seat_refuses_to_start_and_a_full_one_starts_once(stage, nursery):
    lobby_id = stage.offer(2)
    with pytest.raises(ServiceError, match="1 of its 2 seats taken"):
        await stage.host.start(lobby_id)
    alice, _ = stage.guest(ALICE, "alice")
    await alice.join(nursery, "host", lobby_id)
    await eventually(lambda: stage.host.hosted[lobby_id].full)
    await stage.host.start(lobby_id)
    with pytest.raises(ServiceError, match="that has not started"):
        await stage.host.start(lobby_id)


async def test_a_duplicate_join_is_refused_and_changes_nothing(stage, nursery):
    lobby_id = stage.offer(3)
    alice, _ = stage.guest(ALICE, "alice")
    await alice.join(nursery, "host", lobby_id)
    with pytest.raises(ServiceError, match=f"already joined {stage.kind_name} {lobby_id}"):
        await alice.join(nursery, "host", lobby_id)
    again = await stage.connect(ALICE)
    commit = b"" if stage.kind_name == "table" else bytes(32)
    await again.send(message("join", v=PEER_VERSION, kind=stage.kind_name, lobby=lobby_id, name="alice2",
                             addr="10.0.0.9:7000", commit=commit))
    reply = parse(await again.receive(timeout=TIMEOUT), "refused")
    assert reply["code"] == "seated" and "already sit" in reply["reason"]
    assert [e.name for e in stage.host.hosted[lobby_id].entrants] == ["host", "alice"]


class RawHost:
    """A host the test drives by hand, joined by an honest guest."""

    def __init__(self, stage: Stage, nursery: trio.Nursery) -> None:
        self.stage = stage
        self.lobby_id = stage.offer(2)  # offered, so the test has a listing and the host's own commitment
        self.near, self.far = trio.testing.memory_stream_pair()
        self.guest, self.side = stage.guest(ALICE, "alice")
        self.guest._connect = lambda peer: open_channel(self.near, ALICE)
        self.nursery = nursery

    async def seat_guest(self) -> Channel:
        channels: list[Channel] = []

        async def join() -> None:
            await self.guest.join(self.nursery, "host", self.lobby_id)

        async with trio.open_nursery() as both:
            both.start_soon(join)
            channel = await accept_channel(self.far, HOST)
            channels.append(channel)
            self.join = parse(await channel.receive(timeout=TIMEOUT), "join")
            offer = self.stage.host.hosted[self.lobby_id]
            await channel.send(message("joined", offer=self.stage.host.kind.listing_value(self.stage.host.listing(offer))))
        self.nursery.start_soon(keep_alive, channel, HEARTBEAT)
        return channels[0]

    def record(self, **changes: Any) -> Any:
        offer = self.stage.host.hosted[self.lobby_id]
        offer = offer.joined(Entrant("alice", ALICE.public, self.join["addr"], self.join["commit"]))
        offer = replace(offer, **changes)
        return self.stage.host.kind.record(offer)


async def gone(raw: RawHost, caplog: Any, why: str) -> None:
    """The guest refused, said why, left and started nothing."""
    await eventually(lambda: not raw.guest.joined)
    assert any(why in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert raw.side.started == []


@pytest.mark.parametrize("fault, why", [
    ("missing", "the signature of {seat} 1 (alice) is missing"),
    ("forged", "the signature of {seat} 0 (host) does not verify"),
])
async def test_a_guest_refuses_a_start_without_every_signature_or_with_a_forged_one(stage, nursery, caplog, fault, why):
    caplog.set_level(logging.WARNING, "fairtable.node")
    raw = RawHost(stage, nursery)
    channel = await raw.seat_guest()
    record = raw.record()
    await channel.send(message("sign", record=record.encoded))
    answer = await receive(channel, "signature")
    host_sig = record.sign(HOST) if fault == "missing" else bytes(64)
    sigs = [host_sig] if fault == "missing" else [host_sig, answer["sig"]]
    reveals = [stage.host._reveals[raw.lobby_id], answer["reveal"]]
    await channel.send(message("start", sigs=sigs, reveals=reveals, peers=["10.0.0.1:7000", "10.0.0.5:7000"]))
    await gone(raw, caplog, why.format(seat="seat" if stage.kind_name == "table" else "participant"))


async def test_a_guest_refuses_to_sign_a_record_other_than_the_one_it_joined(stage, nursery, caplog):
    caplog.set_level(logging.WARNING, "fairtable.node")
    raw = RawHost(stage, nursery)
    channel = await raw.seat_guest()
    other = Terms("towers", "normal", {"turn_seconds": 60}) if stage.kind_name == "table" else {"advance": 2}
    await channel.send(message("sign", record=raw.record(terms=other).encoded))
    await gone(raw, caplog, "refusing to sign")
