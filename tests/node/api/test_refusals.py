"""A real node behind the client API: every request it cannot serve gets a typed refusal, never ``internal``."""

from __future__ import annotations

import logging

import pytest
import trio

from fairtable.node.api.server import serve_api
from fairtable.node.clients.apiclient import ApiError, connect
from tests.node.nodes import eventually, running


async def refusal(client, op: str, **fields) -> ApiError:
    with pytest.raises(ApiError) as refused:
        await client.request(op, **fields)
    return refused.value


async def test_requests_a_real_node_cannot_serve_get_typed_refusals(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with running(tmp_path, 2, bot=None) as nodes, trio.open_nursery() as nursery:
        host, guest = nodes
        ports = [await nursery.start(serve_api, node, 0, None) for node in nodes]
        async with connect(f"ws://127.0.0.1:{ports[0]}/", None) as client:
            assert (await refusal(client, "host", game="towers", seats=3)).code == "refused"
            assert (await refusal(client, "host", game="towers", options={"turn_seconds": -1})).code == "refused"
            assert (await refusal(client, "start", lobby_id="nosuch")).code == "refused"
            lobby = (await client.request("host", game="towers"))["lobby"]["lobby_id"]
            await guest.join(host.address, lobby)
            table = (await client.request("start", lobby_id=lobby))["update"]["table"]
            assert (await refusal(client, "move", table="feed", move={"play": 1})).code == "not_found"
            assert (await refusal(client, "transcript", table="feed")).code == "not_found"

        await eventually(lambda: any(node.tables and next(iter(node.tables.values())).update().decision == "move"
                                     for node in nodes))
        due = next(index for index, node in enumerate(nodes) if next(iter(node.tables.values())).update().decision)
        async with connect(f"ws://127.0.0.1:{ports[due]}/", None) as client, \
                connect(f"ws://127.0.0.1:{ports[1 - due]}/", None) as other:
            handle_not_held = await refusal(client, "move", table=table, move={"play": 9999})
            assert handle_not_held.code == "illegal" and str(handle_not_held) == '{"play": 9999}: that card is not in your hand'
            checked = await client.request("check", table=table, move={"play": 9999})
            assert checked["legal"] is False and checked["refusal"]["rule"] == "towers.hand"
            assert (await other.request("check", table=table, move={"play": 0}))["refusal"]["rule"] == "towers.turn"
            assert (await refusal(client, "move", table=table, move="nonsense")).code == "illegal"
            assert (await refusal(other, "move", table=table, move={"play": 0})).code == "illegal"
            legal = next(iter(nodes[due].tables.values())).update().legal_moves[0]
            assert (await client.request("check", table=table, move=legal))["legal"] is True
            no_deck = await refusal(client, "deck_list", table=table, text="Great White Shark")  # towers owns no deck
            assert no_deck.code == "illegal" and "no deck of this seat is due now" in str(no_deck)
            assert (await client.request("move", table=table, move=legal))["ok"]
            assert (await client.request("transcript", table=table))["transcript"]
        nursery.cancel_scope.cancel()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_check_judges_the_space_battles_purchase_while_the_fleet_is_due(tmp_path):
    """While the seat's decision is ``hidden``, ``check`` of ``{"buy": ...}`` is the game's purchase
    rule in its words (what the browser asks on a click), not ``turn``."""
    async with running(tmp_path, 2, bot=None) as nodes, trio.open_nursery() as nursery:
        host, guest = nodes
        port = await nursery.start(serve_api, host, 0, None)
        async with connect(f"ws://127.0.0.1:{port}/", None) as client:
            lobby = (await client.request("host", game="zeeslag", variant="space", options={"money": 100}))["lobby"]["lobby_id"]
            await guest.join(host.address, lobby)
            table = (await client.request("start", lobby_id=lobby))["update"]["table"]
            await eventually(lambda: next(iter(host.tables.values())).update().decision == "hidden")
            assert (await client.request("check", table=table, move={"buy": {"station": 1}}))["legal"] is True
            over = await client.request("check", table=table, move={"buy": {"station": 1, "lancer": 1}})
            assert over["text"] == "this fleet costs 120; you have 100" and over["refusal"]["key"] == "zeeslag.purchase:money"
            capital = await client.request("check", table=table, move={"buy": {"dreadnought": 1, "station": 1}}, lang="orig")
            assert capital["text"] == "hoogstens één slagschip in een vloot: niet zowel Dreadnought als Ruimtestation"
            assert (await client.request("check", table=table, move={"play": 1}))["refusal"]["rule"] == "zeeslag.purchase"
        nursery.cancel_scope.cancel()
