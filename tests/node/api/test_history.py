"""The client API's ``history`` and ``replay_step`` between real in-process nodes: the move list of
a table in the export's notation while it is played, then stepped through once it is finished."""

from __future__ import annotations

import pytest

from fairtable.node.api.server import serve_api
from fairtable.node.cli.commands.export import text
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.replay import replay_chunks
from tests.node.nodes import eventually, running


async def test_a_finished_tables_history_is_its_export_and_each_entry_opens_its_step(tmp_path, nursery):
    async with running(tmp_path, 2) as (host, guest):
        port = await nursery.start(serve_api, host, 0, None)
        async with connect(f"ws://127.0.0.1:{port}", None) as alice:
            lobby = (await alice.request("host", game="towers"))["lobby"]["lobby_id"]
            await guest.join(host.address, lobby)
            table = (await alice.request("start", lobby_id=lobby))["update"]["table"]
            await eventually(lambda: all(t.saved for t in host.tables.values()))
            finished = await alice.request("history", table=table)
            assert finished["replay"] is True and finished["result"]
            record = text(replay_chunks([next(iter(host.tables.values())).transcript_saved]))
            lines = [f"{e['n']}. {e['text']}" if e["n"] is not None else f"   {e['text']}" for e in finished["entries"]]
            moves = record.split("moves:\n", 1)[1].split("\n\nresult: ")
            assert lines == moves[0].splitlines() and finished["result"] == moves[1].splitlines()[0]
            first, last = finished["entries"][0], finished["entries"][-1]
            step = await alice.request("replay_step", table=table, index=first["index"])
            assert (step["n"], step["text"], step["index"]) == (first["n"], first["text"], first["index"])
            assert step["view"]["seat"] == 0 and "Your hand:" in step["board"]
            end = await alice.request("replay_step", table=table, index=last["index"])
            assert end["view"] != step["view"] and "Your hand:" in end["board"]
            with pytest.raises(ApiError, match="no step at envelope 99999"):
                await alice.request("replay_step", table=table, index=99999)


async def test_a_table_being_played_has_a_history_but_no_replay_yet_and_bad_requests_change_nothing(tmp_path, nursery):
    async with running(tmp_path, 2, bot=None) as (host, guest):
        port = await nursery.start(serve_api, host, 0, None)
        async with connect(f"ws://127.0.0.1:{port}", None) as alice:
            lobby = (await alice.request("host", game="towers", options={"turn_seconds": 0}))["lobby"]["lobby_id"]
            await guest.join(host.address, lobby)
            table = (await alice.request("start", lobby_id=lobby))["update"]["table"]
            await eventually(lambda: any(t.session.awaiting_decision() for node in (host, guest) for t in node.tables.values()))
            answer = await alice.request("history", table=table)
            assert (answer["entries"], answer["replay"], answer["result"]) == ([], False, None)
            with pytest.raises(ApiError, match="not finished here yet"):
                await alice.request("replay_step", table=table, index=0)
            with pytest.raises(ApiError, match="field 'from' must be an integer"):
                await alice.request("history", table=table, **{"from": "3"})
            with pytest.raises(ApiError, match="unknown field 'at'"):
                await alice.request("history", table=table, at=3)
            with pytest.raises(ApiError, match="sits at no started table"):
                await alice.request("history", table="ab" * 32)
