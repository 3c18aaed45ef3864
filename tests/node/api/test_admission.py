"""Client API admission: bursts never pass the limit, and strangers cannot lock the real client out."""

from __future__ import annotations

import pytest
import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, open_websocket_url

from fairtable.node.clients.apiclient import ApiError, connect
from tests.node.api.test_server import TOKEN, receive, response, serve
from tests.node.fake_node import FakeNode


@pytest.fixture
def fake() -> FakeNode:
    return FakeNode()


async def burst(url: str, count: int, token: str | None) -> tuple[int, list[str]]:
    """``count`` clients connecting at once and staying; how many got in, and the others' error codes."""
    admitted, refused = 0, []
    all_in = trio.Event()

    async def client() -> None:
        nonlocal admitted
        try:
            async with connect(url, token) as connected:
                await connected.request("games")
                admitted += 1
                await all_in.wait()
        except ApiError as error:
            refused.append(error.code)
        if admitted + len(refused) == count:
            all_in.set()

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for _ in range(count):
                nursery.start_soon(client)
            while admitted + len(refused) < count:
                await trio.sleep(0.01)
            all_in.set()
    return admitted, refused


@pytest.mark.parametrize("token", [TOKEN, None], ids=["token", "no-token"])
async def test_a_simultaneous_burst_never_passes_the_connection_limit(nursery, fake, token):
    url = await serve(nursery, fake, token, connections=4, unauthenticated=64)
    admitted, refused = await burst(url, 60, token)
    assert admitted == 4 and refused == ["too_many_connections"] * 56
    admitted, _ = await burst(url, 6, token)  # the slots came back when those clients left
    assert admitted == 4


async def raw_sockets(url: str, count: int) -> list[trio.SocketStream]:
    port = int(url.rsplit(":", 1)[1].strip("/"))
    return [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(count)]


async def closed(stream: trio.SocketStream) -> bool:
    """Whether the server closed ``stream`` (after its 503, for a connection closed to make room)."""
    answer = b""
    with trio.move_on_after(0.01):
        try:
            while data := await stream.receive_some():
                answer += data
        except trio.BrokenResourceError:
            return True
        return answer == b"" or answer.startswith(b"HTTP/1.1 503 ")
    return False


async def test_connections_that_never_upgrade_or_authenticate_cannot_lock_the_real_client_out(nursery, fake):
    url = await serve(nursery, fake, TOKEN)
    silent = await raw_sockets(url, 150)
    async with trio.open_nursery() as strangers:
        upgraded = trio.Semaphore(0)

        async def stranger():
            try:
                async with open_websocket_url(url) as websocket:
                    await receive(websocket)
                    upgraded.release()
                    await trio.sleep_forever()
            except (ConnectionClosed, ConnectionRejected, trio.BrokenResourceError, OSError):
                upgraded.release()

        for _ in range(40):
            strangers.start_soon(stranger)
        for _ in range(40):
            await upgraded.acquire()
        for _ in range(3):
            with trio.fail_after(10):  # a guard, not a timing assertion
                async with connect(url, TOKEN) as client:
                    assert (await client.request("games"))["ok"]
        strangers.cancel_scope.cancel()
    assert sum([await closed(stream) for stream in silent]) >= 150 - 16


async def test_a_silent_connection_is_closed_at_the_deadline_before_the_upgrade(nursery, fake):
    url = await serve(nursery, fake, TOKEN, auth_seconds=0.3)
    (stream,) = await raw_sockets(url, 1)
    with trio.fail_after(10):
        assert await stream.receive_some() == b""


async def test_the_token_in_the_upgrade_authenticates_at_once(nursery, fake):
    url = await serve(nursery, fake, TOKEN)
    async with open_websocket_url(url, extra_headers=[(b"Authorization", f"Bearer {TOKEN}".encode())]) as websocket:
        assert await receive(websocket) == {"api": 1, "auth": False, "event": "hello"}
        assert (await response(websocket, {"id": 1, "op": "games"}))["ok"]
    with pytest.raises(ConnectionRejected) as rejected:
        async with open_websocket_url(url, extra_headers=[(b"Authorization", b"Bearer 00")]):
            pass
    assert rejected.value.status_code == 401


async def test_authenticating_when_every_slot_is_taken_is_refused_and_closed(nursery, fake):
    url = await serve(nursery, fake, TOKEN, connections=1)
    async with connect(url, TOKEN):
        async with open_websocket_url(url) as websocket:
            await receive(websocket)
            refused = await response(websocket, {"id": 1, "op": "auth", "token": TOKEN})
            assert refused["code"] == "too_many_connections" and "all 1 client API connections" in refused["error"]
            with pytest.raises(ConnectionClosed) as closing:
                await receive(websocket)
            assert closing.value.reason.code == 1013
