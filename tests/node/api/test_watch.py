"""The client API's ``watch`` and ``watch_invite`` ops against real nodes: a player's client gets an
invite for spectators, a friend's client watches with it, and each malformed request is refused."""

from __future__ import annotations

from functools import partial

import pytest
import trio

from fairtable.node.api.server import serve_api
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.table.live import Timing
from tests.node.nodes import running


async def test_a_friend_watches_with_the_invite_a_seats_client_asked_for(tmp_path):
    async with running(tmp_path, 3, timing=Timing(bot_delay=0.01)) as (host, guest, friend), trio.open_nursery() as nursery:
        lobby = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, lobby.lobby_id)
        await host.start(lobby.lobby_id)
        ports = [await nursery.start(partial(serve_api, node, 0, None)) for node in (guest, friend)]
        async with connect(f"ws://127.0.0.1:{ports[0]}/", None) as player, connect(f"ws://127.0.0.1:{ports[1]}/", None) as watcher:
            with pytest.raises(ApiError) as unknown:
                await player.request("watch_invite", table="nosuch")
            assert unknown.value.code == "not_found"
            while not guest.tables:
                await guest.updates_hub.changed()
            invite = (await player.request("watch_invite", table=lobby.lobby_id))["invite"]
            for fields, code, words in [
                ({"invite": invite, "peer": "127.0.0.1:1"}, "bad_request", "either 'invite' or 'peer' and 'table'"),
                ({"peer": "127.0.0.1:1"}, "bad_request", "needs field 'table'"),
                ({"invite": "ft1nonsense"}, "refused", "invite"),
                ({"peer": host.address, "table": lobby.lobby_id, "fingerprint": "0000"}, "refused", "fingerprint"),
            ]:
                with pytest.raises(ApiError) as refused:
                    await watcher.request("watch", **fields)
                assert refused.value.code == code and words in str(refused.value), (fields, refused.value)
            update = (await watcher.request("watch", invite=invite))["update"]
            assert update["watching"] and update["seat"] is None and update["lobby_id"] == lobby.lobby_id
            assert update["legal_moves"] == [] and update["decision"] is None and update["view"]["hand"] is None
            with pytest.raises(ApiError) as illegal:
                await watcher.request("move", table=lobby.lobby_id, move={"discard": 0})
            assert illegal.value.code == "illegal" and "only watches" in str(illegal.value)
            listed = (await watcher.request("tables"))["tables"]
            assert [(table["lobby_id"], table["watching"]) for table in listed] == [(lobby.lobby_id, True)]
        nursery.cancel_scope.cancel()
