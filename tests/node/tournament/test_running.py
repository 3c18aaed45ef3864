"""A whole tournament between real in-process nodes over loopback TCP, driven through the
client API: hosting, listing and joining (and their refusals), every table started by the
right node and played by bots, every participant's progress, and a bundle that verifies."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fairtable.node.api.server import serve_api
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.peer.messages import PEER_VERSION, message, parse
from fairtable.node.tournament.files import TournamentFiles
from fairtable.protocol.genesis import SIGN_PURPOSE
from fairtable.protocol.tournament.bundle import verify_bundle
from tests.node.nodes import eventually, running
from tests.protocol.tournament.helpers import SHORT


async def test_four_nodes_play_a_tournament_through_the_api_and_all_hold_the_same_verified_bundle(tmp_path, nursery):
    async with running(tmp_path, 4) as nodes:
        ports = [await nursery.start(serve_api, node, 0, None) for node in nodes]
        async with connect(f"ws://127.0.0.1:{ports[0]}", None) as host, connect(f"ws://127.0.0.1:{ports[1]}", None) as guest:
            with pytest.raises(ApiError, match="4, 8, 12 or 16 participants"):
                await host.request("tournament_host", participants=6)
            with pytest.raises(ApiError, match="unknown tournament option 'rounds'"):
                await host.request("tournament_host", participants=4, options={"rounds": 2})
            await guest.request("subscribe")  # table events flow all along the tournament
            lobby = (await host.request("tournament_host", participants=4, options=SHORT))["lobby"]
            assert (lobby["participants"], lobby["joined"], lobby["host"]) == (4, ["node-0"], nodes[0].address)
            listed = (await guest.request("tournament_list", peer=nodes[0].address))["lobbies"]
            assert [entry["lobby_id"] for entry in listed] == [lobby["lobby_id"]]
            with pytest.raises(ApiError, match="no tournament 'nope' is offered here"):
                await guest.request("tournament_join", peer=nodes[0].address, lobby_id="nope")
            with pytest.raises(ApiError, match="offered by this node itself"):
                await host.request("tournament_join", peer=nodes[0].address, lobby_id=lobby["lobby_id"])
            joined = await guest.request("tournament_join", peer=nodes[0].address, lobby_id=lobby["lobby_id"])
            assert joined["lobby"]["joined"] == ["node-0", "node-1"]
            with pytest.raises(ApiError, match="already joined"):
                await guest.request("tournament_join", peer=nodes[0].address, lobby_id=lobby["lobby_id"])
            for node in nodes[2:]:
                await node.join_tournament(nodes[0].address, lobby["lobby_id"])
            await eventually(lambda: all(node.tournaments.settled for node in nodes), 240)
            statuses = [(await client.request("tournaments"))["tournaments"] for client in (host, guest)]
            assert await guest.events.receive()  # the guest's subscription got table events and still works
            assert (await guest.request("node"))["name"] == "node-1"
            assert (await host.request("tournament_list"))["lobbies"] == []  # started: no longer offered
    (first,), (second,) = statuses
    assert first["tournament"] == second["tournament"] and (first["me"], second["me"]) == (0, 1)
    assert first["progress"] == second["progress"] and first["progress"]["finished"]
    assert first["participants"] == ["node-0", "node-1", "node-2", "node-3"]
    assert first["progress"]["rounds"][0][0]["stage"] == "group"
    files = [TournamentFiles(node.tournaments.root / first["tournament"]) for node in nodes]
    bundles = [{path.name: path.read_bytes() for path in f.dir.iterdir() if path.name != "peers"} for f in files]
    assert all(bundle == bundles[0] for bundle in bundles)
    report = verify_bundle(files[0].tournament(), files[0].table)
    assert report.complete and report.progress.to_value() == first["progress"]
    played = {table.table_id for node in nodes for table in node.tables.values()}
    assert played == {check.table.table_id for check in report.checks}  # each table started once, at its seats


async def test_a_node_signs_only_the_table_its_own_computation_calls_for_now(tmp_path):
    """A seat 0 asking another seat to sign a table of the tournament the results do not call for
    (a reseated pairing) is refused: no participant chooses whom it plays."""
    async with running(tmp_path, 4, bot=None) as nodes:
        lobby = await nodes[0].host_tournament(4, SHORT)
        for node in nodes[1:]:
            await node.join_tournament(nodes[0].address, lobby.lobby_id)
        await eventually(lambda: all(node.tournaments.running for node in nodes)
                         and all(r.progress is not None for node in nodes for r in node.tournaments.running.values()))
        running_at_1 = next(iter(nodes[1].tournaments.running.values()))
        assert running_at_1.progress is not None
        group = running_at_1.progress.current[0].genesis
        seat_of = {node.key.public: node for node in nodes}
        asker = seat_of[group.seats[0].key]
        asked = seat_of[group.seats[1].key]
        reseated = replace(group, seats=(group.seats[1], group.seats[0], *group.seats[2:]))
        replies = []
        for genesis in (reseated, group):
            channel = await asker._connect(asked.address, asked.key.public)
            async with channel:
                await channel.send(message("ttable", v=PEER_VERSION, genesis=genesis.encoded))
                replies.append(parse(await channel.receive(timeout=5), "signature", "refused"))
        assert replies[0]["t"] == "refused" and "results so far call for no such table" in replies[0]["reason"]
        assert replies[1]["t"] == "signature" and group.seats[1].key.verify(SIGN_PURPOSE, group.table_id, replies[1]["sig"])
