"""Lobby and service over real loopback TCP between in-process nodes: host, join, refusals, leave, start, play."""

import pytest
import trio

from fairtable.node.peer.channel import open_channel
from fairtable.node.peer.messages import parse
from fairtable.node.service import ServiceError
from fairtable.protocol.identity import SecretKey
from fairtable.protocol.session.slots import CHOICE, HIDDEN
from fairtable.protocol.session.verify import verify
from fairtable.protocol.transcript_file import load
from tests.node.nodes import eventually, running


async def test_two_nodes_host_join_start_and_play_a_game_through_the_service(tmp_path):
    async with running(tmp_path, 2) as (host, guest):
        listing = await host.host("towers", "normal", {}, 2)
        assert listing.joined == ("node-0",) and not listing.started
        assert [t.lobby_id for t in await guest.list_tables(host.address)] == [listing.lobby_id]
        joined = await guest.join(host.address, listing.lobby_id)
        assert joined.joined == ("node-0", "node-1")
        update = await host.start(listing.lobby_id)
        assert update.phase in ("playing", "finished") and update.seats == ("node-0", "node-1")
        await eventually(lambda: guest.tables and host.settled() and guest.settled())
        table = update.table
        assert await host.transcript(table) == await guest.transcript(table)
        assert verify(load(await guest.transcript(table))).valid
        assert (await host.list_tables(None))[0].started


async def test_lobby_refuses_full_started_and_unknown_tables(tmp_path):
    async with running(tmp_path, 3, bot=None) as (host, guest, late):
        listing = await host.host("towers", "normal", {}, 2)
        with pytest.raises(ServiceError, match="no table"):
            await guest.join(host.address, "nosuchtable")
        await guest.join(host.address, listing.lobby_id)
        with pytest.raises(ServiceError, match="full"):
            await late.join(host.address, listing.lobby_id)
        await host.start(listing.lobby_id)
        with pytest.raises(ServiceError, match="started"):
            await late.join(host.address, listing.lobby_id)
        with pytest.raises(ServiceError):
            await host.start(listing.lobby_id)


async def test_a_join_speaking_another_protocol_version_is_refused_with_a_reason(tmp_path):
    async with running(tmp_path, 1) as (host,):
        listing = await host.host("towers", "normal", {}, 2)
        hostname, port = host.address.rsplit(":", 1)
        channel = await open_channel(await trio.open_tcp_stream(hostname, int(port)), SecretKey.generate())
        async with channel:
            await channel.send({"addr": "127.0.0.1:1", "lobby": listing.lobby_id, "name": "old", "t": "join", "v": 99})
            reply = parse(await channel.receive(timeout=5), "refused")
        assert reply["code"] == "version" and "99" in reply["reason"]
        assert (await host.list_tables(None))[0].joined == ("node-0",)


async def test_a_guest_can_leave_before_the_start(tmp_path):
    async with running(tmp_path, 2) as (host, guest):
        listing = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, listing.lobby_id)
        await eventually(lambda: len(host.lobby_host.hosted[listing.lobby_id].entrants) == 2)
        await guest.leave(listing.lobby_id)
        await eventually(lambda: len(host.lobby_host.hosted[listing.lobby_id].entrants) == 1)
        with pytest.raises(ServiceError, match="1 of its 2 seats"):
            await host.start(listing.lobby_id)


async def test_the_service_refuses_bad_requests_with_reasons(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        with pytest.raises(ServiceError, match="unknown game"):
            await host.host("chess", "normal", {}, 2)
        with pytest.raises(ServiceError):
            await host.host("towers", "normal", {"turn_seconds": -1}, 2)
        listing = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, listing.lobby_id)
        update = await host.start(listing.lobby_id)
        with pytest.raises(ServiceError):
            await host.move(update.table, {"play": 9999})
        with pytest.raises(ServiceError, match="no started table"):
            await host.move("feed", {"play": 1})


async def test_updates_stream_the_lobby_and_then_the_table(tmp_path):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        listing = await host.host("towers", "normal", {}, 2)
        seen = []

        async def watch(scope):
            async for update in host.updates():
                seen.append(update)
                if update.your_turn:
                    scope.cancel()

        async def guest_plays():
            while True:
                for table in guest.tables.values():
                    if table.session.awaiting_decision():
                        await guest.move(table.table_id.hex(), table.session.legal_moves()[0])
                await trio.sleep(0.01)

        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(watch, nursery.cancel_scope)
                await guest.join(host.address, listing.lobby_id)
                await host.start(listing.lobby_id)
                nursery.start_soon(guest_plays)
        assert seen[0].phase == "lobby"
        assert seen[-1].phase == "playing" and seen[-1].legal_moves and seen[-1].view is not None


async def test_a_salvo_no_list_holds_is_taken_when_the_rules_allow_it_and_refused_with_their_reason(tmp_path):
    async with running(tmp_path / "me", 1, bot=None) as (host,), running(tmp_path / "bots", 2) as guests:
        listing = await host.host("zeeslag", "duel", {}, 3)
        for guest in guests:
            await guest.join(host.address, listing.lobby_id)
        table_id = (await host.start(listing.lobby_id)).table
        table = host.tables[bytes.fromhex(table_id)]
        await eventually(lambda: table.session.decision_kind == HIDDEN)
        await host.move(table_id, {"random": True})
        await eventually(lambda: table.session.decision_kind == CHOICE)
        assert table.session.legal_moves() == ()
        due = table.session.game.view(table.session.state, 0)["due"]
        with pytest.raises(ServiceError) as refused:
            await host.move(table_id, {"salvo": [[due[0][0], 0]]})
        assert "salvo" in str(refused.value) and "legal moves" not in str(refused.value)
        await host.move(table_id, {"salvo": [[enemy, cell] for enemy, count in due for cell in range(count)]})
        assert table.session.decision_kind != CHOICE
