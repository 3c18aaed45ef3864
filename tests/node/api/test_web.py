"""Plain HTTP on the client API's port: the page and its assets, one-time logins, replays, and every
request that must be refused (other sites, wrong tokens, paths outside the assets, garbage)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from fairtable.games.texts import catalogue
from fairtable.node.api.login import LOGIN_SECONDS, Logins
from fairtable.node.api.server import ApiLimits, serve_api
from fairtable.node.clients.apiclient import connect
from tests.node.api.test_server import TOKEN
from tests.node.fake_node import FakeNode
from tests.paths import ROOT, VECTORS

WEB = ROOT / "node" / "web"


async def start(nursery: trio.Nursery, token: str | None = TOKEN, logins: Logins | None = None, **limits) -> int:
    async def run(task_status=trio.TASK_STATUS_IGNORED):
        await serve_api(FakeNode(), 0, token, limits=ApiLimits(**limits), logins=logins, task_status=task_status)
    return await nursery.start(run)


async def http(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` and read the whole answer (the node closes after one)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(raw)
        answer = b""
        with trio.fail_after(10):
            while chunk := await stream.receive_some(1 << 16):
                answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return int(status.split(" ")[1]), {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}, body


def request(method: str, path: str, body: bytes = b"", host: str = "127.0.0.1", **headers: str) -> bytes:
    fields = {"host": host, **({"content-length": str(len(body))} if method == "POST" else {}), **headers}
    lines = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in fields.items())
    return f"{method} {path} HTTP/1.1\r\n{lines}\r\n".encode() + body


def assets() -> list[Path]:
    return sorted(path for path in WEB.rglob("*") if path.is_file())


async def test_the_page_and_every_asset_are_served_with_their_types_and_safe_headers(nursery):
    port = await start(nursery)
    status, headers, body = await http(port, request("GET", "/"))
    assert status == 200 and body == (WEB / "index.html").read_bytes()
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in headers["content-security-policy"] and headers["cache-control"] == "no-store"
    types = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
    assert {path.suffix for path in assets()} <= set(types)
    for path in assets():
        status, headers, body = await http(port, request("GET", "/" + path.relative_to(WEB).as_posix()))
        assert (status, body) == (200, path.read_bytes()) and headers["content-type"].startswith(types[path.suffix])


async def test_a_game_catalogue_is_served_from_the_game_package(nursery):
    port = await start(nursery)
    status, headers, body = await http(port, request("GET", "/catalogue/towers/cards.json"))
    assert status == 200 and body == (ROOT / "games" / "towers" / "cards.json").read_bytes()
    assert headers["content-type"] == "application/json"


@pytest.mark.parametrize("language", ["en", "orig"])
async def test_the_message_catalogue_of_each_language_is_served(nursery, language):
    port = await start(nursery)
    status, headers, body = await http(port, request("GET", f"/catalogue/{language}.json"))
    assert status == 200 and headers["content-type"] == "application/json"
    assert json.loads(body) == catalogue(language)
    assert json.loads(body)["zeeslag.fleets.classic.0"] == {"en": "Aircraft carrier", "orig": "Vliegdekschip"}[language]


@pytest.mark.parametrize("path", ["/../pyproject.toml", "/%2e%2e/pyproject.toml", "/catalogue/towers/../../node/node.py",
                                  "/catalogue/towers/game.py", "/catalogue/nogame/cards.json", "/catalogue/lv.json", "/games/../api/web.py",
                                  "/api/web.py", "/.hidden", "/nothing.js"])
async def test_nothing_outside_the_assets_is_served(nursery, path):
    port = await start(nursery)
    status, _, body = await http(port, request("GET", path))
    assert status == 404 and "no file" in json.loads(body)["error"]


async def test_a_page_from_another_host_or_site_is_refused(nursery):
    logins = Logins()
    code = logins.issue()
    port = await start(nursery, logins=logins)
    status, _, body = await http(port, request("GET", "/", host="evil.example:80"))
    assert status == 403 and "127.0.0.1" in json.loads(body)["error"]
    for origin in ("http://evil.example", "null"):
        status, _, _ = await http(port, request("POST", "/login", code.encode(), origin=origin))
        assert status == 403
    status, _, body = await http(port, request("POST", "/login", code.encode(), origin="http://localhost:7467"))
    assert status == 200 and json.loads(body) == {"token": TOKEN}, "the refused requests did not spend the code"


async def test_a_login_code_gives_the_token_once(nursery):
    logins = Logins()
    code = logins.issue()
    port = await start(nursery, logins=logins)
    assert (await http(port, request("POST", "/login", b"not-a-code")))[0] == 403
    status, _, body = await http(port, request("POST", "/login", code.encode()))
    assert (status, json.loads(body)) == (200, {"token": TOKEN})
    status, _, body = await http(port, request("POST", "/login", code.encode()))
    assert status == 403 and "used already" in json.loads(body)["error"]
    assert (await http(port, request("PUT", "/login")))[0] == 405


async def test_a_node_without_a_token_needs_no_login(nursery):
    port = await start(nursery, token=None)
    status, _, body = await http(port, request("POST", "/login", b"anything"))
    assert (status, json.loads(body)) == (200, {"token": None})


async def test_login_codes_expire_and_few_are_kept(autojump_clock):
    logins = Logins()
    early = logins.issue()
    await trio.sleep(LOGIN_SECONDS + 1)
    assert not logins.redeem(early)
    codes = [logins.issue() for _ in range(40)]
    assert not logins.redeem(codes[0]) and logins.redeem(codes[-1]) and not logins.redeem(codes[-1])


async def test_a_replay_needs_the_token(nursery):
    port = await start(nursery)
    transcript = (VECTORS / "games" / "towers-normal.ftt").read_bytes()
    for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": f"Basic {TOKEN}"}):
        status, _, body = await http(port, request("POST", "/replay", transcript, **headers))
        assert status == 401 and "token" in json.loads(body)["error"]


async def test_a_replay_returns_every_step_with_its_views_and_the_verdict(nursery):
    port = await start(nursery)
    transcript = (VECTORS / "games" / "zeeslag-duel.ftt").read_bytes()
    status, headers, body = await http(port, request("POST", "/replay", transcript, authorization=f"Bearer {TOKEN}"))
    assert status == 200 and headers["content-type"] == "application/json"
    record = json.loads(body)
    assert (record["format"], record["game"], record["valid"], record["seeds_revealed"]) == ("fairtable-export", "zeeslag", True, True)
    assert all(len(step["views"]) == 2 and step["spectator"]["seat"] is None for step in record["steps"])
    assert record["steps"][-1]["views"][1]["fleets"][0]["layout"] is not None, "the seat sees the opened fleets"


@pytest.mark.parametrize("body, code, words", [(b"garbage", 400, "malformed transcript"),
                                               (b"\0" * (16 << 20 | 1), 413, "more than")])
async def test_bad_transcripts_are_refused_with_the_reason(nursery, body, code, words):
    port = await start(nursery)
    status, _, answer = await http(port, request("POST", "/replay", body, authorization=f"Bearer {TOKEN}"))
    assert status == code and words in json.loads(answer)["error"]


async def test_a_replay_takes_an_authenticated_slot_like_any_client(nursery):
    port = await start(nursery, connections=1)
    async with connect(f"ws://127.0.0.1:{port}/", TOKEN) as client:
        await client.request("games")
        status, _, body = await http(port, request("POST", "/replay", b"", authorization=f"Bearer {TOKEN}"))
        assert status == 503 and "connections are taken" in json.loads(body)["error"]
    transcript = (VECTORS / "games" / "towers-normal.ftt").read_bytes()
    with trio.fail_after(10):
        while (await http(port, request("POST", "/replay", transcript, authorization=f"Bearer {TOKEN}")))[0] != 200:
            await trio.sleep(0.01)  # until the node has seen the client go


async def test_bytes_that_are_no_http_get_a_400_and_the_api_stays_up(nursery):
    port = await start(nursery)
    status, _, body = await http(port, b"\x16\x03\x01garbage\r\n\r\n")
    assert status == 400 and body.startswith(b"not an HTTP request")
    async with connect(f"ws://127.0.0.1:{port}/", TOKEN) as client:
        assert (await client.request("games"))["ok"]

