"""Local discovery between two in-process nodes over real multicast DNS on 127.0.0.1, the
TXT record's reading, and a machine without multicast (the node goes on, one log line)."""

from __future__ import annotations

import logging

import trio

from fairtable.node.discovery import Announced, announceable, factory_for, found_from
from fairtable.node.service import LobbyTable
from tests.node.nodes import eventually, running

TABLE = LobbyTable("b71c0e", "bob", "zeeslag", "duel", {"fleet": "ten"}, 2, ("bob",))


async def test_two_nodes_on_loopback_find_each_others_open_tables_and_lose_them_once_full(tmp_path):
    async with running(tmp_path, 2, discovery=factory_for("loopback")) as (host, guest):
        await eventually(lambda: host.discovery.running and guest.discovery.running)
        lobby = await host.host("zeeslag", "duel", {"fleet": "ten"}, 2)
        await eventually(lambda: any(t.lobby_id == lobby.lobby_id for t in guest.discovery.found()))
        (found,) = await guest.discovered()
        assert (found.game, found.variant, found.options, found.seats, found.joined) == ("zeeslag", "duel", {"fleet": "ten"}, 2, ("node-0",))
        assert found.fingerprint == host.key.public.fingerprint and found.address == host.address
        assert await host.discovered() == ()  # its own table is not listed back to it
        await guest.join(found.address, found.lobby_id, found.fingerprint)
        await eventually(lambda: not guest.discovery.found())  # full: withdrawn


async def test_a_machine_without_multicast_logs_one_line_and_the_node_runs_on(tmp_path, caplog):
    def no_multicast():
        raise OSError(19, "No such device")

    caplog.set_level(logging.INFO, "fairtable.node")
    async with running(tmp_path, 2, discovery=no_multicast) as (host, guest):
        await eventually(lambda: any("local discovery is off" in r.getMessage() for r in caplog.records))
        assert await guest.discovered() == ()
        lobby = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, lobby.lobby_id)  # everything else works
        await host.start(lobby.lobby_id)
        await eventually(lambda: host.tables and guest.tables)
    lines = [r.getMessage() for r in caplog.records if "local discovery" in r.getMessage()]
    assert len(lines) == 2 and all("No such device" in line and "invite" in line for line in lines)  # one per node


def test_the_txt_record_reads_back_and_strange_records_are_skipped():
    record = {key.encode(): value.encode() for key, value in Announced(TABLE, "Z5NG-N48B-8BB8-8ZSX-KJS2-VP24", "192.0.2.7:7400").properties().items()}
    found = found_from(record)
    assert found is not None and (found.lobby_id, found.host, found.address, found.options) == ("b71c0e", "bob", "192.0.2.7:7400", {"fleet": "ten"})
    assert found_from({**record, b"v": b"2"}) is None
    assert found_from({**record, b"seats": b"two"}) is None
    assert found_from({**record, b"options": b"[1]"}) is None
    assert found_from({**record, b"addr": b"nowhere"}) is None
    assert found_from({b"\xff": b"x"}) is None
    assert found_from({k: v for k, v in record.items() if k != b"game"}) is None


def test_only_open_tables_are_announced():
    started = LobbyTable("s", "bob", "towers", "normal", {}, 2, ("bob",), started=True)
    full = LobbyTable("f", "bob", "towers", "normal", {}, 2, ("bob", "carol"))
    assert announceable([TABLE, started, full]) == [TABLE]


async def test_discovery_never_stops_a_node_when_its_announcement_fails(tmp_path, caplog):
    class Broken:
        def register_service(self, info):
            raise RuntimeError("the multicast socket went away")

        def close(self):
            pass

    caplog.set_level(logging.INFO, "fairtable.node")
    async with running(tmp_path, 1, discovery=Broken) as (node,):
        with trio.fail_after(10):
            await node.host("towers", "normal", {}, 2)
            await eventually(lambda: any("local discovery stopped" in r.getMessage() for r in caplog.records))
        assert node.lobby_host.hosted
