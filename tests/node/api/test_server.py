"""The client API over a real WebSocket on 127.0.0.1, serving the in-memory fake node."""

from __future__ import annotations

import base64
import json
import re

import pytest
import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, open_websocket_url

from fairtable.games import catalogue, registry
from fairtable.node.api.ops import OPS
from fairtable.node.api.server import API_VERSION, DEFAULT_PORT, ApiLimits, serve_api
from fairtable.node.clients.apiclient import ApiError, connect
from fairtable.node.service import ILLEGAL, NOT_FOUND, REFUSED, STORAGE
from tests.node.fake_node import PEER, FakeNode
from tests.paths import SPEC

TOKEN = "7f" * 32


@pytest.fixture
def fake() -> FakeNode:
    return FakeNode()


async def serve(nursery: trio.Nursery, fake: FakeNode, token: str | None = None, **limits) -> str:
    port = await nursery.start(lambda task_status: serve_api(fake, 0, token, limits=ApiLimits(**limits), task_status=task_status))
    return f"ws://127.0.0.1:{port}/"


@pytest.fixture
async def url(nursery, fake) -> str:
    return await serve(nursery, fake)


async def receive(websocket) -> dict:
    with trio.fail_after(5):
        return json.loads(await websocket.get_message())


async def response(websocket, request: dict | str | bytes) -> dict:
    """Send one request and return the next message that is not a table event."""
    await websocket.send_message(json.dumps(request) if isinstance(request, dict) else request)
    while True:
        message = await receive(websocket)
        if message.get("event") != "table":
            return message


async def next_table_event(client) -> dict:
    with trio.fail_after(5):
        return await client.events.receive()


# ------------------------------------------------------------------ ops


async def test_hello_names_the_api_version_and_whether_a_token_is_needed(url):
    async with open_websocket_url(url) as websocket:
        assert await receive(websocket) == {"api": 1, "auth": False, "event": "hello"}


async def test_games_lists_what_can_be_hosted(url):
    async with connect(url, None) as client:
        reply = await client.request("games")
    assert reply["ok"] is True and reply["id"] == 1
    games = {game["id"]: game for game in reply["games"]}
    assert list(games) == list(registry.ids())  # every registered game (tests may register toy games)
    assert games["towers"] == json.loads(json.dumps(registry.get("towers").describe()))  # the games' own declarations
    assert {key: games["zeeslag"][key] for key in ("id", "min_seats", "max_seats", "variants", "seats")} == {
        "id": "zeeslag", "max_seats": 8, "min_seats": 2, "variants": ["duel", "shared", "space"],
        "seats": {"duel": [2, 8], "shared": [3, 8], "space": [2, 6]}}
    fleet = games["zeeslag"]["options"]["duel"][0]
    assert fleet == {"default": "classic", "name": "fleet", "type": "choice", "values": ["classic", "ten"]}


async def test_host_list_and_leave(url, fake):
    fake.opponent_joins = False
    async with connect(url, None) as client:
        lobby = (await client.request("host", game="towers"))["lobby"]
        assert lobby == {"lobby_id": "lobby1", "host": "me", "game": "towers", "variant": "normal", "options": {},
                         "seats": 2, "joined": ["me"], "started": False}
        explicit = await client.request("host", game="towers", variant="infinite", options={"turn_seconds": 0}, seats=2)
        assert explicit["lobby"]["variant"] == "infinite" and explicit["lobby"]["options"] == {"turn_seconds": 0}
        tables = (await client.request("list"))["tables"]
        assert [table["lobby_id"] for table in tables] == ["lobby1", "lobby2"]
        assert (await client.request("list", peer=None))["tables"] == tables
        assert [table["lobby_id"] for table in (await client.request("list", peer=PEER))["tables"]] == ["far1"]
        assert await client.request("leave", lobby_id="lobby1") == {"id": 6, "ok": True}
    assert fake.calls[:2] == [("host", ("towers", "normal", {}, 2)), ("host", ("towers", "infinite", {"turn_seconds": 0}, 2))]
    assert list(fake.lobbies) == ["lobby2"]


async def test_start_move_resign_transcript_and_pushed_updates(url, fake):
    async with connect(url, None) as client:
        await client.request("subscribe")
        lobby = (await client.request("host", game="towers"))["lobby"]
        started = (await client.request("start", lobby_id=lobby["lobby_id"]))["update"]
        assert started["lobby_id"] == "lobby1" and started["seat"] == 0 and started["seats"] == ["me", "bot"]
        assert started["view"]["seat"] == 0 and started["deadline"] == 59.5
        event = await next_table_event(client)
        while not event["legal_moves"]:
            event = await next_table_event(client)
        assert event["event"] == "table" and event["your_turn"] and event["table"] == started["table"]
        assert all(set(move) <= {"play", "discard"} for move in event["legal_moves"])
        await client.request("move", table=event["table"], move=event["legal_moves"][-1])
        after = await next_table_event(client)
        assert after["view"]["recent"][-1] == {**after["view"]["recent"][-1], "seat": 0, "played": False}
        await client.request("resign", table=event["table"])
        while after["result"] is None:
            after = await next_table_event(client)
        assert after["result"] == {"reason": "forfeit: resigned", "scores": [], "winners": [1]} and after["phase"] == "over"
        transcript = (await client.request("transcript", table=event["table"]))["transcript"]
        assert base64.b64decode(transcript, validate=True) == await fake.transcript(event["table"])


async def test_check_answers_legal_or_the_games_refusal_in_the_language_asked_for(url, fake):
    async with connect(url, None) as client:
        await client.request("subscribe")
        lobby = (await client.request("host", game="towers"))["lobby"]
        await client.request("start", lobby_id=lobby["lobby_id"])
        event = await next_table_event(client)
        while not event["legal_moves"]:
            event = await next_table_event(client)
        table, hand, legal = event["table"], event["view"]["hand"], event["legal_moves"]
        assert (await client.request("check", table=table, move=legal[0]))["legal"] is True
        unaffordable = next(entry for entry in hand if {"play": entry["handle"]} not in legal)
        answer = await client.request("check", table=table, move={"play": unaffordable["handle"]})
        assert answer["legal"] is False and answer["refusal"]["rule"] == "towers.cost"
        params = answer["refusal"]["params"]
        assert params["card"] == f"towers.cards.{unaffordable['card']}" and params["have"] < params["cost"]
        assert re.fullmatch(rf".+ costs {params['cost']} {catalogue('en')[params['resource']]}; you have {params['have']}", answer["text"])
        original = await client.request("check", table=table, move={"play": unaffordable["handle"]}, lang="orig")
        assert original["refusal"] == answer["refusal"] and original["text"] != answer["text"]
        stranger = await client.request("check", table=table, move={"play": 10**6})
        assert stranger["refusal"]["rule"] == "towers.hand" and stranger["text"] == "that card is not in your hand"
        with pytest.raises(ApiError) as refused:
            await client.request("check", table=table, move=legal[0], lang="fr")
        assert refused.value.code == "bad_request"
        with pytest.raises(ApiError) as illegal:
            await client.request("move", table=table, move={"play": unaffordable["handle"]})
        assert illegal.value.code == ILLEGAL


async def test_join_and_a_late_subscriber_gets_the_current_state_first(url, fake):
    async with connect(url, None) as client:
        lobby = (await client.request("join", peer=PEER, lobby_id="far1"))["lobby"]
        assert lobby["joined"] == ["bot", "me"] and lobby["started"]
    async with connect(url, None) as client:
        await client.request("subscribe")
        await client.request("subscribe")  # a second subscribe changes nothing
        event = await next_table_event(client)
        assert event["lobby_id"] == "far1" and event["seat"] == 1
        with trio.move_on_after(0.2):
            await client.events.receive()
            pytest.fail("one subscription, one copy of each update")


async def test_a_refusal_of_the_node_is_a_refused_error_with_its_message(url, fake):
    fake.opponent_joins = False
    async with connect(url, None) as client:
        await client.request("host", game="towers")
        with pytest.raises(ApiError, match="waiting for 1 more player") as refused:
            await client.request("start", lobby_id="lobby1")
        assert refused.value.code == "refused"
        with pytest.raises(ApiError, match="unknown game 'chess'"):
            await client.request("host", game="chess")
        with pytest.raises(ApiError, match="towers is played by exactly 2 seats"):
            await client.request("host", game="towers", seats=3)
        with pytest.raises(ApiError, match="no table"):
            await client.request("move", table="00", move={"play": 1})
        assert (await client.request("list"))["ok"]


async def test_an_internal_failure_is_reported_and_the_server_stays(url, fake):
    fake.failure = RuntimeError("boom")
    async with connect(url, None) as client:
        with pytest.raises(ApiError, match="internal error") as failed:
            await client.request("list")
        assert failed.value.code == "internal" and "boom" not in str(failed.value)
        fake.failure = None
        assert (await client.request("list"))["tables"] == []


# ------------------------------------------------------------------ authentication


async def test_a_token_is_required_before_anything_else(nursery, fake):
    url = await serve(nursery, fake, TOKEN)
    async with open_websocket_url(url) as websocket:
        assert await receive(websocket) == {"api": 1, "auth": True, "event": "hello"}
        refused = await response(websocket, {"id": 1, "op": "list"})
        assert refused["code"] == "unauthorized" and not refused["ok"]
        assert await response(websocket, {"id": 2, "op": "auth", "token": TOKEN}) == {"id": 2, "ok": True}
        assert (await response(websocket, {"id": 3, "op": "list"}))["ok"]
    assert fake.calls == [("list_tables", (None,))]
    async with connect(url, TOKEN) as client:
        assert (await client.request("games"))["ok"]
    with pytest.raises(ApiError, match="requires its API token"):
        async with connect(url, None):
            pass


async def test_a_wrong_token_is_refused_and_the_connection_closed(nursery, fake):
    url = await serve(nursery, fake, TOKEN)
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        refused = await response(websocket, {"id": 1, "op": "auth", "token": "00" * 32})
        assert refused == {"code": "unauthorized", "error": "wrong API token", "id": 1, "ok": False}
        with pytest.raises(ConnectionClosed) as closed:
            await receive(websocket)
        assert closed.value.reason.code == 1008
    with pytest.raises(ApiError, match="wrong API token"):
        async with connect(url, "00" * 32):
            pass


async def test_a_client_that_never_authenticates_is_closed(nursery, fake):
    url = await serve(nursery, fake, TOKEN, auth_seconds=0.2)
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        with pytest.raises(ConnectionClosed) as closed:
            await receive(websocket)
        assert closed.value.reason.code == 1008 and "in time" in closed.value.reason.reason


async def test_pages_of_other_origins_need_the_token(nursery, fake):
    open_url = await serve(nursery, fake)
    with pytest.raises(ConnectionRejected) as rejected:
        async with open_websocket_url(open_url, extra_headers=[(b"Origin", b"https://evil.example")]):
            pass
    assert rejected.value.status_code == 403
    with pytest.raises(ConnectionRejected):
        async with open_websocket_url(open_url, extra_headers=[(b"Origin", b"http://[broken")]):
            pass
    async with open_websocket_url(open_url, extra_headers=[(b"Origin", b"http://localhost:8000")]) as websocket:
        assert (await receive(websocket))["event"] == "hello"
    token_url = await serve(nursery, fake, TOKEN)
    async with open_websocket_url(token_url, extra_headers=[(b"Origin", b"https://app.example")]) as websocket:
        assert (await receive(websocket))["auth"] is True


async def test_connections_beyond_the_limit_are_rejected(nursery, fake):
    url = await serve(nursery, fake, connections=1)
    async with open_websocket_url(url) as first:
        await receive(first)
        with pytest.raises(ConnectionRejected) as rejected:
            async with open_websocket_url(url):
                pass
        assert rejected.value.status_code == 503
    async with open_websocket_url(url) as again:
        assert (await receive(again))["event"] == "hello"


# ------------------------------------------------------------------ bad input


BAD_REQUESTS = [
    ("{", "bad_request", None, "not JSON"),
    ("[1, 2]", "bad_request", None, "a request is a JSON object"),
    ('{"op": "list"}', "bad_request", None, "needs an 'id'"),
    ('{"id": true, "op": "list"}', "bad_request", None, "needs an 'id'"),
    ('{"id": -1, "op": "list"}', "bad_request", None, "needs an 'id'"),
    ('{"id": 1.0, "op": "list"}', "bad_request", None, "numbers must be integers, got 1.0"),
    ('{"id": 1}', "bad_request", 1, "needs an 'op'"),
    ('{"id": 1, "op": "fly"}', "unknown_op", 1, "unknown op 'fly'"),
    ('{"id": 1, "op": "join", "peer": "x:1"}', "bad_request", 1, "needs field 'lobby_id'"),
    ('{"id": 1, "op": "join", "peer": 7, "lobby_id": "a"}', "bad_request", 1, "'peer' must be a string"),
    ('{"id": 1, "op": "host", "game": "towers", "seats": true}', "bad_request", 1, "'seats' must be an integer"),
    ('{"id": 1, "op": "host", "game": "towers", "options": []}', "bad_request", 1, "'options' must be an object"),
    ('{"id": 1, "op": "list", "peers": null}', "bad_request", 1, "unknown field 'peers'"),
    ('{"id": 1, "op": "move", "table": "t", "move": {"play": 2.5}}', "bad_request", None, "numbers must be integers"),
    ('{"id": 1, "op": "move", "table": "t", "move": 1e3}', "bad_request", None, "numbers must be integers"),
    ('{"id": 1, "op": "move", "table": "t", "move": NaN}', "bad_request", None, "NaN is not a value"),
    ('{"id": 1, "op": "move", "table": "t", "move": 18446744073709551616}', "bad_request", None, "outside"),
    ('{"id": 1, "op": "move", "table": "t", "move": "\\ud800"}', "bad_request", None, "lone surrogates"),
    ('{"id": 1, "op": "list", "op": "games"}', "bad_request", None, "duplicate key 'op'"),
    ('{"id": 1, "op": "move", "table": "t", "move": ' + "[" * 40 + "]" * 40 + "}", "bad_request", None, "nest deeper"),
    ('{"id": 1, "op": "move", "table": "t", "move": ' + "[" * 5000 + "]" * 5000 + "}", "bad_request", None, "nest"),
    ('{"id": 1, "op": "move", "table": "t", "move": ' + "9" * 5000 + "}", "bad_request", None, "not JSON"),
    ('{"id": 1, "op": "move", "table": "t", "move": "' + "x" * 70_000 + '"}', "too_large", None, "at most 65536 bytes"),
]


@pytest.mark.parametrize("text, code, request_id, message", BAD_REQUESTS)
async def test_bad_input_gets_an_error_and_changes_nothing(url, fake, text, code, request_id, message):
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        error = await response(websocket, text)
        assert error["ok"] is False and error["code"] == code and error["id"] == request_id
        assert message in error["error"]
        assert (await response(websocket, {"id": 2, "op": "list"}))["ok"]
    assert fake.calls == [("list_tables", (None,))]


async def test_a_binary_message_is_refused(url):
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        error = await response(websocket, b'{"id": 1, "op": "list"}')
        assert error["code"] == "bad_request" and "text messages" in error["error"]
        assert (await response(websocket, {"id": 2, "op": "games"}))["ok"]


async def test_a_message_beyond_the_websocket_cap_closes_only_that_connection(nursery, fake):
    url = await serve(nursery, fake, max_message=100_000)
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        with pytest.raises(ConnectionClosed) as closed:  # while sending or after
            await websocket.send_message("x" * 200_000)
            await receive(websocket)
        assert closed.value.reason.code == 1009
    async with connect(url, None) as client:
        assert (await client.request("games"))["ok"]


async def test_a_flood_is_rate_limited_and_the_client_served_again_later(nursery, fake):
    url = await serve(nursery, fake, burst=10, rate=20.0)
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        for request_id in range(60):
            await websocket.send_message(json.dumps({"id": request_id, "op": "games"}))
        replies = [await receive(websocket) for _ in range(60)]
        limited = [reply for reply in replies if not reply["ok"]]
        assert {reply["code"] for reply in limited} == {"rate_limited"}
        assert 40 <= len(limited) <= 50 and sorted(reply["id"] for reply in replies) == list(range(60))
        await trio.sleep(0.2)
        assert (await response(websocket, {"id": 99, "op": "games"}))["ok"]


async def test_requests_beyond_the_in_flight_limit_are_busy(nursery, fake):
    url = await serve(nursery, fake, in_flight=2)
    fake.gate = trio.Event()
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        for request_id in range(3):
            await websocket.send_message(json.dumps({"id": request_id, "op": "list"}))
        busy = await receive(websocket)
        assert busy["id"] == 2 and busy["code"] == "busy"
        fake.gate.set()
        assert {(await receive(websocket))["id"] for _ in range(2)} == {0, 1}


async def test_a_failing_update_stream_closes_the_connection_with_1011(url, fake):
    async def broken():
        raise RuntimeError("journal gone")
        yield

    fake.updates = broken
    async with open_websocket_url(url) as websocket:
        await receive(websocket)
        assert await response(websocket, {"id": 1, "op": "subscribe"}) == {"id": 1, "ok": True}
        with pytest.raises(ConnectionClosed) as closed:
            await receive(websocket)
        assert closed.value.reason.code == 1011
    async with connect(url, None) as client:
        assert (await client.request("games"))["ok"]


# ------------------------------------------------------------------ the spec says the same


def test_the_spec_documents_every_op_and_the_default_limits():
    spec = (SPEC / "client-api.md").read_text()
    documented = set(re.findall(r"^### `(\w+)`", spec, re.MULTILINE))
    assert documented == set(OPS) - {"auth"} | {"table"}
    assert '"op": "auth"' in spec and f"API version: **{API_VERSION}**" in spec and f"(default **{DEFAULT_PORT}**)" in spec
    limits = ApiLimits()
    assert f"| request size | {limits.max_request:,} bytes |" in spec
    assert f"bursts of {limits.burst}, then {limits.rate:g} a second" in spec
    assert f"| requests being served per connection | {limits.in_flight} |" in spec
    assert f"| connections | {limits.connections} |" in spec
    assert f"| unauthenticated connections | {limits.unauthenticated} |" in spec
    assert f"| time to authenticate | {limits.auth_seconds:g} s |" in spec
    assert f"within **{limits.auth_seconds:g} seconds**" in spec
    assert f"| WebSocket message size | 1 MiB ({limits.max_message:,} characters) |" in spec


def test_the_spec_documents_every_error_code():
    spec = (SPEC / "client-api.md").read_text()
    documented = set(re.findall(r"^\| `(\w+)` \|", spec, re.MULTILINE))
    codes = {REFUSED, NOT_FOUND, ILLEGAL, STORAGE, "too_many_connections", "internal", "unauthorized", "busy",
             "rate_limited", "too_large", "unknown_op", "bad_request"}
    assert codes <= documented


async def test_a_file_system_failure_is_a_storage_refusal_naming_the_file(url, fake):
    fake.failure = PermissionError(13, "Permission denied", "tables/ab12/journal")
    async with connect(url, None) as client:
        with pytest.raises(ApiError, match=r"cannot use its data directory: Permission denied \(tables/ab12/journal\)") as failed:
            await client.request("list")
    assert failed.value.code == "storage"
