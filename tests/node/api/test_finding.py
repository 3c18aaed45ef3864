"""The client API's ways to find and rejoin tables, between real in-process nodes: the host's
invite, joining by it, the node and tables ops, and the text fallback and clocks in table events."""

from __future__ import annotations

import pytest

from fairtable.node.api.server import serve_api
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.lobby.invite import write_invite
from tests.node.nodes import eventually, running


async def test_host_invites_a_guest_who_joins_by_invite_and_both_list_their_tables(tmp_path, nursery):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        ports = [await nursery.start(serve_api, node, 0, None) for node in (host, guest)]
        async with connect(f"ws://127.0.0.1:{ports[0]}", None) as alice, connect(f"ws://127.0.0.1:{ports[1]}", None) as bob:
            me = await alice.request("node")
            assert (me["name"], me["fingerprint"], me["address"]) == ("node-0", host.key.public.fingerprint, host.address)
            hosted = await alice.request("host", game="towers", options={"turn_seconds": 30})
            lobby_id = hosted["lobby"]["lobby_id"]
            assert hosted["invite"] == write_invite(lobby_id, host.key.public, host.address)
            assert (await alice.request("list"))["tables"][0]["invite"] == hosted["invite"]
            with pytest.raises(ApiError, match="cut short or mistyped"):
                await bob.request("join", invite=hosted["invite"][:-2])
            with pytest.raises(ApiError, match="either 'invite' or"):
                await bob.request("join", invite=hosted["invite"], peer=host.address)
            with pytest.raises(ApiError, match="needs field 'lobby_id'"):
                await bob.request("join", peer=host.address)
            joined = await bob.request("join", invite=hosted["invite"])
            assert joined["lobby"]["joined"] == ["node-0", "node-1"]
            listed = (await alice.request("tables"))["tables"]
            assert [(t["lobby_id"], t["phase"], t["seats"]) for t in listed] == [(lobby_id, "lobby", ["node-0", "node-1"])]
            await alice.request("start", lobby_id=lobby_id)
            await eventually(lambda: host.tables and guest.tables)
            await eventually(lambda: all(t.turn_clock() is not None for node in (host, guest) for t in node.tables.values()))
            tables = (await bob.request("tables"))["tables"]
            assert [(t["lobby_id"], t["phase"]) for t in tables] == [(lobby_id, "playing")]
            assert "Your hand:" in tables[0]["text"] and tables[0]["clock"]["seconds"] <= 30
            with pytest.raises(ApiError, match="already sits at table"):
                await bob.request("join", invite=hosted["invite"])
            playing = next(t for t in (await alice.request("tables"))["tables"])
            assert len(playing["move_texts"]) == len(playing["legal_moves"]) and all(isinstance(line, str) for line in playing["move_texts"])
            assert playing["clock"]["seat"] in (0, 1)
            assert (await alice.request("discovered"))["tables"] == []  # discovery off
