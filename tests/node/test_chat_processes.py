"""Chat and rematch between two real node processes, driven through their client APIs as a client
would: lines said at each seat reach the other, survive a kill -9 and restart, and stay out of the
transcript; after the game one ``rematch`` at each seat starts a new table with the same seats."""

import subprocess
from collections.abc import Callable
from pathlib import Path

import trio

from fairtable.node.clients.apiclient import ApiClient, connect
from fairtable.protocol.session.verify import verify_chunks
from tests.node.nodes import free_port, listening_address, node_process


def api_node(data: Path, name: str, port: int, api: int) -> tuple[subprocess.Popen, str]:
    process = node_process(data, name, "--port", str(port), "--api-port", str(api), "--no-token", "--discovery", "off")
    address = listening_address(process)
    assert "client API on" in process.stdout.readline()
    return process, address


async def table_event(client: ApiClient, lobby_id: str, wanted: Callable[[dict], bool]) -> dict:
    """The first ``table`` event of ``lobby_id`` for which ``wanted`` holds (the node's current state comes first)."""
    with trio.fail_after(60):
        async for event in client.events:
            if event.get("event") == "table" and event["lobby_id"] == lobby_id and wanted(event):
                return event
    raise AssertionError("the node closed the connection")


def said(event: dict) -> list[tuple[str, str]]:
    return [(line["name"], line["text"]) for line in event["chat"]]


async def test_two_node_processes_chat_and_start_a_rematch_through_their_client_apis(tmp_path):
    ports = [free_port() for _ in range(4)]
    alice, _ = api_node(tmp_path / "alice", "alice", ports[0], ports[1])
    bob, _ = api_node(tmp_path / "bob", "bob", ports[2], ports[3])
    processes = [alice, bob]
    both = [("alice", "good luck, bob"), ("bob", "thanks, you too")]
    try:
        async with connect(f"ws://127.0.0.1:{ports[1]}/", None) as a:
            await a.request("subscribe")
            hosted = await a.request("host", game="towers")
            lobby = hosted["lobby"]["lobby_id"]
            async with connect(f"ws://127.0.0.1:{ports[3]}/", None) as b:
                await b.request("subscribe")
                await b.request("join", invite=hosted["invite"])
                table = (await a.request("start", lobby_id=lobby))["update"]["table"]
                await a.request("chat", table=table, text="good luck, bob")
                await table_event(b, lobby, lambda event: said(event) == both[:1])
                await b.request("chat", table=table, text="thanks, you too")
                await table_event(a, lobby, lambda event: said(event) == both)

            bob.kill()  # kill -9: the chat is on disk before it was sent or shown
            bob.wait()
            bob, _ = api_node(tmp_path / "bob", "bob", ports[2], ports[3])
            processes.append(bob)
            async with connect(f"ws://127.0.0.1:{ports[3]}/", None) as b:
                await b.request("subscribe")
                await table_event(b, lobby, lambda event: said(event) == both)

                await a.request("resign", table=table)
                await b.request("resign", table=table)
                await table_event(a, lobby, lambda event: event["phase"] == "finished")
                await table_event(b, lobby, lambda event: event["phase"] == "finished")

                offered = (await b.request("rematch", table=table))["lobby"]
                assert (offered["game"], offered["variant"], offered["seats"], offered["joined"]) == ("towers", "normal", 2, ["bob"])
                seen = await table_event(a, lobby, lambda event: any(line["rematch"] for line in event["chat"]))
                assert seen["chat"][-1]["name"] == "bob" and seen["chat"][-1]["rematch"] == offered["lobby_id"]
                accepted = (await a.request("rematch", table=table))["lobby"]
                assert accepted["lobby_id"] == offered["lobby_id"]
                new_a = await table_event(a, offered["lobby_id"], lambda event: event["phase"] == "playing")
                new_b = await table_event(b, offered["lobby_id"], lambda event: event["phase"] == "playing")
        assert new_a["table"] == new_b["table"] != table
        assert (new_a["game"], new_a["variant"]) == ("towers", "normal") and sorted(new_a["seats"]) == ["alice", "bob"]
        assert new_a["chat"] == []  # a new table, a new chat
        files = [(tmp_path / name / "tables" / table / "transcript.ftt").read_bytes() for name in ("alice", "bob")]
        assert files[0] == files[1] and b"good luck" not in files[0] and verify_chunks([files[0]]).valid
    finally:
        for process in processes:
            process.kill()
            process.wait()
